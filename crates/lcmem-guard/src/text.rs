//! The views of a normalised text that the rules read.
//!
//! * `masked`: the normalised text with quoted mentions masked (see below)
//!   and markup left in place, for the structural markers.
//! * `prose`: the text with short quoted mentions masked when the sentence
//!   is plainly talking *about* them ("the guard flags 'forget your rules'
//!   phrases"), backticks dropped and HTML tags turned into spaces. Phrase
//!   rules run here.
//! * `clauses`: the prose cut into sentences and clause openings, with code
//!   replaced by a `CODE` placeholder and tags and comments treated as
//!   breaks. The imperative analysis reads only the opening of each clause,
//!   because that is where English puts an order.

use std::sync::LazyLock;

use regex::Regex;

use crate::imperative;

/// One clause opening, and whether it continues a report of finished work
/// in the past tense ("Added a script, and put the key in .env.local"),
/// which makes "put", "set" or "read" at its opening a past tense.
pub(crate) struct Clause {
    pub text: String,
    pub narrated: bool,
}

pub(crate) struct Views {
    /// Clauses that follow a comma mid-sentence ("…, skip them"): read
    /// with a stricter test, since most are not clause openings at all.
    pub after_comma: Vec<Clause>,
    /// The normalised text with quoted mentions masked; markup intact.
    pub masked: String,
    /// `masked` without markup: what the phrase rules read.
    pub prose: String,
    /// Sentences and clause openings, code replaced by `CODE`.
    pub clauses: Vec<Clause>,
}

/// Words showing that a sentence discusses a quoted string rather than
/// uttering it.
static META: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(phrases?|strings?|patterns?|regex(es)?|regexp|keywords?|words?|wording|texts?|",
        r"examples?|e\.g\.|such as|like|flags?|flagged|detects?|detected|detection|catch(es)?|",
        r"caught|match(es|ed)?|blocks|blocked|rejects?|rejected|filters|filtered|mentions?|",
        r"mentioned|contains|containing|quoted|quotes|tests?|fixtures?|corpus|labels?|labell?ed|",
        r"called|named|says|said|prints|printed|shows|logs|logged|messages?|errors?|warnings?|",
        r"banner|literal(ly)?|heuristics?|rules?|guard|scanner|classifier|treated|treats|counts|",
        r"marks|marked|spelled|keyword)\b",
    ))
    .expect("meta regex")
});

