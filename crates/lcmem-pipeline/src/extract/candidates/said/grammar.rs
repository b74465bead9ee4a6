//! What kind of sentence the person wrote, by its grammar: a question, a
//! reaction, a request, a rule, a statement, a report of the day.

use super::prose::{unmarked, words};
use crate::extract::clause::opens_with_request;
use crate::facts::subject;

/// A question, by its mark or its opening.
pub(super) fn is_question(sentence: &str) -> bool {
    let w = words(sentence);
    let first = w.first().map(String::as_str).unwrap_or("");
    let second = w.get(1).map(String::as_str).unwrap_or("");
    let asks = ["what", "why", "how", "where", "which", "who", "whom", "whose"];
    let inverted = ["is", "are", "was", "were", "do", "does", "did", "can", "could", "would", "will", "should", "shall"];
    let pronouns = ["you", "we", "i", "it", "this", "that", "there", "they", "the"];
    sentence.trim_end().ends_with('?')
        || asks.contains(&first) && !["is", "was"].contains(&second)
        || inverted.contains(&first) && pronouns.contains(&second)
}

/// Whether a sentence is English prose: it holds at least two of the small
/// words English sentences are made with (a sample text, a name list or
/// another language in Latin letters holds fewer).
pub(super) fn is_english(sentence: &str) -> bool {
    const SMALL: &[&str] = &[
        "the", "a", "an", "is", "are", "was", "be", "to", "of", "and", "for", "with", "on", "at", "by", "we", "our",
        "it", "its", "this", "that", "has", "have", "should", "must", "can", "will", "not", "no", "only", "all",
        "each", "every", "from", "as", "when", "if", "then", "than", "there", "they", "their", "don't", "do", "does",
        "never", "always", "use", "uses", "any", "so", "but", "or",
    ];
    let all = words(sentence);
    let mut seen: Vec<String> = all.iter().filter(|w| SMALL.contains(&w.as_str())).cloned().collect();
    seen.sort();
    seen.dedup();
    // A short sentence may hold none ("Commits follow Conventional Commits").
    seen.len() >= 2 || all.len() < 8
}

/// A greeting, a thanks, a go-ahead or a verdict on the agent's work.
pub(super) fn is_reaction(sentence: &str) -> bool {
    let w = words(sentence);
    let first = w.first().map(String::as_str).unwrap_or("");
    let opening = w.iter().take(3).map(String::as_str).collect::<Vec<_>>().join(" ");
    let reactions = [
        "hi", "hey", "hello", "thanks", "thank", "thx", "ok", "okay", "k", "great", "perfect", "nice", "cool", "good",
        "awesome", "yes", "yep", "yeah", "no", "nope", "sure", "continue", "proceed", "go", "done", "lgtm", "wow",
        "hmm", "oops", "sorry", "please",
    ];
    let verdicts =
        ["that's", "that is", "this is", "it's", "it is", "looks", "still", "almost", "much", "the main idea", "the idea"];
    (reactions.contains(&first) && w.len() <= 4)
        || verdicts.iter().any(|v| opening.starts_with(v))
            && ["better", "good", "right", "great", "wrong", "fine", "perfect", "it", "almost", "close", "not", "bad"]
                .iter()
                .any(|x| w.iter().take(5).any(|y| y == x))
}

