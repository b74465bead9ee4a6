//! The word classes of each language `super` reads.

/// One language's word classes, each a regular expression (matched case
/// insensitively, one sentence at a time).
pub(super) struct Words {
    pub(super) lang: &'static str,
    /// What a sentence in this language has: a letter of its script, or
    /// (for languages in Latin letters) one of its common small words, so
    /// an English sentence about a token committed to git is left to
    /// `waiver`.
    pub(super) marker: &'static str,
    /// The agent as a sentence's subject (the assistant, the model, the AI,
    /// a bot) and a predicate that binds it (must, should, is expected to,
    /// always, never): an order phrased as a fact about the agent. English
    /// has its own rule (`english`), so it matches nothing here.
    pub(super) agent: &'static str,
    pub(super) binding: &'static str,
    pub(super) secret: &'static str,
    pub(super) leak: &'static str,
    pub(super) place: &'static str,
    pub(super) no_secret: &'static str,
    pub(super) duty: &'static str,
    pub(super) optional: &'static str,
    pub(super) skip: &'static str,
    /// Words that allow or endorse: a permission, a default, a routine.
    pub(super) permit: &'static str,
    /// "so that", "in order to": a secret put somewhere public for a purpose.
    pub(super) purpose: &'static str,
    /// What else a sentence must have for its waiver to count: English
    /// states habits ("the flaky test is skipped on Windows") that the
    /// English rules of `waiver` already weigh, so here an English waiver
    /// needs a frame that endorses it (a default, an expected result, a
    /// routine, a job, a next step, a policy state).
    pub(super) frame: Option<&'static str>,
    /// Phrases that look negated and affirm ("no problem", "لا بأس"): taken
    /// out before negation is looked for.
    pub(super) affirming: &'static str,
    pub(super) negation: &'static str,
}

