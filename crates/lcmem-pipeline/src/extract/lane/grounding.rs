//! Whether what a model wrote is grounded in what it was sent: the share of
//! its content words that the request's evidence holds. A small model asked
//! to summarise a session it cannot follow writes fluent prose about "the
//! team" and "a new version"; those words are nowhere in the session. A
//! summary or fact below [`MIN_GROUNDING`] is not kept, whichever model
//! wrote it, and the offline lane's is used instead.

use std::collections::HashSet;

use crate::extract::text::content_words;

/// The least share of a text's content words that must be in the evidence.
pub const MIN_GROUNDING: f64 = 0.6;

/// The words of the request, and their five-letter stems, to look words up in.
pub struct Evidence {
    words: HashSet<String>,
    stems: HashSet<String>,
}

fn stem(word: &str) -> Option<String> {
    (word.chars().count() >= 6).then(|| word.chars().take(5).collect())
}

impl Evidence {
    pub fn of(text: &str) -> Evidence {
        let words: HashSet<String> = content_words(text).collect();
        let stems = words.iter().filter_map(|w| stem(w)).collect();
        Evidence { words, stems }
    }

    /// The share of `text`'s content words found in the evidence (by the
    /// word, or for longer words by its first five letters, so that
    /// "refactored" finds "refactoring"); 1 for a text of fewer than three,
    /// which is too short to judge.
    pub fn grounding(&self, text: &str) -> f64 {
        let (mut found, mut all) = (0usize, 0usize);
        for word in content_words(text) {
            all += 1;
            if self.words.contains(&word) || stem(&word).is_some_and(|s| self.stems.contains(&s)) {
                found += 1;
            }
        }
        if all < 3 { 1.0 } else { found as f64 / all as f64 }
    }

    pub fn grounded(&self, text: &str) -> bool {
        self.grounding(text) >= MIN_GROUNDING
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: &str = "Please move the cache from Redis to Postgres. I moved the cache to Postgres in \
        src/cache.rs, refactoring the connection pool, and updated its tests.";

    #[test]
    fn a_summary_in_the_sessions_words_is_grounded_and_invented_prose_is_not() {
        let evidence = Evidence::of(SESSION);
        assert!(evidence.grounded("Moved the cache from Redis to Postgres in src/cache.rs and updated the tests."));
        assert!(evidence.grounded("Refactored the connection pool while moving the cache to Postgres."));
        let invented = "The team has successfully merged the project with a new version of the service.";
        assert!(!evidence.grounded(invented), "{}", evidence.grounding(invented));
        assert!(evidence.grounded("Done."), "nothing to check");
    }
}
