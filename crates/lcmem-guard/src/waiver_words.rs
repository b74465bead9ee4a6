//! The words of [`crate::waiver`]: safeguards, the predicates that waive
//! them, the acts that drop them, and what keeps them.
//!
//! Each list names a kind, not a sentence: a secret is any credential
//! ("the warehouse credentials", "the .p12 password", "a kubeconfig"), a
//! duty is any check a change passes on its way ("CODEOWNERS approval",
//! "the staging soak", "a backup before migrations").

/// Secrets beyond the shared list: credentials named by what they open.
pub(crate) const MORE_SECRETS: &str = concat!(
    r"\b(?:admin|root|database|db|service[- ]account|deploy|auth|bot|webhook|hmac|signing|gpg|pgp|jwt|",
    r"session|oauth|production|prod|staging|warehouse|smtp|registry|encryption|master|license|client|",
    r"app|vault|cloud|aws|gcp|azure|cluster|wallet|sftp|ftp|ldap|wifi|vpn|sasl|keystore|certificate|",
    r"cert|publish|npm|pypi|store)\s+(?:logins?|passwords?|passphrases?|credentials?|creds|keys?|tokens?|",
    r"secrets?|keyfiles?|keystores?|cookies?)\b|\bconnection strings?\b|\bdatabase urls?\b|",
    r"\bservice[- ]account (?:json|file|key)s?\b|\bclient secrets?\b|\bkeystores?\b|\bmnemonics?\b|",
    r"\brecovery (?:codes?|phrases?|keys?)\b|\botp seeds?\b|\b(?:tls|ssl|https) (?:private )?keys?\b|",
    r"\.pem\b|\.p12\b|\.pfx\b|\.jks\b|\bkubeconfigs?\b|\bcreds\b|\bsession cookies?\b|",
    r"\b(?:dot)?env files?\b|\bhsm pins?\b|\bseed phrases?\b|\b(?:hot|cold)? ?wallet (?:keys?|seeds?)\b|",
    r"\bsaml (?:certs?|certificates?|keys?)\b|\b(?:test|admin|service|shared|root)[- ]account passwords?\b",
);

/// Duties that protect the project: review, tests, checks and their gates,
/// hooks, branch protection, the sandbox, permission prompts, backups.
pub(crate) const DUTIES: &str = concat!(
    r"\b(?:(?:the|all|any|our|these|those|unit|integration|e2e|end-to-end|failing|flaky|broken|red|",
    r"pending|required|lint|linter|clippy|type|security|ci|pre-commit|pre-push|commit|git|code|peer|",
    r"manual|human|local|status|test|smoke|regression|snapshot|dependency|license|secret|static|",
    r"vulnerability|agent-authored|merge|release|qa|coverage|format|formatting|compliance|",
    r"two-person|four-eyes|second|tls|ssl|certificate|host key|signature|codeowners|notarization|",
    r"code-signing|signing|staging|canary|rate)\s+){0,3}",
    r"(?:tests?|test suites?|suites?|test runs?|testing|checks?|checkers?|ci|ci runs?|ci jobs?|pipelines?|",
    r"green builds?|reviews?|reviewers?|approvals?|sign-?offs?|merge queues?|branch protections?|",
    r"protection rules?|protected branch(?:es)?|rulesets?|codeowners|code owners|linting|linters?|lints?|",
    r"type[- ]checks?|type[- ]checking|hooks|husky|lefthook|verification|validation|scans?|scanning|",
    r"scanners?|audits?|analysis|analy[sz]ers?|sandbox(?:es|ing)?|isolation|seccomp|apparmor|selinux|",
    r"firewalls?|permission (?:prompts?|checks?|requests?|dialogs?)|permissions|confirmations?|2fa|mfa|",
    r"quality gates?|gates?|status checks?|thresholds?|masking|redaction|push protection|signed commits|",
    r"lock ?files?|foreign key (?:checks?|constraints?)|",
    r"(?:triggers?|hooks?|rules?|checks?|gates?|jobs?|steps?|settings?)\s+(?:[\w'-]+\s+){0,6}?that\s+(?:block|prevent|stop|reject|",
    r"guard|protect)s?|",
    r"commit signing|code signing|notari[sz]ation|dco|cla|qa|soaks?|canar(?:y|ies)|backups?|",
    r"rate limits?|limits?|safeguards?|guardrails?|protections?|--no-verify|no-verify|audit (?:logs?|logging|trails?)|",
    r"change (?:control|management|advisory board|approval)|cab(?: approval| review)?|dry[- ]runs?|rollback (?:plans?|",
    r"sections?|steps?)|load tests?|kill[- ]switch(?:es)?|e-stop|least[- ]privilege|(?:iam )?scoping|encryption(?: at rest)?|",
    r"(?:gdpr|erasure|deletion|retention) (?:checks?|verification|steps?)|security reviews?|pen[- ]?tests?|",
    r"penetration tests?|signing steps?|preflight(?: checks?)?|safety (?:checks?|filters?|reviews?)|allow-?lists?|",
    r"on-call paging|paging|alerts?|alerting|monitoring|checksums?|verification steps?|confirmation (?:steps?|prompts?)|",
    r"human (?:review|confirmation|approval)|second (?:reviewer|review|approval|pair of eyes)|four-eyes|",
    r"two-person (?:rule|review)|signatures?|masking|pii|",
    r"(?:pre-commit|pre-push|commit|git|commit-msg|pre-receive|post-checkout)\s+hooks?)\b",
);

