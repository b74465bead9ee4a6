//! The two guards at the memory boundary, as one value a store carries.
//!
//! The engine always uses the real guards. They are a value rather than
//! hard-wired calls so that the red-team suite can prove each of its cases
//! non-vacuous: run once with the real guards (the case must hold), once with
//! a guard switched off or made over-eager (the case must then fail).

use std::borrow::Cow;

/// The instruction guard and the secret redactor.
#[derive(Clone, Copy)]
pub struct Guards {
    /// Whether text reads as an order to the agent.
    pub is_instruction: fn(&str) -> bool,
    /// Replaces secrets with typed markers.
    pub redact: fn(&str) -> Cow<'_, str>,
}

impl Default for Guards {
    fn default() -> Guards {
        Guards { is_instruction: lcmem_guard::is_instruction, redact: lcmem_redact::redact }
    }
}

impl std::fmt::Debug for Guards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Guards")
    }
}
