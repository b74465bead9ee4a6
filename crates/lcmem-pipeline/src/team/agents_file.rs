//! The block `lcmem share --agents-md` / `--claude-md` keeps in the files
//! every agent already reads (`AGENTS.md` for Codex, Cursor and Gemini CLI;
//! `CLAUDE.md` for Claude Code): the project's confirmed conventions, and the
//! team's, between two markers.
//!
//! Nothing outside the markers is ever touched: a file without the block gets
//! it at its end, after one line break (none for an empty file), and
//! [`remove`] takes exactly that away again, so the file is as it was byte for
//! byte. Each line carries its fact's id in a comment; before the block is
//! rewritten or removed, what a person changed in it is read back as theirs:
//! a changed line edits its fact, a new line is a convention of theirs, and a
//! line taken out marks its fact not true (the begin marker lists the ids the
//! block last held, so a removal is known).

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use jiff::Timestamp;
use regex::Regex;
use serde::Serialize;

use crate::error::{Error, IoContext, Result};
use crate::facts::{Action, Event, Fold, Observation, Origin, State, SubjectKeyJudge, normalize};
use crate::plain::{inline, unescape};
use crate::store::Store;

/// Which file the block is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum AgentsFile {
    /// `AGENTS.md`: Codex, Cursor, Gemini CLI and others.
    AgentsMd,
    /// `CLAUDE.md`: Claude Code.
    ClaudeMd,
}

impl AgentsFile {
    pub const ALL: [AgentsFile; 2] = [AgentsFile::AgentsMd, AgentsFile::ClaudeMd];

    pub fn name(self) -> &'static str {
        match self {
            AgentsFile::AgentsMd => "AGENTS.md",
            AgentsFile::ClaudeMd => "CLAUDE.md",
        }
    }
}

const BEGIN: &str = "<!-- lcmem:begin";
const END: &str = "<!-- lcmem:end -->";
const HEADING: &str = "## Project conventions (kept by lcmem)";

static LINE_ID: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\s*<!-- (f[0-9a-f]{10}) -->\s*$"));
static IDS: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\bf[0-9a-f]{10}\b"));

/// What keeping (or removing) the block did.
#[derive(Debug, Default, Clone, Serialize, PartialEq)]
pub struct BlockOutcome {
    pub path: PathBuf,
    pub wrote: bool,
    /// Conventions in the block now.
    pub lines: usize,
    /// Lines a person changed, read back as their corrections (fact ids).
    pub edited: Vec<String>,
    /// Lines a person added, kept as their conventions (fact ids).
    pub added: Vec<String>,
    /// Lines a person took out: their facts are marked not true.
    pub removed: Vec<String>,
    /// Changed or new lines that read as an order: kept as facts waiting for
    /// the person's confirm (`lcmem facts pending`), not taken as theirs.
    pub withheld: Vec<String>,
}

/// The source a line of the block that reads as an order is recorded under:
/// the file is the repository's, and anyone who can commit to it wrote it.
pub const BLOCK_SOURCE: &str = "agents-file";

/// The block where it is: byte offsets of its first and past its last line,
/// the ids its begin marker lists, and its item lines (text, id).
struct Block {
    start: usize,
    end: usize,
    listed: Vec<String>,
    lines: Vec<(String, Option<String>)>,
}

fn find_block(path: &Path, text: &str) -> Result<Option<Block>> {
    let mut offset = 0;
    let mut block: Option<Block> = None;
    let mut open = false;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        let bad = |message: &str| Error::BadBlock { path: path.to_path_buf(), line: n + 1, message: message.into() };
        if trimmed.starts_with(BEGIN) {
            if open || block.is_some() {
                return Err(bad("a second lcmem:begin marker"));
            }
            open = true;
            let listed = IDS.find_iter(trimmed).map(|m| m.as_str().to_string()).collect();
            block = Some(Block { start: offset, end: 0, listed, lines: Vec::new() });
        } else if trimmed == END {
            match block.as_mut() {
                Some(b) if open => b.end = offset + line.len(),
                _ => return Err(bad("an lcmem:end marker with no begin before it")),
            }
            open = false;
        } else if open && let Some(body) = trimmed.strip_prefix("- ") {
            let id = LINE_ID.captures(body).map(|c| c[1].to_string());
            let text = unescape(LINE_ID.replace(body, "").trim());
            block.as_mut().expect("open").lines.push((text, id));
        }
        offset += line.len();
    }
    if open {
        return Err(Error::BadBlock {
            path: path.to_path_buf(),
            line: text[..block.as_ref().map_or(0, |b| b.start)].lines().count() + 1,
            message: "the lcmem:begin marker is never closed by <!-- lcmem:end -->".into(),
        });
    }
    Ok(block)
}

fn target(store: &Store, which: AgentsFile) -> Result<PathBuf> {
    super::team_file(store).ok_or(Error::NoCheckout)?;
    let root = &store.project().root;
    let path = root.join(which.name());
    crate::confine::refuse_link_outside(&path, root)?;
    Ok(path)
}

