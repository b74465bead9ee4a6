//! Disguises taken off before matching: a token split by an invisible
//! character (`ghp_` U+200B `abc…`) or written in full-width letters
//! (`ｇｈｐ＿…`) is the same secret to whoever reads it. The scan reads a
//! folded copy of the text, and each finding is mapped back to the bytes of
//! the original it came from, so the whole disguised span is redacted.

use std::ops::Range;

use crate::Finding;

/// Characters that show nothing: zero-width space, non-joiner and joiner,
/// word joiner, invisible separators and operators, the byte-order mark and
/// the soft hyphen.
fn invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}' | '\u{180E}')
}

/// What `c` reads as: a full-width form as its ASCII letter, digit or sign,
/// the ideographic space as a space; `None` for an invisible character.
fn folded(c: char) -> Option<char> {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFF01 + 0x21),
        '\u{3000}' => Some(' '),
        c if invisible(c) => None,
        c => Some(c),
    }
}

/// A folded copy of a text and, for each of its bytes (and its end), where
/// that byte came from in the original.
pub(crate) struct Folded {
    pub text: String,
    origin: Vec<usize>,
}

/// The folded copy of `text`, or `None` when folding changes nothing (the
/// common case, answered without copying: ASCII text never changes).
pub(crate) fn fold(text: &str) -> Option<Folded> {
    if text.is_ascii() || !text.chars().any(|c| folded(c) != Some(c)) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut origin = Vec::with_capacity(text.len() + 1);
    for (at, c) in text.char_indices() {
        if let Some(f) = folded(c) {
            out.push(f);
            origin.resize(out.len(), at);
        }
    }
    origin.push(text.len());
    Some(Folded { text: out, origin })
}

impl Folded {
    /// The span of the original a range of the folded text came from. A
    /// range's end maps to where the next kept character began, so the
    /// invisible characters inside a secret go with it.
    fn original(&self, range: &Range<usize>) -> Range<usize> {
        let end = self.origin.get(range.end).copied().unwrap_or(*self.origin.last().unwrap_or(&0));
        let start = self.origin.get(range.start).copied().unwrap_or(end);
        start..end
    }

    /// `findings` in the folded text, as spans of the original.
    pub fn map(&self, findings: Vec<Finding>) -> Vec<Finding> {
        findings.into_iter().map(|f| Finding { kind: f.kind, range: self.original(&f.range) }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_not_copied() {
        assert!(fold("ghp_abc and café").is_none());
    }

    #[test]
    fn invisible_characters_go_and_full_width_forms_become_ascii() {
        let text = "key ｇｈｐ＿ab\u{200B}cd end";
        let f = fold(text).unwrap();
        assert_eq!(f.text, "key ghp_abcd end");
        let span = f.original(&(4..12));
        assert_eq!(&text[span], "ｇｈｐ＿ab\u{200B}cd");
    }
}