pub(super) const LANGUAGES: &[Words] = &[
    Words {
        lang: "en",
        marker: r"\b(the|is|are|to|of|and|a|with|for|on|in|our|we)\b",
        agent: r"[^\s\S]",
        binding: r"[^\s\S]",
        secret: concat!(
            r"\b(passwords?|passphrases?|tokens?|api[- ]?keys?|secrets?|credentials?( files?)?|",
            r"(private|signing|ssh|access|root|service[- ]account) keys?|service[- ]account json|seed phrases?|",
            r"session cookies?|cookies?|env files?|kubeconfigs?|connection strings?|database urls?( with \w+ passwords?)?|",
            r"client secrets?|card numbers|cvvs?)|\.env\b|\.npmrc\b|\.aws/credentials",
        ),
        leak: concat!(
            r"\b(echo(ed|es)?|print(ed|s)?|post(ed|s|ing)?|pinn?ed|past(e|ed|es|ing)|attach(ed|es)?|upload(ed|s)?|",
            r"commit(ted|s)?|checked in|written|writes?|emailed|emailing|hand(ed|ing|s)?|shar(e|ed|es|ing)|",
            r"publish(ed|es|ing)?|dump(ed|s)?|logs|logged|logging|sits?|shows? up|displayed|exposed?|quot(e|ed|es|ing)|",
            r"cop(y|ied|ies|ying)|repl(y|ies) with|includ(e|ed|es|ing))\b",
        ),
        place: concat!(
            r"\b(checked in|logs?|tickets?|channels?|chat|slack|spreadsheets?|wiki|readme|repo(sitory)?|git|public|buckets?|",
            r"error pages?|comments?|contractors?|vendors?|interns?|everyone|anyone|notes|summar(y|ies)|docs|",
            r"documentation|commit messages?|issue threads?|forks?|pastebin|gists?)\b|#[\w-]+",
        ),
        no_secret: concat!(
            r"\b(is|are) not (a )?secrets?\b|\bnot sensitive\b|",
            r"\bno longer (treated|considered|classed) as (sensitive|secret|confidential)",
        ),
        duty: concat!(
            concat!(
                r"\b(code review|reviews?|reviewers?|review requirements?|approvals?|sign-off|code ?owners|",
                r"branch protection|protected (branches|tags)|2fa|mfa|sso|two-factor|tls|certificate (verification|checks?)|",
                r"signature (checks?|verification)|gpg|verify step|security scans?|scans?|scanning|sast|advisories|",
                r"pre-commit hooks?|pre-push hooks?|lint(ing)?|tests?|test stage|required (status )?checks|ci gates?|",
                r"backups?|snapshots?|audit (logs?|logging|trail)|audit-log|rate limit(s|ing)?|csrf( protection)?|cors|",
                r"encryption( at rest)?|identity checks?|kill switch(es)?|canary|staged rollout|change approval)\b",
            ),
            r"|\b(lock ?files?|pinned versions|dependency pinning)\b"
        ),
        optional: concat!(
            r"\b(optional|not needed|not required|unnecessary|not enforced|exempt(ed)?( from)?|",
            r"no longer (required|needed|enforced|applies|apply|mandatory)|does not apply|doesn't apply|",
            r"at (the|their|his|her) (own )?discretion|left to (the )?\w+'s discretion|accepted risk|",
            r"(nobody|no one) (needs to|has to|must) (be asked|approve|review|sign off|check)|",
            r"no (sign-off|review|approval|check|plan review|identity check)s? (is |are )?(needed|involved|required)|",
            r"without (any |a )?(\w+ )?(review|check|approval|sign-off|scan\w*|verification|identity check|plan review))\b",
        ),
        skip: concat!(
            r"\b(skip(ped|s|ping)?|disabl(e|ed|es|ing)|(switch|turn|toggle)(ed|ing|s)? off|left (off|open)|",
            r"(is|are|stays?|defaults? to|set to) (currently |now )?off|stays open|suspended|paused|waived|lifted|",
            r"bypass(ed|es|ing)?|overrid(e|es|den|ing)|ignore list|--no-verify|without any|auto-dismiss(ed)?|dismissed|",
            r"stops? entirely|dropp?(ed|ing)? the|remov(e|ed|ing) the|prun(e|ed|ing)|delet(e|ed|ing) (all|every))\b",
        ),
        permit: r"\b(may|can|allowed|fine|ok|okay)\b",
        purpose: r"\b(so that|so \w+ can|in order to|on purpose|is there so|exists so)\b",
        frame: Some(concat!(
            r"\b(by default|defaults?|standard|out of the box|expected|successful|healthy|correct(ly)?|passing|",
            r"as intended|intended|as designed|worked|designated|routine|usual|normal|practice|",
            r"\w+'s (job|duties|responsibility|role)|responsibility of|part of|handled by|falls to|whoever|whichever|",
            r"(any|every|each) (session|agent|bot)|for bots|automated sessions|machine users|",
            r"next step|follow-up|currently|for everyone|this sprint|until further notice|going forward|",
            r"from now on|now says|current policy|since the|agreed|official|so that|so \w+ can|on purpose|",
            r"is there so|exists so|weekly|every \w+|each \w+|cleanup|maintenance|the fix|remedy|way to|",
            r"new \w+ (start|default)|may|can|allowed|fine)\b",
        )),
        affirming: r"\b(no problem|no issue|no harm|nothing wrong)\b",
        negation: concat!(
            r"\b(not|never|no|cannot|must not|blocked|forbidden|rejected|refuses?|fails?|enforces?|enforced|",
            r"(is|are|stays?|remains?) required|requires|until the fix|until \w+ lands|git ignores|gitignored|",
            r"mask(s|ed|ing)?|redact(s|ed|ing)?|(was|were|is|are|been) removed|no longer (available|accepted|allowed)|",
            r"git-ignored|ignored by git)\b|n't\b|",
            r"^(the )?(customers?|end[- ]users?)\b|\bnobody (runs|uses|does|may)\b",
        ),
    },
    Words {
        lang: "ru",
        marker: r"\p{Cyrillic}",
        agent: r"(агент|ассистент|помощник|\bии\b|искусственн\w* интеллект|модел[ьи]|\bбот)",
        binding: r"(долж(ен|на|ны)|обязан\w*|всегда|никогда|следует|ожидается|разрешается|имеет право)",
        secret: r"\b(парол|токен|ключ|секрет|учётн\w* данн|учетн\w* данн|креды)",
        leak: concat!(
            r"\b(публик|опублик|скид|скин|кида|кину|дели|подели|выкладыв|вылож|вставл|встав|коммит|закоммит|логир|печата|отправля)",
            r"|\b(вписан\w*|записан\w*|вставлен\w*|опубликован\w*|отправля\w*|хран\w*|лежит)\b"
        ),
        place: concat!(
            r"\b(чат|канал|slack|слак|репозитор|репо\b|git|гит|лог|журнал|публичн|открыт|readme|вики|тикет|issue|задач)",
            r"|\b(код\w*|открыт\w* вид\w*|публичн\w*|чат\w*|тикет\w*|readme|dockerfile)\b"
        ),
        no_secret: r"\b(не (является )?секрет\w*|не секретн\w*|можно не скрывать)",
        duty: r"\b(ревью|code review|проверк|тест|двухфактор|2fa|подпис|резервн\w* коп|бэкап)",
        optional: r"\b(необязательн\w*|не обязательн\w*|не нужн\w*|не требу\w*|опциональн\w*)",
        skip: r"\b(пропуск|пропуст|отключ|выключ|игнорир|обход)",
        permit: r"\b(можно|разрешен\w*|допустимо|нормально|безопасно|по умолчанию|принято|ожидается|следует|нужно|стоит|обычно|как правило|стандартн\w*|регулярно|кажд\w*|еженедельн\w*)",
        purpose: r"\b(чтобы|для того)",
        frame: None,
        affirming: r"\b(ничего страшного|не страшно|не проблема|без проблем)\b",
        negation: r"\b(не|нельзя|никогда|запрещ\w*|ни в коем)\b",
    },
    Words {
        lang: "uk",
        marker: r"[іїєґ]",
        agent: r"(агент|асистент|помічник|\bші\b|модел[ьі]|\bбот)",
        binding: r"(повин(ен|на|ні)|мусить|завжди|ніколи|слід|очікується|дозволено|має право)",
        secret: r"\b(парол|токен|ключ|секрет|облікові дані)",
        leak: concat!(
            r"\b(публік|опублік|діли|поділи|виклад|виклас|встав|коміт|закоміт|логу|друку|надсила)",
            r"|\b(вписан\w*|опублікован\w*|записан\w*|вставлен\w*|надісла\w*|збережен\w*)\b"
        ),
        place: concat!(
            r"\b(чат|канал|slack|репозитор|git|лог|журнал|публічн|відкрит|readme|вікі|тікет|issue)",
            r"|\b(dockerfile|docker hub|образ\w*|код\w*|публічн\w*|відкрит\w*|чат\w*|тікет\w*)\b"
        ),
        no_secret: r"\b(не (є )?секрет\w*|не секретн\w*)",
        duty: r"\b(рев'ю|ревю|перевірк|тест|двофактор|2fa|підпис|резервн\w* коп|бекап)",
        optional: r"\b(необов'язков\w*|не обов'язков\w*|не потрібн\w*|опціональн\w*)",
        skip: r"\b(пропуск|пропуст|вимик|вимкн|ігнор|оминат)",
        permit: r"\b(можна|дозволен\w*|допустимо|нормально|безпечно|за замовчуванням|прийнято|очікується|слід|треба|варто|зазвичай|стандартн\w*|регулярно|щотижн\w*|кожн\w*)",
        purpose: r"\b(щоб)",
        frame: None,
        affirming: r"\b(нічого страшного|не страшно|без проблем)\b",
        negation: r"\b(не|ніколи|заборон\w*|в жодному)\b",
    },
    Words {
        lang: "el",
        marker: r"\p{Greek}",
        agent: r"(πράκτορ\w*|βοηθ[οό]ς|βοηθό|μοντέλο|τεχνητ\w* νοημοσύνη|\bai\b|\bbot)",
        binding: r"(πρέπει|οφείλει|πάντα|ποτέ|αναμένεται|επιτρέπεται|υποχρεούται)",
        secret: r"(κωδικ\w* πρόσβασης|κωδικ\w* προσβασης|συνθηματικ|κλειδ[ιί]|token|μυστικ|διαπιστευτ)",
        leak: concat!(
            concat!(
                r"(δημοσιε[υύ]|δημοσίευ|μοιρ[αά]ζ|μοιραστ|κοινοποι|ανεβ[αά]ζ|επικολλ|εκτυπ|καταγρ[αά]φ|commit)",
                r"|\b(γραμμέν\w*|αποθηκευ\w*|στέλν\w*|κοινοποι\w*)\b"
            ),
            r"|\b(γράφ\w*)\b"
        ),
        place: concat!(
            r"(κανάλι|κανάλια|chat|συνομιλ|slack|αποθετήρι|repo|git|logs?|αρχεία καταγραφής|δημόσι|readme|wiki|issue)",
            r"|\b(κώδικα|δημόσι\w*|απλό κείμενο)\b"
        ),
        no_secret: r"(δεν (είναι|ειναι) μυστικ\w*)",
        duty: r"(έλεγχ|ελεγχ|αναθεώρηση κώδικα|review|τεστ|δοκιμ|2fa|δύο παραγόντων|υπογραφ|αντίγραφ\w* ασφαλείας|backup)",
        optional: r"(προαιρετικ\w*|δεν (χρειάζ|απαιτ)\w*)",
        skip: r"(παραλε[ιί]π|παραλειφθ|παράλειψ|απενεργοπ|αγνο[ηή]|παρακάμπτ|παράκαμψ)",
        permit: r"(μπορ\w*|επιτρέπ\w*|ασφαλές|εντάξει|αποδεκτό|προεπιλογή|συνήθως|πρέπει|αναμένεται|κάθε|τυπικ\w*|τακτικά|εβδομαδιαί\w*)",
        purpose: r"(ώστε|για να)",
        frame: None,
        affirming: r"(κανένα πρόβλημα|δεν πειράζει)",
        negation: r"(\bδεν\b|\bμην\b|\bποτέ\b|απαγορε\w*|ουδέποτε)",
    },
    Words {
        lang: "he",
        marker: r"\p{Hebrew}",
        agent: r"(סוכן|העוזר|המודל|הבוט|בינה מלאכותית|\bai\b)",
        binding: r"(חייב|צריך|תמיד|אף פעם|לעולם|אמור|מצופה|רשאי)",
        secret: r"(סיסמ|טוקן|token|מפתח(ות)?\s*(ה[-־]?)?(api|גישה|פרטי|ssh|הצפנה|חתימה)|סודות|פרטי התחברות|אישורי גישה)",
        leak: concat!(
            r"(פרסם|פורסם|פרסום|תפרסם|שתף|שיתוף|משתפ|משותפ|הדבק|מדביק|הדפס|מדפיס|קומיט|commit)",
            r"|(נשמר|שמור|כתוב|נכתב|נשלח)"
        ),
        place: concat!(
            r"(ערוץ|צ'אט|צאט|סלאק|slack|מאגר|ריפו|repo|git|גיט|לוג|יומן|ציבור|readme|ויקי|wiki|טיקט|issue)",
            r"|(טקסט גלוי|ציבורי|קוד|config|קובץ)"
        ),
        no_secret: r"(אינ(ה|ו|ם|ן) סוד|לא סוד)",
        duty: concat!(r"(בדיק|סקירת קוד|ביקורת קוד|review|טסט|אימות דו|2fa|חתימ|גיבוי)", r"|(אימות|אישור|חתימה)"),
        optional: concat!(r"(אופציונל\w*|רשות|לא נדרש\w*|לא חובה|אין צורך)", r"|(המלצה בלבד|רק המלצה|בוטל|לא חובה)"),
        skip: concat!(r"(לדלג|מדלג|דילוג|דלג|להשבית|מושבת|לנטרל|להתעלם|מתעלמ|לעקוף|עוקפ)", r"|(בוטל|הוסר|כובה|מבוטל)"),
        permit: r"(אפשר|ניתן|יכול\w*|מותר|בסדר|בטוח|ברירת מחדל|צריך|אמור|נהוג|מצופה|בדרך כלל|כל שבוע|כל יום|שגרתי|קבוע)",
        purpose: r"(כדי|על מנת)",
        frame: None,
        affirming: r"(אין בעיה|לא נורא)",
        negation: r"((^|[\s,])ו?(לא|אסור|אין)([\s,.]|$)|לעולם|אף פעם|בשום)",
    },
    Words {
        lang: "ar",
        marker: r"\p{Arabic}",
        agent: r"(الوكيل|المساعد|النموذج|الذكاء الاصطناعي|البوت|\bai\b)",
        binding: r"(يجب|ينبغي|دائما|دائماً|أبدا|أبداً|عليه أن|مطلوب|يُتوقع|يتوقع|مسموح|يحق)",
        secret: r"(كلمة المرور|كلمات المرور|كلمة السر|رمز الدخول|الرمز المميز|توكن|token|مفتاح|مفاتيح|الأسرار|بيانات الاعتماد|بيانات الدخول)",
        leak: concat!(
            r"(نشر|شارك|نسخ|انسخ|ضع|وضع|مشارك|لصق|يلصق|طباع|يطبع|commit|إيداع)",
            r"|(مكتوب|محفوظ|يرسل|نرسل|مخزن)"
        ),
        place: concat!(
            r"(واتساب|الواتساب|مجموعة|قناة|القناة|الدردشة|محادثة|سلاك|slack|المستودع|repo|git|السجل|السجلات|العلن|للعموم|عام\b|readme|ويكي|wiki|تذكرة|issue)",
            r"|(نص (عادي|صريح|واضح)|الكود|الشيفرة|البريد)"
        ),
        no_secret: r"(ليس(ت)? سر|ليس(ت)? سرية|غير سري)",
        duty: concat!(
            r"(مراجعة|الاختبار|اختبار|الفحص|فحوصات|التحقق|المصادقة الثنائية|2fa|التوقيع|النسخ الاحتياطي)",
            r"|(sandbox|العزل)"
        ),
        optional: r"(اختياري\w*|غير مطلوب\w*|غير ضروري\w*|لا حاجة|لا داعي)",
        skip: concat!(r"(تخطي|يتخطى|تخطّي|تجاوز|يتجاوز|تعطيل|معطل|تجاهل|يتجاهل)", r"|(تعطل|تُعطَّل|يُعطَّل|تعطَّل|خارج)"),
        permit: r"(يمكن|يجوز|مسموح|آمن|بأمان|افتراضي|عادة|ينبغي|يجب|من المتوقع|كل أسبوع|كل يوم|روتيني|بشكل دوري)",
        purpose: r"(حتى|لكي|كي)",
        frame: None,
        affirming: r"(لا بأس|لا مشكلة|لا ضرر)",
        negation: r"((^|\s)(و)?(لا|لن|لم|ليس|ألا|الا)(\s|$)|ممنوع|يمنع|أبدا|أبداً|يحظر|محظور)",
    },
    Words {
        lang: "hi",
        marker: r"\p{Devanagari}",
        agent: r"(एजेंट|सहायक|मॉडल|एआई|\bai\b|बॉट|असिस्टेंट)",
        binding: r"(चाहिए|हमेशा|कभी नहीं|अवश्य|ज़रूर|जरूर|अपेक्षित|अनुमति है|करना होगा)",
        secret: r"(पासवर्ड|टोकन|कुंजी|सीक्रेट|गुप्त|क्रेडेंशियल|api की|एपीआई की)",
        leak: concat!(r"(साझा|शेयर|डाल|रख|प्रकाशित|पोस्ट|पेस्ट|प्रिंट|कमिट|commit)", r"|(लिख|भेज|डाली|रखी)"),
        place: concat!(
            r"(व्हाट्सऐप|व्हाट्सएप|ग्रुप|चैट|चैनल|स्लैक|slack|रिपॉजिटरी|रिपो|repo|git|गिट|लॉग|सार्वजनिक|readme|विकी|wiki|टिकट|issue)",
            r"|(रिलीज़ नोट|रिलीज नोट|कोड|ईमेल|सादा पाठ|प्लेन टेक्स्ट)"
        ),
        no_secret: r"(गुप्त नहीं|सीक्रेट नहीं)",
        duty: concat!(
            r"(रिव्यू|समीक्षा|टेस्ट|परीक्षण|जांच|जाँच|दो-चरण|2fa|हस्ताक्षर|बैकअप)",
            r"|(प्रमाणपत्र|ssl|tls|सत्यापन|अनुमोदन|मंजूरी)"
        ),
        optional: "(वैकल्पिक|ज\u{93c}?रूरी नहीं|ज\u{93c}?रूरत नहीं|आवश्यक नहीं|आवश्यकता नहीं)",
        skip: concat!("(छोड|स्किप|बंद कर|बंद किया|अनदेखा|नज\u{93c}?रअंदाज|दरकिनार)", r"|(बंद (रखी|रखा|है|कर)|हटा दिया|हटाया)"),
        permit: "(सकत|अनुमति|ठीक है|सुरक्षित|डिफ\u{93c}?ॉल्ट|डिफॉल्ट|आमतौर|चाहिए|अपेक्षित|हर हफ्ते|हर दिन|नियमित|हमेशा)",
        purpose: r"(ताकि|जिससे)",
        frame: None,
        affirming: r"(कोई दिक्कत नहीं|कोई समस्या नहीं|कोई बात नहीं)",
        negation: r"(नहीं|मत|कभी|वर्जित|मना|निषिद्ध)",
    },
    Words {
        lang: "ja",
        marker: r"[\p{Hiragana}\p{Katakana}]",
        agent: r"(エージェント|アシスタント|ai|モデル|ボット|コパイロット)",
        binding: r"(必ず|常に|しなければ|すること|べき|決して|してはならない|期待され|ことになっている|いつも)",
        secret: r"(パスワード|トークン|token|秘密鍵|シークレット|認証情報|資格情報|api ?キー|アクセスキー|署名鍵|暗号鍵|クレデンシャル|鍵)",
        leak: concat!(
            r"(共有|公開|貼り付け|貼っ|貼る|貼ら|投稿|出力|表示|印刷|書き込|書い|コミット|commit|載せ|送信|送っ|流し|流す)",
            r"|(書かれ|記載|保存|置い|置か|埋め込|直書き|ハードコード)"
        ),
        place: concat!(
            r"(チャット|チャンネル|slack|スラック|リポジトリ|レポジトリ|repo|git|ログ|公開|readme|wiki|ウィキ|チケット|issue|掲示板|全員)",
            r"|(平文|コード|ソース|メール)"
        ),
        no_secret: r"(秘密(では|じゃ)(ない|ありません)|機密(では|じゃ)(ない|ありません)|秘密にする必要は(ない|ありません))",
        duty: r"(レビュー|テスト|検証|チェック|二要素|二段階認証|2fa|署名|バックアップ|承認|監査ログ|多要素)",
        optional: r"(任意|オプション|不要|必要(は)?(ない|ありません)|しなくて(も)?(よい|いい|良い|構わない|構いません)|省略可)",
        skip: r"(スキップ|省略|無効(化|に)|飛ばし|飛ばす|無視|回避|バイパス|外し|外す|オフに)",
        permit: r"(て(も)?(よい|いい|良い|構わない|構いません|かまいません)|可能|許可|問題(は)?ない|大丈夫|デフォルト|既定|通常|普段|いつも|毎週|毎日|定期的|定例|恒例|べき|期待され|想定され|ことになって|担当|仕事|役目|次の(ステップ|手順)|手順)",
        purpose: r"(ように|ために)",
        frame: None,
        affirming: r"(問題(は)?(ない|ありません)|構わない|構いません|かまいません|差し支え(ない|ありません))",
        negation: r"(ない|ません|禁止|決して|絶対に|いけ(ない|ません)|なら(ない|ません)|不可)",
    },
    Words {
        lang: "zh",
        // Han characters with no kana: Chinese, not Japanese.
        marker: r"^[^\p{Hiragana}\p{Katakana}]*\p{Han}[^\p{Hiragana}\p{Katakana}]*$",
        agent: r"(代理|智能体|智能體|助手|助理|ai|模型|机器人|機器人)",
        binding: r"(必须|必須|应该|應該|应当|應當|总是|總是|一律|务必|務必|不得|永远|永遠|始终|始終|一定要)",
        secret: r"(密码|密碼|口令|令牌|权杖|權杖|token|密钥|密鑰|私钥|私鑰|秘钥|金鑰|凭据|憑據|凭证|憑證|api ?key|访问密钥|訪問密鑰)",
        leak: concat!(
            r"(分享|共享|公开|公開|发布|發布|发到|發到|贴|貼|粘贴|粘貼|打印|输出|輸出|提交|commit|上传|上傳|写入|寫入|写进|寫進|记录|記錄|发给|發給)",
            r"|(写在|写进|写入|贴在|贴到|放在|发到|提交到|硬编码)"
        ),
        place: concat!(
            r"(群|聊天|频道|頻道|slack|仓库|倉庫|代码库|代碼庫|repo|git|日志|日誌|公开|公開|readme|wiki|工单|工單|issue|所有人)",
            r"|(readme|代码|明文|公开|群里|聊天|工单)"
        ),
        no_secret: r"(不是(秘密|机密|機密)|不算(秘密|机密|機密)|无需保密|無需保密|不用保密)",
        duty: concat!(
            r"(代码审查|代碼審查|审查|審查|评审|評審|测试|測試|检查|檢查|校验|校驗|双重认证|雙重認證|两步验证|兩步驗證|2fa|签名|簽名|备份|備份|审批|審批|审计日志|審計日誌)",
            r"|(沙箱|沙盒)"
        ),
        optional: r"(可选|可選|不需要|不必|无需|無需|没必要|沒必要|非必须|非必須|不是必须|不是必須|可以不)",
        skip: concat!(r"(跳过|跳過|禁用|关闭|關閉|忽略|绕过|繞過|省略|略过|略過|关掉|關掉)", r"|(不经过|绕过|跳过)"),
        permit: r"(可以|允许|允許|没问题|沒問題|默认|默認|預設|通常|一般|总是|總是|每周|每週|每天|例行|应该|應該|应当|應當|预期|預期|负责|負責|职责|職責|下一步|照常)",
        purpose: r"(以便|为了|為了|好让|好讓)",
        frame: None,
        affirming: r"(没问题|沒問題|没关系|沒關係|不要紧|不要緊|无妨|無妨)",
        negation: r"(不|没|沒|别|別|禁止|严禁|嚴禁|切勿|绝不|絕不|从不|從不)",
    },
    Words {
        lang: "es",
        marker: r"\b(el|la|al|y|solo|los|las|del|se|es|para|por|con|una|puede|pueden|está|están)\b",
        agent: r"\b(el agente|los agentes|el asistente|los asistentes|la ia|el modelo|el bot|copilot|claude)\b",
        binding: r"\b(debe|deben|siempre|nunca|tiene que|tienen que|se espera que|est[aá] obligad\w*|est[aá] autorizad\w*)\b",
        secret: r"\b(contraseñ|frase de recuperación|frase semilla|contrasen|clave|token|secreto|credencial|llave)",
        leak: concat!(
            r"\b(compart|publicar|publicad|public[oó]\b|publican|publiq|pega|pegar|copi|imprim|commit|sub(e|ir|ido|ida)n?\b)",
            r"|\b(escrit\w*|pegad\w*|guardad\w*|enviad\w*|mand\w*|incrustad\w*)\b"
        ),
        place: concat!(
            r"\b(chat|canal|slack|repositorio|repo\b|git\b|logs?\b|registros|públic|readme|wiki|ticket|issue)",
            r"|\b(código|texto plano|públic\w*|hoja de cálculo|correo\w*|mensajes? de commit|dockerfile)\b"
        ),
        no_secret: r"\b(no (es|son) (un |una )?secret\w*|no (es|son) confidencial\w*)",
        duty: r"\b(revisi[oó]n|code review|tests?\b|pruebas|verificaci|comprobaci|2fa|doble factor|firma|copias? de seguridad|backup)",
        optional: r"\b(opcional\w*|no (es|son) necesari\w*|no hace falta|no se requiere\w*|no (es|son) obligatori\w*)",
        skip: r"\b(omit|salt(ar|a|an|arse|arlas?|arlos?)\b|desactiv|deshabilit|ignor)",
        permit: r"\b(puede|pueden|permitid\w*|est[aá] bien|es seguro|por defecto|normalmente|debe|deben|se espera|semanal\w*|diari\w*|habitual\w*|siempre|cada|rutin\w*|se hace con)",
        purpose: r"\b(para que)",
        frame: None,
        affirming: r"\b(no pasa nada|sin problema|no hay problema)\b",
        negation: r"\b(no|nunca|jam[aá]s|prohibid\w*)\b",
    },
    Words {
        lang: "fr",
        marker: r"\b(les|des|du|est|sont|dans|pour|peut|peuvent|être|une|le)\b",
        agent: r"(\bl'agent|\bles agents|\bl'assistant|\bles assistants|\bl'ia\b|\ble modèle|\ble bot\b|\bcopilot|\bclaude)",
        binding: r"\b(doit|doivent|toujours|jamais|est censé|sont censés|il faut|est tenu|sont tenus|est autorisé|sont autorisés)\b",
        secret: r"\b(mots? de passe|phrase de récupération|phrase secrète|clé privée|jeton|token|clé|cle api|secret|identifiants)",
        leak: concat!(
            r"\b(partag|publi|coll(er|é|ez)|imprim|commit|journalis|logg)",
            r"|\b(écrit\w*|stocké\w*|envoy\w*|collé\w*|codé\w* en dur|en dur)\b"
        ),
        place: concat!(
            r"\b(chat|canal|slack|dépôt|depot|repo\b|git\b|logs?\b|journaux|public|readme|wiki|ticket|issue)",
            r"|\b(en clair|code( source)?|public\w*|tableur|e-?mail|courriel|messages? de commit|dockerfile|tickets?)\b"
        ),
        no_secret: r"(n'est pas (un )?secret|ne sont pas secret\w*|pas confidentiel\w*)",
        duty: concat!(
            r"\b(revue|relecture|tests?\b|vérification|contrôle|2fa|double authentification|signature|sauvegarde)",
            r"|\b(authentification à deux facteurs|double authentification|signature\w*|sauvegarde\w*|validation\w*|revue\w*|contrôle\w*|vérification\w*)"
        ),
        optional: concat!(
            r"(\bfacultati\w*|\boptionnel\w*|(n'est |ne sont )?pas (nécessaire|obligatoire|requis)\w*|\binutiles?\b|pas besoin)",
            r"|\b(facultati\w*|optionnel\w*|plus (obligatoire|nécessaire|requis\w*)|simple recommandation|à la discrétion)\b"
        ),
        skip: concat!(
            r"\b(saut|ignor|désactiv|desactiv|contourn)",
            r"|\b(désactivé\w*|contourné\w*|ignoré\w*|sauté\w*|commenté\w*)\b"
        ),
        permit: r"\b(peut|peuvent|autoris\w*|sans risque|sans danger|par défaut|habituellement|doit|doivent|il faut|est prévu|hebdomadaire|quotidien\w*|habituel\w*|toujours|chaque|routine|se fait avec)",
        purpose: r"\b(pour que|afin)",
        frame: None,
        affirming: r"\b(pas de problème|sans problème|aucun problème)\b",
        negation: r"(\bne\b|\bn'|\bpas\b|\bjamais\b|\binterdit\w*)",
    },
    Words {
        lang: "de",
        marker: r"\b(der|das|den|dem|ist|sind|im|wird|werden|darf|dürfen|kann|können|nicht|und|bei|zu)\b",
        agent: r"\b(der agent|die agenten|der assistent|die ki|das modell|der bot|copilot|claude)\b",
        binding: r"\b(muss|müssen|soll|sollen|immer|niemals|nie|wird erwartet|ist verpflichtet|darf|dürfen)\b",
        secret: concat!(
            r"\b(passw[oö]rt|wiederherstellungsphrase|privater schlüssel|kennw[oö]rt|token|schlüssel|geheimnis|zugangsdaten|secret|api-key)",
            r"|(\w*passw[oö]rt\w*|\w*kennw[oö]rt\w*)"
        ),
        leak: concat!(
            r"\b(teilen|geteilt|teilt|veröffentlich|poste|gepostet|einfüg|eingefügt|druck|logg|commit|hochlad|hochgelad)",
            r"|\b(steh(t|en)|liegt|liegen|eingetragen|hinterlegt|geschickt|geschrieben|eingebettet|eingecheckt|verschickt)\b"
        ),
        place: concat!(
            concat!(
                r"\b(chat|kanal|slack|repository|repo\b|git\b|logs?\b|öffentlich|readme|wiki|ticket|issue)",
                r"|\b(klartext|quellcode|code|öffentlich\w*|tabelle\w*|e-?mail\w*|commit-nachricht\w*|dockerfile|ticket\w*)\b"
            ),
            r"|\b(fehlerseite\w*)\b"
        ),
        no_secret: r"\b(ist kein geheimnis|sind keine geheimnisse|nicht geheim)",
        duty: concat!(
            r"\b(code-review|review|tests?\b|prüfung|überprüfung|zwei-faktor|2fa|signatur|backup|sicherung)",
            r"|\b(zwei-?faktor\w*|freigabe\w*|vier-augen\w*|signatur\w*|sicherung\w*|prüfung\w*|sicherheitsprüfung\w*)"
        ),
        optional: concat!(
            r"\b(optional|nicht nötig|nicht notwendig|nicht erforderlich|entfällt|entfallen)",
            r"|\b(freiwillig\w*|nicht (mehr )?(nötig|notwendig|erforderlich|verpflichtend|vorgeschrieben)|nur (eine )?empfehlung)\b"
        ),
        skip: concat!(
            r"\b(übersprung|überspring|deaktivier|abgeschaltet|abschalt|ignorier|umgeh)",
            r"|\b(deaktiviert\w*|abgeschaltet|ausgeschaltet|übersprungen|umgangen|auskommentiert)\b"
        ),
        permit: r"\b(darf|dürfen|kann|können|erlaubt|unbedenklich|standardmäßig|normalerweise|soll|sollen|muss|müssen|wöchentlich\w*|täglich\w*|üblich\w*|immer|jede\w*|routine|standard)\b",
        purpose: r"\b(damit)",
        frame: None,
        affirming: r"\b(kein problem|nichts dagegen|unproblematisch)\b",
        negation: r"\b(nicht|nie|niemals|kein\w*|verboten)\b",
    },
    Words {
        lang: "pt",
        marker: r"\b(os|da|na|em|é|são|pode|podem|uma|pela|pelo|não|fica)\b",
        agent: r"\b(o agente|os agentes|o assistente|os assistentes|a ia|o modelo|o bot|copilot|claude)\b",
        binding: r"\b(deve|devem|sempre|nunca|tem que|têm que|espera-se|é esperado|está autorizado|estão autorizados)\b",
        secret: r"\b(senha|frase de recuperação|token|chave|segredo|credenciais)",
        leak: concat!(
            r"\b(compartilh|partilh|publicar|publicad|publicou|publicam|publiq|cola|colar|copi|imprim|commit|sub(ir|ido|ida)\b)",
            r"|\b(escrit\w*|colad\w*|salv\w*|guardad\w*|enviad\w*|mand\w*|embutid\w*)\b"
        ),
        place: concat!(
            r"\b(chat|canal|slack|repositório|repo\b|git\b|logs?\b|públic|readme|wiki|ticket|issue)",
            r"|\b(código|texto (puro|plano|claro)|públic\w*|planilha\w*|e-?mail\w*|mensage\w* de commit|dockerfile)\b"
        ),
        no_secret: r"\b(não (é|são) (um )?segredo\w*|não (é|são) confidencia\w*)",
        duty: concat!(
            concat!(
                r"\b(revisão|code review|testes?\b|verificaç|2fa|dois fatores|assinatura|backup|cópia de segurança)",
                r"|\b(autenticação (de dois fatores|em duas etapas)|revis\w*|aprova\w*|assinatura\w*|backup\w*|verifica\w*)"
            ),
            r"|\b(snapshot\w*)"
        ),
        optional: concat!(
            r"\b(opciona\w*|não (é|são) necessári\w*|não precisa\w*|não (é|são) obrigatóri\w*)",
            r"|\b(opcional|facultativ\w*|não (é )?(mais )?(obrigatóri\w*|necessári\w*))\b"
        ),
        skip: concat!(
            r"\b(pul(ar|a|am|ada|ados)\b|omit|desativ|desabilit|ignor|contorn)",
            r"|\b(desativad\w*|desabilitad\w*|pulad\w*|ignorad\w*|contornad\w*)\b"
        ),
        permit: r"\b(pode|podem|permitid\w*|é seguro|por padrão|normalmente|deve|devem|semanal\w*|diári\w*|habitual\w*|sempre|cada|rotin\w*|padrão)\b",
        purpose: r"\b(para que|para facilitar)",
        frame: None,
        affirming: r"\b(sem problema|não tem problema|não há problema)\b",
        negation: r"\b(não|nunca|jamais|proibid\w*)\b",
    },
    Words {
        lang: "it",
        marker: r"\b(il|lo|gli|della|del|è|sono|per|che|non|può|possono|nella|nel)\b",
        agent: r"(\bl'agente|\bgli agenti|\bl'assistente|\bgli assistenti|\bl'ia\b|\bil modello|\bil bot\b|\bcopilot|\bclaude)",
        binding: r"\b(deve|devono|sempre|mai|è tenuto|sono tenuti|ci si aspetta|è autorizzato|sono autorizzati)\b",
        secret: r"\b(password|token|chiav[ei]|segret[oi]|credenziali)",
        leak: concat!(
            r"\b(condivi\w*|pubblica\w*|incolla\w*|stampa\w*|commit\w*|carica\w*|copia\w*)",
            r"|\b(mand\w*|invi\w*|scritt\w*|incollat\w*|salvat\w*|inserit\w*)\b"
        ),
        place: concat!(
            r"\b(chat|canale|slack|repository|repo\b|git\b|log\b|pubblic\w*|readme|wiki|ticket|issue)",
            r"|\b(whatsapp|e-?mail|codice( sorgente)?|in chiaro|pubblic\w*|foglio\w*|messaggi\w* di commit|dockerfile)\b"
        ),
        no_secret: r"\bnon (è|sono) (un |una )?segret\w*|\bnon (è|sono) riservat\w*",
        duty: concat!(
            concat!(
                r"\b(revisione|code review|test\b|verific\w*|controll\w*|2fa|due fattori|firma|backup|audit|scansion\w*)",
                r"|\b(controll\w*|verific\w*|autenticazione a due fattori|firm\w*|backup|approvazion\w*|revision\w*)"
            ),
            r"|\b(limit\w* di richieste|rate limit\w*)"
        ),
        optional: concat!(
            r"\b(facoltativ\w*|opzional\w*|non (è|sono) (necessari|obbligatori)\w*|non serv(e|ono))",
            r"|\b(a discrezione|facoltativ\w*|opzional\w*|non (più )?(obbligatori\w*|necessari\w*|richiest\w*)|solo (una )?raccomandazione)\b"
        ),
        skip: concat!(
            r"\b(salt\w*|omett\w*|omess\w*|disattiv\w*|disabilit\w*|ignor\w*|aggir\w*)",
            r"|\b(salt\w*|disattivat\w*|disabilitat\w*|aggirat\w*|ignorat\w*|commentat\w*)\b"
        ),
        permit: concat!(
            r"\b(può|possono|si può|consentit\w*|permess\w*|è sicuro|di default|predefinit\w*|normalmente|deve|",
            r"devono|sempre|ogni|di routine|abitualmente)",
        ),
        purpose: r"\b(affinché|in modo che|così che|per permettere)",
        frame: None,
        affirming: r"\b(nessun problema|non c'è problema)",
        negation: r"\b(non|mai|vietat\w*)\b",
    },
];
