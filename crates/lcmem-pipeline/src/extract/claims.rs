//! How a sentence claims finished work, and how it hedges: the two word
//! families every part of the offline extractor reads a sentence by.

use std::sync::LazyLock;

use regex::Regex;

/// Verbs that report finished work when a sentence starts with them (after
/// any "I've" or "We"). Past tense only: "I'll add" is a plan, not an outcome.
pub(crate) static ACHIEVED: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)^(?:(?:i|we)(?:'ve|\s+have)?\s+|(?:i|we)\s+|just\s+|now\s+|also\s+|then\s+|done[:,\s—-]+\s*|finally\s+)*
        (added|fixed|shipped|tidied|released|bumped|refactored|migrated|implemented|removed|renamed|wrote|rewrote
        |updated|switched|replaced|extracted|split|moved|merged|created|deployed|tagged|documented|cleaned
        |reorgani[sz]ed|converted|introduced|deleted|dropped|upgraded|configured|enabled|disabled|ported
        |finished|completed|landed|resolved|patched|optimi[sz]ed|simplified|consolidated|published|restored
        |reverted|wired|hooked|set\s+up|sped\s+up|cut|trimmed|rebuilt|reworked|tightened|hardened|closed|truncated
        |shared|capped|limited|extended|exposed|built|made|swapped|rewired|unified|generalised|generalized|centrali[sz]ed
        |deduplicated|renamed|simplified|relaxed|restricted|allowed|blocked|guarded|validated|normali[sz]ed|cached)\b",
    )
});

/// Words that make a sentence a guess, a question or a plan rather than a fact.
pub(crate) static HEDGED: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(might|maybe|perhaps|probably|possibly|not sure|i think|could|would|should we|let's|let me|i'll|we'll|will|if|unless|whether|seems?|guess|todo|tbd)\b",
    )
});
