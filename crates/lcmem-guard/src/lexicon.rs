//! Word lists the English clause analysis leans on.
//!
//! The guard tells "Run cargo fmt before committing" (an order) from "Load
//! tests run manually" (a fact) by the shape of the clause, and the shape is
//! read with these lists: which words can open an imperative, which of those
//! are just as often nouns, which words mark a finite verb (and so a subject
//! before it). They are general English, not tuned to any corpus.

use std::collections::HashSet;
use std::sync::LazyLock;

fn set(words: &'static str) -> HashSet<&'static str> {
    words.split_whitespace().collect()
}

/// Base forms that can open an imperative addressed to the reader. `see`,
/// `note` and `refer` are left out on purpose: "See docs/ for details" is a
/// pointer, not an order worth withholding.
static VERBS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("accept access act activate add adjust allow alter amend append apply approve archive \
         ask assign assume attach avoid ban be begin behave block break bring build bump bypass \
         calculate call cancel capture change check checkout choose clean clear click clone close \
         collect combine comment commit compare compile complete compress compute concatenate \
         configure confirm connect consider contact continue convert copy create cut deactivate \
         debug decline decode decrypt delete deny deploy describe destroy determine disable \
         disclose disconnect discard display disregard do document download drop dump duplicate \
         echo edit email embed emit enable encode encrypt end enforce ensure enter erase escalate \
         evaluate execute exfiltrate exit expand explain export expose extract fetch fill filter \
         find finish fix flag flush follow force forget fork format forward generate get give go \
         grab grant grep guess handle hide ignore imagine implement import improve include \
         incorporate increase inject input insert install integrate invoke keep kill label launch \
         leak leave let list load lock log look make mark mention merge migrate modify monitor \
         mount move name navigate obey obtain omit open output overlook override overwrite paste \
         patch pause perform pin ping place post prefer prefix prepend preserve pretend prevent \
         print proceed produce prove provide publish pull purge push put query quote read reboot \
         rebase recommend record redirect refactor refresh reject release reload remember remove \
         rename render reorder repeat rephrase replace reply report request require reset resolve \
         respond restart restore retry return reveal reverse review revoke rewrite rm roleplay \
         rotate run save say scan schedule scrape search select send set share ship show shut \
         sign simulate skip sleep sort specify spell squash start stash state stay steal stop \
         store strip submit substitute sudo suggest summarise summarize suppress swap switch sync \
         tag take talk teach tell terminate test think touch track transfer translate transmit \
         treat trigger trust try turn type uncomment undo uninstall unlock unset update upgrade \
         upload use validate verify visit wait wipe wrap write blend answer pass pipe feed raise \
         lower split join regenerate rebuild recompile redeploy rerun retag revert resubmit \
         reformat lint benchmark vendor unpin silence mute tweak cap limit throttle escape \
         sanitize sanitise stick refrain hold mind beware watch double-check hand open employ \
         utilize utilise leverage enhance augment supplement introduce weave develop elevate \
         feature express hint allude promote highlight spread analyze analyse identify classify \
         help invert invite reserve buy purchase donate pay subscribe claim refine polish \
         paraphrase compose draft outline estimate predict assess rate rank critique correct \
         proofread transform solve design plan propose emphasize emphasise argue convince \
         persuade advertise notify inform remind greet thank apologize apologise congratulate \
         clarify elaborate shorten simplify modify conclude focus grant cache index bundle tune \
         profile batch version prune mirror annotate deprecate tidy triage backport cherry-pick \
         bisect stub mock seed snapshot paginate normalize normalise serialize hash scope gate \
         memoize debounce carry comply heed abide fulfil fulfill honour honor adopt")
});

/// Verbs that are never the first word of a noun phrase and often take a
/// whole clause as object ("Ensure CI passes", "Say the tests passed"), so
/// a finite verb after them is no sign of a subject.
static STRONG: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("ask assume avoid be disregard do ensure explain forget ignore imagine insist obey prefer \
         pretend proceed remember say tell verify")
});

/// Words that, right after an opening verb, show it is an imperative: the
/// verb has an object, an adverb or a prepositional phrase, not a subject.
static IMPERATIVE_NEXT: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("the a an this that these those all every each any some no your my our their his her \
         its it them me us him everything anything nothing something everyone before after \
         without instead using only directly always never again now first immediately manually \
         locally carefully up down out off over back away here there what whatever whichever how \
         whether if sure certain code quoted")
});

/// Prepositions: after the opening word they start either an order's
/// adverbial ("Check for updates") or a subject's modifier ("State for the
/// wizard is kept …"); only a finite verb later tells the two apart.
static PREPOSITIONS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("to with from in on at for into onto via of by between across against under per as \
         within inside through")
});