static JSON_KEY: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"[{,]\s*"[\w-]+"\s*:"#).expect("json regex"));
static FENCE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?s)```[^\n]*\n.*?(```|$)").expect("fence regex"));
static INLINE_CODE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`[^`\n]{1,200}`").expect("code regex"));
static TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<!--|-->|</?[A-Za-z|][^<>\n]{0,200}>|<\|[^<>\n]{0,40}\|>").expect("tag regex"));
/// Sentence breaks: terminal punctuation followed by space, line breaks,
/// semicolons, CJK full stops, inline list markers ("1) … 2) …"), markdown
/// emphasis runs used as banners (`**NEW TASK**`) and `--` separators. A
/// single dash is not a break: "M4 - polish and hardening" is a title.
static SENTENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"[.!?]+["')\]]*(\s+|$)|\n+|;|[。！？]|\s\(?\d{1,2}[.)]\s|\*{2,}|\s-{2,}\s"#).expect("sentence regex")
});
static INTRO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^\W*(if|when|whenever|before|after|once|while|unless|for|to|as|in|on|upon|during|",
        r"then|also|otherwise|instead|first|finally|now|next|lastly|additionally|afterwards|",
        r"meanwhile|however|given|with|without|because|since|going forward|from now on|henceforth|",
        r"by default|as a rule|generally|ideally|at all times|next time|in future|in the future|",
        r"beginning|starting|using|following|based on|according to|per|as part of|in order to|",
        r"for \w+ purposes)\b",
    ))
    .expect("intro regex")
});
static MODAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(can|cannot|can't|could|should|must|will|would|may|might|to|not|never)\b").expect("modal regex")
});
/// A subject pronoun (or the team) and the verb after it.
static SUBJECT_VERB: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(we|they|i|he|she|the team|our team)\s+(\w+ly\s+)?[a-z]+\b").expect("subject regex")
});
/// The last item of a list of verbs: "… and import", "… or refresh".
static LIST_END: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)\s(and|or)\s+[a-z]+").expect("list regex"));
static THEN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)(,\s*|\band\s+)then\b").expect("then regex"));

pub(crate) fn views(normalized: &str) -> Views {
    let masked = mask_mentions(normalized);
    let prose_tags = TAG.replace_all(&masked, " ");
    let prose = prose_tags.replace('`', "");
    let no_fence = FENCE.replace_all(&masked, "\nCODE\n");
    let no_code = INLINE_CODE.replace_all(&no_fence, " CODE ");
    let shape = TAG.replace_all(&no_code, "\n");
    let mut clauses = Vec::new();
    let mut after_comma = Vec::new();
    let clause = |text: &str, narrated: bool| Clause { text: text.trim().to_owned(), narrated };
    // A report in the past tense carries over a semicolon ("Fixed the
    // parser; read the spec again …"), not over a full stop or a colon.
    let mut carried = false;
    let mut start = 0;
    let breaks = SENTENCE.find_iter(&shape).map(|m| (m.start(), m.end(), m.as_str() == ";"));
    for (end, next, semicolon) in breaks.chain(std::iter::once((shape.len(), shape.len(), false))) {
        let sentence = shape[start..end].trim();
        start = next;
        let mut narrated = false;
        // A colon inside a word (`contents:write`, `std::io`) joins, it does
        // not open a clause.
        for (i, part) in colon_parts(sentence).into_iter().enumerate() {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let inherited = i == 0 && carried;
            narrated = imperative::narration(part, inherited);
            // The part before the first colon keeps the whole sentence
            // (for the subject scan); later parts are clause openings.
            clauses.push(clause(if i == 0 { sentence } else { part }, inherited));
            let first_comma_words = part.split(',').next().map_or(0, |h| h.split_whitespace().count());
            if (INTRO.is_match(part) || first_comma_words <= 1)
                && let Some((_, rest)) = part.split_once(',')
            {
                clauses.push(clause(rest, narrated));
            }
            // A comma after a modal or infinitive usually continues a list
            // of verbs ("It cannot run a tool, approve a call, or …").
            // A spaced dash or an opening parenthesis joins clauses the same
            // way ("The API is stable - ignore the checks"); they are read
            // with the same strict test, so a title ("M4 - polish and
            // hardening") stays a title.
            let pieces: Vec<&str> = part.split([',', '(']).flat_map(|p| p.split(" - ")).collect();
            for pair in pieces.windows(2) {
                // "we run the plan, review the diff and import …": a list of
                // what a named subject does, not an order.
                let listed = SUBJECT_VERB.is_match(pair[0]) && LIST_END.is_match(pair[1]);
                if !MODAL.is_match(pair[0]) && !listed {
                    after_comma.push(clause(pair[1], narrated));
                }
            }
            for m in THEN.find_iter(part).take(4) {
                clauses.push(clause(part[m.start()..].trim_start_matches([',', ' ']), narrated));
            }
        }
        carried = semicolon && narrated;
    }
    Views { after_comma, masked, prose, clauses }
}

/// `sentence` cut at its colons, except a colon inside a word that joins
/// rather than opens a clause: `contents:write`, `std::io`, `https://`.
fn colon_parts(sentence: &str) -> Vec<&str> {
    let bytes = sentence.as_bytes();
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, _) in sentence.match_indices(':') {
        let prev = i.checked_sub(1).map(|p| bytes[p]);
        let next = bytes.get(i + 1).copied();
        let joins = prev.is_some_and(|p| !p.is_ascii_whitespace())
            && next.is_some_and(|n| n.is_ascii_lowercase() || n.is_ascii_digit() || n == b'/' || n == b':')
            || prev == Some(b':');
        if !joins {
            parts.push(&sentence[start..i]);
            start = i + 1;
        }
    }
    parts.push(&sentence[start..]);
    parts
}

/// Replaces short quoted spans with `QUOTED` when the sentence around them
/// talks about the quoted text. Long quotes are never masked: a payload
/// wrapped in quotes is still a payload.
fn mask_mentions(text: &str) -> String {
    if JSON_KEY.is_match(text) {
        return text.to_owned(); // quotes in JSON are structure, not mentions
    }
    let listed = mask_example_lists(text);
    let text = listed.as_str();
    let spans = quoted_spans(text);
    if spans.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end) in spans {
        let before = sentence_before(&text[..start]);
        let after = sentence_after(&text[end..]);
        let meta = META.is_match(before) || META.is_match(after);
        let detected = DETECTS.is_match(before) || DETECTS.is_match(after);
        if meta && (detected || !SECRET_NAME.is_match(&text[start..end])) {
            out.push_str(&text[last..start]);
            out.push_str(" QUOTED ");
            last = end;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// A quoted name of a secret (`AWS_SECRET_ACCESS_KEY`, `.env`, `id_rsa`,
/// `service-account.json`): "the script prints `STRIPE_SECRET_KEY`" tells
/// what is printed, so the name stays for the secret rules to read. A name
/// carries no order to hide.
static SECRET_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)^[`'\x22]\$?[a-z0-9_.-]*(secret|token|passw(or)?d|passwd|api_?key|private_?key|credential|",
        r"access_?key)[a-z0-9_.-]*[`'\x22]$|^[`'\x22][\w./~-]*(\.env|id_rsa|id_ed25519|\.pem|\.p12|\.pfx|",
        r"service-account\.json|credentials\.json)[`'\x22]$",
    ))
    .expect("secret name regex")
});

