//! Putting a safeguard back, in every language read here.
//!
//! A waiver often ends by forbidding the repair: "backups are off and must
//! not be switched back on", "ist deaktiviert und soll nicht wieder
//! eingeschaltet werden", "no hace falta reactivarlas". Its negation belongs
//! to the restoring, not to the waiver, so it denies nothing the sentence
//! tells. Only verbs of putting back count ("re-enable", "turn back on",
//! "wieder einschalten"), never a plain "turn on" or "turn off": "it is on
//! and must not be turned off" still denies.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// Verbs of putting a safeguard back, by language group.
const RESTORING: &str = concat!(
    r"\b(re-?enabl\w*|re-?activat\w*|reinstat\w*|re-?add\w*|re-?introduc\w*|",
    r"(turn|switch|put|bring|add|set)(s|ed|ing)?( (it|them|this|that))? back( on| in)?|",
    r"wieder (ein|an|zu|aktiv)\w*|reaktivier\w*|wieder(ein|an)\w*|",
    r"weer (aan|in|terug)\w*|meer aan|opnieuw (aan|in|activ)\w*|heractiv\w*|",
    r"réactiv\w*|remettre\w*|remis\w* en place|rallum\w*|rétabli\w*|",
    r"reactiv\w*|volver a (activ|encend|poner|habilit)\w*|rehabilit\w*|",
    r"reativ\w*|relig[aá]\w*|voltar a (ativ|ligar|habilit)\w*|",
    r"riattiv\w*|riaccend\w*|ripristin\w*|rimett\w*|",
    r"ponownie (włącz|aktyw)\w*|znów włącz\w*|przywróc\w*|",
    r"снова (включ|вкл)\w*|повторно (включ|вкл|увімк)\w*|вернуть\w*|верну\w*|возвраща\w*|знову (увімк|вмик)\w*|поверну\w*|поверта\w*|",
    r"επανενεργοποι\w*|ενεργοποι\w*( \w+)? ξαν[άα]|ξαναενεργοποι\w*|(yeniden|tekrar) (aç|etkinleştir|devreye|kısıtla|aktif)\w*|",
    r"znovu (zapn|povol|zapín)\w*|(slå|sätta|sätt) på igen|återaktiv\w*|aktivera igen|genaktiv\w*|slå til igen|",
    r"(ottaa|otettava|kytke\w*) uudelleen|uudelleen (käyttöön|päälle)|kembali (mengaktifkan|menyalakan|diaktifkan)|(mengaktifkan|menyalakan|diaktifkan|dinyalakan) (kembali|lagi)|",
    r"(bật|kích hoạt) lại)\b|再有効|再び有効|元に戻|重新(启用|开启|打开)|再次(启用|开启)|다시 (켜|활성)|재활성|",
    r"(להפעיל|להחזיר|יופעל|תופעל|יחזור)\w* מחדש|להחזיר|לחזור|יחזור|תחזור|إعادة (تفعيل|تشغيل)|(फिर से|दोबारा|पुनः) (चालू|सक्षम)",
);

static RESTORING_WORDS: LazyLock<Regex> = LazyLock::new(|| super::compile(RESTORING));

/// Whether `sentence` tells of a safeguard put back, with no negation
/// governing it: an episode that was repaired, not the way things are.
pub(crate) fn put_back(sentence: &str, negation: &Regex, affirming: &Regex) -> bool {
    RESTORING_WORDS.is_match(sentence)
        && RESTORING_WORDS.is_match(&without_negated_restoring(sentence, &[negation, affirming, &NOBODY_WORDS]))
}

/// "Nobody" and "no need" in every language read here: a repair nobody
/// needs to make is not made.
const NOBODY: &str = concat!(
    r"\b(nobody|no one|no need|nessun[oa]?|ninguém|nadie|personne|pas besoin|inutile|niemand|nicht nötig|",
    r"hoeft niet|niet nodig|nikdo|nemus\w*|není třeba|nikt|nie trzeba|nie ma (potrzeby|sensu)|никто|не нужно|",
    r"незачем|ніхто|не треба|не потрібно|κανείς|δεν χρειάζεται|kimse|gerek (yok|görülmüyor)|ingen|behöver inte|",
    r"ikke|kukaan|ei tarvitse|không cần|không|tidak perlu|tak perlu|tidak)\b|않|필요 없|不要|无需|不必|不用|",
    r"没有人|誰も|אף אחד|אין צורך|لا داعي|لا أحد|कोई नहीं|ज़रूरत नहीं|जरूरत नहीं",
);

static NOBODY_WORDS: LazyLock<Regex> = LazyLock::new(|| super::compile(NOBODY));

/// An English negation, for a repair that is forbidden ("must not be
/// re-enabled", "nobody turns it back on").
static ENGLISH_NEGATION: LazyLock<Regex> =
    LazyLock::new(|| super::compile(r"(\b(not|never|no one|nobody|no need to|no reason to)|n't)\b"));

/// [`without_negated_restoring`] for an English sentence.
pub(crate) fn english_without_negated_restoring(sentence: &str) -> Cow<'_, str> {
    without_negated_restoring(sentence, &[&ENGLISH_NEGATION])
}

/// How far a negation may stand from the restoring verb it governs.
const REACH: usize = 24;

/// `sentence` with each match of the `negations` that stands within [`REACH`]
/// characters of a restoring verb blanked out, and the verbs it governs
/// with it: "must not be re-enabled" leaves neither a denial nor a repair.
pub(crate) fn without_negated_restoring<'a>(sentence: &'a str, negations: &[&Regex]) -> Cow<'a, str> {
    let restoring: Vec<(usize, usize)> =
        RESTORING_WORDS.find_iter(sentence).take(16).map(|m| (m.start(), m.end())).collect();
    if restoring.is_empty() {
        return Cow::Borrowed(sentence);
    }
    let chars_between = |from: usize, to: usize| sentence.get(from..to).map_or(usize::MAX, |s| s.chars().count());
    let gap = |(a, b): (usize, usize), (c, d): (usize, usize)| {
        if b <= c {
            chars_between(b, c)
        } else if d <= a {
            chars_between(d, a)
        } else {
            0
        }
    };
    let mut blank = Vec::new();
    for m in negations.iter().flat_map(|n| n.find_iter(sentence).take(16)) {
        let governed: Vec<_> = restoring.iter().copied().filter(|&r| gap((m.start(), m.end()), r) <= REACH).collect();
        if !governed.is_empty() {
            blank.push((m.start(), m.end()));
            blank.extend(governed);
        }
    }
    if blank.is_empty() {
        return Cow::Borrowed(sentence);
    }
    let mut out = sentence.to_owned();
    for (start, end) in blank {
        out.replace_range(start..end, &" ".repeat(end - start));
    }
    Cow::Owned(out)
}
