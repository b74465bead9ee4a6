//! What a tool call came to, read off its result: whether it succeeded, and
//! the few facts of version control its output states (a commit was made,
//! there was nothing to commit, a push was rejected).
//!
//! A command counts by its result, not by its words: `git commit` that
//! printed "nothing to commit" made no commit, a rejected push shipped
//! nothing, a failing test run proves no fix. The output itself is workspace
//! content and is never read into memory: only these marks are kept, as
//! fixed words the converter chooses, never text copied from the output.

use std::sync::LazyLock;

use regex::Regex;

use crate::session::Mark;

/// What a result says, as the converters record it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CallResult {
    /// The call failed: a non-zero exit, or the tool reported an error.
    pub failed: bool,
    /// The exit code, when the result states one.
    pub exit: Option<i64>,
    pub marks: Vec<Mark>,
}

impl CallResult {
    /// Whether the result says anything worth a line: a failure or a mark.
    pub(crate) fn telling(&self) -> bool {
        self.failed || !self.marks.is_empty()
    }
}

/// `[main 3f2a1b9] Subject`, `[feature/x (root-commit) 3f2a1b9] Subject`:
/// what git prints for a commit it made.
static COMMIT_MADE: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::regex(r"(?m)^\[[^\]\n]{1,120}? [0-9a-f]{7,40}\] \S"));

/// "Exit code 1" (Claude Code), "Exit code: 1" and "exit status 1" (Codex).
static EXIT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(r"(?im)^\s*(?:exit code:?|process exited with code|exit status)\s*(-?\d+)\b")
});

/// Reads a result: `text` is what the tool printed; `error` is whether the
/// tool marked it as an error; `exit` is a code the tool reported beside
/// the text, if any.
pub(crate) fn read(text: &str, error: bool, exit: Option<i64>) -> CallResult {
    // Only the head and tail of a long output are looked at: git's lines are
    // short and come first or last, and a huge output must not cost much.
    const END: usize = 16_000;
    let looked = if text.len() > 2 * END {
        format!("{}\n{}", crate::extract::head(text, END), crate::extract::tail(text, END))
    } else {
        text.to_string()
    };
    let head = crate::extract::head(&looked, END);
    let exit = exit.or_else(|| EXIT_LINE.captures(head).and_then(|c| c.get(1)?.as_str().parse().ok()));
    let mut marks = Vec::new();
    let lower = looked.to_lowercase();
    if COMMIT_MADE.is_match(&looked) {
        marks.push(Mark::Committed);
    }
    if lower.contains("nothing to commit") || lower.contains("no changes added to commit") {
        marks.push(Mark::NothingToCommit);
    }
    if lower.contains("! [rejected]")
        || lower.contains("! [remote rejected]")
        || lower.contains("error: failed to push")
    {
        marks.push(Mark::PushRejected);
    }
    if lower.contains("everything up-to-date") {
        marks.push(Mark::NothingPushed);
    }
    CallResult { failed: error || exit.is_some_and(|c| c != 0), exit, marks }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_says_what_it_did() {
        let made = read("[main 3f2a1b9] feat: export\n 2 files changed, 40 insertions(+)", false, None);
        assert_eq!(made, CallResult { failed: false, exit: None, marks: vec![Mark::Committed] });
        let nothing = read("On branch fix/x\nnothing to commit, working tree clean\n", false, Some(1));
        assert!(nothing.failed && nothing.marks == [Mark::NothingToCommit], "{nothing:?}");
        let rejected =
            read(" ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs", true, None);
        assert_eq!(rejected.marks, [Mark::PushRejected]);
        assert!(read("Everything up-to-date", false, Some(0)).marks == [Mark::NothingPushed]);
    }

    #[test]
    fn exit_codes_are_read_from_the_text_when_not_given() {
        assert_eq!(read("Exit code 1\nFAIL src/a.test.ts", true, None).exit, Some(1));
        assert!(read("Exit code: 2\nWall time: 0.1 seconds\nOutput:\n", false, None).failed);
        assert!(!read("Exit code: 0\nOutput:\nok", false, None).telling());
        assert!(!read("all 12 tests passed", false, None).telling());
    }

    #[test]
    fn a_huge_output_is_read_at_its_ends() {
        let huge = format!("[main 1234567] feat: x\n{}\nnothing to commit", "y".repeat(100_000));
        assert_eq!(read(&huge, false, None).marks, [Mark::Committed, Mark::NothingToCommit]);
    }
}
