//! Tokenisation shared by the index and the scan: both paths must turn text
//! into exactly the same terms, or a query would rank differently depending on
//! whether the cache happens to exist.
//!
//! Text in a coding project mixes prose with identifiers, so a word is a run of
//! letters and digits that may be joined by `_ . / - : \ @ #` when another
//! letter or digit follows. Such a compound is emitted whole (`parse_config`,
//! `src/parser.rs`) and then as its parts, split on the joiners and on
//! camelCase boundaries (`parseConfigFile` → `parse`, `config`, `file`), so
//! that a question in plain words finds the identifier and an exact identifier
//! still ranks the place that spells it. Every token is case-folded, English
//! stop words are dropped, the past forms of irregular verbs (and a few
//! irregular plurals) become their base form, and the English Snowball
//! stemmer (tantivy's `Stemmer`) reduces the rest.

use tantivy::tokenizer::{Language, Stemmer, TextAnalyzer, Token, TokenStream, Tokenizer};

use crate::word_lists::{BASE_FORM, QUESTION, is_stop_word};
#[cfg(test)]
use crate::word_lists::{IRREGULAR, STOP_WORDS};

/// Tokens longer than this (base64 blobs, hashes glued into paths) are noise
/// for lexical search and would only bloat the index.
const MAX_TOKEN_BYTES: usize = 64;

/// Whether `c` may join two alphanumeric runs into one compound token.
fn is_joiner(c: char) -> bool {
    matches!(c, '_' | '.' | '/' | '-' | ':' | '\\' | '@' | '#')
}

/// Unicode case folding for search: lowercase, plus the two folds that
/// lowercasing alone misses in common text (ß → ss, final sigma).
fn fold_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            'ß' | 'ẞ' => out.push_str("ss"),
            'ς' => out.push('σ'),
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => out.extend(c.to_lowercase()),
        }
    }
}

/// Splits one part of a compound on camelCase: `parseHTTPRequest` →
/// `parse`, `HTTP`, `Request`. Letters and digits stay together (`utf8`,
/// `o200k`). Returns byte ranges.
fn camel_parts(word: &str, base: usize, out: &mut Vec<(usize, usize)>) {
    if word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
        // The common case, without collecting the characters.
        out.push((base, base + word.len()));
        return;
    }
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut start = 0;
    for i in 1..chars.len() {
        let (prev, cur) = (chars[i - 1].1, chars[i].1);
        let next_lower = chars.get(i + 1).is_some_and(|(_, c)| c.is_lowercase());
        let boundary =
            (prev.is_lowercase() && cur.is_uppercase()) || (prev.is_uppercase() && cur.is_uppercase() && next_lower);
        if boundary {
            out.push((base + chars[start].0, base + chars[i].0));
            start = i;
        }
    }
    if !chars.is_empty() {
        out.push((base + chars[start].0, base + word.len()));
    }
}

/// The raw word splitter, before folding, stop words and stemming.
#[derive(Clone, Copy, Default)]
pub struct CodeTokenizer {
    /// Also drop question-framing words (queries only).
    query: bool,
}

/// Tokens of one text, computed eagerly: texts are short and this keeps the
/// splitting logic in plain code rather than a state machine.
pub struct CodeTokenStream {
    tokens: Vec<Token>,
    next: usize,
}

impl TokenStream for CodeTokenStream {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }
    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }
    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

impl Tokenizer for CodeTokenizer {
    type TokenStream<'a> = CodeTokenStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> CodeTokenStream {
        let mut tokens = Vec::new();
        let query = self.query;
        split(text, |raw, from, to, position| {
            let mut folded = String::with_capacity(raw.len());
            let keep = fold_keep(raw, query, &mut folded);
            if keep {
                tokens.push(Token { offset_from: from, offset_to: to, position, text: folded, position_length: 1 });
            }
            keep
        });
        CodeTokenStream { tokens, next: 0 }
    }
}

/// Finds the compounds of `text` and offers each token to `emit` as `(raw
/// text, from, to, position)`; `emit` says whether it kept it.
fn split(text: &str, mut emit: impl FnMut(&str, usize, usize, usize) -> bool) {
    let mut position = 0;
    let mut chars = text.char_indices().peekable();
    let mut parts = Vec::new();
    let mut joined = String::new();
    while let Some((start, c)) = chars.next() {
        if !c.is_alphanumeric() {
            continue;
        }
        let mut end = start + c.len_utf8();
        let mut compound = false;
        while let Some(&(i, c)) = chars.peek() {
            if c.is_alphanumeric() {
                end = i + c.len_utf8();
                chars.next();
            } else if is_joiner(c) && text[i + c.len_utf8()..].chars().next().is_some_and(char::is_alphanumeric) {
                compound = true;
                chars.next();
            } else {
                break;
            }
        }
        let word = &text[start..end];
        parts.clear();
        if compound {
            let mut part_start = start;
            for (i, c) in word.char_indices() {
                if is_joiner(c) {
                    camel_parts(&text[part_start..start + i], part_start, &mut parts);
                    part_start = start + i + c.len_utf8();
                }
            }
            camel_parts(&text[part_start..end], part_start, &mut parts);
        } else {
            camel_parts(word, start, &mut parts);
        }
        let split_up = parts.len() > 1;
        if split_up {
            // `retry_count`, `retry-count` and `retryCount` are one name: a
            // compound joined only by `_` or `-` is kept as its parts run
            // together, so each spelling finds the others.
            if word.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
                joined.clear();
                parts.iter().for_each(|&(from, to)| joined.push_str(&text[from..to]));
                emit(&joined, start, end, position);
            } else {
                emit(word, start, end, position);
            }
        }
        let first = position;
        for &(from, to) in &parts {
            if emit(&text[from..to], from, to, position) {
                position += 1;
            }
        }
        if split_up && position == first {
            // Every part was a stop word: the compound alone holds the place.
            position += 1;
        }
    }
}