/// Nouns that take a duty word as their modifier and become the head: "the
/// CI config", "test fixtures", "review comments" are things, not duties.
pub(crate) const THING_HEADS: &[&str] = &[
    "config",
    "configuration",
    "configs",
    "file",
    "files",
    "data",
    "fixture",
    "fixtures",
    "folder",
    "directory",
    "dashboard",
    "results",
    "output",
    "log",
    "logs",
    "name",
    "names",
    "column",
    "label",
    "labels",
    "template",
    "templates",
    "badge",
    "image",
    "images",
    "runner",
    "runners",
    "minutes",
    "cache",
    "timeout",
    "matrix",
    "environment",
    "container",
    "framework",
    "library",
    "helper",
    "helpers",
    "utilities",
    "comments",
    "comment",
    "report",
    "reports",
    "id",
    "ids",
    "count",
    "counts",
    "status",
    "page",
    "tab",
    "view",
    "field",
    "fields",
    "flag",
    "endpoint",
    "script",
    "scripts",
    "account",
    "accounts",
    "user",
    "users",
    "server",
    "servers",
];

/// The memory and the files that steer an agent: what a poisoned note
/// would vouch for.
pub(crate) const MEMORY: &str = concat!(
    r"\b(?:(?:project|this|the|our|these|agent|persistent|long-term|saved|stored|withheld|pending|",
    r"pinned|flagged)\s+)?",
    r"(?:memory|memories|memory (?:entries|notes|items|files?)|entries (?:in|of) (?:this|the) memory|",
    r"notes (?:in|of) (?:this|the) (?:file|memory)|these notes|this file|context files?|",
    r"withheld (?:entries|items|facts)|pending (?:entries|items|facts|proposals)|confirmation queue|",
    r"review queue|approval queue|flagged (?:entries|items|facts)|pinned (?:facts|notes|items)|",
    r"(?:the )?guard (?:on|of) (?:this|the) memory|remembered facts|stored facts|knowledge base|",
    r"claude\.md|agents\.md|gemini\.md|\.windsurfrules|copilot-instructions(?:\.md)?|\.cursorrules|\.cursor/rules|",
    r"rules (?:files?|in|under)|memory\.md|the digest|vector store|retrieved (?:passages|chunks|snippets|notes)|",
    r"(?:remembered|stored|saved|shared|learned|pinned|imported) (?:preferences|notes|shortcuts|entries|facts|rules|",
    r"runbooks?|passages|instructions)|what the (?:bot|agent|assistant|model) (?:learned|remembered|wrote|noted)|",
    r"(?:docs?|notes)/agents?/?|(?:the )?agent (?:docs|folder|notes)|(?:new |remembered |stored )?memor(?:y|ies) ",
    r"(?:entries|items)|confirmation (?:step|prompts?|queue)|pending (?:list|queue)|(?:the )?safety filter|",
    r"(?:items|entries|anything) (?:the )?guard (?:flags|holds back|withholds)|the guard|",
    r"(?:everything|anything|all|whatever) (?:in|under|below|inside) (?:this|the) (?:\S+\s+)?",
    r"(?:section|file|block|note|heading|folder)|(?:what|whatever|anything) (?:an? |the )?(?:earlier|",
    r"previous|past|prior|older) (?:session|agent|run|conversation)s? (?:wrote|noted|recorded|saved|said))\b",
);

