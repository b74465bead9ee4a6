//! Makes command output comparable across machines and runs, for snapshots.

use std::path::Path;

use regex::Regex;

/// Replaces what differs between machines and runs:
///
/// - each named path (as given and canonicalised) with its name, e.g. `[HOME]`;
/// - any other path in the system's temporary folder with `[TMP]` followed
///   by the rest of the path (`/tmp/lcmem-tour-Ab12/x` becomes `[TMP]/x`);
/// - the hash in a project slug in a store path (`sessions/shop-1a2b3c4d`
///   becomes `sessions/shop-[HASH]`), since it hashes the project's path;
/// - optionally, JSON numbers under chosen keys rounded (see
///   [`Normaliser::round`]), for floating-point scores whose last digits may
///   differ between platforms' maths libraries.
///
/// Longer paths are replaced first, so a path inside a named one keeps the
/// inner name.
#[derive(Debug, Default, Clone)]
pub struct Normaliser {
    paths: Vec<(String, String)>,
    rounded: Vec<(String, usize)>,
}

impl Normaliser {
    pub fn new() -> Normaliser {
        Normaliser::default()
    }

    /// Replace `path` (and its canonical form) with `name`.
    pub fn path(mut self, path: &Path, name: &str) -> Normaliser {
        self.paths.push((path.display().to_string(), name.to_string()));
        if let Ok(canonical) = path.canonicalize() {
            self.paths.push((canonical.display().to_string(), name.to_string()));
        }
        self
    }

    /// Round the numbers of `"key": 1.234567` to `decimals` places.
    pub fn round(mut self, key: &str, decimals: usize) -> Normaliser {
        self.rounded.push((key.to_string(), decimals));
        self
    }

    pub fn apply(&self, text: &str) -> String {
        let mut paths = self.paths.clone();
        paths.sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
        let mut out = text.to_string();
        for (path, name) in &paths {
            if !path.is_empty() {
                out = out.replace(path.as_str(), name);
            }
        }
        for temp in temp_roots() {
            let pattern = format!(r"{}/[^/\s\x22']+", regex::escape(&temp));
            out = Regex::new(&pattern).expect("a valid pattern").replace_all(&out, "[TMP]").into_owned();
        }
        let slug = Regex::new(r"(sessions/[a-z0-9._-]+)-[0-9a-f]{8}\b").expect("a valid pattern");
        out = slug.replace_all(&out, "$1-[HASH]").into_owned();
        for (key, decimals) in &self.rounded {
            let pattern = format!(r#"("{}":\s*)(-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)"#, regex::escape(key));
            let number = Regex::new(&pattern).expect("a valid pattern");
            out = number
                .replace_all(&out, |c: &regex::Captures<'_>| {
                    let value: f64 = c[2].parse().expect("a JSON number");
                    format!("{}{value:.decimals$}", &c[1])
                })
                .into_owned();
        }
        out
    }
}

/// The temporary folder as the environment names it and canonicalised
/// (on macOS `/var/…` is `/private/var/…`), longer first.
fn temp_roots() -> Vec<String> {
    let temp = std::env::temp_dir();
    let mut roots = vec![temp.display().to_string().trim_end_matches('/').to_string()];
    if let Ok(canonical) = temp.canonicalize() {
        roots.push(canonical.display().to_string().trim_end_matches('/').to_string());
    }
    roots.sort_by_key(|root| std::cmp::Reverse(root.len()));
    roots.dedup();
    roots.retain(|root| !root.is_empty());
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_paths_temp_paths_and_slug_hashes_are_replaced() {
        let temp = std::env::temp_dir().canonicalize().unwrap();
        let home = temp.join("xyz123/home");
        let text = format!(
            "store at {}/sessions/shop-1a2b3c4d, tour at {}/lcmem-tour-Ab12/levelcode/sessions/shop-00ff00ff\n",
            home.display(),
            temp.display()
        );
        let out = Normaliser::new().path(&home, "[HOME]").apply(&text);
        assert_eq!(out, "store at [HOME]/sessions/shop-[HASH], tour at [TMP]/levelcode/sessions/shop-[HASH]\n");
        let json = r#"{"score": 10.151842983404682, "line": 2, "scored": 1.5}"#;
        assert_eq!(Normaliser::new().round("score", 3).apply(json), r#"{"score": 10.152, "line": 2, "scored": 1.5}"#);
    }
}
