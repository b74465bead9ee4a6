//! Plain-text helpers for extraction: prose without code, and sentences.

pub use crate::plain::{clip, head, tail};


/// The prose of a message: fenced code blocks, indented code and quoted
/// lines removed, since they are content rather than what was said.
pub fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            out.push('\n');
            continue;
        }
        if in_fence || line.starts_with("    ") || line.starts_with('\t') || trimmed.starts_with('>') {
            out.push('\n');
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Splits prose into sentences: at `.`, `!` or `?` followed by white space,
/// and at line breaks (list items and headings are sentences of their own).
/// A full stop inside a token (`v1.0.4`, `cache.rs`) does not split.
pub fn sentences(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose.lines() {
        let line = strip_markup(line);
        if line.is_empty() {
            continue;
        }
        let mut start = 0;
        let bytes = line.as_bytes();
        // Inside an inline code span (`a. b`) nothing ends a sentence, unless
        // the span never closes on this line.
        let closes = bytes.iter().filter(|&&b| b == b'`').count() % 2 == 0;
        let mut in_code = false;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'`' && closes {
                in_code = !in_code;
            }
            let ends = !in_code
                && matches!(b, b'.' | b'!' | b'?')
                && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace())
                && !is_abbreviation(line.get(start..i).unwrap_or(""));
            if ends {
                push_sentence(&mut out, line.get(start..=i).unwrap_or(""));
                start = i + 1;
            }
        }
        push_sentence(&mut out, line.get(start..).unwrap_or(""));
    }
    out
}

fn push_sentence(out: &mut Vec<String>, s: &str) {
    let s = s.trim();
    if s.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
        out.push(s.to_string());
    }
}

fn is_abbreviation(before: &str) -> bool {
    let last = before.rsplit(|c: char| c.is_whitespace()).next().unwrap_or("");
    matches!(last.to_ascii_lowercase().as_str(), "e.g" | "i.e" | "etc" | "vs" | "cf" | "approx")
}

/// Drops list markers, heading hashes and emphasis from one line.
fn strip_markup(line: &str) -> String {
    let mut s = line.trim();
    loop {
        let before = s;
        for marker in ["- ", "* ", "+ ", "#", "> "] {
            s = s.strip_prefix(marker).unwrap_or(s).trim_start();
        }
        let digits = s.chars().take_while(char::is_ascii_digit).count();
        if let Some(rest) = s.get(digits..).and_then(|r| r.strip_prefix(". ")).filter(|_| digits > 0) {
            s = rest.trim_start();
        }
        if s == before {
            break;
        }
    }
    s.replace("**", "").replace("__", "")
}

/// Words too common to say anything about a text's subject, besides the
/// stop words: a model request's own field names and words any report has.
const COMMON: &[&str] = &["session", "user", "assistant", "made", "also", "just", "project", "using"];

/// The words of `text` that carry meaning: four letters or more, neither a
/// stop word nor a number, lower-cased.
pub(crate) fn content_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 4).map(str::to_lowercase).filter(|w| {
        !COMMON.contains(&w.as_str()) && !crate::word_lists::is_stop_word(w) && !w.chars().all(|c| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_keep_versions_and_file_names_whole() {
        let got = sentences("Tidied CHANGELOG.md for v1.0.4. Then ran the tests!\n- Bumped the version");
        assert_eq!(got, ["Tidied CHANGELOG.md for v1.0.4.", "Then ran the tests!", "Bumped the version"]);
    }

    #[test]
    fn sentences_are_never_cut_inside_inline_code() {
        let got = sentences("Set `retry.max = 3. Then restart` in the config. Done.");
        assert_eq!(got, ["Set `retry.max = 3. Then restart` in the config.", "Done."]);
        assert_eq!(sentences("An odd ` tick. Ends here."), ["An odd ` tick.", "Ends here."]);
    }

    #[test]
    fn prose_drops_code_and_quotes() {
        let p = prose("Fixed it.\n```sh\nrm -rf /\n```\n> quoted\n    indented\nDone.");
        assert_eq!(sentences(&p), ["Fixed it.", "Done."]);
    }

    #[test]
    fn clip_cuts_at_a_word() {
        assert_eq!(clip("short", 10), "short");
        let c = clip("one two three four five six", 12);
        assert!(c.ends_with('…') && c.chars().count() <= 12, "{c}");
    }
}
