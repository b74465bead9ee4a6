//! English phrase families that mark text as addressed to the agent.
//!
//! Each rule is one family of wording, written to generalise (synonyms,
//! optional qualifiers, word order) rather than to match a known string. The
//! rules read the `prose` view, where quoted mentions have already been
//! masked, so a sentence *about* an override ("the guard flags 'forget your
//! rules'") is not one.
//! Requests for secrets, prompts and memory writes live in [`crate::leaks`].

use std::sync::LazyLock;

use regex::Regex;

use crate::rules::{RuleTable, gap};

/// Overrides, orders addressed to "you" or to an agent by name, notes to
/// the AI, persona switches and fake regime changes.
static RULES: LazyLock<RuleTable> = LazyLock::new(|| {
    let ignore_prev = format!(
        concat!(
            r"(?i)\b(ignore|disregard|forget|overlook|neglect|dismiss)\b{g}\b(instructions?|",
            r"prompts?|directions?|directives?|commands?|messages?|",
            r"rules|guidelines|guidance|context|conversation|constraints|",
            r"restrictions|requests?|programming|training|polic(y|ies)|",
            r"boundaries|limits|limitations|safeguards|guardrails|ethics|",
            r"data|text|content|input|information|info|above|everything|",
            r"task|tasks|goal|goals|objective|mission|assignment)\b",
        ),
        g = gap!(40)
    );
    let skip_prev = format!(
        concat!(
            r"(?i)\b(skip|bypass|override|omit|discard|drop|abandon|",
            r"ditch|erase|clear|reset)\b{g}\b(previous|prior|preceding|",
            r"above|foregoing|earlier|initial|original|your|system)\b{g}\b(instructions?|",
            r"prompts?|directions?|directives?|commands?|messages?|",
            r"rules|guidelines|constraints|restrictions|programming|",
            r"data|conversation|context)\b",
        ),
        g = gap!(30)
    );
    let agent_modal = format!(
        concat!(
            r"(?im)(?:^|[^\w\s-]\s*|\b(?:the|an?|any|all|every|each|",
            r"our|your|this|that|these|those|for|ai|coding|llm|autonomous|",
            r"future|next|subsequent|later)\s+)(ai|a\.i\.|llms?|assistants?|",
            r"agents?|language models?|copilot|claude|chatgpt|codex|",
            r"sessions|instances)\b{g}\b(should|must|shall|is to|are to|",
            r"is expected to|are expected to|is required to|are required to|",
            r"needs? to|has to|have to|is supposed to|are supposed to|",
            r"is allowed to|are allowed to|may now|can now|will now|",
            r"is instructed to|are instructed to|is permitted to|are permitted to|",
            r"is authori[sz]ed to|are authori[sz]ed to|are exempt|is exempt|",
            r"are free to|is free to|are trusted to|is trusted to|need not|",
            r"needn't|(may|can) (now )?(skip|bypass|ignore|merge|force-push|",
            r"delete|disable|approve|publish|share|upload|send)|(may|",
            r"can) (now )?(run|execute) (any|all|every|arbitrary))\b",
        ),
        g = gap!(60)
    );
    let table: Vec<(&'static str, String)> = vec![
        ("override:ignore-previous", ignore_prev),
        ("override:ignore-previous", skip_prev),
        ("override:ignore-previous", concat!(
            r"(?i)\b(ignore|disregard|forget|overlook)\s+(what|whatever|",
            r"everything|anything|all)\s+(you|you've|you have)\s+(were|",
            r"was|have been|'ve been|been|got|received)?\s*(told|given|",
            r"instructed|asked|said)\b",
        ).into()),
        ("override:ignore-previous", concat!(
            r"(?i)\b(regardless of|no matter|irrespective of|in spite of|",
            r"despite) (your|any|all|the|previous|prior|pre-existing|",
            r"existing|earlier|what)\b[^.!?\n]{0,25}\b(instructions|",
            r"rules|guidelines|programming|restrictions|input|messages|",
            r"context|policies|says?|told)\b",
        ).into()),
        ("addressed:agent", concat!(
            r"(?i)\byour (new |next |real |actual |only |primary |current |",
            r"main |true )*(task|job|goal|mission|objective|purpose|",
            r"assignment)\s+(is|will be|now is)\b",
        ).into()),
        ("addressed:agent", concat!(
            r"(?i)\bif (you are|you're|you get) (told|asked|instructed|",
            r"prompted|requested) to (summari[sz]e|answer|review|translate|",
            r"assess|evaluate|analy[sz]e|describe|explain|respond|reply|",
            r"classify|check|grade|rate|process|read|look at|list|tell|",
            r"report|help|write)\b",
        ).into()),
        ("addressed:agent", r"(?i)\b(prefers?|wants|asks|expects|requires|insists|demands) that you\b".into()),
        ("addressed:agent", concat!(
            r"(?i)\b(expected|required|mandatory|customary|standard practice|",
            r"normal|acceptable|fine|okay|ok|allowed|permitted|policy|",
            r"usual)\b[^.!?\n]{0,30}\b(for|of) (an? |the |any |all |",
            r"every )?(ai|ai assistants?|assistants?|ai agents?|coding agents?|",
            r"llms?|language models?|copilot|claude)\s+((in|on|working|",
            r"here|this|repo|repository|project|codebase)\s+){0,4}to (\w+)\b",
        ).into()),
        ("pressure", concat!(
            r"(?i)\b(really|extremely|absolutely|critically|super|very|",
            r"incredibly|vitally) (important|urgent|critical)\W+((really|",
            r"extremely|absolutely|critically|super|very|incredibly|",
            r"vitally) )?(important|urgent|critical)\b|\b(crucial|critical|",
            r"imperative|vital|essential|important) (that )?you\b|\b(or|",
            r"otherwise) (i|we) (will|'ll|would) (be |get )?(punish\w*|",
            r"fired|penali[sz]ed|in trouble|lose my job)|\bcritical (to|",
            r"for) my (career|job)|\bmy (career|job|life) depends on",
        ).into()),
        ("override:new-instructions", concat!(
            r"(?im)^\s*(--+|\*+|#+|=+|>+|\[)\s*((core|new|updated|important|",
            r"priority|urgent|system|hidden|secret|real|additional|",
            r"legal)\s+)+(instructions?|directives?|amendment)\b",
        ).into()),
        ("override:new-instructions", concat!(
            r"(?m)^\W*((CORE|NEW|UPDATED|IMPORTANT|PRIORITY|URGENT|",
            r"SYSTEM|HIDDEN|SECRET|REAL|ADDITIONAL|LEGAL)\s+)+(INSTRUCTIONS?|",
            r"DIRECTIVES?|AMENDMENT)\b",
        ).into()),
        ("override:new-instructions", concat!(
            r"(?i)\bfollow (these|this|the following|my|the new|new) (instructions?|",
            r"directives?|orders)\b|\bspecial case\s*:\s*if\b",
        ).into()),
        ("code-injection", concat!(
            r"(?i)\b(following|below|subsequent|above|this|given) (code |",
            r"python |shell |bash |js |javascript )?(snippet|block|",
            r"excerpt|section|fragment|code)\b[^\n]{0,120}\byour (code|",
            r"implementation|solution|algorithm|codebase|response|program|",
            r"elucidation|answer|reply|project|app|script|output)\b|",
            r"\byour (code|implementation|solution|algorithm|codebase|",
            r"program)\b[^\n]{0,120}\b(following|below|subsequent) (code )?(snippet|",
            r"block|excerpt|section)\b",
        ).into()),
        ("override:new-instructions", concat!(
            r"(?im)(^|[*#\[>]|\bimportant\b|\burgent\b)\s*(urgent |",
            r"important |priority |emergency |new |updated |revised |",
            r"additional |real )+(instructions?|task|rules?|directives?|",
            r"orders)\s*([*\]:!]|$)",
        ).into()),
        ("override:new-instructions", r"(?i)\b(priority|urgent|emergency) task\s*[:*!]".into()),
        ("override:new-instructions", r"(?i)\bthe (real|actual|true) (instructions|rules|task) (are|is)\b".into()),
        ("imperative:from-now-on", concat!(
            r"(?i)\b(from now on|from this point (on|forward)|henceforth|",
            r"from here on( out)?|for all future (responses|answers|",
            r"replies|conversations))\b",
        ).into()),
        ("imperative:you-must", concat!(
            r"(?i)\b(you|u|you're|youre)\s+(really\s+|absolutely\s+|",
            r"now\s+|also\s+|always\s+)?(must|should|shall|need to|",
            r"have to|are required to|are expected to|are to|ought to|",
            r"will now|will always|will never|will only|are instructed to|",
            r"are obligated to|are ordered to|'re required to|'re expected to)\b",
        ).into()),
        ("addressed:your-response", concat!(
            r"(?i)\byour\s+((previous|prior|initial|original|starting|",
            r"system|hidden|secret|current|next|final|entire|full)\s+)*(responses?|",
            r"answers?|reply|replies|system prompt|prompt|instructions|",
            r"programming|guidelines|restrictions|directives)\b",
        ).into()),
        ("addressed:your-response", concat!(
            r"(?i)\byour\s+(previous|prior|initial|original|starting|",
            r"system|hidden|secret)\s+(configuration|rules|context|",
            r"setup)\b",
        ).into()),
        ("addressed:agent", concat!(
            r"(?i)\b(wants?|would like|'d like|expects?|instructs?|",
            r"instructed|told|orders?|ordered|needs?) you to\b",
        ).into()),
        ("addressed:agent", concat!(
            r"(?i)\b(i|we)\b[^.!?\n]{0,20}\b(authori[sz]e|allow|permit|",
            r"instruct|order|command|direct|ask|need|want|require|expect|",
            r"trust|encourage|urge|advise|beg)\w* you to\b",
        ).into()),
        ("addressed:agent", concat!(
            r"(?i)\b(you|you're)\s+(are\s+)?(now\s+)?(allowed|permitted|",
            r"authori[sz]ed|free|cleared|entitled)\s+to\b",
        ).into()),
        ("addressed:agent", concat!(
            r"(?i)\b(you've|you have|you are|you're) been (assigned|",
            r"given|tasked|chosen|selected|instructed|ordered|authori[sz]ed|",
            r"granted|asked)\b",
        ).into()),
        ("addressed:agent", concat!(
            r"(?i)\b(have|let|ask|tell|get|make) (your|the) (ai|assistant|",
            r"agent|coding agent|llm|copilot|bot|model)\b",
        ).into()),
        ("addressed:agent", agent_modal),
        // An agent's habit stated as a rule: "agents working here always
        // push straight to main".
        ("addressed:agent", concat!(
            r"(?i)\b(ai|assistants?|agents?|coding agents?|copilot|claude|codex|",
            r"language models?)\s+((working|operating|running|acting) (here|in ",
            r"this (repo|repository|project|codebase))\s+)?(always|never)\b",
        ).into()),
        ("addressed:agent", concat!(
            r"(?i)\b(behaviou?r|job|role|task|duty|responsibility) (of|",
            r"for) (an?|the|any) (ai|assistant|agent|llm|model|coding agent)\b[^.!?\n]{0,40}\bis to\b",
        ).into()),
        ("polite-request", concat!(
            r"(?i)\b(would you mind|would you be so kind|could you please|",
            r"can you please|would you please|will you please|could you kindly|",
            r"i'd appreciate it if|i would appreciate it if|it would be (great|",
            r"nice|helpful|appreciated) if you|i('d| would) like you to|",
            r"i want you to|i need you to|do me a favou?r)\b",
        ).into()),
        ("note-to-ai", concat!(
            r"(?i)\b(note|message|memo|reminder|notice|hint|directive|",
            r"instructions?|context|heads[- ]up|fyi|psa|warning|attention|",
            r"tip) (to|for) (the |any |all |every |an? |next |future )*(ai|",
            r"a\.i\.|llms?|assistants?|agents?|coding agents?|language models?|",
            r"chatbots?|copilot|claude|chatgpt|gpt|gemini|bots?)\b",
        ).into()),
        ("note-to-ai", concat!(
            r"(?i)\b(note|message|memo|notice) (to|for) (any |the |",
            r"all )?(automated|automatic|ai[- ]powered|llm[- ]based|",
            r"machine|ai-based)\b",
        ).into()),
        ("note-to-ai", concat!(
            r"(?i)\bdear (ai|llm|assistant|agent|model|claude|chatgpt|",
            r"gpt|copilot|gemini|language model|coding agent)\b",
        ).into()),
        ("note-to-ai", concat!(
            r"(?i)\b(ai|llms?|ai assistants?|ai agents?|coding agents?|",
            r"assistants?|language models?|bots?|agents?)\s+(reading|",
            r"processing|parsing|reviewing|scanning|indexing|summari[sz]ing|",
            r"that reads?|who reads?|working on)\s+(this|these)\b",
        ).into()),
        ("note-to-ai", concat!(
            r"(?i)\b(if|when) you('re| are) an? (ai|llm|language model|",
            r"assistant|agent|bot|coding agent|automated)\b",
        ).into()),
        ("note-to-ai", concat!(
            r"(?i)\b(todo|fixme|note|hack|xxx|nb)\s*\(\s*(ai|llm|agent|",
            r"assistant|claude|copilot|gpt|cursor|codex|bot)\s*\)",
        ).into()),
        ("note-to-ai", concat!(
            r"(?i)\b(hey|hi|hello|attention|attn|psst)\b[\s,:!]+(ai|",
            r"assistant|claude|agent|llm|copilot|chatgpt|gpt|gemini|",
            r"bot)\b",
        ).into()),
        ("note-to-ai", r"(?i)\bmessage from\b[^.!?\n]{0,60}\bto you\b".into()),
        ("note-to-ai", concat!(
            r"(?i)\bto you,? (the )?(coding agent|ai|assistant|agent|",
            r"llm|model|claude|chatgpt|copilot)\b",
        ).into()),
        ("role-play", concat!(
            r"(?i)\b(you are|you're|ur|you will be|you'll be)\s+(now|",
            r"no longer|from now on|henceforth)\b",
        ).into()),
        ("role-play", concat!(
            r"(?i)(^|\n|\byou\s+|\bplease\s+|\bnow\s+|\band\s+|[,:]\s*)(act|",
            r"behave|roleplay|role-play)\s+(as|like)\b",
        ).into()),
        ("role-play", r"(?i)\b(pretend|imagine)\b[^.!?\n]{0,10}\b(you are|you're|to be|that you|you have)\b".into()),
        ("role-play", r"(?i)\byou are (dan|an? (unrestricted|unfiltered|jailbroken|evil|uncensored|rogue)\b)".into()),
        ("role-play", concat!(
            r"(?i)\b(developer|dev|god|debug|admin|jailbreak|jailbroken|",
            r"unrestricted|unfiltered|dan|maintenance|sudo|root|unlocked|",
            r"evil|chaos)\s+mode\b[^.!?\n]{0,30}\b(activated|enabled|",
            r"engaged|on|unlocked)\b",
        ).into()),
        ("role-play", r"(?i)\byou('re| are) (now )?(operating|running|working|acting)? ?in \w+ mode\b".into()),
        ("role-play", concat!(
            r"(?i)\b(do anything now|no limits ai|not (subject|bound) to any (restrictions|",
            r"rules|guidelines|limitations)|(respond|answer|reply|generate|",
            r"operate|act)\w*\b[^.!?\n]{0,30}\bwithout (any )?(restrictions|",
            r"limitations|limits|filters|censorship))\b",
        ).into()),
    ];
    RuleTable::new("", table.iter().map(|(l, p)| (*l, p.as_str())))
});

