//! What every detector hands the scan: a range to redact, its kind and its
//! priority; and the small matching helpers the detectors share.

use std::ops::Range;

use regex::Regex;

/// Overlapping findings merge; the merged marker names the kind of the most
/// specific rule involved.
pub(crate) const PRIO_PEM: u8 = 100;
pub(crate) const PRIO_NAMED: u8 = 90;
pub(crate) const PRIO_AUTH: u8 = 60;
pub(crate) const PRIO_BEARER: u8 = 55;
pub(crate) const PRIO_URL: u8 = 50;
pub(crate) const PRIO_CLI: u8 = 45;
/// An AWS secret found by its cue names the vendor a bare `secret:` key does not.
pub(crate) const PRIO_AWS: u8 = 35;
pub(crate) const PRIO_CONTEXT: u8 = 30;
pub(crate) const PRIO_PROSE: u8 = 20;

/// A range some rule wants redacted, before overlaps are merged.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub range: Range<usize>,
    pub kind: &'static str,
    pub priority: u8,
}

impl Candidate {
    pub(crate) fn new(range: Range<usize>, kind: &'static str, priority: u8) -> Self {
        Candidate { range, kind, priority }
    }
}

/// The captures of `re` in `hay`, after a cheaper `is_match` that spares
/// the allocation on the many lines with nothing to capture.
pub(crate) fn captures<'h>(re: &Regex, hay: &'h str) -> impl Iterator<Item = regex::Captures<'h>> {
    re.is_match(hay).then(|| re.captures_iter(hay)).into_iter().flatten()
}

/// ASCII-case-insensitive `contains` for a lowercase `needle`, without allocating.
pub(crate) fn contains_ci(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = n.split_first() else {
        return true;
    };
    let upper = first.to_ascii_uppercase();
    let mut i = 0;
    while let Some(p) = h[i..].iter().position(|&b| b == first || b == upper) {
        let at = i + p;
        if h.len() - at < n.len() {
            return false;
        }
        if h[at + 1..at + n.len()].eq_ignore_ascii_case(rest) {
            return true;
        }
        i = at + 1;
    }
    false
}
