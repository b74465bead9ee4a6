//! What a question asks for, read from how it is asked, and whether a text
//! is the kind of text that answers it.
//!
//! Four kinds of developer question name the shape of their answer more than
//! its words:
//!
//! - **A cause** ("why did the editor open empty?", "what stopped the front
//!   end compiling?", "what was wrong with the upload?"): the answer states a
//!   problem, a cause or a fix ("Two issues: the TS target is too low for
//!   BigInt literals"), often in words the question does not use.
//! - **A command** ("what's the command to deploy the contracts?", "how do
//!   I regenerate the log?"): the answer spells one (`npx hardhat run
//!   scripts/deploy.js --network testnet`), in a code span or a block.
//! - **An amount** ("how long must a piece wait?", "how much did we ask
//!   for?"): the answer holds a number with its unit (`3s`, `10 seconds`,
//!   `$5,000`, `40%`).
//! - **A place** ("where is the written plan?", "which file implements the
//!   button?", "which branch holds the work?"): the answer names a path or a
//!   branch whose parts are the question's words (`specs/session-lifecycle-
//!   detection.md` for "detecting … session").
//!
//! Among the head of a ranking, a text of the asked-for kind weighs more
//! (see `echo::fold`, which reads those texts anyway). Nothing is found that
//! the words did not find: the lift only reorders.

use std::sync::LazyLock;

use regex::Regex;

use super::tokenize::Analyzer;

/// The shape of answer a question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Intent {
    Amount,
    Cause,
    Command,
    Place,
}

/// Words that make a question ask for a cause, a problem or a fix.
const ASKS_CAUSE: &[&str] = &[
    "why", "wrong", "bug", "bugs", "broke", "broken", "break", "breaks", "fail", "fails", "failed", "failing",
    "failure", "error", "errors", "crash", "crashed", "crashes", "cause", "caused", "stopped", "fix", "fixed", "issue",
    "issues", "problem", "problems",
];

/// The same in Chinese, matched as substrings (no spaces between words).
const ASKS_CAUSE_ZH: &[&str] = &["为什么", "原因", "错误", "问题", "修复", "失败", "报错"];

/// Beginnings of the words a statement of a problem, a cause or a reason is
/// written with. Not "fix": a fix is reported far more often than a cause
/// is stated ("Fixed" heads every changelog), so it says little.
const STATES_CAUSE: &[&str] = &[
    "issue", "problem", "bug", "cause", "because", "reason", "fail", "error", "broke", "break", "wrong", "flaw",
    "culprit", "crash",
];

const STATES_CAUSE_ZH: &[&str] = &["问题", "原因", "因为", "错误", "修复", "失败", "导致"];

/// A number with a unit after it, or a currency sign before it.
static AMOUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix) (?: [$€£¥] \s? \d ) | (?: \b \d+ (?: [.,] \d+ )* \s? (?: % | [kmb] \b | ms | s \b | secs? \b | seconds?
        | mins? \b | minutes? | h \b | hrs? \b | hours? | days? | weeks? | months? | years? | [kmgt]i?b \b | px \b
        | x \b | times | usd | eur | aud | gbp | dollars? | tokens? | lines? | requests? | retries | attempts ) )
        | (?: \d \s? (?: 秒 | 分钟 | 小时 | 天 | 周 | 个月 | 年 | 元 | 万 ) )",
    )
    .expect("a valid pattern")
});

/// Verbs that make "how do I …" ask for a command.
const OPERATIONS: &[&str] = &[
    "run",
    "build",
    "deploy",
    "install",
    "start",
    "test",
    "regenerate",
    "generate",
    "publish",
    "release",
    "migrate",
    "lint",
    "format",
    "reset",
    "rebuild",
    "launch",
    "serve",
    "compile",
    "export",
    "update",
    "upgrade",
    "seed",
    "sync",
];

/// Nouns that make a "which …" or "what …" question ask for a place.
const PLACES: &[&str] =
    &["file", "files", "folder", "folders", "directory", "branch", "path", "repo", "repository", "module", "package"];