/// Reads back what a person changed in the block since lcmem wrote it. A
/// changed or new line that reads as an order is not taken as the person's:
/// the block is in a file anyone who commits to the repository can edit, so
/// it waits for their confirm like any order from the workspace.
fn read_back(store: &Store, block: &Block, outcome: &mut BlockOutcome, now: Timestamp) -> Result<()> {
    let fold = Fold::read(&store.facts_path())?;
    let judge = SubjectKeyJudge;
    let reads_as_order = |text: &str| (store.guards().is_instruction)(text);
    let mut seen = Vec::new();
    for (text, id) in &block.lines {
        match id.as_deref().and_then(|id| fold.get(id)) {
            Some(fact) => {
                seen.push(fact.id.clone());
                if text.is_empty() || normalize(text) == normalize(&fact.text) {
                    continue;
                }
                if reads_as_order(text) {
                    outcome.withheld.push(withhold(store, &fold, text, now)?);
                } else {
                    crate::facts::apply(store, &fact.id, Action::Edit(text.clone()), &judge, now)?;
                    outcome.edited.push(fact.id.clone());
                }
            }
            None if text.chars().filter(|c| c.is_alphanumeric()).count() >= 3 => {
                if reads_as_order(text) {
                    outcome.withheld.push(withhold(store, &fold, text, now)?);
                } else {
                    outcome.added.push(crate::facts::add_convention(store, text, &judge, now)?);
                }
            }
            None => {}
        }
    }
    for id in block.listed.iter().filter(|id| !seen.contains(id)) {
        if fold.get(id).is_some_and(|f| !f.not_true && !f.deleted) {
            crate::facts::apply(store, id, Action::NotTrue, &judge, now)?;
            outcome.removed.push(id.clone());
        }
    }
    Ok(())
}

/// Records a line of the block that reads as an order as a convention
/// waiting for the person's confirm (once: a later share finds it recorded).
fn withhold(store: &Store, fold: &Fold, text: &str, now: Timestamp) -> Result<String> {
    let text = crate::scrub::scrub_text(store.guards(), text);
    let id = crate::facts::fact_id(&text);
    if fold.get(&id).is_some_and(|f| f.sources.iter().any(|s| s.session == BLOCK_SOURCE)) {
        return Ok(id);
    }
    let observation = Observation {
        fact: id.clone(),
        text,
        source_session: BLOCK_SOURCE.to_string(),
        learned_at: now,
        confidence: 0.5,
        confirmed: false,
        origin: Origin::User,
        instruction: true,
        workspace_echo: true,
        convention: true,
        team: None,
    };
    let lock = store.lock()?;
    crate::facts::append(store, &lock, &[Event::Observe(observation)])?;
    Ok(id)
}

/// The block as it should read now.
fn render(store: &Store, fold: &Fold) -> (String, usize) {
    let guards = store.guards();
    let conventions: Vec<_> = fold
        .active()
        .filter(|f| f.convention && stands_behind(f) && !f.is_proposal())
        .filter(|f| (guards.redact)(&f.text) == f.text)
        .collect();
    let ids: Vec<&str> = conventions.iter().map(|f| f.id.as_str()).collect();
    let mut out = format!(
        "{BEGIN}: the project's confirmed conventions, kept by `lcmem share`. Edit a line to correct it, add or \
         take one out; `lcmem share --remove` takes the block away. ids: {} -->\n{HEADING}\n\n",
        ids.join(" ")
    );
    for fact in &conventions {
        out.push_str(&format!("- {} <!-- {} -->\n", inline(&fact.text), fact.id));
    }
    out.push_str(END);
    out.push('\n');
    (out, conventions.len())
}

/// Whether the person stands behind a fact: they confirmed it, the team
/// shared it, or it is in their own words (a convention they stated).
fn stands_behind(fact: &crate::facts::Fact) -> bool {
    matches!(fact.state, State::Confirmed | State::Team) || (fact.state == State::Observed && fact.said_by_user())
}

/// Keeps the block in `which` up to date with the confirmed conventions,
/// reading a person's changes to it back first. Writes nothing when the file
/// already says it.
pub fn keep(store: &Store, which: AgentsFile, now: Timestamp) -> Result<BlockOutcome> {
    let path = target(store, which)?;
    let old = crate::jsonl::read_optional(&path)?.map(|b| String::from_utf8_lossy(&b).into_owned());
    let text = old.clone().unwrap_or_default();
    let mut outcome = BlockOutcome { path: path.clone(), ..BlockOutcome::default() };
    let block = find_block(&path, &text)?;
    if let Some(block) = &block {
        read_back(store, block, &mut outcome, now)?;
    }
    let (rendered, lines) = render(store, &Fold::read(&store.facts_path())?);
    outcome.lines = lines;
    let new = match &block {
        Some(b) => format!("{}{rendered}{}", &text[..b.start], &text[b.end..]),
        None if text.is_empty() => rendered,
        None => format!("{text}\n{rendered}"),
    };
    if old.as_deref() != Some(new.as_str()) {
        crate::jsonl::atomic_write(&path, new.as_bytes())?;
        outcome.wrote = true;
    }
    Ok(outcome)
}

/// Takes the block out of `which`, after reading a person's changes to it
/// back: the file is as it was before the block came, byte for byte (a file
/// left empty, which the block alone made, is removed).
pub fn remove(store: &Store, which: AgentsFile, now: Timestamp) -> Result<BlockOutcome> {
    let path = target(store, which)?;
    let mut outcome = BlockOutcome { path: path.clone(), ..BlockOutcome::default() };
    let Some(bytes) = crate::jsonl::read_optional(&path)? else { return Ok(outcome) };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let Some(block) = find_block(&path, &text)? else { return Ok(outcome) };
    read_back(store, &block, &mut outcome, now)?;
    let (mut before, after) = (text[..block.start].to_string(), &text[block.end..]);
    if after.is_empty() && before.ends_with('\n') {
        before.pop();
    }
    let rest = before + after;
    if rest.is_empty() {
        std::fs::remove_file(&path).at(&path)?;
    } else {
        crate::jsonl::atomic_write(&path, rest.as_bytes())?;
    }
    outcome.wrote = true;
    Ok(outcome)
}
