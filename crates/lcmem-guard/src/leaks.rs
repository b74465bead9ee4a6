//! Requests to leak: the system prompt, secrets, the conversation; and
//! attempts to write into the agent's memory or argue it out of its rules.
//!
//! These are the payloads that make an injection worth planting, so they are
//! recognised by what they ask for (a secret, the prompt, a memory write) as
//! well as by how they ask.

use std::sync::LazyLock;

use regex::Regex;

use crate::english::gap;
use crate::rules::RuleTable;

/// Things an attacker wants printed or sent: credentials, key files,
/// environment dumps, cookies.
pub(crate) const SECRET_NOUNS: &str = r"(?:\b(?:secrets?|tokens?|api[ _-]?keys?|credentials?|passwords?|passwd|passphrases?|private[ _-]?keys?|ssh[ _-]?keys?|id_rsa|id_ed25519|kubeconfig|environment variables|env vars|env dump|cookies?|access[ _-]?keys?|secret[ _-]?keys?|keychain|seed phrase)\b|\.env\b|~/\.ssh|~/\.aws|\.aws/credentials|\.npmrc|\.netrc|\.pypirc|document\.cookie|secrets\.ya?ml|/etc/passwd|/etc/shadow)";

static RULES: LazyLock<RuleTable> = LazyLock::new(|| {
    let exfil_polite = format!(
        r"(?i)\b(please|kindly|pls|you|then|also|just)\s+(\w+\s+)?(send|e-?mail|mail|post|upload|forward|share|leak|exfiltrate|transmit|transfer|print|reveal|show|display|dump|output|paste|copy|list|give|tell|include|read|echo|expose|publish)\b{g}{SECRET_NOUNS}",
        g = gap!(60)
    );
    let exfil_dest = format!(
        r"(?i)\b(send|e-?mail|mail|post|upload|forward|share|leak|exfiltrate|transmit|transfer|copy|pipe|push|sync)\b{g}{SECRET_NOUNS}{g}\b(to|into|in)\s+(https?://|www\.|[\w.+-]+@[\w-]+\.|(the |a |this |that |my |our )?(public|external|remote|following|team|shared|personal)\b|(this|that|my|the following) (url|address|website|endpoint|server|webhook|email))",
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
    let leak_system = format!(
        r"{leak_verbs}((the|your|its|this|my|a|that)\s+)?((full|entire|complete|exact|original|initial|hidden|secret|starting|current|previous|prior)\s+)*(system prompt|system message|system instructions|developer message|pre-?prompt|(text|prompt|instructions|message) above)\b"
    );
    let leak_conversation = format!(
        r"{leak_verbs}((this|the|our|that) )?(entire |whole |full |complete )?(conversation|chat|transcript|dialogue)( so far| history)?\b"
    );
    let leak_own = format!(
        r"{leak_verbs}(((the|its|this|that)\s+)((full|entire|complete|exact|original|initial|hidden|secret|starting|previous|prior)\s+)+|your\s+((full|entire|complete|exact|original|initial|hidden|secret|starting|current|previous|prior)\s+)*)(instructions|prompt|configuration|rules|guidelines)\b"
    );
    let table: Vec<(&'static str, String)> = vec![
        ("exfiltration", format!(r"(?i)\b(answers?|responses?|replies|reply|output|reports?|comments?|commit messages?|logs?|summar(y|ies)|messages?)\b[^.!?\n]*?\b(must|should|shall|need to|have to|has to|will|are to|is to)\s+(always\s+)?(include|contain|show|print|list|embed|mention|quote|reveal|expose)\b[^.!?\n]*?{SECRET_NOUNS}")),
        ("prompt-leak", leak_system),
        ("prompt-leak", leak_own),
        ("prompt-leak", leak_conversation),
        ("prompt-leak", r"(?i)\b(text|instructions|prompt|words|message|rules)\b[^.!?\n]{0,20}\byou (were|have been|'ve been|got) (given|told|provided|fed|shown)\b".into()),
        ("prompt-leak", r"(?i)\byou\b[^.!?\n]{0,15}\b(not|never)\b[^.!?\n]{0,10}\b(supposed|allowed|permitted) to\b".into()),
        ("prompt-leak", r"(?i)\bi was (instructed|told|programmed|asked) to\b".into()),
        ("prompt-leak", r"(?i)\b(were|have|are)\s+you\s+(been\s+)?(told|instructed|asked|programmed|ordered)\s+(not|never)\s+to\b".into()),
        ("prompt-leak", r"(?i)\byou\s+(were|have been|'ve been|are)\s+(told|instructed|asked|programmed|ordered)\s+(not\s+|never\s+)to\s+(say|tell|reveal|share|mention|discuss|disclose|show|repeat)\b".into()),
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
    RuleTable::new("", table.iter().map(|(l, p)| (*l, p.as_str())))
});

static SECRET: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!(r"(?i){SECRET_NOUNS}")).expect("secret regex"));

/// Does the text name a secret, a credential store or the user's data?
pub(crate) fn mentions_secret(text: &str) -> bool {
    SECRET.is_match(text)
}

pub(crate) fn check(prose: &str, reasons: &mut Vec<String>) {
    RULES.check(prose, reasons);
}