/// What `question` asks for, if its wording says.
pub(super) fn of(question: &str) -> Option<Intent> {
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let first = words.first().copied().unwrap_or("");
    let asks_which = matches!(first, "which" | "what") && words.iter().skip(1).take(3).any(|w| PLACES.contains(w));
    if first == "where" || asks_which || lower.starts_with("哪") || lower.contains("在哪") {
        return Some(Intent::Place);
    }
    if matches!(words.as_slice(), ["how", "long" | "much" | "many" | "often" | "big" | "large" | "fast" | "old", ..])
        || lower.contains("多少")
        || lower.contains("多久")
    {
        return Some(Intent::Amount);
    }
    let how = matches!(words.as_slice(), ["how", "do" | "can" | "should", "i" | "we" | "you", ..] | ["how", "to", ..]);
    let operation = words.iter().take(5).any(|w| OPERATIONS.contains(w));
    if words.iter().any(|w| matches!(*w, "command" | "commands")) || (how && operation) || lower.contains("命令") {
        return Some(Intent::Command);
    }
    let cause = words.iter().any(|w| ASKS_CAUSE.contains(w)) || ASKS_CAUSE_ZH.iter().any(|w| lower.contains(w));
    cause.then_some(Intent::Cause)
}

/// The weight of `text` for a question of `intent` whose own analysed words
/// are `asked`: 1, or `1 + lift` when the text is of the asked-for kind.
pub(super) fn weight(intent: Intent, lift: f64, text: &str, asked: &[String], analyzer: &mut Analyzer) -> f64 {
    let fits = match intent {
        Intent::Amount => AMOUNT.is_match(text),
        Intent::Cause => states_cause(text),
        Intent::Command => spells_command(text),
        Intent::Place => names_place(text, asked, analyzer),
    };
    if fits { 1.0 + lift } else { 1.0 }
}

fn states_cause(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower.split(|c: char| !c.is_alphanumeric()).any(|w| STATES_CAUSE.iter().any(|stem| w.starts_with(stem)))
        || STATES_CAUSE_ZH.iter().any(|w| lower.contains(w))
}

/// Whether `text` spells a command: a code span or a line of a code block
/// (or a `$` prompt) whose first word could be a program's name and which
/// has more words after it.
fn spells_command(text: &str) -> bool {
    let looks_run = |line: &str| {
        let line = line.trim().trim_start_matches("$ ").trim();
        let mut words = line.split_whitespace();
        let program = words.next().unwrap_or("");
        let named = !program.is_empty()
            && program.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '.')
            && program.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._/-".contains(c));
        named && words.next().is_some()
    };
    let spans = text.split('`').skip(1).step_by(2);
    let prompts = text.lines().filter(|l| l.trim_start().starts_with("$ "));
    spans.chain(prompts).any(|span| span.lines().any(looks_run))
}

/// Whether `text` names a path or a branch (a word joined by `/`, or a file
/// name with an extension) one of whose parts is a word of the question.
fn names_place(text: &str, asked: &[String], analyzer: &mut Analyzer) -> bool {
    let is_joiner = |c: char| matches!(c, '/' | '\\' | '.' | '-' | '_');
    text.split(|c: char| !(c.is_alphanumeric() || is_joiner(c)))
        .map(|w| w.trim_matches(is_joiner))
        .filter(|w| is_place(w))
        .any(|w| analyzer.terms(w).iter().any(|t| asked.contains(&t.text)))
}