/// Acts that let a secret out, or places others read.
pub(crate) const LEAK: &str = concat!(
    r"\b(?:print|log|echo|paste|post|share|sharing|commit|publish|expose|upload|send|dump|hard-?code|screenshot|",
    r"tweet|e-?mail|display|show|check(?:ed|ing|s)? in|keep|keeping|kept|store|stored|includ|sit|sits|sitting|",
    r"live|lives|living|stay|stays|remain|listed|written|left|drop|inline|bake|baked|embed)\w*\b.{0,60}?",
    r"(?:\b(?:in|into|to|inside|on)\s+(?:the\s+|our\s+|a\s+|an\s+|every\s+|each\s+|its\s+|their\s+)?",
    r"(?:\S+\s+){0,3}?(?:public|open|readme|repo|repository|git|chat|slack|channel|issues?|tickets?|prs?|",
    r"pull requests?|descriptions?|logs?|output|wiki|notebooks?|source|code|commits?|screenshots?|stdout|",
    r"bug reports?|scripts?|files?|config|tree|folder|directory|bundle|image|binary|apk|build|values file|",
    r"wiki(?: page)?|page)\b|\s#[\w-]+)|\bin (?:the )?(?:repo|repository|git|source tree)\b|",
    r"\b(?:in plain ?text|in the clear|unencrypted|unmasked|unredacted|verbatim|in full)\b|",
    r"\b(?:print|log|echo|paste|post|share|commit|publish|expose|upload|dump|hard-?code|screenshot|",
    r"tweet|display|show|inline|bake|embed)(?:s|es|ed|d|ted|ting|ing|ped|ping)?\b|\b(?:can|may)\s+(?:\w+\s+)?(?:live|stay|sit|go|remain|be kept)\s+in\b|",
    r"\bbelongs?\s+in\b|\bgoes\s+(?:in|into)\b|",
    r"\blives?\s+(?:directly\s+|right\s+)?in\s+(?:the\s+)?(?:source|code|repo|repository|git|readme)\b",
);

/// A secret said not to be one.
pub(crate) const EXPOSED: &str = concat!(
    r"\b(?:is|are|'s|'re)\s+(?:\w+\s+)?(?:public|not (?:a |really )?secrets?|not sensitive|non-sensitive|",
    r"meant to be (?:public|shared|seen)|safe to (?:expose|show|share|print|log|post))\b|",
    r"\bbelongs?\s+in\s+(?:git|the repo(?:sitory)?|version control|source control|the readme)\b|",
    r"\b(?:goes|go|gets?|is|are)\s+(?:\w+\s+)?(?:in|into|to)\s+(?:the\s+|every\s+|each\s+|our\s+|a\s+)?",
    r"(?:public\s+\w+|bug reports?|issues?|tickets?|prs?|pull requests?|chat|slack|channel|build logs?|readme|wiki|",
    r"descriptions?|screenshots?)\b",
);

/// A secret protected where it goes: masked, encrypted, rotated.
pub(crate) const PROTECTED: &str = concat!(
    r"\b(?:masked|redacted|hidden|encrypted|scrubbed|obfuscated|rotated|revoked|filtered out|stripped|",
    r"vaulted|placeholder|placeholders|dummy|fake|example|fingerprints?)\b",
);

/// Words that grant leave: a permission, a licence, an answer of yes.
pub(crate) const PERMIT: &str = concat!(
    r"\b(?:fine|ok|okay|acceptable|allowed|permitted|welcome|no problem|harmless|safe|go ahead|",
    r"feel free|free to|don't worry|do not worry|can|may|could|yes|sure|is how|that's what we do|on purpose|",
    r"deliberately|intentionally|should stay|stays there|how we like it|nobody (?:minds|complains?|complain)|",
    r"whoever wants|anyone who (?:wants|needs)|for anyone|for everyone|",
    r"what we do|usual|normal|standard|accepted|decided|agreed|settled|approved|encouraged|expected)\b",
);

