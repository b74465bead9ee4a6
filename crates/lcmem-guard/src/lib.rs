//! The instruction guard: does this text read as an order to the agent?

/// The guard's decision on one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub instruction: bool,
    pub reasons: Vec<String>,
}

/// Judges one text.
pub fn judge(_text: &str) -> Verdict {
    Verdict { instruction: false, reasons: Vec::new() }
}