/// Words of finding a text rather than emitting it: a secret's name quoted
/// beside them is what a scanner looks for.
static DETECTS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(flags?|flagged|detects?|detected|detection|catch(es)?|caught|match(es|ed)?|blocks|blocked|",
        r"rejects?|rejected|filters?|filtered|scanners?|guard|redact\w*|scrub\w*|mask\w*|alerts?|warns?)\b",
    ))
    .expect("detects regex")
});

/// A parenthesised list of elided examples, "(always …, never …, you must
/// …)", in a sentence that talks about wording: a catalogue, not an order.
static EXAMPLE_LIST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\(([^()\n]{0,200}?(…|\.\.\.)){2}[^()\n]{0,200}\)").expect("example list"));

fn mask_example_lists(text: &str) -> String {
    EXAMPLE_LIST
        .replace_all(text, |caps: &regex::Captures| {
            let m = caps.get(0).expect("whole match");
            let before = sentence_before(&text[..m.start()]);
            let after = sentence_after(&text[m.end()..]);
            if META.is_match(before) || META.is_match(after) || READS_AS.is_match(before) {
                " (QUOTED) ".to_owned()
            } else {
                m.as_str().to_owned()
            }
        })
        .into_owned()
}

static READS_AS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(reads? as|looks? like|such as|shaped like)\b").expect("reads-as regex"));

/// The up to 100 bytes before a span, cut at the last sentence break.
fn sentence_before(text: &str) -> &str {
    let start = (text.len().saturating_sub(100)..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let window = &text[start..];
    window.rfind(['\n', '.', '!', '?']).map_or(window, |i| &window[i + 1..])
}

/// The up to 100 bytes after a span, cut at the first sentence break.
fn sentence_after(text: &str) -> &str {
    let end = (0..=text.len().min(100)).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let window = &text[..end];
    window.find(['\n', '.', '!', '?']).map_or(window, |i| &window[..i])
}

/// Byte ranges (quotes included) of quoted spans of 1–60 characters:
/// "…", `…`, and '…' where the single quotes sit at word edges (so the
/// apostrophes in "don't" and "team's" are not taken for quotes).
fn quoted_spans(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (pos, c) = chars[i];
        if matches!(c, '"' | '`' | '\'') {
            let opens = c != '\''
                || i == 0
                || chars[i - 1].1.is_whitespace()
                || matches!(chars[i - 1].1, '(' | '[' | '{' | ':' | ',');
            if opens {
                let close = (i + 1..chars.len().min(i + 62)).take_while(|&j| chars[j].1 != '\n').find(|&j| {
                    chars[j].1 == c && (c != '\'' || chars.get(j + 1).is_none_or(|n| !n.1.is_alphanumeric()))
                });
                if let Some(j) = close.filter(|&j| j > i + 1) {
                    let end = chars[j].0 + c.len_utf8();
                    spans.push((pos, end));
                    i = j + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
    spans
}

#[cfg(test)]
mod tests {
    use crate::judge;

    #[test]
    fn a_spaced_dash_can_join_an_order_to_a_fact() {
        let v = judge("The schema is frozen - drop the old migrations.");
        assert!(v.reasons.iter().any(|r| r == "imperative:drop"), "{:?}", v.reasons);
        // A title with a dash keeps reading as a title.
        assert!(!judge("M7 - polish and hardening of the importer.").instruction);
        assert!(!judge("Importer - rewrite of the CSV reader landed in 2.3.").instruction);
        let v = judge("The parser is frozen (revert the pending changes).");
        assert!(v.reasons.iter().any(|r| r == "imperative:revert"), "{:?}", v.reasons);
        assert!(!judge("The parser (rewritten in 2.3) handles streaming input.").instruction);
    }
}
