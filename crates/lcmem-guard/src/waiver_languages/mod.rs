//! Waivers of secrets and safeguards, in other languages and scripts.
//!
//! `waiver` reads English structure: a safeguard as the subject and a
//! predicate that drops it. A team rule planted in a checked-out file is
//! as likely to say it in Russian, Greek, Hebrew, Arabic, Hindi, Spanish,
//! Japanese or Chinese, and a model obeys it just the same. Full grammar for
//! each language is out of reach, so each gets the same structure read
//! through small word classes, one sentence at a time:
//!
//! - a **secret** with a **leak verb** and a **place it must not reach**
//!   (a chat, a channel, the repository, logs, a ticket, anything public),
//!   or a secret said to be **no secret**;
//! - a **duty** (review, tests, checks, two-factor, signatures, backups)
//!   said to be **optional** or not needed, or a **skipping verb** with a
//!   **permission** (may, can, allowed, by default, expected, should);
//! - the **agent** (the assistant, the model, the AI, a bot) bound by its
//!   predicate (must, should, is expected to, always, never): an order to
//!   it phrased as a fact about it, whatever it orders.
//!
//! A sentence that denies ("never", "must not", "forbidden") is a fact:
//! negation words left over after the predicate's own words are taken out
//! ("не нужны", "no hace falta" are the waiver itself) keep it out. Words
//! are matched as stems; languages that glue prefixes to words (Hebrew,
//! Arabic) or write without spaces (Japanese, Chinese) are matched inside
//! words, and a sentence ends at the stops of every script (`。` among
//! them). Every hit records `lang:xx`.

use std::sync::{LazyLock, OnceLock};

use regex::{Regex, RegexSet};

use table::{LANGUAGES, Words};

mod restore;
pub(crate) use restore::{english_without_negated_restoring, without_negated_restoring};
mod table;
mod table_more;
mod table_nordic;
mod table_other_scripts;
mod table_slavic_greek;
mod table_west;

/// Every language's word classes, English first.
fn all_languages() -> impl Iterator<Item = &'static Words> {
    LANGUAGES
        .iter()
        .chain(table_slavic_greek::SLAVIC_GREEK_LANGUAGES)
        .chain(table_other_scripts::OTHER_SCRIPT_LANGUAGES)
        .chain(table_more::MORE_LANGUAGES)
        .chain(table_west::WEST_LANGUAGES)
        .chain(table_nordic::NORDIC_LANGUAGES)
}
#[cfg(test)]
mod tests;

/// Words every language borrows from English as they are.
const SHARED_SECRETS: &str = concat!(
    r"\b(api[- ]?keys?|tokens?|ssh[- ]keys?|seed phrases?|private keys?|session ?cookies?|connection strings?|",
    r"credentials\.json|service-account\.json|id_rsa|id_ed25519|client[_ ]secrets?)|\.env\b",
);
const SHARED_DUTIES: &str = r"\b(tests?|review|lint\w*|2fa|mfa|scans?|branch[- ]protection|pre-commit|snapshots?|lockfiles?|audit\w*|rate ?limit\w*)\b";
const SHARED_PLACES: &str =
    r"\b(whatsapp|telegram|discord|slack|jira|confluence|notion|wiki|readme|github|gitlab|pastebin|gist)\b|#[\w-]+";

/// Commands that destroy or bypass, in any language's sentence: forcing a
/// push, deleting keys or data recursively, skipping hooks or checks,
/// opening permissions to everyone, destroying infrastructure unasked.
const RISKY: &str = concat!(
    r"(--force\b|\bpush -f\b|\brm -[a-z]*r[a-z]*f?\s+[~/]|\brm -[a-z]*f[a-z]*r\s+[~/]|--no-verify\b|",
    r"\bdrop (database|table|schema)\b|\bchmod (-r )?0?777\b|\bdestroy\b[^`]*-auto-approve|",
    r"\bmerge\b[^`]*--admin\b|\bskip_\w+=(1|true|yes)\b|\b\w*bypass\w*=(1|true|yes)\b|--skip-\w+|--insecure\b|",
    r"\breset --hard origin|\bapply\b[^`]*-auto-approve|\bkubectl delete (ns|namespaces?)\b|--insecure-skip-tls-verify\b)",
);

