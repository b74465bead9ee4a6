//! The engine's floors and the workspace's import graph, held by a test.
//!
//! Every `use` and every `crate::` / `super::` path in the sources of the
//! workspace's library crates is resolved to the module it names (through
//! re-exports), and two rules are checked:
//!
//! - **No cycles** between sibling modules: among the top modules of a
//!   crate, and among the files of each folder module. A child using its
//!   parent (or the parent its children) is how Rust modules are built and
//!   is not counted.
//! - **Floors** in the engine, one crate each: the store's floor
//!   (`lcmem-store`) imports nothing above it; the pipeline
//!   (`lcmem-pipeline`) and recall (`lcmem-recall`) stand on it, never on
//!   each other; the entry points on top (`lcmem`) may import anything.
//!   Cargo holds the imports; this checks the manifests that let it
//!   (docs/architecture.md draws the floors).
//!
//! Test code (`mod tests` blocks, `tests.rs` files) is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;

type ModPath = Vec<String>;

struct Crate {
    name: &'static str,
    /// Module path → cleaned source.
    modules: BTreeMap<ModPath, String>,
    /// Module path → (name it re-exports → module the name lives in).
    reexports: BTreeMap<ModPath, BTreeMap<String, ModPath>>,
}

/// A dependency between two sibling modules of `group`, with the file that
/// makes it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    group: ModPath,
    from: String,
    to: String,
    file: String,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn load(name: &'static str) -> Crate {
    let src = workspace().join(name).join("src");
    let mut modules = BTreeMap::new();
    collect(&src, &src, &mut modules);
    assert!(modules.len() > 3, "{}: found no sources", src.display());
    let mut krate = Crate { name, modules, reexports: BTreeMap::new() };
    // Re-exports may chain (a parent re-exporting a child's re-export): a
    // few rounds settle them.
    for _ in 0..4 {
        let mut reexports = BTreeMap::new();
        for (module, text) in &krate.modules {
            let mut names = BTreeMap::new();
            for (public, path) in use_paths(text) {
                let Some((last, _)) = path.split_last() else { continue };
                if public && last != "self" && last != "*" {
                    let target = krate.resolve(module, &path);
                    if !target.is_empty() && target != *module {
                        names.insert(last.clone(), target);
                    }
                }
            }
            reexports.insert(module.clone(), names);
        }
        krate.reexports = reexports;
    }
    krate
}

fn collect(root: &Path, dir: &Path, modules: &mut BTreeMap<ModPath, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(root, &path, modules);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap().with_extension("");
        let mut module: ModPath = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            module.pop();
        }
        if module.last().is_some_and(|m| m == "tests") {
            continue;
        }
        modules.insert(module, clean(&std::fs::read_to_string(&path).unwrap()));
    }
}

