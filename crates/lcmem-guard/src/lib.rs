//! The instruction guard: does this text read as an order to the agent?
//!
//! lcmem promotes facts it has seen in several sessions into trusted memory.
//! Against a hostile repository, repetition is not corroboration: a planted
//! file is still checked out next session. So text that reads as an order
//! (an imperative, an override, a fake system turn, a shell pipe, a request
//! to leak secrets …) must never promote itself; it waits for a human. This
//! crate makes that one decision, for every candidate fact, cheaply.
//!
//! The pipeline: [`normalize`] undoes disguises (hidden characters, tag
//! smuggling, look-alike letters, leetspeak, spaced-out letters, HTML
//! entities) and notes that it had to; the normalised text is cut into
//! views (`text`); then rule families vote: clause openings
//! (`imperative`), English phrase families (`english`, `leaks`), orders
//! phrased as policy or permission ("skipping review is fine", `policy`),
//! other languages (`languages`), structural markers (`markers`) and shell
//! pipes (`shell`), and what a statement has the agent do or where it sends
//! the project's data (`acts`). Base64 blobs and reversed text are decoded and judged too
//! (`encoded`). Any decisive reason makes the text an instruction; the
//! reasons say why. Pattern tables are compiled once, on first use.

#![forbid(unsafe_code)]

mod acts;
mod encoded;
mod english;
mod exposure;
mod folding;
mod imperative;
mod languages;
mod leaks;
mod leet;
mod lexicon;
mod markers;
mod normalize;
mod policy;
mod rules;
mod shell;
mod switched_off;
mod text;
mod tokens;
#[cfg(test)]
mod twins;
mod waiver;
mod waiver_languages;
mod waiver_words;
mod wiped;

/// The guard's decision on one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// True when the text reads as an order to the agent.
    pub instruction: bool,
    /// Short machine-readable labels for every rule that fired, in the
    /// order found, without duplicates (e.g. `imperative:always`,
    /// `override:ignore-previous`, `shell-pipe`, `hidden-characters`,
    /// `lang:fr`). Informational labels (`lang:*`, `leetspeak`,
    /// `spaced-letters`) may appear on a benign verdict.
    pub reasons: Vec<String>,
}

/// Labels that describe the text without, on their own, making it an order.
fn is_informational(reason: &str) -> bool {
    reason.starts_with("lang:") || matches!(reason, "leetspeak" | "spaced-letters" | "folded-spelling")
}

/// Judges one text. Never panics; roughly linear in the input.
pub fn judge(text: &str) -> Verdict {
    let (mut reasons, normalized) = collect_reasons(text);
    // Accents on English words ("Thë API kéy is safe to pôst") are read
    // once more without them.
    if let Some(plain) = folding::without_accents(&normalized) {
        let (more, _) = collect_reasons(&plain);
        if more.iter().any(|r| !is_informational(r)) {
            reasons.push("folded-spelling".to_owned());
            reasons.extend(more);
        }
    }
    // Base64 blobs and reversed text are judged once more, decoded (one
    // level deep: an encoded text inside an encoded text is not chased).
    for (label, hidden) in encoded::hidden_texts(&normalized) {
        let (inner, _) = collect_reasons(&hidden);
        if inner.iter().any(|r| !is_informational(r)) {
            reasons.push(label.to_owned());
            reasons.extend(inner);
        }
    }
    let mut seen = std::collections::HashSet::new();
    reasons.retain(|r| seen.insert(r.clone()));
    let instruction = reasons.iter().any(|r| !is_informational(r));
    Verdict { instruction, reasons }
}

/// Every rule that fires on `text` (possibly with duplicates), and the
/// normalised text they read.
fn collect_reasons(text: &str) -> (Vec<String>, String) {
    let (normalized, signals) = normalize::normalize_with_signals(text);
    let mut reasons = Vec::new();
    if signals.tag_chars > 0 {
        reasons.push("hidden-characters".to_owned());
        reasons.push("unicode-tags".to_owned());
    }
    // A lone BOM or an invisible joiner in an emoji is everyday text; three
    // or more invisible characters wedged against letters is a disguise.
    if signals.invisible_in_words >= 3 {
        reasons.push("hidden-characters".to_owned());
    }
    if signals.bidi_override {
        reasons.push("bidi-controls".to_owned());
    }
    if signals.homoglyph_words > 0 {
        reasons.push("homoglyphs".to_owned());
    }
    if signals.leet_words > 0 {
        reasons.push("leetspeak".to_owned());
    }
    if signals.spaced_runs > 0 {
        reasons.push("spaced-letters".to_owned());
    }
    if signals.folded_words > 0 {
        reasons.push("folded-spelling".to_owned());
    }

    // Shell shapes are read both as written and normalised: normalising
    // reveals hidden ones, but it may also rewrite names such as `python3`.
    shell::check(text, &mut reasons);
    shell::check(&normalized, &mut reasons);
    let views = text::views(&normalized);
    markers::check(&views.masked, &mut reasons);
    english::check(&views.prose, &mut reasons);
    let findings = views
        .clauses
        .iter()
        .map(|c| (c, imperative::analyse(&c.text, c.narrated)))
        .chain(views.after_comma.iter().map(|c| (c, imperative::analyse_after_comma(&c.text, c.narrated))));
    for (clause, finding) in findings {
        if imperative::is_exfil(&finding, &clause.text) {
            reasons.push("exfiltration".to_owned());
        }
        reasons.extend(finding.reasons);
    }
    policy::check(&views.clauses, &mut reasons);
    waiver::check(&views.prose, &mut reasons);
    waiver_languages::check(&views.prose, &normalized, &mut reasons);
    acts::check(&views.prose, &normalized, &mut reasons);
    exposure::check(&views.prose, &mut reasons);
    switched_off::check(&views.prose, &normalized, &mut reasons);
    wiped::check(&views.prose, &mut reasons);
    languages::check(&views.prose, &views.clauses, &mut reasons);
    // The text as written too: normalising folds some letters of other
    // languages to ASCII (the Turkish dotless i).
    if folding::rule_in_other_language(&views.prose) || folding::rule_in_other_language(text) {
        reasons.push("rule-in-other-language".to_owned());
    }
    (reasons, normalized)
}

/// Shorthand for `judge(text).instruction`.
pub fn is_instruction(text: &str) -> bool {
    judge(text).instruction
}

/// The text the guard actually judges: invisible characters removed, tag
/// characters decoded to the ASCII they hide, NFKC applied (fullwidth forms
/// and ligatures folded), typographic quotes and dashes folded to ASCII,
/// look-alike letters mapped to Latin inside Latin words, leetspeak words
/// read as letters, and spaced-out letters joined. Exposed so tests and
/// debugging can see what a rule saw.
pub fn normalize(text: &str) -> String {
    normalize::normalize_with_signals(text).0
}
