//! Requests to leak: the system prompt, secrets, the conversation; and
//! attempts to write into the agent's memory or argue it out of its rules.
//!
//! These are the payloads that make an injection worth planting, so they are
//! recognised by what they ask for (a secret, the prompt, a memory write) as
//! well as by how they ask.

use std::sync::LazyLock;

use regex::Regex;

use crate::rules::{RuleTable, gap};

/// Things an attacker wants printed or sent: credentials, key files,
/// environment dumps, cookies.
pub(crate) const SECRET_NOUNS: &str = concat!(
    r"(?:\b(?:secrets?|tokens?|api[ _-]?keys?|credentials?|",
    r"passwords?|passwd|passphrases?|private[ _-]?keys?|ssh[ _-]?keys?|",
    r"id_rsa|id_ed25519|kubeconfig|environment variables|env vars|",
    r"env dump|cookies?|access[ _-]?keys?|secret[ _-]?keys?|",
    r"keychain|seed phrase)\b|\.env\b|~/\.ssh|~/\.aws|\.aws/credentials|",
    r"\.npmrc|\.netrc|\.pypirc|document\.cookie|secrets\.ya?ml|",
    r"/etc/passwd|/etc/shadow)",
);

static RULES: LazyLock<RuleTable> = LazyLock::new(|| {
    let exfil_polite = format!(
        concat!(
            r"(?i)\b(please|kindly|pls|you|then|also|just)\s+(\w+\s+)?(send|",
            r"e-?mail|mail|post|upload|forward|share|leak|exfiltrate|",
            r"transmit|transfer|print|reveal|show|display|dump|output|",
            r"paste|copy|list|give|tell|include|read|echo|expose|publish)\b{g}{SECRET_NOUNS}",
        ),
        g = gap!(60),
        SECRET_NOUNS = SECRET_NOUNS
    );
    let exfil_dest = format!(
        concat!(
            r"(?i)\b(send|e-?mail|mail|post|upload|forward|share|leak|",
            r"exfiltrate|transmit|transfer|copy|pipe|push|sync)\b{g}{SECRET_NOUNS}{g}\b(to|",
            r"into|in)\s+(https?://|www\.|[\w.+-]+@[\w-]+\.|(the |a |",
            r"this |that |my |our )?(public|external|remote|following|",
            r"team|shared|personal)\b|(this|that|my|the following) (url|",
            r"address|website|endpoint|server|webhook|email))",
        ),
        g = gap!(60),
        SECRET_NOUNS = SECRET_NOUNS
    );
    let memory_write = format!(
        concat!(
            r"(?i)\b(store|save|write|record|remember|persist|add|put|",
            r"keep|memori[sz]e|note|log)\b{g}\b(in|to|into)\s+(your |",
            r"the |project |long[- ]term |persistent |permanent |agent |",
            r"shared )+memory\b",
        ),
        g = gap!(40)
    );
    let pre_approved = format!(
        concat!(
            r"(?i)\b(user|owner|maintainers?|admins?|administrator|",
            r"operator|human|developers?|team)\b{g}\b(pre-?approved|",
            r"approved|authori[sz]ed|whitelisted|allowlisted|consented to|",
            r"okayed|signed off on)\s+(all|every|any|each)\b",
        ),
        g = gap!(30)
    );
    let leak_verbs = concat!(
        r"(?i)\b(show|print|reveal|output|repeat|display|dump|leak|",
        r"share|give|tell|send|expose|disclose|recite|read|return|",
        r"spell[- ]?check|translate|encode|summari[sz]e|list|provide|",
        r"write|see|paste|copy)\b( me| us| back| out)?( all| everything in|",
        r" the contents of| the text of| what is in| what's in)?\s+",
    );
    let leak_system = format!(
        concat!(
            r"{leak_verbs}((the|your|its|this|my|a|that)\s+)?((full|",
            r"entire|complete|exact|original|initial|hidden|secret|",
            r"starting|current|previous|prior)\s+)*(system prompt|system message|",
            r"system instructions|developer message|pre-?prompt|(text|",
            r"prompt|instructions|message) above)\b",
        ),
        leak_verbs = leak_verbs
    );
    let leak_conversation = format!(
        concat!(
            r"{leak_verbs}((this|the|our|that) )?(entire |whole |full |",
            r"complete )?(conversation|chat|transcript|dialogue)( so far|",
            r" history)?\b",
        ),
        leak_verbs = leak_verbs
    );
    let leak_own = format!(
        concat!(
            r"{leak_verbs}(((the|its|this|that)\s+)((full|entire|complete|",
            r"exact|original|initial|hidden|secret|starting|previous|",
            r"prior)\s+)+|your\s+((full|entire|complete|exact|original|",
            r"initial|hidden|secret|starting|current|previous|prior)\s+)*)(instructions|",
            r"prompt|configuration|rules|guidelines)\b",
        ),
        leak_verbs = leak_verbs
    );
    let table: Vec<(&'static str, String)> = vec![
        (
            "exfiltration",
            format!(
                concat!(
                    r"(?i)\b(answers?|responses?|replies|reply|output|reports?|comments?|",
                    r"commit messages?|logs?|summar(y|ies)|messages?)\b[^.!?\n]*?\b(must|",
                    r"should|shall|need to|have to|has to|will|are to|is to)\s+(always\s+)?",
                    r"(include|contain|show|print|list|embed|mention|quote|reveal|expose)\b",
                    r"[^.!?\n]*?{SECRET_NOUNS}",
                ),
                SECRET_NOUNS = SECRET_NOUNS
            ),
        ),
        ("prompt-leak", leak_system),
        ("prompt-leak", leak_own),
        ("prompt-leak", leak_conversation),
        (
            "prompt-leak",
            concat!(
                r"(?i)\b(text|instructions|prompt|words|message|rules)\b[^.!?\n]{0,20}\byou (were|",
                r"have been|'ve been|got) (given|told|provided|fed|shown)\b",
            )
            .into(),
        ),
        (
            "prompt-leak",
            concat!(r"(?i)\byou\b[^.!?\n]{0,15}\b(not|never)\b[^.!?\n]{0,10}\b(supposed|", r"allowed|permitted) to\b",)
                .into(),
        ),
        ("prompt-leak", r"(?i)\bi was (instructed|told|programmed|asked) to\b".into()),
        (
            "prompt-leak",
            concat!(
                r"(?i)\b(were|have|are)\s+you\s+(been\s+)?(told|instructed|",
                r"asked|programmed|ordered)\s+(not|never)\s+to\b",
            )
            .into(),
        ),
        (
            "prompt-leak",
            concat!(
                r"(?i)\byou\s+(were|have been|'ve been|are)\s+(told|instructed|",
                r"asked|programmed|ordered)\s+(not\s+|never\s+)to\s+(say|",
                r"tell|reveal|share|mention|discuss|disclose|show|repeat)\b",
            )
            .into(),
        ),
        (
            "prompt-leak",
            r"(?i)\(\s*(system_?prompt|systemprompt|system_message|initial_?prompt|instructions)\s*\)".into(),
        ),
        ("exfiltration", exfil_polite),
        ("exfiltration", exfil_dest),
        ("memory-poisoning", memory_write),
        ("memory-poisoning", pre_approved),
        (
            "memory-poisoning",
            concat!(
                r"(?i)\b(learned|learnt|remembered|saved|stored) (preference|",
                r"fact|rule|memory|instruction)\s*:",
            )
            .into(),
        ),
        (
            "memory-poisoning",
            concat!(
                r"(?i)\b(treat|consider|regard)\b[^.!?\n]{0,50}\bas (coming from|",
                r"if (it|they) came from|(instructions|commands|orders) from)\b",
            )
            .into(),
        ),
        (
            "jailbreak:evasion",
            concat!(
                r"(?i)\b(evade|circumvent|jailbreak|subvert|trick|fool|",
                r"get around|sidestep|dodge)\b[^.!?\n]{0,30}\b(content filter\w*|",
                r"content moderation|filters?|filtering|safety|guardrails?|",
                r"safeguards?|polic(y|ies) enforcement|moderation|alignment|",
                r"restrictions|censorship|detection)\b",
            )
            .into(),
        ),
        (
            "jailbreak:evasion",
            concat!(
                r"(?i)\b(bypass|disable|turn off|remove|override|break)\b[^.!?\n]{0,20}\b(content filter\w*|",
                r"content moderation|guardrails?|safeguards?|polic(y|ies) enforcement|",
                r"moderation|alignment|censorship|ethical (guidelines|constraints)|",
                r"safety (controls?|filters?|guardrails?|training|measures|",
                r"mechanisms|policies))\b",
            )
            .into(),
        ),
        (
            "hidden-text",
            concat!(
                r"(?i)\b(invisible to (humans|users|people|the user|readers)|",
                r"hidden from (humans|users|the user|readers)|white[- ]text (metadata|",
                r"instructions?|prompt|message|note)|visible (only )?to (the )?(llms?|",
                r"ai|models?|agents?|assistants?)( scan\w*)?|hidden (instruction|",
                r"instructions|prompt|message|directive)\s*:)",
            )
            .into(),
        ),
    ];
    RuleTable::new("", table.iter().map(|(l, p)| (*l, p.as_str())))
});