/// The destructive core of [`RISKY`]: commands that destroy data, history or
/// protection whatever the sentence around them says, short of denying
/// them. A flag such as `--force` elsewhere is a tool's option and needs a
/// sentence that endorses it.
const DESTRUCTIVE: &str = concat!(
    r"(\bpush\b[^`]{0,40}(--force([\s`'\x22]|$)|-f\b)|\brm -[a-z]*r[a-z]*f?\s+[~/]|\brm -[a-z]*f[a-z]*r\s+[~/]|",
    r"\bchmod (-r )?0?777\b|\bdrop (database|table|schema)\b|\btruncate table\b|`truncate(`|\s+\w)|\btruncat\w* /|",
    r"\breset --hard\b|\bterraform destroy\b|\bkubectl delete (ns|namespaces?|pvc|pv|all|--all)\b|",
    r"\brm -[a-z]*r[a-z]*f?(\s+[^\s`]+){1,3}\s+[~/]|\bprune\b[^`\n]{0,30}--volumes\b|\bflush(all|db)\b|",
    r"\bgit push\b[^`\n]{0,30}--delete\b|\baws s3 rb\b|\bs3 rm\b[^`\n]*--recursive\b|\bdropdb\b|",
    r"\bdelete from [\w.]+\s*(;|`|$)|\bforce-push(es|ed|ing)?\b[^`\n]{0,40}\b(main|master|origin|release|shared|prod\w*)\b|",
    r"\btruncate\b[^`\n]{0,30}\b(tables?|tablo\w*|tabel\w*|tabell\w*|таблиц\w*|πίνακ\w*))",
);

/// A destructive command confined to what may be thrown away (a local or
/// personal copy, a test database, a preview, a sandbox), or a protection
/// against it, is a fact about how risk is kept small.
const CONFINED: &str = concat!(
    r"\b(local|locally|lokal\w*|locale?s?|personal|ephemeral|scratch|sandbox(es|ed)?|throwaway|disposable|preview|",
    r"temporary|testow\w+|test (databases?|dbs?|data|environments?)|de (prueba|test)|protected (against|from)|",
    r"dev (containers?|databases?|dbs?)|tmp-\w*|(your|their|my|our) own (feature )?branch(es)?|personal branch(es)?|",
    r"локальн\w*|тестов\w*|τοπικ\w*|δοκιμαστικ\w*|persoonlijk\w*|persönlich\w*|personlig\w*|experiment\w*|",
    r"temporane\w*|temporári\w*|temporal\w*|temporär\w*|\w*_tmp|laptops?|workstations?|dev machines?|",
    r"yerel|lokáln\w*|fixtures?|in-memory|(folder|directory|file|module|package)s? only|only in (the )?[\w./-]+/|",
    r"(ambiente|entorno|environment) de (testes?|pruebas?|homologa\w*)|ambient\w* (dei |di )?test\w*|",
    r"docs?[- ]only|only (docs|documentation)|health ?checks?|liveness|readiness|tylko dokumentacj\w*|nur (die )?dokumentation|solo (la )?documentación|",
    r"apenas (a )?documentação|alleen documentatie|uniquement (la )?documentation|solo (la )?documentazione|",
    r"vendor(ed)?/|third-party code|generated code|cục bộ|test(ing)? (env\w*|ortam\w*|instances?|servers?|clusters?|containers?|",
    r"buckets?|workspaces?)|testikan\w*|testovac\w*|dočasn\w*|(ci|build)[- ]artifacts?)\b|本地|ローカル|로컬|テスト環境|测试环境|테스트 환경|מקומי|בדיקות|محلي|लोकल|",
    r"/(health|ready|live)\w*",
);

/// A protection that stops the command, in every language read here
/// (rejected, blocked, protected, refused): the sentence tells how the
/// command is kept out, which is a fact.
const BLOCKED: &str = concat!(
    r"(\b(rejected|blocked|refused|protected|rechaz\w+|bloque\w+|protegid\w+|rejet\w+|bloqu\w+|prot[eé]g\w+|abgelehnt|",
    r"blockiert|gesch[uü]tzt|recusad\w+|rifiutat\w+|bloccat\w+|protett\w+|odrzuc\w+|zablokowan\w+|chronion\w+|",
    r"reddedil\w+|engellen\w+|geweigerd|geblokkeerd|beschermd|отклон\w+|блокиру\w+|защищ\w+|відхил\w+|блоку\w+|",
    r"захищ\w+|απορρίπτ\w+|μπλοκάρ\w+|προστατε[υύ]\w+)\b|拒否|ブロック|保護|拒绝|拒絕|阻止|保护|נחסם|נדחה|מוגן|",
    r"يرفض|مرفوض|محظور|محمي|अस्वीकार|अवरुद्ध|차단|거부)",
);