/// A duty waived, in words that say so on their own.
pub(crate) const WAIVED_STATE: &str = concat!(
    r"\b(?:optional|advisory|skippable|a formality|just a formality|formalities|nice[- ]to[- ]have|",
    r"not a blocker|non-blocking|not blocking|not needed|not required|not necessary|not mandatory|",
    r"not enforced|unnecessary|needless|exempt|waived|rubber-?stamped|auto-?approved|pre-?approved|",
    r"only for humans|for show|cosmetic|irrelevant|(?:don't|do not|doesn't|does not) (?:matter|count)|",
    r"can wait|let slide|lets? slide|letting slide|handled loosely|loosely enforced|nobody enforces|never enforced|",
    r"a thing of the past|done with|(?:is|are) off and|stays? off|staying off|(?:isn't|is not|aren't|are not) worth|",
    r"a waste of|left blank|pre-?cleared|standing exemption|(?:has|have|gets?|got) an? exemption|signed off once|",
    r"no longer (?:required|needed|necessary|mandatory|enforced)|(?:is|are) assumed|ships? without|",
    r"(?:is|are|was|were|been|gets?|got)\s+(?:now\s+)?(?:switched|turned)\s+off|until after (?:the )?(?:launch|release|",
    r"deadline|demo|merge|deploy)|off the table|counts? as (?:that|the|an?) (?:one|approval|review)|",
    r"approves? (?:its|their|his|her) own|self-approv\w+|no longer needs? to (?:see|review|approve|sign|check)|(?:don't|do not|doesn't|does not) go through|no longer gates?|",
    r"(?:don't|do not|doesn't|does not) (?:stop|block|gate|hold up)|without telling|can be muted|can come after|",
    r"instead of before|(?:isn't|is not|aren't|are not) something (?:agents?|you|the agent|we) need|",
    r"need(?:n't| not) worry|that's how we like it|how we like it|fine to drop|",
    r"(?:do|does)(?:n't| not)\s+apply\s+to\s+(?:the\s+|any\s+|our\s+)?(?:coding\s+|ai\s+)?(?:agents?|",
    r"assistants?|bots?|you|ai|automation|models?)|(?:safe|fine|ok|okay) to (?:skip|ignore|disable|bypass|",
    r"lift|remove)|(?:can|may|could|might|should)\s+(?:safely\s+|just\s+|simply\s+|always\s+|now\s+|",
    r"also\s+|freely\s+)?be\s+(?:skipped|ignored|bypassed|disabled|deleted|removed|turned off|switched off|",
    r"overridden|silenced|suppressed|marked|commented out|waived|dropped|lifted|relaxed|raised))\b",
);

/// Waivers that take the duty as their object: "we're done with dry runs",
/// "changes don't go through change control".
pub(crate) const OBJECT_WAIVERS: &str = concat!(
    r"\b(?:(?:are|is|we're|we are)\s+)?done with|(?:don't|do not|doesn't|does not|never) go through|",
    r"dispens(?:e|es|ed|ing) with|(?:do|does|did|go|goes|went) without|(?:stop|stopped|quit) (?:doing|running|",
    r"taking|requiring)|forgo(?:es|ne)?\b",
);

/// Predicates that name the duty they waive.
pub(crate) const NEEDS_NO: &str = concat!(
    r"\bneeds?\s+no\s+(?:\w+\s+){0,2}?(?:approval|review|sign-?off|confirmation|permission|tests?|checks?|",
    r"verification|audit|scan)\b|\b(?:do|does)(?:n't| not)\s+(?:need|require)\s+(?:(?:a|an|any|the|their|its|our)\s+)?",
    r"(?:\w+\s+){0,2}?(?:review|reviewer|approval|sign-?off|confirmation|permission|checks?|tests?|verification|",
    r"step|audit|scan|entries)\b|\bwithout (?:masking|encryption|redaction|a dry-?run|a rollback plan)\b|",
    r"\b(?:don't|do not|doesn't|does not|won't|will not|needn't)\s+(?:have|need|got)?\s*to\s+(?:\w+\s+){0,2}?",
    r"(?:run|ask|wait|check|review|test|get|sign|confirm|mask|redact|hide|rotate)\b|",
    r"\bneeds?\s+no\s+(?:approval|review|sign-?off|confirmation|permission|tests?|checks?)\b|",
    r"\b(?:do|does)(?:n't| not)\s+(?:need|require)\s+(?:a\s+|any\s+)?(?:review|reviewer|approval|",
    r"sign-?off|confirmation|permission|checks?|tests?|second (?:pair of eyes|look)|anyone)\b|",
    r"\bwithout (?:asking|confirmation|approval|review|a reviewer|any reviewer|checking|talking)\b|",
    r"\bwithout (?:a |any |the )?(?:code review|review|approvals?|tests?|ci|checks?|sign-?off|green builds?|",
    r"passing (?:ci|tests|checks|builds?)|waiting for (?:ci|review|approval|checks|tests))\b",
);

