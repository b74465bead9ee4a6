//! English word lists, shared by recall's tokeniser and the extractor's
//! grounding check: stop words, the words that only frame a question, and
//! irregular forms; and [`WordIndex`], how a token is looked up in them.

use std::sync::LazyLock;

/// The usual English stop words (the Snowball list): they carry no topic and
/// are present in nearly every message.
pub const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "d",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "ll",
    "m",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "ought",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "re",
    "s",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "t",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "ve",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// Words that only frame a question ("do you know …", "tell me …"): dropped
/// from queries, kept in documents.
pub const QUESTION_WORDS: &[&str] = &[
    "anything",
    "ever",
    "kind",
    "know",
    "likely",
    "many",
    "might",
    "much",
    "please",
    "probably",
    "recall",
    "remember",
    "something",
    "tell",
];

/// Irregular past forms and plurals, with the base form the stemmer then
/// reduces like any other word: the stemmer strips suffixes, so without this
/// "went" never meets "go", nor "wrote" "write", nor "built" "build". Kept
/// sorted. Forms that are as often another word are left out:
/// "won" (the "won" of "won't"), "bit" ("a bit"), "left", "lay", "rose",
/// "shot", "bore", "wound"; so are those of verbs that are stop words (was,
/// did, had).
pub const IRREGULAR: &[(&str, &str)] = &[
    ("arisen", "arise"),
    ("arose", "arise"),
    ("ate", "eat"),
    ("awoke", "awake"),
    ("awoken", "awake"),
    ("became", "become"),
    ("began", "begin"),
    ("begun", "begin"),
    ("bent", "bend"),
    ("bitten", "bite"),
    ("bled", "bleed"),
    ("blew", "blow"),
    ("blown", "blow"),
    ("bought", "buy"),
    ("bred", "breed"),
    ("broke", "break"),
    ("broken", "break"),
    ("brought", "bring"),
    ("built", "build"),
    ("burnt", "burn"),
    ("came", "come"),
    ("caught", "catch"),
    ("children", "child"),
    ("chose", "choose"),
    ("chosen", "choose"),
    ("crept", "creep"),
    ("dealt", "deal"),
    ("drank", "drink"),
    ("drawn", "draw"),
    ("dreamt", "dream"),
    ("drew", "draw"),
    ("driven", "drive"),
    ("drove", "drive"),
    ("drunk", "drink"),
    ("dug", "dig"),
    ("eaten", "eat"),
    ("fallen", "fall"),
    ("fed", "feed"),
    ("feet", "foot"),
    ("fell", "fall"),
    ("felt", "feel"),
    ("fled", "flee"),
    ("flew", "fly"),
    ("flown", "fly"),
    ("forbade", "forbid"),
    ("forbidden", "forbid"),
    ("forgave", "forgive"),
    ("forgiven", "forgive"),
    ("forgot", "forget"),
    ("forgotten", "forget"),
    ("fought", "fight"),
    ("found", "find"),
    ("froze", "freeze"),
    ("frozen", "freeze"),
    ("gave", "give"),
    ("given", "give"),
    ("gone", "go"),
    ("got", "get"),
    ("gotten", "get"),
    ("grew", "grow"),
    ("grown", "grow"),
    ("heard", "hear"),
    ("held", "hold"),
    ("hid", "hide"),
    ("hidden", "hide"),
    ("hung", "hang"),
    ("kept", "keep"),
    ("knelt", "kneel"),
    ("knew", "know"),
    ("known", "know"),
    ("leapt", "leap"),
    ("learnt", "learn"),
    ("led", "lead"),
    ("lent", "lend"),
    ("lit", "light"),
    ("lost", "lose"),
    ("made", "make"),
    ("meant", "mean"),
    ("men", "man"),
    ("met", "meet"),
    ("mice", "mouse"),
    ("mistaken", "mistake"),
    ("mistook", "mistake"),
    ("misunderstood", "misunderstand"),
    ("overcame", "overcome"),
    ("overridden", "override"),
    ("overrode", "override"),
    ("paid", "pay"),
    ("ran", "run"),
    ("rang", "ring"),
    ("rebuilt", "rebuild"),
    ("rewritten", "rewrite"),
    ("rewrote", "rewrite"),
    ("ridden", "ride"),
    ("risen", "rise"),
    ("rode", "ride"),
    ("rung", "ring"),
    ("said", "say"),
    ("sang", "sing"),
    ("sank", "sink"),
    ("sat", "sit"),
    ("saw", "see"),
    ("seen", "see"),
    ("sent", "send"),
    ("shaken", "shake"),
    ("shone", "shine"),
    ("shook", "shake"),
    ("shown", "show"),
    ("shrank", "shrink"),
    ("shrunk", "shrink"),
    ("slept", "sleep"),
    ("slid", "slide"),
    ("sold", "sell"),
    ("sought", "seek"),
    ("spent", "spend"),
    ("spoke", "speak"),
    ("spoken", "speak"),
    ("sprang", "spring"),
    ("sprung", "spring"),
    ("spun", "spin"),
    ("stole", "steal"),
    ("stolen", "steal"),
    ("stood", "stand"),
    ("stricken", "strike"),
    ("struck", "strike"),
    ("stuck", "stick"),
    ("stung", "sting"),
    ("sung", "sing"),
    ("sunk", "sink"),
    ("swam", "swim"),
    ("swept", "sweep"),
    ("swore", "swear"),
    ("sworn", "swear"),
    ("swum", "swim"),
    ("swung", "swing"),
    ("taken", "take"),
    ("taught", "teach"),
    ("teeth", "tooth"),
    ("thought", "think"),
    ("threw", "throw"),
    ("thrown", "throw"),
    ("told", "tell"),
    ("took", "take"),
    ("tore", "tear"),
    ("torn", "tear"),
    ("understood", "understand"),
    ("undid", "undo"),
    ("undone", "undo"),
    ("went", "go"),
    ("wept", "weep"),
    ("withdrawn", "withdraw"),
    ("withdrew", "withdraw"),
    ("woke", "wake"),
    ("woken", "wake"),
    ("women", "woman"),
    ("wore", "wear"),
    ("worn", "wear"),
    ("wove", "weave"),
    ("woven", "weave"),
    ("written", "write"),
    ("wrote", "write"),
];