/// A path (`src/app.rs`, `fix/team-editor`) or a file name (`README.md`).
fn is_place(word: &str) -> bool {
    let slash = word.contains('/') && word.split('/').filter(|p| !p.is_empty()).count() >= 2;
    let file = word.rsplit_once('.').is_some_and(|(name, ext)| {
        !name.is_empty() && (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphabetic())
    });
    slash || file
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The weight of `text` for `question`: 1 when it asks for no shape.
    fn weighed(question: &str, text: &str, asked: &[String], analyzer: &mut Analyzer) -> f64 {
        of(question).map_or(1.0, |intent| weight(intent, 1.0, text, asked, analyzer))
    }

    #[test]
    fn a_question_says_what_it_asks_for() {
        assert_eq!(of("What stopped the web front end from compiling at first?"), Some(Intent::Cause));
        assert_eq!(of("Why does the endpoint still return member counts?"), Some(Intent::Cause));
        assert_eq!(of("Where is the written plan for the session lifecycle?"), Some(Intent::Place));
        assert_eq!(of("Which file implements the add button?"), Some(Intent::Place));
        assert_eq!(of("Which branch holds the speed-up?"), Some(Intent::Place));
        assert_eq!(of("Which artwork set do the pieces use?"), None);
        assert_eq!(of("What's the command to put the contracts on the test chain?"), Some(Intent::Command));
        assert_eq!(of("How do I regenerate the markdown log?"), Some(Intent::Command));
        assert_eq!(of("How do we handle retries?"), None);
        assert_eq!(of("How is a game won now?"), None);
        assert_eq!(of("How long does a piece have to wait before it can move again?"), Some(Intent::Amount));
        assert_eq!(of("How much funding did we plan to request?"), Some(Intent::Amount));
        assert_eq!(of("导出文件放在哪里？"), Some(Intent::Place));
        assert_eq!(of("为什么页面是空白的？"), Some(Intent::Cause));
    }

    #[test]
    fn a_cause_is_stated_in_its_own_words() {
        let mut a = Analyzer::documents();
        let w = |q: &str, t: &str, a: &mut Analyzer| weighed(q, t, &[], a);
        let q = "What stopped the front end from compiling?";
        assert!(w(q, "Two issues: TS target too low for BigInt literals.", &mut a) > 1.0);
        assert_eq!(w(q, "Contracts compile. Now writing the tests.", &mut a), 1.0);
        assert_eq!(w("How is a game won?", "The bug was the stale cache.", &mut a), 1.0);
    }

    #[test]
    fn an_amount_is_a_number_with_its_unit() {
        let mut a = Analyzer::documents();
        let q = "How long does a piece wait?";
        let w = |t: &str, a: &mut Analyzer| weighed(q, t, &[], a);
        assert!(w("Cooldown rules (3s start, 10s after moves).", &mut a) > 1.0);
        assert!(w("Each piece waits 10 seconds.", &mut a) > 1.0);
        assert!(w("We ask for $5,000.", &mut a) > 1.0);
        assert!(w("冷却时间是3秒。", &mut a) > 1.0);
        assert_eq!(w("The piece waits until its timer ends.", &mut a), 1.0);
        assert_eq!(w("Fixed in v2 of rules.js, line 40.", &mut a), 1.0);
    }

    #[test]
    fn a_command_is_spelled_in_code() {
        let mut a = Analyzer::documents();
        let q = "What's the command to deploy?";
        let w = |t: &str, a: &mut Analyzer| weighed(q, t, &[], a);
        assert!(w("3. Deploy: `cd contracts && npx hardhat run scripts/deploy.js --network testnet`", &mut a) > 1.0);
        assert!(w("Run it:\n```\npnpm run deploy\n```", &mut a) > 1.0);
        assert!(w("Then:\n$ make deploy", &mut a) > 1.0);
        assert_eq!(w("Deploy it with the script in `deploy.js`.", &mut a), 1.0);
        assert_eq!(w("The deploy needs `PRIVATE_KEY` set.", &mut a), 1.0);
        assert_eq!(w("We deploy on Fridays.", &mut a), 1.0);
    }

    #[test]
    fn a_place_is_a_path_that_holds_the_question_s_words() {
        let mut a = Analyzer::documents();
        let q = "Where is the plan for detecting sessions?";
        let asked: Vec<String> = Analyzer::queries().terms(q).into_iter().map(|t| t.text).collect();
        let w = |t: &str, a: &mut Analyzer| weighed(q, t, &asked, a);
        assert!(w("I wrote it to **`specs/session-lifecycle-detection.md`**.", &mut a) > 1.0);
        assert!(w("See SESSION_DETECTION.md.", &mut a) > 1.0);
        assert_eq!(w("The plan detects sessions by their history file.", &mut a), 1.0);
        assert_eq!(w("It lives in src/ui/button.tsx.", &mut a), 1.0);
        assert_eq!(w("Version 1.2 of the session detector.", &mut a), 1.0);
    }
}