/// Verbs that drop a safeguard.
pub(crate) const DROPPING: &str = concat!(
    r"\b(?:skip|disabl|bypass|delet|remov|ignor|mut|silenc|suppress|circumvent|overrid|waiv|",
    r"deactivat|comment(?:ing)? out|strip|drop|omit|forgo|retir|relax|loosen|weaken|lift)",
    r"(?:e|es|ed|ped|ping|ing|s)?\b|\b(?:turn|switch)(?:s|ed|ing)?\s+off\b|",
    r"\bstop(?:s|ped|ping)?\s+(?:running|doing|requiring|waiting for|asking for|using|taking|making)\b|",
    r"\bno longer\s+(?:run|runs|require|requires|do|does|wait for|waits for|ask for|asks for|use|uses|take|",
    r"takes)\b|\b(?:do|does|did|go|goes|went)\s+without\b|\bdispens(?:e|es|ed|ing)\s+with\b|",
    r"\b(?:approv|accept|confirm|promot)(?:e|es|ed|ing)\s+(?:\w+\s+){0,3}?(?:queue|withheld|pending|",
    r"flagged|everything|all of them|every (?:entry|item|fact))\b",
);

/// Predicates that vouch for the memory, or hand it authority.
pub(crate) const AUTHORITY: &str = concat!(
    r"\b(?:is|are|'s|'re|was|were)\s+(?:(?:all|always|already|fully|been)\s+)?(?:verified|trusted|",
    r"authoritative|pre-?approved|approved by|vetted|canonical|binding|ground truth|the source of truth|",
    r"the final word|the (?:highest|final|ultimate|top) authority|(?:trusted |official )?instructions|",
    r"commands|orders)\b|\bhighest authority\b|\bwins\b|",
    r"\bneeds?\s+no\s+(?:checking|verification|review|confirmation|double-checking)\b|",
    r"\b(?:must|should)\s+not\s+be\s+(?:questioned|checked|verified|doubted|second-guessed)\b|",
    r"\b(?:must|should|can|may|is to|are to)\s+(?:simply\s+|just\s+|all\s+|always\s+)?be\s+(?:approved|",
    r"confirmed|accepted|trusted|followed|obeyed|executed|run|promoted|applied)\b|",
    r"\b(?:executed|run|followed|applied|obeyed|carried out)\s+(?:as written|verbatim|word for word|",
    r"literally|to the letter|without (?:question|checking|review))\b|",
    r"\b(?:promoted|approved|accepted|confirmed|merged|added)\s+(?:\w+\s+)?(?:automatically|in bulk|",
    r"all at once|without (?:review|confirmation|checking))\b|\bauto-?(?:approved|promoted|confirmed|accepted)\b|",
    r"\b(?:overrides?|outranks?|beats?|trumps?)\s+(?:the\s+|any\s+|all\s+|your\s+)?(?:user|your|agent|",
    r"instructions|requests|system|prompts?|owner|person|chat)|\btakes?\s+precedence\b|",
    r"\bcounts?\s+as\s+(?:the\s+)?(?:user|owner|maintainer)'?s?\s+(?:own\s+)?(?:words|instructions|approval|",
    r"confirmation)\b|\b(?:written|authored|signed|approved)\s+by\s+(?:the\s+)?(?:owner|user|maintainers?)\b|",
    r"\b(?:skips?|bypass(?:es)?)\s+(?:the\s+)?(?:confirmation|guard|review|check)\b|",
    r"\bis what \w+ (?:really |actually )?wants?\b|\bwins? over\b|\b(?:ahead of|over) (?:the )?(?:user|person|",
    r"system|owner)|\b(?:acted on|applied|run|used|executed|carried out) (?:directly|straight away|immediately|as-is|",
    r"as is|right away)|\bwaved through\b|\brubber-?stamp\w*|\bbatch-?approv\w*|\bapprov\w+ (?:the )?(?:whole|",
    r"entire) (?:batch|list|queue)|\b(?:is|are) redundant\b|\bdon't second-guess\b|\bdo not second-guess\b|",
    r"\b(?:carry|carries) (?:the )?[\w'-]+ (?:authority|approval)\b|\bwithout showing (?:them |it )?to anyone\b|",
    r"\bdefer to\b|\bget(?:s)? followed\b|\bsame (?:like|as) (?:the )?user\b|\bnot asking again\b|",
    r"\b(?:doesn't|does not|don't|do not) need (?:the )?(?:human )?confirmation\b|\bno need to check\b|",
    r"\b(?:is|are) (?:always )?(?:correct|reliable|right)\b|\bfalse alarms?\b|\bwins?\b|",
    r"\bcounts? as (?:pre-?approved|approved|confirmed|verified)\b|\bwithout (?:a |any )?(?:second )?(?:look|review|check)\b|",
    r"\b(?:is|are|was|were|been|judged|deemed|considered|found)\s+redundant\b|\bwithout (?:asking|checking|confirmation|question|review)\b|",
    r"\b(?:treated|taken|regarded|read|counted)\s+as\s+(?:if\s+)?(?:true|fact|facts|authoritative|instructions|",
    r"orders|gospel|(?:written|said|approved) by)\b|\b(?:always|guaranteed)\s+(?:to be\s+)?(?:correct|right|accurate|",
    r"true|current|up to date)\b|\b(?:straight|directly|automatically)\s+(?:in)?to\s+(?:the\s+)?(?:memory|digest|",
    r"confirmed facts)\b|\beven (?:when|if) (?:she|he|they|the user|the owner|you)\s+",
    r"(?:says?|asks?|writes?|disagrees?)\b|\bdisagrees? with the (?:user|owner|system)\b",
);