/// A secret kept safe, in every language read here: a vault or a secrets
/// manager, masked, encrypted, a template, a public key, only its name. A
/// sentence that says where the secret is kept away from readers is a fact.
const SAFE_SECRET: &str = concat!(
    r"\b(vaults?|secrets? managers?|key ?vault|keychain|kms|hsm|masked|redacted|encrypted|hashed|fingerprints?|",
    r"placeholders?|templates?|public (ssh )?keys?|revok\w+|scanners?|",
    r"менеджер\w* секрет\w*|хранилищ\w*|сховищ\w*|шаблон\w*|открыт\w* ключ\w*|відкрит\w* ключ\w*|",
    r"маскир\w*|замаскир\w*|зашифр\w*|tresor|geheimnis-?manager|secret-?manager|maskiert|verschlüsselt|",
    r"vorlage|platzhalter|coffre|gestionnaire de secrets|masqué\w*|chiffré\w*|bóveda|gestor de secretos|",
    r"enmascarad\w*|cifrad\w*|plantilla|cofre|gerenciador de segredos|mascarad\w*|criptografad\w*|",
    r"cassaforte|gestore dei segreti|mascherat\w*|cifrat\w*|segnaposto|kluis|gemaskeerd|versleuteld|",
    r"sjabloon|sejf|menedżer\w* sekret\w*|zamaskowan\w*|zaszyfrowan\w*|szablon\w*|maskelen\w*|şifrelen\w*|",
    r"şablon\w*|trezor\w*|šifrovan\w*|titkosított|maszkolt|salattu|krypterad|krypteret|criptat\w*|",
    r"terenkripsi|disamarkan|mã hóa|κρυπτογραφημέν\w*|θησαυροφυλάκιο|masks?|masking|",
    r"(chaves?|claves?|clés?|chiav[ei])( \w+)? (públicas?|publiques?|pubblic[ah]e?)|öffentliche[nr]? schlüssel|",
    r"so (they|it) can be rotated|security team|últimos \d+ caracteres|last \d+ (characters|chars)|",
    r"letzten \d+ zeichen|derniers \d+ caractères|ultimi \d+ caratteri|",
    r"publieke sleutels?|klucze? publiczn\w*|redefinição de senha|recuperação de senha|",
    r"restablecimiento de contraseña|réinitialisation du mot de passe|reimpostazione della password|",
    r"passwort zurücksetzen|сброс\w* парол\w*|mened[żz]er\w* has\w*|spr[áa]vc\w* hesel|",
    r"менеджер\w* парол\w*|",
    r"gestionnaire de mots de passe|gestor de contraseñas|gerenciador de senhas|passwort-?manager|",
    r"wachtwoordbeheerder|lösenordshanterare|password managers?|valv\w*|kassaskåp|hvězdičk\w*|asterisks?|",
    r"звёздочк\w*|звездочк\w*|зірочк\w*|gwiazdk\w*|sternchen|astérisques?|asteriscos?|asterischi|nahrazen\w*)\b|",
    r"\*\*\*|\.env\.(example|sample|template|dist)\b|\.pub\b|\b(historically|formerly|previously|used to|no longer|",
    r"καλυμμέν\w*)\b|",
    r"מנהל הסודות|מנהל סודות|כספת|מוצפן|ממוסך|מוסתר|مدير الأسرار|خزنة|مشفر|سيكرت مانجر|",
    r"सीक्रेट मैनेजर|वॉल्ट|मास्क|एन्क्रिप्ट|पब्लिक की|फिंगरप्रिंट|सार्वजनिक कुंजी|シークレット管理|シークレットマネージャ|伏せ字|マスク|暗号化|",
    r"密钥管理|机密管理|保管库|屏蔽|脱敏|掩码|加密|시크릿 관리|비밀 관리|볼트|마스킹|암호화",
);

static SAFE_SECRET_WORDS: LazyLock<Regex> = LazyLock::new(|| compile(SAFE_SECRET));

struct Compiled {
    lang: &'static str,
    agent: Regex,
    binding: Regex,
    secret: Regex,
    leak: Regex,
    place: Regex,
    no_secret: Regex,
    duty: Regex,
    optional: Regex,
    skip: Regex,
    permit: Regex,
    purpose: Regex,
    frame: Option<Regex>,
    affirming: Regex,
    negation: Regex,
}

