//! The engine's errors in the CLI's own words: what went wrong, as the engine
//! says it, and what to do about it, as a command to run or a flag to change.
//! The MCP server words the same errors for its callers in `mcp.rs`.

use lcmem::Error;
use lcmem::{QueryProblem, Scope};

/// One engine error as a CLI sentence.
pub fn cli(error: &Error) -> String {
    match error {
        Error::MemoryOff { scope, .. } => format!(
            "{error}; turn it on with `lcmem config set memory.enabled true{}`",
            if *scope == Scope::Global { " --global" } else { "" }
        ),
        Error::NoSuchSession { .. } => format!("{error}; `lcmem sessions` lists them"),
        Error::NotExactSession { .. } => {
            format!(
                "{error}. Forget takes a session's whole id, exactly: `lcmem sessions` lists them; nothing was removed"
            )
        }
        Error::SessionForgotten { .. } => {
            format!("{error}: `lcmem import FILE` of its transcript brings it back")
        }
        Error::NoSuchFact { .. } => format!("{error}; `lcmem facts --all` lists them"),
        Error::UnknownSetting { .. } => format!("{error}; `lcmem config list` shows the settings"),
        Error::EmptyFact { edit: true } => format!("{error}; to remove a fact use `lcmem facts delete`"),
        Error::PinnedOverCap { .. } => {
            format!("{error}. Shorten the pinned blocks, or raise the cap with `lcmem config set memory.cap_tokens N`")
        }
        Error::SymlinkOutside { .. } => format!(
            "{error}. lcmem writes only inside its store: replace the link with a real folder or file (move what it \
             points to back into the store), then run the command again"
        ),
        Error::NotAFile { .. } => format!("{error}; give the transcript or session file itself"),
        Error::InputTooLarge { .. } => format!(
            "{error}; a transcript this large is not one session: split it, or import the sessions it holds one by one"
        ),
        Error::CapTooLarge { max, file: None, .. } => format!("{error}; {max} is the largest cap"),
        Error::CapTooLarge { max, file: Some(_), .. } => format!(
            "{error}; lower it with `lcmem config set memory.cap_tokens {max}` (with --global when the file is the \
             global one)"
        ),
        Error::NoProjectStore { .. } => {
            format!("{error}; `lcmem project show` names a folder's memory, `ls ~/.levelcode/sessions` lists them all")
        }
        Error::ProjectStoreExists { .. } => format!(
            "{error}. To keep both, import the old sessions into it: `lcmem --project NEW import \
             ~/.levelcode/sessions/OLD-SLUG/*.jsonl`"
        ),
        Error::BadQuery(QueryProblem::EmptyRange { since, until }) => {
            format!("--since {since} is after --until {until}: nothing can match")
        }
        Error::BadQuery(QueryProblem::ZeroLimit) => "--limit must be at least 1".to_string(),
        _ => error.to_string(),
    }
}