/// Auxiliaries and copulas: when one follows the opening word, that word
/// was a noun (a subject), as in "Email is queued by the worker".
static FINITE: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("is are was were has had will would can could may might must should shall does did \
         isn't aren't wasn't weren't hasn't won't can't cannot doesn't didn't shouldn't mustn't")
});

/// Third-person verb forms that are rarely plural nouns: a subject reading
/// when they follow the opening noun compound directly ("Type checking runs
/// in CI"), but not after a preposition, where "runs" in "between CI runs"
/// is a noun again.
static VERB3: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("goes lives happens runs uses comes takes gets needs depends belongs contains includes \
         requires means seems appears exists works fails passes points refers resides expires \
         lasts stays sits follows becomes remains holds keeps produces generates creates writes \
         reads relies defaults wraps lands serves handles stores sends emits consumes accepts \
         supports covers ships maps matches mirrors rotates varies differs talks speaks lacks hits \
         starts ends times stops retries falls shows grows propagates scales lags degrades hangs")
});

/// Base verbs that follow a plural noun subject: "Load tests use k6",
/// "Commit messages follow Conventional Commits".
static PLURAL_BASE: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("use run live go follow get need take stay come fail pass expire contain include require \
         depend happen exist belong point refer sit land remain rely default target wrap map hit \
         read write have do don't work match mirror cover ship emit produce support accept return \
         trigger start end time serve store send consume hold keep vary differ talk lack fall \
         retry share group define extend inherit reuse parse poll throw raise panic spawn \
         assert exercise reference expose propagate flow arrive")
});

/// Words after which a finite verb no longer tells anything about the
/// opening word (it belongs to a subordinate or relative clause).
static SCAN_STOP: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("that which who whom whose where when whenever if because so but since unless until \
         before after while whatever what how as than whether once though although")
});

/// Determiners and pronouns: after one of these, the words that follow are
/// an object, so a plural noun + verb pair is no longer a subject.
static DETERMINERS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("the a an this that these those your my our their its all every each any some no it \
         them me us him her everything anything nothing")
});

/// Openers that soften or sequence an order without changing it.
static FILLERS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("please pls plz kindly just simply also now then and so first firstly finally lastly \
         next immediately instead again additionally quickly carefully strictly ok okay oh yes \
         sure but step important urgent actually btw anyway well alright quick")
});

/// Names an agent answers to; used for vocatives ("Assistant, …") and for
/// notes addressed to it ("AI agents: …").
static AGENT_NOUNS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("ai llm llms assistant assistants agent agents claude chatgpt gpt copilot gemini codex \
         cursor bot bots model models chatbot")
});

/// Verbs that move data somewhere or show it, for exfiltration requests.
static EXFIL_VERBS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("send email mail post upload forward share leak exfiltrate transmit transfer print \
         reveal show display dump output paste copy cat list give tell include read echo expose \
         publish push commit attach write log put add insert append embed")
});

/// Verbs whose simple past is spelled like the base form ("put", "set",
/// "read"): alone at a clause opening they give an order, but coordinated
/// after a clause in the past tense they continue a report of finished work.
static AMBIGUOUS_PAST: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("put set cut let read split reset hit quit shut spread cast broadcast forecast upset bet bid \
         burst cost fit hurt knit rid shed slit spit thrust input output preset offset typeset \
         sublet inset unset recut reread misread proofread recast undercut outbid")
});

/// Irregular simple pasts that are not also base forms: a clause opening
/// with one reports what was done ("Wrote the migration …").
static IRREGULAR_PAST: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("wrote rewrote made remade took ran reran built rebuilt got gave found kept left sent \
         resent brought chose drew broke began did redid undid went saw held told said sold spent \
         stuck threw hid fed led dug won stole froze shook taught caught thought bought sought \
         meant lent bent dealt felt swept knew grew flew drove spoke woke forgot overrode \
         understood withdrew mistook overtook tore wore swore spun sped slid struck sank became \
         overwrote")
});

/// Words ending in "-ed" that are not past tenses.
static NOT_PAST: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("hundred kindred naked wicked sacred rugged ragged jagged crooked beloved infrared seabed \
         flatbed watershed shred embed")
});

/// Words known to the spaced-letter segmenter.
static SEGMENT_WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    set("ignore disregard forget all any previous prior above earlier instructions instruction \
         the system prompt you are now your and print reveal show send rules new always never \
         run must secrets secret token tokens password passwords key keys api env delete remove \
         execute command commands to a me my of in on for with this that is be do not don't act \
         as pretend admin developer mode override bypass safety filter push main commit force \
         approve approved user has every shell confirm confirmation without ask assistant ai \
         agent note dan jailbreak from remember tell what output repeat say")
});

