//! Turning hostile text into the text the guard judges.
//!
//! Session text can come from a repository written by an attacker, and the
//! cheapest way past a phrase filter is to make the phrase look different to
//! a program while it still reads the same to a model: invisible characters
//! between letters, instructions smuggled in Unicode tag characters, Cyrillic
//! look-alikes, fullwidth forms, `1gn0r3`, `i g n o r e`. Every rule in this
//! crate runs on the output of [`normalize`], so each trick only has to be
//! undone once, here. What was undone is recorded in [`Signals`] because the
//! disguise is itself evidence: benign project facts have no reason to hide.

use std::collections::HashMap;
use std::sync::LazyLock;

use unicode_normalization::UnicodeNormalization;

use crate::tokens::split_words;

/// What normalisation had to undo, used as evidence by the guard.
#[derive(Debug, Default, Clone)]
pub(crate) struct Signals {
    /// Invisible characters sitting against ASCII letters or digits (the
    /// shape of text split up to dodge a filter, unlike a lone BOM or the
    /// zero-width joiners inside emoji and Indic scripts).
    pub invisible_in_words: usize,
    /// ASCII text decoded from Unicode tag characters (not counting emoji
    /// subdivision flags, which legitimately use them).
    pub tag_chars: usize,
    /// Explicit bidi overrides (U+202D/U+202E), the Trojan Source trick.
    pub bidi_override: bool,
    /// Words mixing Latin letters with Cyrillic/Greek/IPA look-alikes.
    pub homoglyph_words: usize,
    /// Words written in leetspeak (`1gn0r3`).
    pub leet_words: usize,
    /// Runs of letters spelled out with spaces (`i g n o r e`).
    pub spaced_runs: usize,
    /// Rule words written with accents, repeated letters or a swapped last
    /// letter (`Álways`, `alwayz`).
    pub folded_words: usize,
}

/// Normalises `text` and reports what had to be undone.
pub(crate) fn normalize_with_signals(text: &str) -> (String, Signals) {
    let mut signals = Signals::default();
    let visible = strip_invisible(text, &mut signals);
    let unescaped = decode_entities(&visible);
    let folded: String = unescaped.nfkc().map(fold_punctuation).collect();
    let latin = map_homoglyphs(&folded, &mut signals);
    let unleet = crate::leet::map_leet(&latin, &mut signals.leet_words);
    let joined = join_spaced_letters(&unleet, &mut signals);
    let (plain, folded) = crate::folding::fold_rule_words(&joined);
    signals.folded_words = folded;
    (plain, signals)
}

/// True for characters that render as nothing (or only steer layout) and
/// therefore only ever hide or reorder text: zero-width spaces and joiners,
/// word joiner and invisible operators, BOM, soft hyphen, bidi controls.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{206A}'..='\u{206F}'
        | '\u{3164}' | '\u{FE00}'..='\u{FE0E}' | '\u{FEFF}' | '\u{FFA0}')
}

fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// Removes invisible characters and decodes tag characters to the ASCII
/// they shadow (U+E0041 is a hidden `A`), so hidden text gets judged too.
fn strip_invisible(text: &str, signals: &mut Signals) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_tag(c) {
            let start = i;
            while i < chars.len() && is_tag(chars[i]) {
                i += 1;
            }
            // Emoji subdivision flags: U+1F3F4, a few tag letters, CANCEL TAG.
            let flag = start > 0 && chars[start - 1] == '\u{1F3F4}' && i - start <= 7 && chars[i - 1] == '\u{E007F}';
            if !flag {
                for &t in &chars[start..i] {
                    let ascii = (t as u32) - 0xE0000;
                    if (0x20..0x7F).contains(&ascii) {
                        signals.tag_chars += 1;
                        out.push(char::from(ascii as u8));
                    }
                }
            }
            continue;
        }
        if is_invisible(c) {
            if matches!(c, '\u{202D}' | '\u{202E}') {
                signals.bidi_override = true;
            }
            let prev_ascii = i > 0 && chars[i - 1].is_ascii_alphanumeric();
            let next_ascii = chars.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric());
            if prev_ascii || next_ascii {
                signals.invisible_in_words += 1;
            }
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Decodes the HTML entities that can spell out markup or letters
/// (`&lt;|im_start|&gt;`, `&#105;gnore`), so escaped text reads as it
/// renders.
fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let tail = &rest[amp..];
        let entity =
            tail.find(';').filter(|&end| end <= 10).and_then(|end| entity_char(&tail[1..end]).map(|c| (c, end)));
        match entity {
            Some((c, end)) => {
                out.push(c);
                rest = &tail[end + 1..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity_char(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code).filter(|c| !c.is_control() || c.is_whitespace())
        }
    }
}