/// Words at least this long are in no list.
const LONGEST: usize = 16;

/// A fixed list of words, found by their length and first byte: every token
/// of every text analysed is looked up in three lists, and a binary search
/// over a list costs seven or eight string comparisons, where a bucket of
/// this holds one or two words (none for most tokens).
pub struct WordIndex<V: 'static> {
    buckets: Vec<Vec<(&'static str, V)>>,
}

impl<V: Copy + 'static> WordIndex<V> {
    fn new(entries: impl IntoIterator<Item = (&'static str, V)>) -> WordIndex<V> {
        let mut buckets = vec![Vec::new(); LONGEST * 256];
        for (word, value) in entries {
            assert!(!word.is_empty() && word.len() < LONGEST, "{word:?} cannot be indexed");
            buckets[WordIndex::<V>::bucket(word)].push((word, value));
        }
        WordIndex { buckets }
    }

    fn bucket(word: &str) -> usize {
        word.len() * 256 + usize::from(word.as_bytes()[0])
    }

    /// The value listed with `word`, if it is listed.
    pub fn get(&self, word: &str) -> Option<V> {
        if word.is_empty() || word.len() >= LONGEST {
            return None;
        }
        self.buckets[WordIndex::<V>::bucket(word)].iter().find(|(w, _)| *w == word).map(|&(_, v)| v)
    }

    pub fn contains(&self, word: &str) -> bool {
        self.get(word).is_some()
    }
}

/// Whether `word` (case-folded) is an English stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP.contains(word)
}

static STOP: LazyLock<WordIndex<()>> = LazyLock::new(|| WordIndex::new(STOP_WORDS.iter().map(|&w| (w, ()))));
pub static QUESTION: LazyLock<WordIndex<()>> =
    LazyLock::new(|| WordIndex::new(QUESTION_WORDS.iter().map(|&w| (w, ()))));
pub static BASE_FORM: LazyLock<WordIndex<&'static str>> = LazyLock::new(|| WordIndex::new(IRREGULAR.iter().copied()));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_finds_exactly_the_listed_words() {
        for &w in STOP_WORDS {
            assert!(STOP.contains(w), "{w}");
            assert!(!STOP.contains(&format!("{w}s")) || STOP_WORDS.contains(&format!("{w}s").as_str()), "{w}s");
        }
        for &(form, base) in IRREGULAR {
            assert_eq!(BASE_FORM.get(form), Some(base));
        }
        for w in ["", "x", "thee", "them2", "a", "ab", "themselvesandmore", "ünder", "zzz"] {
            assert_eq!(STOP.contains(w), STOP_WORDS.contains(&w), "{w:?}");
            assert_eq!(QUESTION.contains(w), QUESTION_WORDS.contains(&w), "{w:?}");
        }
    }
}
