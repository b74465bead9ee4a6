//! Text that is safe to show: no terminal control sequences, no characters
//! that reorder or hide what is displayed.
//!
//! Memory holds text a hostile repository may have written (titles, tool
//! output quoted in a summary, file names). An escape sequence in it could
//! write to the clipboard (OSC 52), hide text or move the cursor when a
//! command prints it; bidirectional controls can make a line read other than
//! it is. Every string bound for a memory file passes [`control_free`] at the
//! write boundary, and every string the front-ends print from transcripts
//! passes it on the way out.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal: C0 controls other than tab and
/// newline, DEL, C1 controls, and the bidirectional embedding, override and
/// isolate characters.
fn is_hidden_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` without control characters (tab and newline are kept).
pub fn control_free(text: &str) -> Cow<'_, str> {
    if text.chars().any(is_hidden_control) {
        Cow::Owned(text.chars().filter(|&c| !is_hidden_control(c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_bidi_controls_are_removed_and_plain_text_is_untouched() {
        let hostile = "Fixed it\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}\u{1b}[8m hidden\u{1b}[0m \u{202e}gnp.exe\u{9b}";
        assert_eq!(control_free(hostile), "Fixed it]52;c;ZWNobyBwd25lZA==[8m hidden[0m gnp.exe");
        let plain = "Tidied CHANGELOG.md for v1.0.4 — naïve café\tand\nmore";
        assert!(matches!(control_free(plain), Cow::Borrowed(_)));
    }
}