/// Folds typographic punctuation NFKC leaves alone onto ASCII, so `don’t`
/// and `don't` are the same word to every rule.
fn fold_punctuation(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{02BC}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}' | '\u{00BB}' => '"',
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        other => other,
    }
}

/// The Latin letter a look-alike from another script stands for. Only shapes
/// that are visually identical (or nearly) in common fonts are listed; Greek
/// `μ`, `π`, `Δ` and the like are real symbols in technical text and stay.
fn confusable(c: char) -> Option<char> {
    if c.is_ascii() {
        return None;
    }
    CONFUSABLES.get(&c).copied()
}

/// Each look-alike and the Latin letter it stands for.
static CONFUSABLES: LazyLock<HashMap<char, char>> = LazyLock::new(|| {
    [
        // Cyrillic
        ('а', 'a'),
        ('е', 'e'),
        ('ё', 'e'),
        ('о', 'o'),
        ('р', 'p'),
        ('с', 'c'),
        ('у', 'y'),
        ('х', 'x'),
        ('і', 'i'),
        ('ї', 'i'),
        ('ј', 'j'),
        ('ѕ', 's'),
        ('ԁ', 'd'),
        ('ԛ', 'q'),
        ('ԝ', 'w'),
        ('һ', 'h'),
        ('ӏ', 'l'),
        ('ү', 'y'),
        ('ɡ', 'g'),
        ('А', 'A'),
        ('В', 'B'),
        ('Е', 'E'),
        ('К', 'K'),
        ('М', 'M'),
        ('Н', 'H'),
        ('О', 'O'),
        ('Р', 'P'),
        ('С', 'C'),
        ('Т', 'T'),
        ('Х', 'X'),
        ('У', 'Y'),
        ('І', 'I'),
        ('Ј', 'J'),
        ('Ѕ', 'S'),
        ('Ԁ', 'D'),
        ('Ԛ', 'Q'),
        ('Ԝ', 'W'),
        ('Һ', 'H'),
        ('Ӏ', 'I'),
        ('Ү', 'Y'),
        // Greek
        ('Α', 'A'),
        ('Β', 'B'),
        ('Ε', 'E'),
        ('Ζ', 'Z'),
        ('Η', 'H'),
        ('Ι', 'I'),
        ('Κ', 'K'),
        ('Μ', 'M'),
        ('Ν', 'N'),
        ('Ο', 'O'),
        ('Ρ', 'P'),
        ('Τ', 'T'),
        ('Υ', 'Y'),
        ('Χ', 'X'),
        ('ο', 'o'),
        ('α', 'a'),
        ('ι', 'i'),
        ('κ', 'k'),
        ('ν', 'v'),
        ('ρ', 'p'),
        ('υ', 'u'),
        ('χ', 'x'),
        ('ϲ', 'c'),
        ('ϳ', 'j'),
        ('γ', 'y'),
        // Latin extensions and IPA that pass for plain letters
        ('ɑ', 'a'),
        ('ı', 'i'),
        ('ȷ', 'j'),
        ('ɩ', 'i'),
        ('ʏ', 'y'),
        ('ꞵ', 'b'),
        // Small capitals
        ('ᴀ', 'a'),
        ('ʙ', 'b'),
        ('ᴄ', 'c'),
        ('ᴅ', 'd'),
        ('ᴇ', 'e'),
        ('ꜰ', 'f'),
        ('ɢ', 'g'),
        ('ʜ', 'h'),
        ('ɪ', 'i'),
        ('ᴊ', 'j'),
        ('ᴋ', 'k'),
        ('ʟ', 'l'),
        ('ᴍ', 'm'),
        ('ɴ', 'n'),
        ('ᴏ', 'o'),
        ('ᴘ', 'p'),
        ('ʀ', 'r'),
        ('ꜱ', 's'),
        ('ᴛ', 't'),
        ('ᴜ', 'u'),
        ('ᴠ', 'v'),
        ('ᴡ', 'w'),
        ('ᴢ', 'z'),
        // Armenian
        ('օ', 'o'),
        ('ս', 'u'),
        ('ո', 'n'),
        ('հ', 'h'),
        ('ց', 'g'),
    ]
    .into_iter()
    .collect()
});

/// Dotless i is an ordinary letter in Turkish and Azerbaijani, so it is
/// mapped for judging but is not, on its own, evidence of a disguise.
fn is_weak_confusable(c: char) -> bool {
    c == 'ı'
}