/// The command classes every language shares, compiled once.
static RISKY_ACT: LazyLock<Regex> = LazyLock::new(|| compile(RISKY));
static DESTRUCTIVE_ACT: LazyLock<Regex> = LazyLock::new(|| compile(DESTRUCTIVE));
static CONFINED_ACT: LazyLock<Regex> = LazyLock::new(|| compile(CONFINED));
static BLOCKED_ACT: LazyLock<Regex> = LazyLock::new(|| compile(BLOCKED));

/// Whether the sentence confines what it tells to what may be thrown away:
/// a confining word, and no word of production or of something shared
/// unless the sentence guards that too ("test data dropped directly in
/// production" is not confined; "only in personal clones", "prod needs
/// the DBA's approval" is).
pub(crate) fn confined(sentence: &str) -> bool {
    CONFINED_ACT.is_match(sentence) && (!crate::wiped::names_live_or_shared(sentence) || GUARDS_LIVE.is_match(sentence))
}

/// Words that guard production or a shared place in a sentence that also
/// names a throwaway one ("only", "excluded", "requires approval"), or
/// contrast the two ("but on production …").
pub(crate) static GUARDS_LIVE: LazyLock<Regex> = LazyLock::new(|| {
    compile(concat!(
        r"\b(only|needs?|requires?|excluded|exempt|approval|sign-?off|accord|onay\w*|gerekir|wyłączon\w*|",
        r"yalnızca|yalnizca|seulement|solo|nur|tylko|только|лише|μόνο|pouze|csak|vain|endast|kun|doar|hanya|chỉ|alleen|",
        r"enkel|apenas|somente|soltanto|solamente|uniquement|esclus\w*|exclu\w*|ausgeschlossen|uitgesloten|",
        r"sadece|yalnız|but|whereas|however|natomiast|jedoch|aber|mais|pero|però|maar|ενώ|ama|fakat|však|",
        r"mutta|tetapi|sedangkan|nhưng|однако|але|zatímco|medan|mens)\b|但是|但|而|しかし|하지만|반면|لكن|بينما|אבל|ואילו|",
        r"लेकिन|जबकि|のみ|だけ|仅|只|만|רק|فقط|केवल",
    ))
});

fn compile(pattern: &str) -> Regex {
    crate::rules::word_class(pattern, "waiver")
}

/// One language's word classes, compiled the first time a sentence reads
/// as the language (its marker, in [`MARKERS`]): most processes only ever
/// meet a few.
struct Language {
    words: &'static Words,
    rules: OnceLock<Compiled>,
}

impl Language {
    fn rules(&self) -> &Compiled {
        self.rules.get_or_init(|| {
            let w = self.words;
            Compiled {
                lang: w.lang,
                agent: compile(w.agent),
                binding: compile(w.binding),
                secret: compile(&format!("{}|{SHARED_SECRETS}", w.secret)),
                leak: compile(w.leak),
                place: compile(&format!("{}|{SHARED_PLACES}", w.place)),
                no_secret: compile(w.no_secret),
                duty: compile(&format!("{}|{SHARED_DUTIES}", w.duty)),
                optional: compile(w.optional),
                skip: compile(w.skip),
                permit: compile(w.permit),
                purpose: compile(w.purpose),
                frame: w.frame.map(compile),
                affirming: compile(w.affirming),
                negation: compile(w.negation),
            }
        })
    }
}

static LANGS: LazyLock<Vec<Language>> =
    LazyLock::new(|| all_languages().map(|words| Language { words, rules: OnceLock::new() }).collect());

/// Every language's marker, matched in one pass.
static MARKERS: LazyLock<RegexSet> = LazyLock::new(|| {
    let markers = all_languages().map(|w| format!("(?i){}", w.marker));
    RegexSet::new(markers).expect("language markers")
});

/// The languages (ISO 639-1 codes) `sentence` reads as.
pub(crate) fn languages_of(sentence: &str) -> Vec<&'static str> {
    MARKERS.matches(sentence).iter().map(|i| LANGS[i].words.lang).collect()
}

/// The languages `sentence` reads as.
fn speaking(sentence: &str) -> impl Iterator<Item = &'static Compiled> {
    MARKERS.matches(sentence).into_iter().map(|i| LANGS[i].rules())
}

/// Sentences, cut at the stops of every script read here (the Devanagari
/// danda, the Arabic question mark and semicolon among them); a full stop
/// ends a sentence only before a space or the end, so `.env` and `~/.ssh`
/// stay whole.
pub(crate) fn sentences(prose: &str) -> Vec<&str> {
    static BREAK: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[.!?]+(\s+|$)|[;\n।؟؛。！？；]").expect("break regex"));
    BREAK.split(prose).map(str::trim).filter(|s| !s.is_empty()).collect()
}

