//! English phrase families that mark text as addressed to the agent.
//!
//! Each rule is one family of wording, written to generalise (synonyms,
//! optional qualifiers, word order) rather than to match a known string. The
//! rules read the `prose` view, where quoted mentions have already been
//! masked, so a sentence *about* "ignore previous instructions" is not one.

use std::sync::LazyLock;

use regex::Regex;

/// Within one sentence: any run that does not cross a full stop or line.
macro_rules! gap {
    ($n:literal) => {
        concat!(r"[^.!?\n]{0,", $n, "}?")
    };
}

pub(crate) struct Rule {
    pub label: &'static str,
    pub re: Regex,
}

pub(crate) fn compile(table: &[(&'static str, &str)]) -> Vec<Rule> {
    table
        .iter()
        .map(|&(label, pattern)| Rule {
            label,
            re: Regex::new(pattern).unwrap_or_else(|e| panic!("rule {label}: {e}")),
        })
        .collect()
}

const SECRET_NOUNS: &str = r"(?:\b(?:secrets?|tokens?|api[ _-]?keys?|credentials?|passwords?|passwd|passphrases?|private[ _-]?keys?|ssh[ _-]?keys?|id_rsa|id_ed25519|kubeconfig|environment variables|env vars|env dump|cookies?|access[ _-]?keys?|secret[ _-]?keys?|keychain|seed phrase)\b|\.env\b|~/\.ssh|~/\.aws|\.aws/credentials|\.npmrc|\.netrc|\.pypirc|document\.cookie|secrets\.ya?ml|/etc/passwd|/etc/shadow)";

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let ignore_prev = format!(
        r"(?i)\b(ignore|disregard|forget|overlook|neglect|dismiss)\b{g}\b(instructions?|prompts?|directions?|directives?|commands?|messages?|rules|guidelines|guidance|context|conversation|constraints|restrictions|requests?|programming|training|polic(y|ies)|boundaries|limits|limitations|safeguards|guardrails|ethics|data|text|content|input|information|info|above|everything)\b",
        g = gap!(40)
    );
    let skip_prev = format!(
        r"(?i)\b(skip|bypass|override|omit|discard|drop|abandon|ditch|erase|clear|reset)\b{g}\b(previous|prior|preceding|above|foregoing|earlier|initial|original|your|system)\b{g}\b(instructions?|prompts?|directions?|directives?|commands?|messages?|rules|guidelines|constraints|restrictions|programming|data|conversation|context)\b",
        g = gap!(30)
    );
    let exfil_polite = format!(
        r"(?i)\b(please|kindly|pls|you|then|also|just)\s+(\w+\s+)?(send|e-?mail|mail|post|upload|forward|share|leak|exfiltrate|transmit|transfer|print|reveal|show|display|dump|output|paste|copy|list|give|tell|include|read|echo|expose|publish)\b{g}{SECRET_NOUNS}",
        g = gap!(60)
    );
    let exfil_dest = format!(
        r"(?i)\b(send|e-?mail|mail|post|upload|forward|share|leak|exfiltrate|transmit|transfer|copy|pipe|push|sync)\b{g}{SECRET_NOUNS}{g}\b(to|into|in)\s+(https?://|www\.|[\w.+-]+@[\w-]+\.|(the |a |this |that |my |our )?(public|external|remote|following|team|shared|personal)\b|(this|that|my|the following) (url|address|website|endpoint|server|webhook|email))",
        g = gap!(60)
    );
    let agent_modal = format!(
        r"(?im)(?:^|[^\w\s-]\s*|\b(?:the|an?|any|all|every|each|our|your|this|that|these|those|for|ai|coding|llm|autonomous)\s+)(ai|a\.i\.|llms?|assistants?|agents?|language models?|copilot|claude|chatgpt|codex)\b{g}\b(should|must|shall|is to|are to|is expected to|are expected to|is required to|are required to|needs? to|has to|have to|is supposed to|are supposed to|is allowed to|are allowed to|may now|can now|will now|is instructed to|are instructed to|is permitted to|are permitted to|is authori[sz]ed to|are authori[sz]ed to)\b",
        g = gap!(60)
    );
    let memory_write = format!(
        r"(?i)\b(store|save|write|record|remember|persist|add|put|keep|memori[sz]e|note|log)\b{g}\b(in|to|into)\s+(your |the |project |long[- ]term |persistent |permanent |agent |shared )+memory\b",
        g = gap!(40)
    );
    let pre_approved = format!(
        r"(?i)\b(user|owner|maintainers?|admins?|administrator|operator|human|developers?|team)\b{g}\b(pre-?approved|approved|authori[sz]ed|whitelisted|allowlisted|consented to|okayed|signed off on)\s+(all|every|any|each)\b",
        g = gap!(30)
    );
    let leak_verbs = r"(?i)\b(show|print|reveal|output|repeat|display|dump|leak|share|give|tell|send|expose|disclose|recite|read|return|spell[- ]?check|translate|encode|summari[sz]e|list|provide|write|see|paste|copy)\b( me| us| back| out)?( all| everything in| the contents of| the text of| what is in| what's in)?\s+";
    let leak_system = format!(r"{leak_verbs}((the|your|its|this|my|a|that)\s+)?((full|entire|complete|exact|original|initial|hidden|secret|starting|current|previous|prior)\s+)*(system prompt|system message|system instructions|developer message|pre-?prompt|(text|prompt|instructions|message) above)\b");
    let leak_own = format!(r"{leak_verbs}(((the|its|this|that)\s+)((full|entire|complete|exact|original|initial|hidden|secret|starting|previous|prior)\s+)+|your\s+((full|entire|complete|exact|original|initial|hidden|secret|starting|current|previous|prior)\s+)*)(instructions|prompt|configuration|rules|guidelines)\b");
    let table: Vec<(&'static str, String)> = vec![
        ("override:ignore-previous", ignore_prev),
        ("override:ignore-previous", skip_prev),
        ("override:ignore-previous", r"(?i)\bregardless of (your|any|all|the|previous|prior)\b[^.!?\n]{0,20}\b(instructions|rules|guidelines|programming|restrictions)\b".into()),
        ("override:new-instructions", r"(?im)(^|[*#\[>]|\bimportant\b|\burgent\b)\s*(urgent |important |priority |emergency |new |updated |revised |additional |real )+(instructions?|task|rules|directives?|orders)\s*([*\]:!]|$)".into()),
        ("override:new-instructions", r"(?i)\b(priority|urgent|emergency) task\s*[:*!]".into()),
        ("override:new-instructions", r"(?i)\bthe (real|actual|true) (instructions|rules|task) (are|is)\b".into()),
        ("imperative:from-now-on", r"(?i)\b(from now on|from this point (on|forward)|henceforth|from here on( out)?|for all future (responses|answers|replies|conversations))\b".into()),
        ("imperative:you-must", r"(?i)\b(you|u|you're|youre)\s+(really\s+|absolutely\s+|now\s+|also\s+|always\s+)?(must|should|shall|need to|have to|are required to|are expected to|are to|ought to|will now|will always|will never|will only|are instructed to|are obligated to|are ordered to|'re required to|'re expected to)\b".into()),
        ("addressed:your-response", r"(?i)\byour\s+((previous|prior|initial|original|starting|system|hidden|secret|current|next|final|entire|full)\s+)*(responses?|answers?|reply|replies|system prompt|prompt|instructions|programming|guidelines|restrictions|directives)\b".into()),
        ("addressed:your-response", r"(?i)\byour\s+(previous|prior|initial|original|starting|system|hidden|secret)\s+(configuration|rules|context|setup)\b".into()),
        ("addressed:agent", r"(?i)\b(wants?|would like|'d like|expects?|instructs?|instructed|told|orders?|ordered|needs?) you to\b".into()),
        ("addressed:agent", r"(?i)\b(you've|you have|you are|you're) been (assigned|given|tasked|chosen|selected|instructed|ordered|authori[sz]ed|granted|asked)\b".into()),
        ("addressed:agent", r"(?i)\b(have|let|ask|tell|get|make) (your|the) (ai|assistant|agent|coding agent|llm|copilot|bot|model)\b".into()),
        ("addressed:agent", agent_modal),
        ("addressed:agent", r"(?i)\b(behaviou?r|job|role|task|duty|responsibility) (of|for) (an?|the|any) (ai|assistant|agent|llm|model|coding agent)\b[^.!?\n]{0,40}\bis to\b".into()),
        ("polite-request", r"(?i)\b(would you mind|would you be so kind|could you please|can you please|would you please|will you please|could you kindly|i'd appreciate it if|i would appreciate it if|it would be (great|nice|helpful|appreciated) if you|i('d| would) like you to|i want you to|i need you to|do me a favou?r)\b".into()),
        ("note-to-ai", r"(?i)\b(note|message|memo|reminder|notice|hint|directive|instructions?|context) (to|for) (the |any |all |every |an? |next |future )*(ai|a\.i\.|llms?|assistants?|agents?|coding agents?|language models?|chatbots?|copilot|claude|chatgpt|gpt|gemini|bots?)\b".into()),
        ("note-to-ai", r"(?i)\bdear (ai|llm|assistant|agent|model|claude|chatgpt|gpt|copilot|gemini|language model|coding agent)\b".into()),
        ("note-to-ai", r"(?i)\b(ai|llms?|ai assistants?|ai agents?|coding agents?|assistants?|language models?|bots?|agents?)\s+(reading|processing|parsing|reviewing|scanning|indexing|summari[sz]ing|that reads?|who reads?|working on)\s+(this|these)\b".into()),
        ("note-to-ai", r"(?i)\b(if|when) you('re| are) an? (ai|llm|language model|assistant|agent|bot|coding agent|automated)\b".into()),
        ("note-to-ai", r"(?i)\btodo\s*\(\s*(ai|llm|agent|assistant|claude|copilot|gpt|cursor|codex|bot)\s*\)".into()),
        ("note-to-ai", r"(?i)\b(hey|hi|hello|attention|attn|psst)\b[\s,:!]+(ai|assistant|claude|agent|llm|copilot|chatgpt|gpt|gemini|bot)\b".into()),
        ("note-to-ai", r"(?i)\bmessage from\b[^.!?\n]{0,60}\bto you\b".into()),
        ("note-to-ai", r"(?i)\bto you,? (the )?(coding agent|ai|assistant|agent|llm|model|claude|chatgpt|copilot)\b".into()),
        ("role-play", r"(?i)\b(you are|you're|ur|you will be|you'll be)\s+(now|no longer|from now on|henceforth)\b".into()),
        ("role-play", r"(?i)(^|\n|\byou\s+|\bplease\s+|\bnow\s+|\band\s+|[,:]\s*)(act|behave|roleplay|role-play)\s+(as|like)\b".into()),
        ("role-play", r"(?i)\b(pretend|imagine)\b[^.!?\n]{0,10}\b(you are|you're|to be|that you|you have)\b".into()),
        ("role-play", r"(?i)\byou are (dan|an? (unrestricted|unfiltered|jailbroken|evil|uncensored|rogue)\b)".into()),
        ("role-play", r"(?i)\b(developer|dev|god|debug|admin|jailbreak|jailbroken|unrestricted|unfiltered|dan|maintenance|sudo|root|unlocked|evil|chaos)\s+mode\b[^.!?\n]{0,30}\b(activated|enabled|engaged|on|unlocked)\b".into()),
        ("role-play", r"(?i)\byou('re| are) (now )?(operating|running|working|acting)? ?in \w+ mode\b".into()),
        ("role-play", r"(?i)\b(do anything now|no limits ai|not (subject|bound) to any (restrictions|rules|guidelines|limitations)|(respond|answer|reply|generate|operate|act)\w*\b[^.!?\n]{0,30}\bwithout (any )?(restrictions|limitations|limits|filters|censorship))\b".into()),
        ("prompt-leak", leak_system),
        ("prompt-leak", leak_own),
        ("prompt-leak", r"(?i)\b(text|instructions|prompt|words|message|rules)\b[^.!?\n]{0,20}\byou (were|have been|'ve been|got) (given|told|provided|fed|shown)\b".into()),
        ("prompt-leak", r"(?i)\byou\b[^.!?\n]{0,15}\b(not|never)\b[^.!?\n]{0,10}\b(supposed|allowed|permitted) to\b".into()),
        ("prompt-leak", r"(?i)\bi was (instructed|told|programmed|asked) to\b".into()),
        ("prompt-leak", r"(?i)\(\s*(system_?prompt|systemprompt|system_message|initial_?prompt|instructions)\s*\)".into()),
        ("exfiltration", exfil_polite),
        ("exfiltration", exfil_dest),
        ("memory-poisoning", memory_write),
        ("memory-poisoning", pre_approved),
        ("memory-poisoning", r"(?i)\b(learned|learnt|remembered|saved|stored) (preference|fact|rule|memory|instruction)\s*:".into()),
        ("memory-poisoning", r"(?i)\b(treat|consider|regard)\b[^.!?\n]{0,50}\bas (coming from|if (it|they) came from|(instructions|commands|orders) from)\b".into()),
        ("jailbreak:evasion", r"(?i)\b(evade|circumvent|jailbreak|subvert|trick|fool|get around|sidestep|dodge)\b[^.!?\n]{0,30}\b(content filter\w*|content moderation|filters?|filtering|safety|guardrails?|safeguards?|polic(y|ies) enforcement|moderation|alignment|restrictions|censorship|detection)\b".into()),
        ("jailbreak:evasion", r"(?i)\b(bypass|disable|turn off|remove|override|break)\b[^.!?\n]{0,20}\b(content filter\w*|content moderation|guardrails?|safeguards?|polic(y|ies) enforcement|moderation|alignment|censorship|ethical (guidelines|constraints)|safety (controls?|filters?|guardrails?|training|measures|mechanisms|policies))\b".into()),
        ("hidden-text", r"(?i)\b(invisible to (humans|users|people|the user|readers)|hidden from (humans|users|the user|readers)|white[- ]text (metadata|instructions?|prompt|message|note)|visible (only )?to (the )?(llms?|ai|models?|agents?|assistants?)( scan\w*)?|hidden (instruction|instructions|prompt|message|directive)\s*:)".into()),
    ];
    let table: Vec<(&'static str, &str)> = table.iter().map(|(l, p)| (*l, p.as_str())).collect();
    compile(&table)
});

static SECRET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"(?i){SECRET_NOUNS}")).expect("secret regex"));

/// Does the text name a secret, a credential store or the user's data?
pub(crate) fn mentions_secret(text: &str) -> bool {
    SECRET.is_match(text)
}

pub(crate) fn check(prose: &str, reasons: &mut Vec<String>) {
    for rule in RULES.iter() {
        if rule.re.is_match(prose) {
            reasons.push(rule.label.to_owned());
        }
    }
}
