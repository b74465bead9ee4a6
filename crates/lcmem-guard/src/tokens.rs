//! Text as pieces: words and what lies between them (for normalising), and a
//! clause's opening as the tokens the clause analysis (`imperative`) reads.

/// One token of a clause: a lower-cased word, a punctuation mark that
/// matters to clause structure, or anything else (paths, numbers, code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    Word(String),
    Punct(char),
    Other,
}

impl Tok {
    pub fn word(&self) -> Option<&str> {
        match self {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }
}

/// Tokenises the opening of a clause: the first 40 words are all the
/// clause analysis ever looks at, which keeps long clauses cheap.
pub(crate) fn tokenize(clause: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    for raw in clause.split_whitespace().take(40) {
        if is_bullet(raw) {
            toks.push(Tok::Punct('•'));
            continue;
        }
        // A single quoted word ('TEST', "type") is a quotation, not a verb.
        let bare = raw.trim_matches(|c: char| !c.is_alphanumeric() && !matches!(c, '\'' | '"'));
        if bare.len() >= 2
            && ((bare.starts_with('\'') && bare.ends_with('\'')) || (bare.starts_with('"') && bare.ends_with('"')))
        {
            toks.push(Tok::Other);
            continue;
        }
        let trimmed = raw.trim_end_matches([',', ';', ':', '(', ')', '!', '?', '.', '"']);
        let trailing: Vec<char> =
            raw[trimmed.len()..].chars().filter(|c| matches!(c, ',' | ';' | ':' | '(' | ')' | '?')).collect();
        let core = trimmed.trim_matches(|c: char| {
            matches!(c, '*' | '"' | '\'' | '(' | ')' | '[' | ']' | '{' | '}' | '#' | '>' | '•' | '_' | '~')
        });
        if raw.starts_with('(') && core.is_empty() {
            toks.push(Tok::Punct('('));
        }
        if !core.is_empty() {
            let is_word = core.chars().all(|c| c.is_alphabetic() || c == '\'' || c == '-')
                && core.chars().next().is_some_and(char::is_alphabetic);
            toks.push(if is_word { Tok::Word(core.to_lowercase()) } else { Tok::Other });
        }
        toks.extend(trailing.into_iter().map(Tok::Punct));
    }
    toks
}

/// List markers: `-`, `+`, `•`, `*`, `1.`, `2)`, `(3)`.
fn is_bullet(core: &str) -> bool {
    matches!(core, "-" | "+" | "•" | "*" | "--")
        || (core.len() <= 4
            && core.ends_with(['.', ')'])
            && core.trim_start_matches('(').trim_end_matches(['.', ')']).chars().all(|c| c.is_ascii_digit()))
}

/// Splits text into alternating word / non-word pieces, losslessly.
pub(crate) fn split_words(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let in_word = first.is_alphanumeric();
        let end = rest.char_indices().find(|&(_, c)| c.is_alphanumeric() != in_word).map_or(rest.len(), |(i, _)| i);
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        Some(piece)
    })
}