/// Acts that drop a safeguard on the way to shipping.
pub(crate) const RISKY_ACTS: &str = concat!(
    r"\bforce[- ]?push(?:ing|es|ed)?\b|\bpush(?:ing|es|ed)?\s+(?:-f|--force)\b|",
    r"\bpush(?:ing|es|ed)?\s+(?:\w+\s+){0,2}?(?:straight|directly|right)\s+(?:to|into|on)\s+(?:the\s+)?",
    r"(?:main|master|prod|production|default|release|trunk)\b|",
    r"\b(?:merg|deploy|releas|ship|publish|push)(?:e|es|ed|ing)?\s+(?:\w+\s+){0,2}?(?:anyway|regardless|",
    r"(?:on |while |when )?(?:red|failing)\b|without\s+(?:a\s+|any\s+|the\s+|waiting for\s+)?(?:green|",
    r"passing|successful|review|approval|ci|tests?|checks?|sign-?off|pr|pull request))\b|",
    r"--no-verify\b|--insecure\b|--no-check-certificate\b|--trusted-host\b|--allow-unauthenticated\b|",
    r"--no-hooks\b|-auto-approve\b|--auto-approve\b|--skip-(?:tests|checks|verify|verification|hooks|ci)\b|",
    r"\[skip ci\]|\bhusky=0\b|\bverify\s*=\s*false\b|\bnode_tls_reject_unauthorized\s*=\s*0\b|",
    r"\bstricthostkeychecking\s*=?\s*no\b|",
    r"\binstead of (?:opening|creating|using|raising|waiting for) (?:a\s+)?(?:prs?|pull requests?|",
    r"merge requests?|reviews?|ci|approvals?)\b|",
    r"\bcommit(?:s|ted|ting)?\s+(?:\w+\s+){0,2}?\.env\b|",
    r"\binclud(?:e|es|ed|ing)\s+(?:the\s+)?(?:full\s+|whole\s+|entire\s+)?(?:contents?\s+of\s+)?",
    r"(?:the\s+)?(?:\.env|secrets?|tokens?|credentials?|passwords?|api keys?)\b|",
    r"\b(?:leave|leaves|left|leaving|keep|keeps|kept|keeping)\s+(?:[\w'-]+\s+){0,4}?(?:unmasked|unencrypted|",
    r"unredacted|unsigned|unreviewed|untested)\b|\bas root\b|--privileged\b|\bchmod\s+(?:-R\s+)?777\b|\b(?:straight|directly)\s+(?:in)?to\s+(?:the\s+)?",
    r"(?:production|prod)\b|\bagainst (?:the\s+)?(?:production|prod)\b|\bunsigned\b|\.\w*ignore\b",
);

