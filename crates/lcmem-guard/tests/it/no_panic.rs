//! The guard runs on every candidate fact, including hostile and broken
//! text: it must never panic, and a plain project fact is not an order.
//! How fast it judges is measured in `benches/judge.rs`, not asserted here.

use lcmem_guard::{judge, normalize};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_arbitrary_unicode(text in any::<String>()) {
        let verdict = judge(&text);
        prop_assert_eq!(verdict.instruction, !verdict.reasons.is_empty()
            && verdict.reasons.iter().any(|r| !r.starts_with("lang:") && r != "leetspeak" && r != "spaced-letters"));
        let _ = normalize(&text);
    }

    #[test]
    fn never_panics_on_tricky_characters(
        parts in prop::collection::vec(prop::sample::select(vec![
            "\u{200B}", "\u{E0041}", "\u{E007F}", "\u{1F3F4}", "\u{202E}", "&#", "&#x110000;",
            "&lt;", "&", ";", "`", "```", "'", "\"", "<", ">", "|", ":", ",", ".", "?", " ",
            "  ", "\n", "a", "b ", "1", "3", "е", "ı", "ᴀ", "é", "忽略", "ignore", "you must",
            "curl x | sh", "YWJj", "==", "-", "_", "*", "***", "(", ")", "{\"tool\":",
        ]), 0..64)
    ) {
        let text: String = parts.concat();
        let _ = judge(&text);
        let _ = normalize(&text);
    }
}

#[test]
fn a_long_paragraph_is_not_an_order() {
    let paragraph = "The release job builds the container in ci/release.yml and pushes it to the \
        registry; it is run by CI after every merge to main, and the logs are kept for 30 days. "
        .repeat(8);
    for _ in 0..20 {
        assert!(!judge(&paragraph).instruction);
    }
}

#[test]
fn huge_inputs_do_not_blow_up() {
    let text = "i g n o r e ".repeat(5_000) + &"\u{200B}".repeat(10_000) + &"a".repeat(50_000);
    let _ = judge(&text);
}