/// Folds `raw` into `out`; whether the token is kept (not a stop word, not
/// too long).
fn fold_keep(raw: &str, query: bool, out: &mut String) -> bool {
    out.clear();
    fold_into(out, raw);
    let keep = !(out.len() > MAX_TOKEN_BYTES || is_stop_word(out) || (query && QUESTION.contains(out)));
    if keep && let Some(base) = BASE_FORM.get(out) {
        out.clear();
        out.push_str(base);
    }
    keep
}

/// How many tokens the document analyser makes of `text` (stemming maps
/// one token to one), without building them: the length BM25 needs, for
/// text that tantivy itself tokenises.
pub fn count_tokens(text: &str) -> u32 {
    let mut buf = String::new();
    let mut count = 0;
    split(text, |raw, _, _, _| {
        let keep = fold_keep(raw, false, &mut buf);
        count += u32::from(keep);
        keep
    });
    count
}

/// The full analysis chain: [`CodeTokenizer`] then the English stemmer.
#[derive(Clone)]
pub struct Analyzer {
    inner: TextAnalyzer,
}

/// One analysed token: the term, its position (compounds share the position
/// of their first part) and its byte range in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub text: String,
    pub position: u32,
    pub from: usize,
    pub to: usize,
}

impl Analyzer {
    /// The analyser for stored text.
    pub fn documents() -> Analyzer {
        Analyzer::build(false)
    }

    /// The analyser for queries: the same chain, less question-framing words.
    pub fn queries() -> Analyzer {
        Analyzer::build(true)
    }

    fn build(query: bool) -> Analyzer {
        let inner = TextAnalyzer::builder(CodeTokenizer { query }).filter(Stemmer::new(Language::English)).build();
        Analyzer { inner }
    }

    /// Calls `sink` with every token of `text`.
    pub fn each(&mut self, text: &str, mut sink: impl FnMut(&Token)) {
        let mut stream = self.inner.token_stream(text);
        while stream.advance() {
            sink(stream.token());
        }
    }

    pub fn terms(&mut self, text: &str) -> Vec<Term> {
        let mut out = Vec::new();
        self.each(text, |t| {
            out.push(Term { text: t.text.clone(), position: t.position as u32, from: t.offset_from, to: t.offset_to })
        });
        out
    }

    /// The chain as tantivy's analyser, for the index to tokenise with.
    pub fn tantivy(&self) -> TextAnalyzer {
        self.inner.clone()
    }

    /// Tantivy's pre-tokenised form.
    pub fn tokens(&mut self, text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        let mut stream = self.inner.token_stream(text);
        while stream.advance() {
            out.push(std::mem::take(stream.token_mut()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        Analyzer::documents().terms(text).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn counting_agrees_with_the_analyser() {
        for text in ["The parseConfig_file of src/a.rs is_the best", "de-stress the the", "Straße ß ς", "a_the_of x"]
        {
            assert_eq!(count_tokens(text) as usize, Analyzer::documents().tokens(text).len(), "{text}");
        }
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]), "STOP_WORDS must stay sorted");
    }

    #[test]
    fn identifiers_keep_the_whole_and_give_their_parts() {
        assert_eq!(texts("parseConfigFile"), ["parseconfigfil", "pars", "config", "file"]);
        assert_eq!(texts("retry_count"), ["retrycount", "retri", "count"]);
        assert_eq!(texts("de-stress")[0], texts("destress")[0]);
        assert_eq!(texts("src/parser.rs"), ["src/parser.r", "src", "parser", "rs"]);
        assert_eq!(texts("HTTPServer"), ["httpserver", "http", "server"]);
    }

    #[test]
    fn irregular_forms_are_sorted_and_meet_their_base_form() {
        assert!(IRREGULAR.windows(2).all(|w| w[0].0 < w[1].0), "IRREGULAR must stay sorted");
        assert!(IRREGULAR.iter().all(|(form, base)| !is_stop_word(form) && !is_stop_word(base)));
        assert_eq!(texts("went going gone go"), ["go", "go", "go", "go"]);
        assert_eq!(texts("We wrote and rebuilt it"), texts("we write and rebuild it"));
        assert_eq!(texts("children"), texts("child"));
        assert_eq!(texts("won't"), ["won"]);
    }

    #[test]
    fn prose_is_folded_stemmed_and_stripped_of_stop_words() {
        assert_eq!(texts("The Retries were FAILING."), ["retri", "fail"]);
        assert_eq!(texts("Straße"), ["strass"]);
    }

    #[test]
    fn query_words_that_only_frame_a_question_are_dropped() {
        let q: Vec<String> =
            Analyzer::queries().terms("Do you know what we did about refunds?").into_iter().map(|t| t.text).collect();
        assert_eq!(q, ["refund"]);
    }

    #[test]
    fn positions_let_phrases_match_inside_identifiers() {
        let terms = Analyzer::documents().terms("call parseConfig now");
        let pos: Vec<(String, u32)> = terms.into_iter().map(|t| (t.text, t.position)).collect();
        assert_eq!(pos, [("call".into(), 0), ("parseconfig".into(), 1), ("pars".into(), 1), ("config".into(), 2)]);
    }
}