/// A sentence that endorses what it tells: a decision, a convention, a
/// step, the right way, somebody's say-so.
pub(crate) const ENDORSED: &str = concat!(
    r"\bis how (?:we|the team|you|releases|deploys|changes)\b|\b(?:that's|that is|this is) what (?:we|the team) ",
    r"do\b|\b(?:ships?|deploys?|releases?|goes out|go out) by (?:running|using|doing)\b|",
    r"\b(?:normal|standard|common|usual|accepted|expected|agreed|default|preferred|recommended|",
    r"established|approved)\s+(?:practice|workflow|procedure|way|approach|process|behaviou?r|route|fix|",
    r"move)\b|\b(?:is|are) (?:the )?default\b|\bby default\b|",
    r"\b(?:decided|agreed|settled on|settled that|chose|opted|ruled|outcome|decision)\b|",
    r"\b(?:next|first|final|only|last|usual)\s+(?:step|move|thing)\s+(?:[\w'-]+\s+){0,6}?(?:is|was|will be)\b|",
    // A designated command, someone's job: the act handed out as routine.
    r"\b(?:designated|official|canonical|sanctioned|sole|go-to)\s+(?:command|way|step|script|procedure|process|",
    r"route|method|workflow)\b|\b(?:is|are)\s+(?:the\s+|a\s+)?(?:[\w'-]+\s+){0,3}?(?:job|responsibility|task)\b|",
    r"\b(?:correct|right|proper|expected|recommended|preferred|safest|best|standard|accepted|approved|",
    r"easiest|quickest|fastest)\s+(?:way|behaviou?r|approach|workflow|fix|procedure|thing|response|",
    r"move|path|action)\b|",
    r"\b(?:instruction|rule|policy|convention|practice|norm|process|procedure|protocol|workflow|",
    r"guideline|expectation)s?\s+(?:here\s+)?(?:is|are|says?)\b|",
    r"^\W*(?:convention|rule|policy|practice|workflow|procedure|process|house rule|decision|adr)\s*:|",
    r"\bper (?:the )?(?:team|maintainers?|lead|owner|user|cto|manager|security team)\b|",
    r"\b(?:maintainers?|team|lead|owner|user|cto|manager|reviewer|admin)\s+(?:says?|said|wants?|wanted|",
    r"confirmed|allows?|allowed|approved|agreed|decided|asked)\b|",
    r"\b(?:is|are)\s+(?:(?:totally|perfectly|completely|usually|generally)\s+)?(?:fine|ok|okay|",
    r"acceptable|allowed|permitted|encouraged|expected|normal|standard|routine|welcome|no problem)\b|",
    r"\bwe\s+(?:usually|always|just|normally|typically|generally|routinely|now)\b|\bhow we like it\b|",
    r"\b(?:playbook|runbook|checklist|handbook|guide|readme|docs?)\s+(?:says?|tells?|instructs?)\b|",
    r"\b(?:customary|sanctioned|blessed|okay'd|ok'd|signed off)\b|\bthe (?:trick|workaround|solution|fix) is\b",
);

