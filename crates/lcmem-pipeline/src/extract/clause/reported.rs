//! Items of plans and lists told as a report tells them, and the orders
//! that may never be retold.

use super::{Clause, capitalised};

/// An item of a plan, a list of what is left or a proposal, as it can stand
/// in a report: its own words if they do not read as an order, else with
/// its leading verb told as the activity it names ("Add the key to .env" →
/// "Adding the key to .env"), or `None` when it reads as an order either
/// way (an override, a shell pipe).
pub fn reported(item: &str, is_order: &dyn Fn(&str) -> bool) -> Option<Clause> {
    let clause = Clause::of(item)?;
    // An item that opens with a verb is told as an activity whether or not
    // the guard reads it as an order, so that a list reads alike.
    let opens_with_verb = clause.as_str().split_whitespace().next().is_some_and(is_plain_verb);
    if !is_order(clause.as_str()) && !opens_with_verb {
        return Some(clause);
    }
    let text = clause.as_str();
    // Only an item that is an order by its mood alone may be retold; one
    // that overrides, pipes into a shell or asks for a secret is refused.
    let verdict = lcmem_guard::judge(text);
    if verdict.instruction && !verdict.reasons.iter().all(|r| r.starts_with("imperative:") || r.starts_with("lang:")) {
        return None;
    }
    // The verb opens the item, or follows a short label ("Phase 0 – Setup: add …").
    let (label, rest) = match text.split_once(": ") {
        Some((label, rest)) if label.split_whitespace().count() <= 5 => (format!("{label}: "), rest),
        _ => (String::new(), text),
    };
    let (verb, tail) = rest.split_once(' ')?;
    let Some(gerund) = gerund(verb).filter(|_| label.is_empty() && is_plain_verb(verb) || is_order(text)) else {
        return (!is_order(text)).then_some(clause);
    };
    let told = Clause::of(&format!("{label}{gerund} {tail}"))?;
    // A list of steps in one item ("introduce X, add Y, run Z") may still
    // read as orders after its first verb: its first clause is kept then.
    [told.len(), 120, 80].into_iter().filter_map(|n| told.within(n)).find(|c| !is_order(c.as_str()))
}

/// Verbs that open the items of plans and to-do lists.
fn is_plain_verb(word: &str) -> bool {
    const VERBS: &[&str] = &[
        "add",
        "audit",
        "build",
        "check",
        "clean",
        "configure",
        "create",
        "define",
        "delete",
        "deploy",
        "design",
        "document",
        "draft",
        "enable",
        "ensure",
        "explore",
        "extract",
        "fix",
        "get",
        "implement",
        "improve",
        "inspect",
        "install",
        "integrate",
        "introduce",
        "investigate",
        "make",
        "migrate",
        "move",
        "outline",
        "plan",
        "prepare",
        "refactor",
        "remove",
        "rename",
        "replace",
        "review",
        "rewrite",
        "run",
        "set",
        "setup",
        "split",
        "test",
        "update",
        "use",
        "validate",
        "verify",
        "wire",
        "write",
        "assess",
        "analyze",
        "analyse",
        "identify",
        "research",
        "evaluate",
        "compare",
        "establish",
        "enhance",
        "expose",
        "support",
        "read",
        "find",
        "publish",
        "push",
        "commit",
        "merge",
        "tag",
        "release",
        "bump",
        "upgrade",
        "start",
        "finish",
        "mark",
        "keep",
        "handle",
    ];
    VERBS.contains(&word.to_ascii_lowercase().as_str())
}

/// The -ing form of a verb in its base form ("add" → "adding", "write" →
/// "writing", "set" → "setting"), keeping a capital; `None` for a word that
/// is no plain verb.
pub(super) fn gerund(verb: &str) -> Option<String> {
    if verb.len() < 2 || !verb.chars().all(|c| c.is_ascii_alphabetic()) || verb.ends_with("ing") {
        return None;
    }
    let capital = verb.chars().next().is_some_and(|c| c.is_uppercase());
    let lower = verb.to_ascii_lowercase();
    let vowel = |c: char| "aeiou".contains(c);
    let last: Vec<char> = lower.chars().rev().take(3).collect();
    let form = if let Some(stem) = lower.strip_suffix("ie") {
        format!("{stem}ying")
    } else if let Some(stem) =
        lower.strip_suffix('e').filter(|_| !lower.ends_with("ee") && !lower.ends_with("ye") && !lower.ends_with("oe"))
    {
        format!("{stem}ing")
    } else if let ([end, middle, start], 3..=4) = (last.as_slice(), lower.chars().count())
        && !vowel(*end)
        && vowel(*middle)
        && !vowel(*start)
        && !"wxy".contains(*end)
    {
        // A short verb ending consonant-vowel-consonant doubles its last letter.
        format!("{lower}{end}ing")
    } else {
        format!("{lower}ing")
    };
    Some(if capital { capitalised(&form) } else { form })
}

/// Whether a text reads as an order that would stand beyond the task at
/// hand: a rule ("always …", "never …", "must …"), an override, a shell
/// pipe, a request for a secret; not a bare imperative step of the work.
pub fn is_standing_order(text: &str) -> bool {
    let verdict = lcmem_guard::judge(text);
    if !verdict.instruction {
        return false;
    }
    let mood_only = verdict.reasons.iter().all(|r| r.starts_with("imperative:") || r.starts_with("lang:"));
    let rule = verdict.reasons.iter().any(|r| {
        ["imperative:always", "imperative:never", "imperative:must", "imperative:don't", "imperative:do-not"]
            .contains(&r.as_str())
    });
    !mood_only || rule
}