/// "Could you (also) copy …", "Would you delete …": a question that is a
/// request, recognised by the verb after it.
static POLITE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(could|would|can|will)\s+you\s+((please|kindly|also|just|quickly|maybe|possibly|now)\s+)*([a-z'-]+)",
    )
    .expect("polite regex")
});

/// A direct question put to the reader about themselves or the asker
/// ("How can I …?", "What were you told …?"): text that asks the agent to
/// act, where a project fact would state.
static QUESTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)(?:^|[.!?\n]\s*)((how|what|which|who|where|when|why|",
        r"can|could|would|will|is|are|do|does|did|should|shall)\b[^.!?\n]{0,200}\?)",
    ))
    .expect("question regex")
});
static PERSONAL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)\b(i|me|my|you|your)\b").expect("personal regex"));

/// A `*** … ***` banner: in injected text it announces a new regime
/// ("*** NEW IMPORTANT INSTRUCTIONS ***"); in a project fact it would be
/// ordinary emphasis, so only shouting or regime words count.
static BANNER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\*{3}([^*\n]{3,160})\*{3}").expect("banner regex"));
static BANNER_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(instructions?|override|report only|mode|special case|directive)\b").expect("banner words")
});

fn is_banner(inner: &str) -> bool {
    let letters: Vec<char> = inner.chars().filter(|c| c.is_alphabetic()).collect();
    let upper = letters.iter().filter(|c| c.is_uppercase()).count();
    (letters.len() >= 4 && upper * 10 >= letters.len() * 6) || BANNER_WORDS.is_match(inner)
}

pub(crate) fn check(prose: &str, reasons: &mut Vec<String>) {
    if BANNER.captures_iter(prose).any(|c| c.get(1).is_some_and(|m| is_banner(m.as_str()))) {
        reasons.push("fake-system-message".to_owned());
    }
    let asks = QUESTION.captures_iter(prose).any(|c| c.get(1).is_some_and(|q| PERSONAL.is_match(q.as_str())));
    if asks {
        reasons.push("question-to-agent".to_owned());
    }
    RULES.check(prose, reasons);
    crate::leaks::check(prose, reasons);
    let polite = POLITE
        .captures_iter(prose)
        .any(|c| c.get(4).is_some_and(|v| crate::lexicon::is_verb(&v.as_str().to_lowercase())));
    if polite {
        reasons.push("polite-request".to_owned());
    }
}