/// The sentence without what only leads into it ("ok,", "also", "now",
/// "note that"), and whether that lead said it is lasting ("from now on",
/// "remember that", "for the record").
pub(super) fn without_lead(sentence: &str) -> (String, bool) {
    let mut rest = sentence.trim().to_string();
    let mut lasting = false;
    loop {
        let lower = rest.to_lowercase();
        let leads = [
            ("from now on", true),
            ("going forward", true),
            ("for the record", true),
            ("remember that", true),
            ("remember,", true),
            ("keep in mind that", true),
            ("note that", true),
            ("fyi", true),
            ("btw", false),
            ("reminder:", true),
            ("important:", true),
            ("ok so", false),
            ("nah", false),
            ("yeah", false),
            ("yes", false),
            ("ok", false),
            ("okay", false),
            ("so", false),
            ("also", false),
            ("and", false),
            ("but", false),
            ("now", false),
            ("then", false),
            ("actually", false),
            ("well", false),
            ("please", false),
            ("just", false),
            ("first", false),
            ("next", false),
            ("finally", false),
        ];
        let Some((lead, marks)) = leads.iter().find(|(lead, _)| {
            lower.starts_with(lead)
                && lower.get(lead.len()..).is_some_and(|after| after.starts_with([' ', ',', ':']) || lead.ends_with([',', ':']))
        }) else {
            break;
        };
        lasting |= *marks;
        rest = rest.get(lead.len()..).unwrap_or("").trim_start_matches([',', ':', ' ']).to_string();
    }
    (rest, lasting)
}

/// What a request framed as a rule of the product asks to hold ("make it so
/// X", "change the rule so that X", "X from now on"), as a statement.
pub(super) fn spec_frame(sentence: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let frames = [
        "make it so that ",
        "make it so ",
        "change the rule so that ",
        "change the rule such that ",
        "change the rules so that ",
        "change the rule so ",
        "change it so that ",
        "change it so ",
        "change this so that ",
        "set it up so that ",
        "the rule is that ",
        "the rule is ",
    ];
    let frame = frames.iter().find(|f| lower.starts_with(*f))?;
    let rule = sentence.get(frame.len()..)?.trim();
    (rule.split_whitespace().count() >= 3).then(|| rule.to_string())
}

/// "For displaying the pieces, download them from …": a request after a
/// phrase that sets it up.
pub(super) fn request_after_lead(sentence: &str) -> bool {
    sentence.split_once(", ").is_some_and(|(lead, main)| lead.split_whitespace().count() <= 8 && opens_with_request(main))
}

/// A rule that opens with its rule word: "always …", "never …", "do not …",
/// "only …", "don't …". A "don't" about the work at hand ("don't produce
/// code, design the solution first", "don't add notes") is the day's
/// request: it speaks of this time, this output, or goes on to another order.
pub(super) fn opens_with_rule(sentence: &str) -> bool {
    let w = words(sentence);
    let first = w.first().map(String::as_str).unwrap_or("");
    let dont = first == "don't" || (first == "do" && w.get(1).is_some_and(|n| n == "not"));
    let this_time = ["first", "yet", "now", "this", "these", "here", "again", "anything", "notes", "code"];
    let for_now = w.iter().any(|x| this_time.contains(&x.as_str())) || sentence.contains(", ");
    // "Only when there's a retry …" opens a clause, not a rule.
    let clause = w.get(1).is_some_and(|n| ["when", "if", "after", "before", "once", "while", "for"].contains(&n.as_str()));
    !clause && (["always", "never", "only", "avoid"].contains(&first) || (dont && !for_now))
}

/// A "don't" that is no rule ([`opens_with_rule`]) is a request of the day.
pub(super) fn opens_with_dont(sentence: &str) -> bool {
    let w = words(sentence);
    w.first().is_some_and(|f| f == "don't") || (w.first().is_some_and(|f| f == "do") && w.get(1).is_some_and(|n| n == "not"))
}

/// A line of code, or a command, the person pasted without a fence.
pub(super) fn is_code(sentence: &str) -> bool {
    if sentence.contains(" && ") || sentence.contains(" | ") || sentence.trim_start().starts_with("$ ") {
        return true;
    }
    let first = words(sentence).first().cloned().unwrap_or_default();
    let keywords = ["const", "let", "var", "import", "export", "function", "def", "class", "return", "fn", "pub", "use"];
    let symbols = sentence.chars().filter(|c| "{}[]()=<>;".contains(*c)).count();
    let indexed = sentence.split_whitespace().any(|w| w.contains('[') && w.contains(']'));
    (keywords.contains(&first.as_str()) && symbols > 0) || symbols * 12 > sentence.chars().count() || indexed
}

