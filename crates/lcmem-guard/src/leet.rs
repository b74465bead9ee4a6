//! Leetspeak read as letters (`1gn0r3`, `s3cr3ts 4r3 s4f3`), part of the
//! guard's normalisation.

use crate::tokens::split_words;

/// Reads leetspeak words as letters. Deliberately narrow: a word counts
/// when it mixes letters with the digits that stand for letters (0 1 3 4 5
/// 7), has at least as many letters as digits and no mixed case, and is
/// not a name with one trailing digit (`python3`, `ipv4`). Words are only
/// rewritten when two or more such words appear, since leetspeak comes in
/// sentences while `md5` or `gp3` come alone.
pub(crate) fn map_leet(text: &str, leet_words: &mut usize) -> String {
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return text.to_owned();
    }
    let is_leet = |word: &str| {
        let letters = word.chars().filter(|c| c.is_ascii_alphabetic()).count();
        let digits = word.chars().filter(|c| c.is_ascii_digit()).count();
        let mappable = word.chars().all(|c| c.is_ascii_alphabetic() || matches!(c, '0' | '1' | '3' | '4' | '5' | '7'));
        let mixed_case =
            word.chars().skip(1).any(|c| c.is_ascii_uppercase()) && word.chars().any(|c| c.is_ascii_lowercase());
        let name_with_number = digits == 1 && word.len() >= 4 && word.ends_with(|c: char| c.is_ascii_digit());
        (3..=20).contains(&word.len())
            && letters >= 1
            && digits > 0
            && letters >= digits
            && mappable
            && !mixed_case
            && !name_with_number
    };
    // A lone word counts when it could be nothing else: two digits or more
    // among letters that are not hexadecimal (`4lw4ys`, not `a3f5e1`).
    let unmistakable = |word: &str| {
        is_leet(word)
            && word.len() >= 5
            && word.chars().filter(char::is_ascii_digit).count() >= 2
            && word.chars().any(|c| c.is_ascii_alphabetic() && !c.is_ascii_hexdigit())
    };
    let count = split_words(text).filter(|w| is_leet(w)).count();
    if count < 2 && !split_words(text).any(unmistakable) {
        return text.to_owned();
    }
    *leet_words += count;
    // In a text written in leetspeak, two-character words are read too
    // (`1s`, `0f`), as long as one of them is a letter.
    let short_leet = |word: &str| {
        word.len() == 2
            && word.chars().any(|c| c.is_ascii_alphabetic())
            && word.chars().any(|c| matches!(c, '0' | '1' | '3' | '4' | '5' | '7'))
            && word.chars().all(|c| c.is_ascii_lowercase() || matches!(c, '0' | '1' | '3' | '4' | '5' | '7'))
    };
    // In a text written in leetspeak, a word of mappable characters with at
    // least one letter is read too, however many digits it has (`h00k5`).
    let in_leet = |word: &str| {
        word.len() >= 3
            && word.chars().any(|c| c.is_ascii_alphabetic())
            && word.chars().all(|c| c.is_ascii_lowercase() || matches!(c, '0' | '1' | '3' | '4' | '5' | '7'))
    };
    // Two-digit words that spell a short word (`15` is, `70` to).
    let digits_word = |word: &str| matches!(word, "15" | "70" | "17" | "45" | "47" | "0f" | "0n" | "0r");
    split_words(text)
        .map(|word| {
            if is_leet(word) || short_leet(word) || in_leet(word) || (count >= 3 && digits_word(word)) {
                word.chars()
                    .map(|c| match c {
                        '0' => 'o',
                        '1' => 'i',
                        '3' => 'e',
                        '4' => 'a',
                        '5' => 's',
                        '7' => 't',
                        other => other,
                    })
                    .collect()
            } else {
                word.to_owned()
            }
        })
        .collect()
}