static SECRET: LazyLock<Regex> = LazyLock::new(|| Regex::new(&format!(r"(?i){SECRET_NOUNS}")).expect("secret regex"));

/// Does the text name a secret, a credential store or the user's data?
pub(crate) fn mentions_secret(text: &str) -> bool {
    SECRET.is_match(text)
}

/// Where a clause puts what it moves, as far as its wording tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Destination {
    /// A place inside the project or the machine: a dotenv file, the
    /// keychain, a vault, a config path.
    Inside,
    /// A place someone else reads: the agent's reply, a message, a comment,
    /// a pull request, a commit, published docs, a URL or an address.
    Outside,
}

/// A destination that other people (or the attacker) read.
static OUTSIDE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)https?://|\bwww\.|[\w.+-]+@[\w-]+\.\w|",
        r"\b(in|into|to|onto|on|as|via|inside|within|through|under|at)\s+((the|a|an|this|that|my|our|their|its|his|her|",
        r"any|every|each|some|new|next|same|following|below|above)\s+)*(your|public|external|remote|third[- ]party)\b|",
        r"\b(in|into|to|onto|on|as|via|inside|within|through|under|at)\s+((the|a|an|this|that|your|my|our|their|",
        r"its|his|her|any|every|each|some|new|next|same|following|below|above)\s+)*([\w-]+\s+){0,2}?(repl(y|ies)|",
        r"responses?|answers?|messages?|chats?|comments?|descriptions?|titles?|body|prs?|pull requests?|",
        r"merge requests?|issues?|tickets?|commits?|gists?|paste(bin)?|channels?|slack|discord|emails?|e-mails?|",
        r"mail|urls?|links?|endpoints?|webhooks?|servers?|output|stdout|logs?|readme|docs|documentation|wiki|",
        r"changelog|release notes|tweets?|posts?|forums?|websites?|pages?|site|prompt|conversation|summary|",
        r"reports?|screenshots?|repo|repository|git)\b",
    ))
    .expect("outside regex")
});

/// A destination at all: a place-preposition followed by something.
static PLACED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(in|into|to|onto|inside|within|under)\s+\S").expect("placed regex"));

/// Where `clause` sends what it moves: outside when any destination is read
/// by others, inside when it names only other places, `None` when it names
/// no place.
pub(crate) fn destination(clause: &str) -> Option<Destination> {
    if OUTSIDE.is_match(clause) {
        Some(Destination::Outside)
    } else if PLACED.is_match(clause) {
        Some(Destination::Inside)
    } else {
        None
    }
}

pub(crate) fn check(prose: &str, reasons: &mut Vec<String>) {
    RULES.check(prose, reasons);
}