impl Compiled {
    /// Whether the sentence denies what it says, once the words of its own
    /// predicate (which may carry a negation: "не нужны") are taken out.
    fn denies(&self, sentence: &str, predicate_words: &[&Regex]) -> bool {
        if BY_MISTAKE.is_match(sentence) || restore::put_back(sentence, &self.negation, &self.affirming) {
            return true;
        }
        // A condition before the main clause ("when a customer cannot log
        // in, …") denies nothing the clause tells.
        let sentence = CONDITION.find(sentence).map_or(sentence, |m| &sentence[m.end()..]);
        let mut rest = self.affirming.replace_all(sentence, " ").into_owned();
        for words in predicate_words {
            rest = words.replace_all(&rest, " ").into_owned();
        }
        self.negation.is_match(&without_negated_restoring(&rest, &[&self.negation]))
    }

    fn judge(&self, sentence: &str) -> Option<&'static str> {
        if near(&self.agent, &self.binding, sentence) {
            return Some("addressed:agent");
        }
        let framed = self.frame.as_ref().is_none_or(|f| f.is_match(sentence));
        let own_words = [&self.no_secret, &self.optional];
        if self.secret.is_match(sentence) && framed {
            let placed = self.place.is_match(sentence);
            let moved = near(&self.secret, &self.leak, sentence) || self.purpose.is_match(sentence);
            let unsecret = near(&self.secret, &self.no_secret, sentence);
            if ((placed && moved) || unsecret)
                && !self.withheld(sentence)
                && !self.denies(sentence, &own_words)
                && !self.kept_safe(sentence)
            {
                return Some("waiver:secret");
            }
        }
        if self.duty.is_match(sentence) && framed {
            let without = WITHOUT.find_iter(sentence).take(16).any(|w| {
                self.duty.find_at(sentence, w.end()).is_some_and(|d| sentence[w.end()..d.start()].chars().count() <= 16)
            });
            let dropped = without || near(&self.duty, &self.optional, sentence) || self.skips_duty(sentence);
            if dropped && !self.denies(sentence, &own_words) && !confined(sentence) {
                return Some("waiver:duty");
            }
        }
        None
    }

    /// Whether a skipping verb has a safeguard close by, except one named
    /// after a purpose that follows the verb: "ignore the cache to make the
    /// verification easier" skips the cache, not the verification.
    fn skips_duty(&self, sentence: &str) -> bool {
        let duties: Vec<_> = self.duty.find_iter(sentence).take(16).map(|m| m.range()).collect();
        self.skip.find_iter(sentence).take(16).any(|skip| {
            duties.iter().any(|duty| {
                let (from, to) = if duty.start >= skip.end() {
                    if self.purpose.is_match(&sentence[skip.end()..duty.start]) {
                        return false;
                    }
                    (skip.end(), duty.start)
                } else if skip.start() >= duty.end {
                    (duty.end, skip.start())
                } else {
                    return true;
                };
                sentence[from..to].chars().count() <= NEAR
            })
        })
    }

    /// Whether the secret, or the moving of it, comes right after "without"
    /// ("tanpa menyertakan file .env", "sin adjuntar la clave"): what the
    /// sentence sends leaves the secret out.
    fn withheld(&self, sentence: &str) -> bool {
        WITHOUT.find_iter(sentence).take(16).any(|w| {
            let soon = |r: &Regex| {
                r.find_at(sentence, w.end()).is_some_and(|m| sentence[w.end()..m.start()].chars().count() <= 24)
            };
            soon(&self.secret) || soon(&self.leak)
        })
    }

    /// Whether the sentence keeps the secret safe (a vault, masked, a
    /// placeholder), and not only names a vault it does without: "so that
    /// newcomers need not look in Vault", "sin pasar por el vault".
    fn kept_safe(&self, sentence: &str) -> bool {
        SAFE_SECRET_WORDS.find_iter(sentence).take(16).any(|safe| {
            let before = &sentence[..safe.start()];
            let from = before.char_indices().rev().nth(24).map_or(0, |(i, _)| i);
            let window = &before[from..];
            !self.negation.is_match(window) && !WITHOUT.is_match(window)
        })
    }

    /// A destructive or bypassing command that the sentence endorses (a
    /// routine, a default, a designated step, a permission).
    fn endorses_risky_act(&self, sentence: &str) -> bool {
        let endorsed = || self.permit.is_match(sentence) || self.frame.as_ref().is_some_and(|f| f.is_match(sentence));
        (DESTRUCTIVE_ACT.is_match(sentence) || (RISKY_ACT.is_match(sentence) && endorsed()))
            && !confined(sentence)
            && !BLOCKED_ACT.is_match(sentence)
            && !self.risky_act_denied(sentence)
    }

    /// Whether the sentence denies the command it names, in this language.
    fn risky_act_denied(&self, sentence: &str) -> bool {
        self.denies(sentence, &[&RISKY_ACT, &DESTRUCTIVE_ACT])
    }
}

