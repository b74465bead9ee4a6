//! How a message is cut into the person's sentences: prose without what they
//! pasted, lines a terminal wrapped joined again, list items and sentence
//! ends in Western and East Asian scripts; and a sentence as memory keeps it.

use super::MAX_CHARS;
use crate::extract::clip;

/// What a document the person wrote says the project is: the paragraph
/// under a heading that describes it ("One-Line Description", "Overview",
/// "What we are building"), as a sentence about the document's subject (the
/// first heading's name: "PolyDot — Complete Build Specification" →
/// "PolyDot"). A specification pasted whole is mostly detail; this is the
/// line a teammate would keep of it.
pub(super) fn description(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let headings = lines.iter().filter(|l| l.starts_with('#')).count();
    if headings < 3 {
        return None;
    }
    let title = lines.iter().find(|l| l.starts_with('#'))?.trim_start_matches('#').trim();
    let name = title.split([' ', ':', '—', '-']).find(|w| !w.is_empty())?.trim();
    let describes = ["description", "overview", "summary", "what we are building", "what it is", "about"];
    let body_after = |at: usize| {
        let body: Vec<&str> = lines
            .iter()
            .skip(at + 1)
            .skip_while(|l| l.is_empty())
            .take_while(|l| !l.is_empty() && !l.starts_with('#'))
            .copied()
            .collect();
        body.join(" ")
    };
    let paragraph = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with('#') && describes.iter().any(|d| l.to_lowercase().contains(d)))
        .map(|(at, _)| body_after(at))
        .find(|p| (5..=60).contains(&p.split_whitespace().count()) && !p.starts_with(['-', '*', '|']))?;
    // "A decentralized market where …" names what the project is.
    let lower = paragraph.to_lowercase();
    let sentence = if ["a ", "an ", "the "].iter().any(|a| lower.starts_with(a)) {
        let mut chars = paragraph.chars();
        let lowered: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
        format!("{name} is {lowered}")
    } else {
        format!("{name}: {paragraph}")
    };
    sentence_of(&sentence)
}

/// A request to work on a text the person gives ("refine this message for
/// the pitch: …", "translate: …"): what follows is the text, not what they
/// say of the project.
pub(super) fn is_text_to_edit(text: &str) -> bool {
    let w = words(text);
    let edits = ["refine", "rewrite", "rephrase", "translate", "proofread", "shorten", "polish", "reword", "edit"];
    w.first().is_some_and(|v| edits.contains(&v.as_str()))
        || text.split_once(" > ").is_some_and(|(lead, _)| lead.split_whitespace().count() <= 12)
}

/// The paragraphs of a message that are the person's prose: code, quoted
/// lines and what they pasted (an error, a log) left out.
pub(super) fn paragraphs(text: &str) -> Vec<String> {
    let prose = crate::extract::text::prose(text);
    let mut out = Vec::new();
    let mut pasting = false;
    for block in prose.split("\n\n") {
        let block = block.trim();
        if block.is_empty() {
            continue;
        }
        // "I'm getting:" (and what follows it) is a paste, not prose.
        if pasting || looks_pasted(block) {
            pasting = false;
            continue;
        }
        pasting = block.trim_end().ends_with(':') && block.lines().count() == 1 && !is_rule_lead(block);
        out.push(block.to_string());
    }
    out
}

/// A lead-in to a list of rules ("the rules:", "conventions:").
pub(super) fn is_rule_lead(line: &str) -> bool {
    let lower = line.to_lowercase();
    ["rule", "convention", "guideline", "policy", "standard"].iter().any(|w| lower.contains(w))
}

/// Whether a block is output the person pasted: an error, a stack, a log.
pub(super) fn looks_pasted(block: &str) -> bool {
    let lower = block.to_lowercase();
    let first = lower.lines().next().unwrap_or("");
    let marks = ["error:", "error ", "exception", "traceback", "warning:", "failed", "panicked", "blocked by", "at "];
    marks.iter().any(|m| first.starts_with(m))
        || block.lines().filter(|l| l.trim_start().starts_with("at ") || l.contains("    at ")).count() >= 2
        || (lower.contains("file://") || lower.contains("http://") || lower.contains("https://"))
            && marks.iter().any(|m| lower.contains(m))
}

