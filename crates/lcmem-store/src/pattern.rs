//! Regular expressions written in lcmem's own source.
//!
//! Every pattern the engine matches with is a literal in its source, compiled
//! once (in a `LazyLock`) the first time it is used. A pattern that does not
//! compile is a bug in lcmem, the same for every input, and the tests that
//! use each pattern find it: it is the one place where the reading code may
//! stop on an error instead of reporting it (see the lint set on `import`
//! and `extract`).

use regex::Regex;

/// The compiled form of `pattern`, a literal of lcmem's source.
#[expect(clippy::expect_used, reason = "a pattern is a literal of the source, compiled by the tests that use it")]
pub fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a pattern written in lcmem's source compiles")
}
