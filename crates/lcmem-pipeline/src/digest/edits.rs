//! Hand edits: what the user changed in MEMORY.md since it was generated,
//! turned into user actions so that no edit is ever silently overwritten.
//!
//! - a changed fact line edits its fact; a changed session line edits the
//!   session's summary;
//! - a removed fact line deletes the fact; a removed session line archives
//!   the session (it fades from the digest, and stays in the journal and in
//!   recall); a removed pinned-thread line unpins it;
//! - a new line becomes a confirmed fact of the user's.
//!
//! Losing most of the file at once is read as an accident, not as a wish to
//! delete everything: removals are then not acted on, and the report says so.
//! Likewise what is not text (invalid UTF-8, control characters: pasted
//! binary) or a paste of more than [`MAX_NEW_LINES`] new lines at once is
//! reported and never taken as facts or wordings.

use std::collections::HashSet;

use super::markdown::{self, Parsed, Section};
use super::state::{DigestState, LineSection, StateLine};
use crate::facts::{Fold, normalize};
use crate::journal::Journal;

/// One action read from the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    EditFact {
        id: String,
        text: String,
    },
    /// A line of the person's own facts (every project) changed.
    EditPersonFact {
        id: String,
        text: String,
    },
    /// A new line under the person's heading: a fact of theirs for every project.
    AddPersonFact {
        text: String,
    },
    DeleteFact {
        id: String,
    },
    AddFact {
        text: String,
    },
    EditSummary {
        session: String,
        summary: String,
    },
    Archive {
        session: String,
    },
    Unpin {
        session: String,
    },
}

/// What the file says the user did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Found {
    pub edits: Vec<Edit>,
    /// Set when removals were too many to be meant: they are not acted on.
    pub removals_ignored: Option<usize>,
    /// Changed or new lines not acted on, and why.
    pub refused: Vec<String>,
}

/// More new lines than this in one go read as a paste (a log, a file), not
/// as facts the user means: none of them is taken.
pub const MAX_NEW_LINES: usize = 30;

/// Whether a line is not text a person wrote: bytes that were not UTF-8
/// (read as U+FFFD) or control characters.
fn not_text(line: &str) -> bool {
    line.chars().any(|c| c == char::REPLACEMENT_CHARACTER || (c.is_control() && c != '\t'))
}

/// A line quoted in a message: short, and only its printable characters.
fn quoted(line: &str) -> String {
    let clean: String = line.chars().filter(|c| !not_text(&c.to_string())).take(60).collect();
    format!("{clean:?}")
}

/// Compares the file with the lines last generated.
pub fn detect(parsed: &Parsed, state: Option<&DigestState>, fold: &Fold, person: &Fold, journal: &Journal) -> Found {
    let previous = state.map(|s| s.lines.as_slice()).unwrap_or_default();
    let previous_texts: HashSet<&str> = previous.iter().map(|l| l.text.as_str()).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut found = Found::default();
    let mut added = Vec::new();
    for (section, line) in &parsed.lines {
        if previous_texts.contains(line.as_str()) {
            if let Some(p) = previous.iter().find(|p| &p.text == line) {
                seen.insert(p.origin.clone());
            }
            continue;
        }
        let garbled = not_text(line);
        let (fact_id, fact_text) = markdown::fact_of_line(line);
        if let Some(id) = &fact_id
            && let Some(fact) = fold.get(id)
        {
            seen.insert(fact.id.clone());
            if garbled {
                found.refused.push(format!(
                    "the line of fact {} is not text (not UTF-8, or control characters): its wording was kept",
                    fact.id
                ));
            } else if !fact_text.is_empty() && normalize(&fact_text) != normalize(&fact.text) {
                found.edits.push(Edit::EditFact { id: fact.id.clone(), text: fact_text });
            }
            continue;
        }
        if let Some(id) = &fact_id
            && let Some(fact) = person.get(id)
        {
            seen.insert(fact.id.clone());
            if garbled {
                found.refused.push(format!("the line of your fact {} is not text: its wording was kept", fact.id));
            } else if !fact_text.is_empty() && normalize(&fact_text) != normalize(&fact.text) {
                found.edits.push(Edit::EditPersonFact { id: fact.id.clone(), text: fact_text });
            }
            continue;
        }
        let (session, rest) = markdown::session_of_line(line);
        if let Some(session) = session
            && let Some(current) = journal.get(&session)
        {
            seen.insert(session.clone());
            let title_prefix = format!("{}: ", current.entry.title.split_whitespace().collect::<Vec<_>>().join(" "));
            let summary = rest.strip_prefix(&title_prefix).unwrap_or(&rest).trim().to_string();
            let shown = crate::extract::clip(&current.entry.summary, 240);
            if garbled {
                found.refused.push(format!(
                    "the line of session {session} is not text (not UTF-8, or control characters): its summary was kept"
                ));
            } else if !summary.is_empty() && normalize(&summary) != normalize(&shown) {
                found.edits.push(Edit::EditSummary { session, summary });
            }
            continue;
        }
        new_line(*section, line, garbled, &mut found, &mut added);
    }
    take_added(added, &mut found);
    removals(previous, &seen, &mut found);
    found
}

/// A line that matches no fact or session: a new fact of the user's (or of
/// the person's, under their heading), or a refusal if it is not text.
fn new_line(section: Option<Section>, line: &str, garbled: bool, found: &mut Found, added: &mut Vec<Edit>) {
    let text = line.trim().trim_start_matches(['-', '*']).trim();
    if garbled {
        found.refused.push(format!(
            "a new line is not text (not UTF-8, or control characters): not taken as a fact: {}",
            quoted(text)
        ));
    } else if text.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
        added.push(match section {
            Some(Section::Person) => Edit::AddPersonFact { text: text.to_string() },
            _ => Edit::AddFact { text: text.to_string() },
        });
    }
}

/// Takes the new lines as edits, unless there are so many that they read as
/// a paste: then none is taken, and the report says so.
fn take_added(added: Vec<Edit>, found: &mut Found) {
    if added.len() > MAX_NEW_LINES {
        found.refused.push(format!(
            "{} new lines at once read as a paste, not as facts (at most {MAX_NEW_LINES} are taken): none was taken",
            added.len()
        ));
    } else {
        found.edits.extend(added);
    }
}

/// Turns the lines last generated that the file no longer holds into
/// deletions, archives and unpins; when most of the file is gone at once,
/// none of them is acted on and their count is reported instead.
fn removals(previous: &[StateLine], seen: &HashSet<String>, found: &mut Found) {
    let removed: Vec<_> = previous.iter().filter(|p| !seen.contains(&p.origin)).collect();
    if !removed.is_empty() && (removed.len() * 2 > previous.len() && removed.len() > 3) {
        found.removals_ignored = Some(removed.len());
        return;
    }
    for line in removed {
        found.edits.push(match line.section {
            LineSection::Person => {
                found.refused.push(format!(
                    "the line of your fact {id} was taken out of this file only: it holds in every project; \
                     `lcmem facts --user delete {id}` removes it",
                    id = line.origin
                ));
                continue;
            }
            LineSection::Facts => Edit::DeleteFact { id: line.origin.clone() },
            LineSection::Recently => Edit::Archive { session: line.origin.clone() },
            LineSection::Pinned => Edit::Unpin { session: line.origin.clone() },
        });
    }
}
