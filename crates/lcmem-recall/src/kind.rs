//! What a hit is: a turn of a session, a journal entry or a fact. Every layer
//! from ranking up tells the three apart, so the kind sits below them all.

use serde::Serialize;

use crate::error::{Error, QueryProblem, Result};

/// What a hit is.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum HitKind {
    /// One message or tool action of a session transcript.
    Turn,
    /// A journal entry: what a sealed session achieved.
    Journal,
    /// A fact from `facts.jsonl`, in whatever state it is.
    Fact,
}

impl HitKind {
    pub const ALL: [HitKind; 3] = [HitKind::Turn, HitKind::Journal, HitKind::Fact];

    pub fn as_str(self) -> &'static str {
        match self {
            HitKind::Turn => "turn",
            HitKind::Journal => "journal",
            HitKind::Fact => "fact",
        }
    }
}

impl std::str::FromStr for HitKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<HitKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "turn" | "turns" => Ok(HitKind::Turn),
            "journal" => Ok(HitKind::Journal),
            "fact" | "facts" => Ok(HitKind::Fact),
            other => Err(Error::BadQuery(QueryProblem::UnknownKind(other.to_string()))),
        }
    }
}

impl std::fmt::Display for HitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
