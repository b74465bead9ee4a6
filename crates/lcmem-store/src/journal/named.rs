//! The sessions the journal names, kept warm: whether sealing a session
//! must read the journal at all.

use std::path::Path;

use serde_json::Value;

use crate::error::Result;
use crate::jsonl;
use crate::store::Store;

/// The sessions the journal's lines name, kept warm by a process that keeps
/// sealing (see [`crate::followed`]).
pub(super) struct Named(std::collections::HashSet<String>);

impl Named {
    fn take_in(&mut self, path: &Path, bytes: &[u8]) -> Result<()> {
        for line in jsonl::read_from(bytes, path)? {
            if let Ok(value) = line.parsed {
                for key in ["session_id", "source_session"] {
                    if let Some(id) = value.get(key).and_then(Value::as_str) {
                        self.0.insert(id.to_string());
                    }
                }
            }
        }
        Ok(())
    }
}

impl crate::followed::Derived for Named {
    fn whole(path: &Path, bytes: &[u8]) -> Result<Named> {
        let mut named = Named(Default::default());
        named.take_in(path, bytes)?;
        Ok(named)
    }

    fn appended(&mut self, path: &Path, bytes: &[u8], _lines: usize) -> Result<()> {
        self.take_in(path, bytes)
    }
}

pub(super) static NAMED: crate::followed::Registry<Named> = crate::followed::Registry::new();

/// Whether no line of the journal names `session` ([`names_session`]): such
/// a session was never sealed, and sealing it need not read the journal. In a
/// process that keeps sealing this costs what was appended since it last
/// looked, not the journal's size.
pub fn never_named(store: &Store, session: &str) -> Result<bool> {
    NAMED.with(&store.journal_path(), |named| !named.0.contains(session))
}