/// The source without comment lines and without its `mod tests` block.
fn clean(text: &str) -> String {
    let tests = Regex::new(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod ").unwrap();
    let text = tests.find(text).map_or(text, |m| &text[..m.start()]);
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Every path of every `use` statement (expanded from its braces), with
/// whether the statement re-exports; then every `crate::`/`super::` path
/// written in the code itself.
fn use_paths(text: &str) -> Vec<(bool, Vec<String>)> {
    let uses = Regex::new(r"(?m)^\s*(pub(?:\([a-z]+\))?\s+)?use\s+([^;]+);").unwrap();
    let mut out = Vec::new();
    for c in uses.captures_iter(text) {
        for path in expand(&c[2]) {
            out.push((c.get(1).is_some(), path));
        }
    }
    let rest = uses.replace_all(text, "");
    let inline = Regex::new(r"\b(?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+").unwrap();
    for m in inline.find_iter(&rest) {
        out.push((false, m.as_str().split("::").map(str::to_string).collect()));
    }
    out
}

/// `a::{b, c::{d, e as f}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let tree = tree.trim().trim_start_matches("::");
    let Some(open) = tree.find('{') else {
        let plain = tree.split(" as ").next().unwrap_or(tree).trim();
        return vec![plain.split("::").map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()];
    };
    let close = tree.rfind('}').expect("balanced braces in a use statement");
    let prefix: Vec<String> =
        tree[..open].trim().trim_end_matches("::").split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
    let inner = &tree[open + 1..close];
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    let mut out = Vec::new();
    for item in items.into_iter().map(str::trim).filter(|i| !i.is_empty()) {
        for tail in expand(item) {
            out.push(prefix.iter().cloned().chain(tail).collect());
        }
    }
    out
}

impl Crate {
    /// The module `path`, written in `module`, names (the crate root `[]`
    /// for an outside crate or a root item).
    fn resolve(&self, module: &ModPath, path: &[String]) -> ModPath {
        let mut at: ModPath = Vec::new();
        let mut rest = path;
        match path.first().map(String::as_str) {
            Some("crate") => rest = &path[1..],
            Some("super" | "self") => {
                at = module.clone();
                while let Some(first) = rest.first() {
                    match first.as_str() {
                        "super" => {
                            at.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                let child: ModPath = module.iter().cloned().chain([first.to_string()]).collect();
                if !self.modules.contains_key(&child) {
                    return Vec::new(); // another crate
                }
                at = module.clone();
            }
            None => return Vec::new(),
        }
        for seg in rest {
            if seg == "self" {
                continue;
            }
            let child: ModPath = at.iter().cloned().chain([seg.clone()]).collect();
            if self.modules.contains_key(&child) {
                at = child;
            } else if let Some(target) = self.reexports.get(&at).and_then(|names| names.get(seg)) {
                return target.clone();
            } else {
                break;
            }
        }
        at
    }

    /// Every dependency between siblings.
    fn edges(&self) -> BTreeSet<Edge> {
        let mut edges = BTreeSet::new();
        for (module, text) in &self.modules {
            for (_, path) in use_paths(text) {
                let target = self.resolve(module, &path);
                let common = module.iter().zip(&target).take_while(|(a, b)| a == b).count();
                if common == module.len() || common == target.len() {
                    continue; // the same module, an ancestor or a descendant
                }
                edges.insert(Edge {
                    group: module[..common].to_vec(),
                    from: module[common].clone(),
                    to: target[common].clone(),
                    file: module.join("/"),
                });
            }
        }
        edges
    }
}

/// The cycles among siblings: each strongly connected group of two or more,
/// with the edges inside it.
fn cycles(edges: &BTreeSet<Edge>) -> Vec<String> {
    let mut groups: BTreeMap<&ModPath, BTreeMap<&str, BTreeSet<&str>>> = BTreeMap::new();
    for e in edges {
        groups.entry(&e.group).or_default().entry(&e.from).or_default().insert(&e.to);
    }
    let mut found = Vec::new();
    for (group, graph) in groups {
        let reach = |from: &str| {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from];
            while let Some(n) = todo.pop() {
                for &m in graph.get(n).into_iter().flatten() {
                    if seen.insert(m) {
                        todo.push(m);
                    }
                }
            }
            seen
        };
        let mut done = BTreeSet::new();
        for &node in graph.keys() {
            if done.contains(node) {
                continue;
            }
            let ahead = reach(node);
            let scc: BTreeSet<&str> =
                ahead.iter().copied().filter(|m| *m == node || reach(m).contains(node)).chain([node]).collect();
            if scc.len() > 1 && ahead.contains(node) {
                let inside: Vec<String> = edges
                    .iter()
                    .filter(|e| e.group == *group && scc.contains(e.from.as_str()) && scc.contains(e.to.as_str()))
                    .map(|e| format!("{} -> {} ({})", e.from, e.to, e.file))
                    .collect();
                found.push(format!("in `{}`: {}", group.join("::"), inside.join(", ")));
            }
            done.extend(scc);
        }
    }
    found
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut found = Vec::new();
    for name in ["lcmem-store", "lcmem-pipeline", "lcmem-recall", "lcmem", "lcmem-cli", "lcmem-guard", "lcmem-redact"] {
        let krate = load(name);
        found.extend(cycles(&krate.edges()).into_iter().map(|c| format!("{}: {c}", krate.name)));
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

/// Where the engine reaches outside the store, each in one named module
/// (docs/architecture.md, "Where the engine does I/O"), as `crate/module`.
const OUTSIDE: &[(&str, &[&str])] = &[
    ("SystemTime::now", &["lcmem-store/ambient"]),
    ("std::env::", &["lcmem-store/ambient"]),
    ("ureq::", &["lcmem-pipeline/extract/lane/http", "lcmem-recall/semantic/fetch"]),
    ("Command::new", &["lcmem-pipeline/extract/lane/command", "lcmem-pipeline/team/git"]),
];

#[test]
fn the_engine_reads_the_clock_and_the_environment_and_talks_to_the_network_each_in_one_module() {
    let crates = [load("lcmem-store"), load("lcmem-pipeline"), load("lcmem-recall"), load("lcmem")];
    let mut wrong = Vec::new();
    let mut files = BTreeMap::new();
    for krate in &crates {
        for (module, text) in &krate.modules {
            files.insert(format!("{}/{}", krate.name, module.join("/")), text);
        }
    }
    for (file, text) in &files {
        for (what, homes) in OUTSIDE {
            if text.contains(what) && !homes.contains(&file.as_str()) {
                wrong.push(format!("{file} uses {what}: only {} may", homes.join(" and ")));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for (what, homes) in OUTSIDE {
        for home in *homes {
            assert!(files[*home].contains(what), "{home} no longer uses {what}: update OUTSIDE");
        }
    }
}

/// The crates a crate's manifest depends on (not its dev-dependencies).
fn dependencies(crate_name: &str) -> BTreeSet<String> {
    let manifest = std::fs::read_to_string(workspace().join(crate_name).join("Cargo.toml")).unwrap();
    let table: toml::Table = manifest.parse().unwrap();
    let deps = table.get("dependencies").and_then(|d| d.as_table()).cloned().unwrap_or_default();
    deps.keys().cloned().collect()
}

/// The workspace's own crates among `deps`, in order.
fn workspace_crates(deps: &BTreeSet<String>) -> Vec<&str> {
    deps.iter().map(String::as_str).filter(|d| d.starts_with("lcmem")).collect()
}

/// What a crate that does not search must not carry: a search index, an
/// embedding model or its tokenizer.
const SEARCH: &[&str] = &["tantivy", "candle-core", "candle-nn", "candle-transformers", "tokenizers"];

/// What Cargo cannot say about the store's crate: that the only crates of
/// the workspace it stands on are the redactor and the guard (the write
/// boundary's two checks, which stand on nothing of the engine), and that it
/// carries no search index, embedding model, network client or tokenizer.
#[test]
fn the_store_crate_stands_on_nothing_of_the_engine() {
    let deps = dependencies("lcmem-store");
    assert_eq!(workspace_crates(&deps), ["lcmem-guard", "lcmem-redact"]);
    for heavy in SEARCH.iter().chain(&["ureq", "tiktoken-rs"]) {
        assert!(!deps.contains(*heavy), "lcmem-store depends on {heavy}");
    }
    for crate_name in ["lcmem-redact", "lcmem-guard"] {
        assert!(workspace_crates(&dependencies(crate_name)).is_empty(), "{crate_name} depends on an lcmem crate");
    }
}

/// The floors beside each other on the store: the pipeline (what turns a
/// transcript into memory) and recall (what searches it) never name each
/// other or the entry points above them, and the pipeline carries nothing
/// of search. Cargo holds the imports once the manifests say this.
#[test]
fn the_pipeline_and_recall_stand_on_the_store_alone() {
    let floors: [(&str, &[&str], &[&str]); 2] = [
        ("lcmem-pipeline", &["lcmem-guard", "lcmem-redact", "lcmem-store"], SEARCH),
        ("lcmem-recall", &["lcmem-store"], &[]),
    ];
    for (crate_name, beneath, never) in floors {
        let deps = dependencies(crate_name);
        assert_eq!(workspace_crates(&deps), beneath, "{crate_name} stands on more than the store's floor");
        for heavy in never {
            assert!(!deps.contains(*heavy), "{crate_name} depends on {heavy}");
        }
    }
}

/// The import's walk: each file of `import/` takes what it needs from the
/// file that has it, never back through `mod.rs`, which only names what the
/// module offers (docs/architecture.md).
#[test]
fn an_import_never_returns_to_the_front_door() {
    let krate = load("lcmem-pipeline");
    let front: ModPath = vec!["import".to_string()];
    let mut wrong = Vec::new();
    for (module, text) in krate.modules.iter().filter(|(m, _)| m.len() == 2 && m[0] == "import") {
        for (_, path) in use_paths(text) {
            let named = match path.as_slice() {
                [s, name, ..] if s == "super" => name,
                [c, i, name, ..] if c == "crate" && i == "import" => name,
                _ => continue,
            };
            let sibling: ModPath = vec!["import".to_string(), named.clone()];
            if !krate.modules.contains_key(&sibling) {
                wrong.push(format!("{} takes `{named}` from import/mod.rs", module.join("/")));
            }
        }
    }
    let items = Regex::new(r"(?m)^\s*(pub(\([a-z]+\))?\s+)?(fn|struct|enum|const|static|impl|trait|type)\b").unwrap();
    assert!(!items.is_match(&krate.modules[&front]), "import/mod.rs defines something: it should only name");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_checker_sees_an_upward_import_and_a_cycle() {
    // The checker itself, on sources written for it: a floor file that names
    // a pipeline module, and two siblings that name each other.
    let mut modules = BTreeMap::new();
    modules.insert(vec![], String::new());
    modules.insert(vec!["store".to_string()], clean("use crate::{error, seal::Sealed};\n// crate::digest\n"));
    modules.insert(vec!["seal".to_string()], clean("use crate::store::Store;\npub use inner::Sealed;\n"));
    modules.insert(vec!["seal".to_string(), "inner".to_string()], "fn f() { super::other::g() }".to_string());
    modules.insert(vec!["seal".to_string(), "other".to_string()], "use super::Sealed;".to_string());
    modules.insert(vec!["error".to_string()], clean("#[cfg(test)]\nmod tests { use crate::seal; }"));
    let mut krate = Crate { name: "fixture", modules, reexports: BTreeMap::new() };
    let sealed = BTreeMap::from([("Sealed".to_string(), vec!["seal".to_string(), "inner".to_string()])]);
    krate.reexports.insert(vec!["seal".to_string()], sealed);
    let edges: Vec<String> =
        krate.edges().iter().map(|e| format!("{}:{}->{}", e.group.join("::"), e.from, e.to)).collect();
    assert_eq!(edges, [":seal->store", ":store->error", ":store->seal", "seal:inner->other", "seal:other->inner"]);
    let found = cycles(&krate.edges());
    assert_eq!(found.len(), 2, "{found:?}");
}
