//! What a session's workspace already said: a candidate fact that only
//! repeats it (or memory's own output) is an echo, never a new witness.

use crate::session::{Line, Role, Session};

/// The session's tool output and memory's own output, normalised, to tell
/// whether a candidate fact merely repeats workspace content or memory.
pub struct WorkspaceText(String);

impl WorkspaceText {
    /// Nothing: what a seal with no candidate fact compares against.
    pub fn empty() -> WorkspaceText {
        WorkspaceText(String::new())
    }

    pub fn of(session: &Session) -> WorkspaceText {
        let mut all = String::new();
        for event in &session.events {
            // A fact that only repeats what memory told the session (a recall
            // answer, the digest) is an echo too, never a new witness.
            if let Line::Message { role: Role::Tool, text, .. } | Line::Message { recalled: true, text, .. } =
                &event.value
            {
                all.push(' ');
                all.push_str(&super::normalize(text));
            }
        }
        WorkspaceText(all)
    }

    pub fn contains(&self, fact: &str) -> bool {
        let needle = super::normalize(fact);
        !needle.is_empty() && self.0.contains(&needle)
    }
}