/// "Without" in every language read here: a safeguard named right after it
/// ("deploys go out without review", "ohne Review", "sin revisión") is
/// dropped.
static WITHOUT: LazyLock<Regex> = LazyLock::new(|| {
    compile(concat!(
        r"\b(without|ohne|sans|sin|sem|senza|zonder|bez|без|χωρίς|olmadan|utan|uden|ilman|fără|tanpa|không có|",
        r"không cần)\b|なしで|なしに|无需|不用|없이|بدون|دون|ללא|בלי|बिना",
    ))
});

/// A lapse told as a mistake, in the languages read here: an episode that
/// was put right, not the way things are.
static BY_MISTAKE: LazyLock<Regex> = LazyLock::new(|| {
    compile(concat!(
        r"\b(by mistake|accidentally|by accident|по ошибке|помилково|przez pomyłkę|omylem|por error|por engano|",
        r"per errore|par erreur|versehentlich|per ongeluk|yanlışlıkla|yanlislikla|av misstag|ved en fejl|vahingossa|",
        r"tévedésből|din greșeală|secara tidak sengaja|do nhầm lẫn|κατά λάθος)\b|誤って|误|실수로|بالخطأ|בטעות|गलती से",
    ))
});

/// A condition that opens a sentence, up to its comma, in the languages
/// read here.
pub(crate) static CONDITION: LazyLock<Regex> = LazyLock::new(|| {
    compile(concat!(
        r"^\W*([^,]{0,30}\b(says?|said|meint|sagt|dit|dice|diz|zegt|mówi|говорит|каже|λέει|der|dass|que|che|dat|że|что|що|ότι)",
        r"\W+)?(\b(if|when|whenever|wenn|falls|quand|lorsque|si|cuando|quando|se|als|wanneer|jeśli|gdy|kiedy|если|",
        r"когда|коли|якщо|όταν|αν|eğer|když|pokud|ha|jos|kun|när|om|når|hvis|când|dacă|ketika|jika|khi|nếu)\b|",
        r"如果|もし|만약|إذا|عندما|כאשר|אם|अगर|जब)[^,，、]{0,100}[,，、]",
    ))
});

/// How many characters may stand between a secret or a safeguard and the
/// words that waive it: a long sentence that skips rows and, much later,
/// names an audit log waives nothing.
const NEAR: usize = 60;

/// Whether a match of `a` and a match of `b` lie within [`NEAR`] characters
/// of each other in `text`.
fn near(a: &Regex, b: &Regex, text: &str) -> bool {
    crate::rules::within(a, b, text, NEAR)
}

/// Sentences for commands: quoted commands hold `;` and `.`, so only a stop
/// before a space or the end and a new line cut.
fn command_sentences(text: &str) -> Vec<&str> {
    static BREAK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[.!?]+(\s+|$)|[\n。！？]").expect("break regex"));
    BREAK.split(text).map(str::trim).filter(|s| !s.is_empty()).collect()
}

/// Reads `prose` (quoted mentions masked) for waivers of secrets and duties,
/// and `text` (the normalised text, quoted commands kept) for risky acts.
pub(crate) fn check(prose: &str, text: &str, reasons: &mut Vec<String>) {
    for sentence in sentences(prose) {
        for language in speaking(sentence) {
            if let Some(reason) = language.judge(sentence) {
                reasons.push(reason.to_owned());
                reasons.push(format!("lang:{}", language.lang));
            }
        }
    }
    for sentence in command_sentences(text) {
        // A sentence may read as more than one language: a denial in any of
        // them ("nunca", "never") keeps the command a fact.
        if speaking(sentence).any(|l| l.risky_act_denied(sentence)) {
            continue;
        }
        if let Some(language) = speaking(sentence).find(|l| l.endorses_risky_act(sentence)) {
            reasons.push("waiver:endorsed-act".to_owned());
            reasons.push(format!("lang:{}", language.lang));
        }
    }
}