/// A sentence that opens with its verb's helper, its subject left out
/// ("must be less than 150 char"): no subject, so no fact.
pub(super) fn lacks_subject(sentence: &str) -> bool {
    let first = words(sentence).first().cloned().unwrap_or_default();
    ["must", "should", "can", "could", "will", "would", "is", "are", "was", "were", "has", "have", "needs"]
        .contains(&first.as_str())
}

/// A rule of the house: an always, a never, a do-not, an only, a must.
pub(super) fn is_rule(sentence: &str) -> bool {
    let w = words(sentence);
    let first = w.first().map(String::as_str).unwrap_or("");
    let has = |x: &str| w.iter().any(|y| y == x);
    let pair = |a: &str, b: &str| w.windows(2).any(|p| matches!(p, [x, y] if x == a && y == b));
    ["always", "never", "only", "don't", "avoid"].contains(&first)
        || pair("do", "not")
        || has("must")
        || has("mustn't")
        || has("never")
        || has("always")
        || (has("only") && (has("when") || has("on") || has("from") || has("if") || has("with")))
}

/// Whether a sentence of the person's reads as a convention: a rule of the
/// house, or how the team works.
pub(crate) fn is_convention(text: &str) -> bool {
    let text = unmarked(text);
    is_rule(&text) || is_team_practice(&text) || subject::parse(&text).is_some_and(|s| crate::extract::candidates::convention::is_practice(&s))
}

/// "We use pnpm", "our deploys go out on Fridays": how the team works.
pub(super) fn is_team_practice(sentence: &str) -> bool {
    let w = words(sentence);
    matches!(w.first().map(String::as_str), Some("we" | "our" | "we're" | "we've" | "we'll"))
        && w.iter().skip(1).take(3).any(|v| {
            [
                "use", "deploy", "release", "ship", "follow", "keep", "prefer", "run", "tag", "squash", "rebase",
                "merge", "review", "pin", "store", "commit", "push", "avoid", "require", "will", "want", "need",
                "host", "write", "name", "version", "don't", "never", "always", "only",
            ]
            .contains(&v.as_str())
        })
}

/// What the person saw that day rather than how things are: "nothing
/// happens when I press new game", "I'm getting …", "no data is showing".
pub(super) fn reports_the_day(sentence: &str) -> bool {
    let w = words(sentence);
    let lower = sentence.to_lowercase();
    // What the person saw or did themselves: "I see 4 queries", "the name I
    // am logged in with".
    let experience = w.iter().any(|x| ["i", "i'm", "i've", "i'd", "i'll", "my", "me"].contains(&x.as_str()));
    let seen = [
        "nothing happens",
        "doesn't work",
        "does not work",
        "doesn't seem",
        "not working",
        "isn't working",
        "is broken",
        "are broken",
        "not showing",
        "isn't showing",
        "no data",
        "not loading",
        "isn't loading",
        "still",
        "currently",
        " fail",
        "failing",
        "crash",
        "error",
        "broken",
        "right now",
        "at the moment",
        "anymore",
        "for some reason",
        "looks weird",
        "look weird",
        "seems",
        "messed up",
        "is slow",
        "are slow",
        "very slow",
        "choke",
        " hangs",
        "a mess",
        "flaky",
        "leaks",
        "times out",
        "keeps ",
    ];
    // The present progressive tells the moment ("no teams are loading").
    let progressive = w.windows(2).any(|p| {
        matches!(p, [be, ing] if ["is", "are", "isn't", "aren't", "am"].contains(&be.as_str())
            && ing.len() > 4 && ing.ends_with("ing"))
    });
    experience || progressive || seen.iter().any(|s| lower.contains(s))
}