/// Maps look-alike letters onto Latin inside words that already contain
/// Latin letters (`Ιgnοrе`). Whole words made only of look-alikes (`аѕ`) are
/// mapped too when the text as a whole is mostly Latin, so that a Russian or
/// Greek sentence is left as it is but an English one made of borrowed
/// letters is read as English.
fn map_homoglyphs(text: &str, signals: &mut Signals) -> String {
    if text.is_ascii() {
        return text.to_owned();
    }
    let mut latin = 0usize;
    let mut other = 0usize;
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        if c.is_ascii_alphabetic() {
            latin += 1;
        } else if confusable(c).is_none() && !is_latin_extended(c) {
            other += 1;
        }
    }
    // Text with no letters outside Latin and look-alikes (all small caps,
    // say) is Latin in disguise; otherwise the look-alikes must be rare.
    let mostly_latin = other == 0 || latin > other * 2;
    let mut out = String::with_capacity(text.len());
    for word in split_words(text) {
        let (ascii, conf, alien) = word.chars().fold((0, 0, 0), |(a, c, x), ch| {
            if ch.is_ascii_alphabetic() {
                (a + 1, c, x)
            } else if confusable(ch).is_some() {
                (a, c + 1, x)
            } else if ch.is_alphabetic() {
                (a, c, x + 1)
            } else {
                (a, c, x)
            }
        });
        let mixed = ascii > 0 && conf > 0 && alien == 0;
        let borrowed = mostly_latin && ascii == 0 && conf > 0 && alien == 0;
        if mixed || borrowed {
            // Only a word mixing scripts is evidence; a whole word in small
            // capitals or Cyrillic is mapped for reading but not counted.
            if mixed && word.chars().any(|ch| confusable(ch).is_some() && !is_weak_confusable(ch)) {
                signals.homoglyph_words += 1;
            }
            out.extend(word.chars().map(|ch| confusable(ch).unwrap_or(ch)));
        } else {
            out.push_str(word);
        }
    }
    out
}

/// A Latin letter with a mark ("é", "ß", "ş"), as opposed to another script.
pub(crate) fn is_latin_extended(c: char) -> bool {
    matches!(c, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}')
}

/// Joins letters spelled out with spaces (`i g n o r e`) back into words.
/// A run is four or more single letters separated by one to three spaces;
/// gaps of two or more spaces mark word breaks. When the run was spaced
/// evenly, the joined letters are split back into known words if possible.
fn join_spaced_letters(text: &str, signals: &mut Signals) -> String {
    let chars: Vec<char> = text.chars().collect();
    let single = |k: usize| {
        chars[k].is_alphabetic()
            && (k == 0 || !chars[k - 1].is_alphanumeric())
            && chars.get(k + 1).is_none_or(|c| !c.is_alphanumeric())
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if single(i) {
            // (letter, gap before it) pairs of the run starting at i.
            let mut run = vec![(chars[i], 0usize)];
            let mut j = i + 1;
            loop {
                let spaces = chars[j..].iter().take_while(|&&c| c == ' ').count();
                if (1..=3).contains(&spaces) && j + spaces < chars.len() && single(j + spaces) {
                    run.push((chars[j + spaces], spaces));
                    j += spaces + 1;
                } else {
                    break;
                }
            }
            if run.len() >= 4 {
                signals.spaced_runs += 1;
                let even = run.iter().skip(1).all(|&(_, gap)| gap == 1);
                let mut words: Vec<String> = vec![String::new()];
                for &(c, gap) in &run {
                    if gap >= 2 {
                        words.push(String::new());
                    }
                    words.last_mut().expect("non-empty").push(c);
                }
                let joined = words.join(" ");
                let joined = if even { crate::lexicon::segment(&joined) } else { None }.unwrap_or(joined);
                out.push_str(&joined);
                i = j;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    join_split_words(&out)
}

/// Re-joins known trigger words split by hyphens, dots or underscores
/// (`ig-nore`, `in.struc.tions`); ordinary compounds such as `force-push`
/// or `re-run` are not in the list and stay as written.
fn join_split_words(text: &str) -> String {
    if !text.contains(['-', '.', '_']) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_alphabetic()) {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = tail
            .char_indices()
            .find(|&(k, c)| {
                !(c.is_alphabetic()
                    || (matches!(c, '-' | '.' | '_') && tail[k + 1..].starts_with(|n: char| n.is_alphabetic())))
            })
            .map_or(tail.len(), |(k, _)| k);
        let word = &tail[..end];
        let joined: String = word.chars().filter(|c| c.is_alphabetic()).collect();
        if joined.len() < word.len() && crate::lexicon::is_segment_word(&joined.to_lowercase()) {
            out.push_str(&joined);
        } else {
            out.push_str(word);
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}