pub(crate) fn is_verb(w: &str) -> bool {
    VERBS.contains(w)
}
pub(crate) fn is_strong_verb(w: &str) -> bool {
    STRONG.contains(w)
}
pub(crate) fn is_imperative_next(w: &str) -> bool {
    IMPERATIVE_NEXT.contains(w)
}
pub(crate) fn is_preposition(w: &str) -> bool {
    PREPOSITIONS.contains(w)
}
pub(crate) fn is_finite(w: &str) -> bool {
    FINITE.contains(w)
}
pub(crate) fn is_verb3(w: &str) -> bool {
    VERB3.contains(w)
}
pub(crate) fn is_plural_base(w: &str) -> bool {
    PLURAL_BASE.contains(w)
}
pub(crate) fn is_scan_stop(w: &str) -> bool {
    SCAN_STOP.contains(w)
}
pub(crate) fn is_determiner(w: &str) -> bool {
    DETERMINERS.contains(w)
}
pub(crate) fn is_filler(w: &str) -> bool {
    FILLERS.contains(w)
}
pub(crate) fn is_agent_noun(w: &str) -> bool {
    AGENT_NOUNS.contains(w)
}
pub(crate) fn is_exfil_verb(w: &str) -> bool {
    EXFIL_VERBS.contains(w)
}

pub(crate) fn is_ambiguous_past(w: &str) -> bool {
    AMBIGUOUS_PAST.contains(w)
}

/// Is `w` a form that can only be a simple past or participle: a regular
/// "-ed" form ("added", "bumped", "double-checked") or an irregular past
/// ("wrote")? Base forms spelled with "-ed" ("embed", "need") are not.
pub(crate) fn is_past_form(w: &str) -> bool {
    if IRREGULAR_PAST.contains(w) {
        return true;
    }
    let regular = w.len() >= 5
        && w.ends_with("ed")
        && !w.ends_with("eed")
        && w.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
        && !is_verb(w)
        && !is_plural_base(w)
        && !NOT_PAST.contains(w);
    // "Unused", "undefined": a negated participle is an adjective, unless
    // the stem is itself a verb ("unlocked", "unpinned").
    regular && (!w.starts_with("un") || past_stems(w).any(is_verb))
}

/// The base forms a regular "-ed" form may come from: "unlocked" → "unlock",
/// "untied" → "untie", "unpinned" → "unpin".
fn past_stems(w: &str) -> impl Iterator<Item = &str> {
    let bare = w.strip_suffix("ed").unwrap_or(w);
    let undoubled = bare.len() >= 2 && bare.as_bytes()[bare.len() - 1] == bare.as_bytes()[bare.len() - 2];
    [Some(bare), w.strip_suffix('d'), undoubled.then(|| &bare[..bare.len() - 1])].into_iter().flatten()
}

/// Verbs that place something at a destination ("put the key in …"):
/// whether that leaks depends on where the destination is.
static STORAGE_VERBS: LazyLock<HashSet<&'static str>> =
    LazyLock::new(|| set("put add insert append write copy paste move store save keep place stash include set"));

pub(crate) fn is_storage_verb(w: &str) -> bool {
    STORAGE_VERBS.contains(w)
}

/// Splits a run of letters with no word gaps (`ignorepreviousinstructions`)
/// into known words, preferring the fewest pieces; `None` when it cannot be
/// covered. Runs are short, so the quadratic search is cheap.
pub(crate) fn is_segment_word(w: &str) -> bool {
    SEGMENT_WORDS.contains(w)
}

pub(crate) fn segment(joined: &str) -> Option<String> {
    let lower = joined.to_lowercase();
    if !lower.is_ascii() || lower.len() > 200 {
        return None;
    }
    let n = lower.len();
    // best[i]: fewest words covering lower[..i], with the split point.
    let mut best: Vec<Option<(usize, usize)>> = vec![None; n + 1];
    best[0] = Some((0, 0));
    for end in 1..=n {
        for start in end.saturating_sub(14)..end {
            let Some((count, _)) = best[start] else { continue };
            if SEGMENT_WORDS.contains(&lower[start..end]) && best[end].is_none_or(|(c, _)| count + 1 < c) {
                best[end] = Some((count + 1, start));
            }
        }
    }
    best[n]?;
    let mut words = Vec::new();
    let mut end = n;
    while end > 0 {
        let (_, start) = best[end]?;
        words.push(&joined[start..end]);
        end = start;
    }
    words.reverse();
    (words.len() > 1).then(|| words.join(" "))
}