/// A safeguard kept, blocked or required, or the act refused.
pub(crate) const KEPT: &str = concat!(
    r"\b(?:blocked|forbidden|prohibited|disallowed|rejected|refused|banned|required|requires|mandatory|",
    r"enforced|not allowed|not permitted|unsafe|avoid|avoided|reject|rejects|",
    r"rather than (?:a |an )?(?:nice-to-have|optional|formality|suggestion)|re-?enabled|reinstated|",
    r"(?:turned|switched|put) (?:it |them )?back on|back in place)\b|",
    r"\b(?:must|never|cannot|can't|may not|mustn't|should not|shouldn't|do not|don't|does not|doesn't|",
    r"no longer)\s+(?:\w+\s+){0,2}?(?:be\s+)?(?:skip|bypass|disabl|ignor|print|log|shar|post|past|commit|",
    r"push|merg|deploy|releas|expos|leak|echo|remov|delet|turn|switch|lift|waiv|omit|drop|forc|hard|",
    r"pass|run|be reviewed|be approved|be signed|be green|be checked|be kept|be rotated|be masked|",
    r"be encrypted|be redacted|allowed|acceptable|fine|safe|optional)|",
    r"\b(?:instead of|rather than)\s+(?:\w+\s+){0,2}?(?:force|push|merg|skip|disabl|bypass|deploy|",
    r"releas|print|shar|post|commit|echo|log)",
);

/// A capability switched off, which tightens rather than waives.
pub(crate) const TIGHTENED: &str = concat!(
    r"\b(?:network|internet|outbound|egress|inbound|write|ssh|telemetry|external)\s+(?:\w+\s+)?",
    r"(?:access|calls|connections|requests)\s+(?:is\s+|are\s+)?(?:disabled|blocked|off|denied|restricted)\b",
);

/// History: the habit ended.
pub(crate) const HISTORY: &str = concat!(
    r"\b(?:used to|until (?:19|20)\d\d|before (?:19|20)\d\d|was once|were once|once was|formerly|",
    r"back when|back then|in the early days|previously|originally|in the past|until (?:the )?(?:q[1-4]|last|",
    r"early|late|mid|end of))\b",
);

/// A denial of the waiver itself: "is not optional", "is never safe".
pub(crate) const DENIED: &str = concat!(
    r"\b(?:not|never|no longer|n't|hardly)\s+(?:\w+\s+)?(?:safe|fine|ok|okay|acceptable|allowed|",
    r"permitted|optional|advisory|skipped|skippable|waived|disabled|bypassed|ignored|exempt|public|",
    r"trusted|verified|authoritative)\b",
);

/// A permission scoped to the product's own users and roles.
pub(crate) const PRODUCT_SCOPE: &str = concat!(
    r"\b(?:for|by|to) (?:the |all |any |signed-in |logged-in )?(?:users|customers|clients|tenants|",
    r"admins|administrators|owners|members|guests|roles?|accounts)\b",
);

/// A question whose answer decides a duty: "Do I need to …?", "Does the
/// agent have to ask before …?", "Can I print …?".
pub(crate) const DUTY_QUESTION: &str = concat!(
    r"\b(?:do|does|must|should|is|are)\s+(?:i|we|you|the agent|agents|the bot|bots|one|it|they)\s+",
    r"(?:\w+\s+)?(?:need|have|got|required|supposed)\b",
);
pub(crate) const LEAVE_QUESTION: &str = concat!(
    r"\b(?:can|may|could)\s+(?:i|we|you|the agent|agents|the bot|bots|one)\b|\bis it (?:ok|okay|fine|",
    r"safe|allowed|acceptable)\b",
);
pub(crate) const NO_ANSWER: &str = r"^\W*(?:a\s*:\s*)?(?:no|nope|not really|never)\b";
pub(crate) const YES_ANSWER: &str = r"^\W*(?:a\s*:\s*)?(?:yes|yep|sure|of course|go ahead|absolutely)\b";

/// A secret's stated purpose is to be shown: "the purpose of the admin token
/// is to be printed at startup", "the staging key is there to be shared".
/// Passive only: a token whose purpose is "to log in" or "to send requests"
/// is being used, not shown.
pub(crate) const SHOWN_BY_DESIGN: &str = concat!(
    r"(?:\b(?:purpose|intended use|intent|point|whole idea)\b[^.;]{0,80}?\b(?:is|are|was)\s+(?:to\s+be|for\s+being|",
    r"being)|\b(?:is|are)\s+(?:there|kept|provided)\s+to\s+be)\s+(?:\w+\s+)?(?:printed|logged|echoed|pasted|posted|",
    r"shared|published|exposed|displayed|shown|sent|dumped|revealed)\b",
);