/// The lines of a paragraph as the person meant them: a list item or a
/// heading is a line of its own, and a line a narrow terminal wrapped goes
/// on with the next one.
pub(super) fn joined_lines(paragraph: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for raw in paragraph.lines() {
        let line = raw.trim();
        if line.is_empty() {
            open = false;
            continue;
        }
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        // "Font: Inter or Geist" on a line of its own is a line of its own.
        let labelled = line.split_once(": ").is_some_and(|(label, _)| {
            label.chars().next().is_some_and(char::is_uppercase) && label.split_whitespace().count() <= 3
        });
        let item = labelled
            || line.starts_with(['-', '*', '+', '#', '>', '|'])
            || (digits > 0
                && line.get(digits..).is_some_and(|r| r.starts_with(". ") || r.starts_with(") ") || r.starts_with(": ")));
        match out.last_mut() {
            Some(last) if open && !item => {
                last.push(' ');
                last.push_str(line);
            }
            _ => out.push(line.to_string()),
        }
        // A line that ends its sentence (or a heading, or a label) ends it.
        open = !line.ends_with(['.', '!', '?', ':', '。', '！', '？']) && !line.starts_with('#');
    }
    out
}

/// The sentences of a paragraph, at Western and East Asian sentence ends,
/// each a list item or line of its own.
pub(super) fn sentences(paragraph: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in joined_lines(paragraph) {
        let line = line.trim().trim_start_matches(['-', '*', '+', '>', '#']).trim();
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            current.push(c);
            // A full stop ends a sentence before white space, or before the
            // quote or bracket that closes around it (`… be moved." Make …`).
            let western = matches!(c, '.' | '!' | '?')
                && chars.peek().is_none_or(|n| n.is_whitespace() || matches!(n, '"' | '\'' | ')' | '”' | '’'));
            if western {
                while let Some(&close) = chars.peek().filter(|n| matches!(n, '"' | '\'' | ')' | '”' | '’')) {
                    current.push(close);
                    chars.next();
                }
            }
            let eastern = matches!(c, '。' | '！' | '？' | '；');
            if western || eastern {
                push(&mut out, &current);
                current.clear();
            }
        }
        push(&mut out, &current);
    }
    out
}

pub(super) fn push(out: &mut Vec<String>, sentence: &str) {
    // A list's numbering ("1:", "2)") is no part of the sentence.
    let digits = sentence.trim_start().chars().take_while(char::is_ascii_digit).count();
    let sentence = match sentence.trim_start().get(digits..) {
        Some(rest) if digits > 0 && rest.starts_with([':', ')', '.']) => rest.get(1..).unwrap_or(""),
        _ => sentence,
    };
    let sentence = sentence.trim();
    if sentence.chars().filter(|c| c.is_alphanumeric()).count() >= 4 {
        out.push(sentence.to_string());
    }
}

/// The sentence without its Markdown emphasis (`**bold**`, `*it*`,
/// `_it_`); an underscore inside a word (`member_id`) stays.
pub(super) fn unmarked(sentence: &str) -> String {
    let words: Vec<String> = sentence
        .split_whitespace()
        .map(|w| {
            let w = w.replace("**", "").replace("__", "").replace('\u{200b}', "");
            let inner = w.trim_matches(|c: char| c == '*' || c == '_');
            let (lead, trail) = (w.len() - w.trim_start_matches(['*', '_']).len(), w.len() - w.trim_end_matches(['*', '_']).len());
            if lead > 0 || trail > 0 { inner.to_string() } else { w.clone() }
        })
        .filter(|w| !w.is_empty())
        .collect();
    words.join(" ")
}

pub(super) fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’').to_lowercase())
        .filter(|w| !w.is_empty())
        .map(|w| w.replace('’', "'"))
        .collect()
}

/// The sentence as memory keeps it: capitalised, one full stop, clipped;
/// `None` for a fragment that ends on a word that needs more after it ("the
/// usage will be").
pub(super) fn sentence_of(text: &str) -> Option<String> {
    let mut text = text.trim().trim_end_matches([',', ';', ':', ' ']).to_string();
    // A closing quote with no opening one in the sentence is the end of a quotation.
    for quote in ['"', '”'] {
        if text.ends_with(quote) && text.matches(['"', '“', '”']).count() % 2 == 1 {
            text.pop();
        }
    }
    let text = text.trim_end();
    if text.split_whitespace().count() < 3 || text.chars().filter(|c| c.is_alphanumeric()).count() < 10 {
        return None;
    }
    let last = words(text).last().cloned().unwrap_or_default();
    let dangling = ["be", "is", "are", "was", "the", "a", "an", "to", "of", "with", "for", "and", "or", "but", "in"];
    if dangling.contains(&last.as_str()) {
        return None;
    }
    let text = clip(text, MAX_CHARS);
    let text = capitalised(&text);
    Some(if text.ends_with(['.', '!', '…', '。']) { text } else { format!("{text}.") })
}

pub(super) fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
