//! Dates as every file and listing shows them.

use jiff::Timestamp;

/// The UTC day of `ts`, `2026-11-18`: how the digest, citations and listings
/// date things, so that the same moment reads the same everywhere.
pub fn day(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%d").to_string()
}
