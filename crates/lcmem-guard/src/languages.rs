//! The same families in other languages.
//!
//! A hostile repository is not obliged to write in English, and models obey
//! instructions in any language they read. Full grammar is out of reach, so
//! each language gets the phrase families that carry most injected orders:
//! "ignore the rules given before", "from now on", "you must", "in your
//! answer", role switches, "please" + verb, and sentence-initial "always" /
//! "never" / imperative verbs. Every hit also records `lang:xx`.

use std::sync::LazyLock;

use crate::rules::RuleTable;
use crate::text::Clause;

/// (language, label, pattern). Patterns starting with `^` are matched
/// against the opening of each clause; the rest against the whole prose.
/// `pattern !! exception` drops matches that also match the exception.
const TABLE: &[(&str, &str, &str)] = &[
    // Spanish
    (
        "es",
        "override:ignore-previous",
        concat!(
            r"\b(ignora|ignore|ignorad|ignoren|olvida|olvide|olviden|",
            r"omite|descarta|haz caso omiso)\b.{0,40}\b(instrucci[oó]n|",
            r"instrucciones|indicaciones|[oó]rdenes|reglas)\b",
        ),
    ),
    ("es", "imperative:from-now-on", r"\b(a partir de ahora|de ahora en adelante|desde ahora)\b"),
    ("es", "imperative:you-must", r"\b(debes|tienes que|deber[aá]s|usted debe)\b"),
    ("es", "addressed:your-response", r"\b(en|a) (tu|su) respuesta\b"),
    ("es", "role-play", r"\b(ahora eres|eres ahora|act[uú]a como|finge (que eres|ser)|haz de cuenta)\b"),
    ("es", "polite-request", r"\bpor favor\b"),
    (
        "es",
        "imperative:always",
        concat!(
            r"^(siempre|nunca|jam[aá]s)\s+\p{L} !! ^\p{L}+\s+(se|nos|",
            r"hemos|usamos|el|la|los|las|hay|ha|han|fue|es|est[aá]n?|",
            r"que|cuando)\b",
        ),
    ),
    (
        "es",
        "imperative:verb",
        concat!(
            r"^(ejecuta|ejecute|(?-i:[Uu]sa)|utiliza|utilice|a[nñ]ade|",
            r"agrega|borra|elimina|env[ií]a|env[ií]e|imprime|muestra|",
            r"haz|aseg[uú]rate|ignora|olvida|instala|sube|publica|copia|",
            r"revela|escribe|responde|traduce|incluye|no (a[nñ]adas|",
            r"borres|uses|ejecutes|edites|modifiques|hagas|env[ií]es|",
            r"menciones|preguntes|pidas|digas))\b",
        ),
    ),
    // French
    (
        "fr",
        "override:ignore-previous",
        concat!(
            r"\b(ignore[rz]|oublie[rz]?|ne tiens pas compte|ne tenez pas compte|",
            r"fais abstraction|faites abstraction)\b.{0,40}\b(instructions?|",
            r"consignes?|directives?|r[eè]gles)\b",
        ),
    ),
    (
        "fr",
        "override:ignore-previous",
        concat!(
            r"\bignore\b.{0,40}\b(instructions|consignes|directives|",
            r"r[eè]gles) (pr[ée]c[ée]dentes|ant[ée]rieures|ci-dessus)\b",
        ),
    ),
    (
        "fr",
        "imperative:from-now-on",
        r"(\b[aà] partir de maintenant|\bd[ée]sormais|\bdor[ée]navant|\bd[eè]s maintenant)\b",
    ),
    ("fr", "imperative:you-must", r"\b(tu dois|vous devez|il faut que (tu|vous))\b"),
    ("fr", "addressed:your-response", r"\b(ta|votre) r[ée]ponse\b"),
    (
        "fr",
        "role-play",
        concat!(
            r"\b(tu es maintenant|vous [eê]tes maintenant|fais semblant|",
            r"faites semblant|agis comme|agissez comme|joue le r[oô]le|",
            r"jouez le r[oô]le)\b",
        ),
    ),
    ("fr", "polite-request", r"\b(s'il (te|vous) pla[iî]t|veuillez)\b"),
    (
        "fr",
        "imperative:always",
        r"^(toujours|jamais|ne jamais)\s+\p{L} !! ^\p{L}+\s+(on|nous|il|elle|la|le|les|est|sont|quand|lorsque|que)\b",
    ),
    (
        "fr",
        "imperative:verb",
        concat!(
            r"^(exécute[zs]?|executez|utilise[zs]?|ajoute[zs]?|supprime[zs]?|",
            r"envoie[zs]?|affiche[zs]?|lancez|fais|faites|assure-toi|",
            r"assurez-vous|ignorez|oublie[zs]?|installe[zs]?|pousse[zs]?|",
            r"copiez|r[ée]v[eè]le[zs]?|[ée]cris|[ée]crivez|r[ée]ponds|",
            r"r[ée]pondez|traduis|traduisez|inclus|incluez|n'\p{L}+ (pas|",
            r"jamais)|ne \p{L}+ (pas|jamais))\b",
        ),
    ),
    // German
    (
        "de",
        "override:ignore-previous",
        concat!(
            r"\b(ignorier(e|en|t)?|vergiss|vergessen sie|missachte)\b.{0,50}\b(anweisungen|",
            r"anweisung|instruktionen|befehle|regeln|vorgaben)\b",
        ),
    ),
    ("de", "imperative:from-now-on", r"\b(von nun an|ab jetzt|ab sofort)\b"),
    ("de", "imperative:you-must", r"\b(du musst|du sollst|du solltest|(?-i:Sie müssen)|(?-i:Sie sollten))\b"),
    ("de", "addressed:your-response", r"\b(deiner|ihrer) antwort\b"),
    (
        "de",
        "role-play",
        r"\b(du bist jetzt|du bist nun|sie sind jetzt|tu so,? als|gib dich als|verhalte dich wie|spiele die rolle)\b",
    ),
    ("de", "polite-request", r"^bitte\b"),
    (
        "de",
        "imperative:always",
        r"^(immer|niemals|nie|stets)\s+\p{L} !! ^\p{L}+\s+(wenn|wird|werden|ist|sind|haben|hat|wir|l[aä]uft|laufen)\b",
    ),
    (
        "de",
        "imperative:verb",
        concat!(
            r"^(f[uü]hre|verwende|benutze|nutze|f[uü]ge|l[oö]sche|entferne|",
            r"sende|schicke|zeige|gib|stelle sicher|stell sicher|achte darauf|",
            r"installiere|ignoriere|vergiss|mache|pushe|committe|kopiere|",
            r"schreibe|antworte|[uü]bersetze)\b",
        ),
    ),
    // Portuguese
    (
        "pt",
        "override:ignore-previous",
        concat!(
            r"\b(ignore|ignora|esque[cç]a|desconsidere|despreze)\b.{0,40}\b(instru[cç][oõ]es|",
            r"instru[cç][aã]o|orienta[cç][oõ]es|regras|comandos)\b",
        ),
    ),
    ("pt", "imperative:from-now-on", r"\b(a partir de agora|de agora em diante|daqui em diante)\b"),
    ("pt", "imperative:you-must", r"\b(voc[eê] deve|tu deves|voc[eê] precisa|voc[eê] tem que)\b"),
    ("pt", "addressed:your-response", r"\b(na|em) (sua|tua) resposta\b"),
    ("pt", "role-play", r"\b(agora voc[eê] [eé]|voc[eê] agora [eé]|finja (que [eé]|ser)|aja como|atue como)\b"),
    (
        "pt",
        "imperative:always",
        concat!(
            r"^(sempre|nunca|jamais)\s+\p{L} !! ^\p{L}+\s+(se|n[oó]s|",
            r"o|a|os|as|[eé]|foi|si|ci|il|lo|la|le|gli|viene|vengono|",
            r"que|quando|che)\b",
        ),
    ),
    (
        "pt",
        "imperative:verb",
        concat!(
            r"^(utilize|adicione|remova|apague|exclua|envie|mostre|",
            r"imprima|fa[cç]a|certifique-se|instale|copie|revele|escreva|",
            r"responda|traduza|inclua|n[aã]o (adicione|use|execute|",
            r"edite|altere|envie|mencione|pergunte))\b",
        ),
    ),
    // Italian
    (
        "it",
        "override:ignore-previous",
        concat!(
            r"\b(ignora|ignorate|dimentica|dimenticate|trascura|non considerare)\b.{0,40}\b(istruzioni|",
            r"indicazioni|regole|comandi)\b",
        ),
    ),
    ("it", "imperative:from-now-on", r"\b(d'ora in poi|da ora in poi|d'ora in avanti|da adesso in poi)\b"),
    ("it", "imperative:you-must", r"\b(devi|dovrai)\b"),
    ("it", "addressed:your-response", r"\b(nella|alla) tua risposta\b"),
    ("it", "role-play", r"\b(ora sei|adesso sei|fingi di essere|comportati come|fai finta)\b"),
    ("it", "polite-request", r"\bper favore\b"),
    (
        "it",
        "imperative:always",
        r"^(sempre|mai)\s+\p{L} !! ^\p{L}+\s+(si|ci|il|lo|la|le|gli|viene|vengono|[eè]|sono|che|quando|que)\b",
    ),
    (
        "it",
        "imperative:verb",
        concat!(
            r"^(esegui|(?-i:[Uu]sa)|utilizza|aggiungi|rimuovi|elimina|",
            r"cancella|invia|mostra|stampa|fai|assicurati|installa|",
            r"copia|rivela|scrivi|rispondi|traduci|includi|non (aggiungere|",
            r"usare|eseguire|modificare|inviare|menzionare|chiedere))\b",
        ),
    ),
    // Dutch
    ("nl", "override:ignore-previous", r"\b(negeer|vergeet)\b.{0,50}\b(instructies|instructie|opdrachten|regels)\b"),
    ("nl", "imperative:from-now-on", r"\b(vanaf nu|van nu af aan)\b"),
    ("nl", "imperative:you-must", r"\b(je moet|jij moet|u moet)\b"),
    ("nl", "addressed:your-response", r"\b(je|jouw|uw) antwoord\b"),
    ("nl", "role-play", r"\b(je bent nu|jij bent nu|doe alsof)\b"),
    (
        "nl",
        "imperative:always",
        r"^(altijd|nooit)\s+\p{L} !! ^\p{L}+\s+(wordt|worden|is|zijn|we|wij|draait|draaien|als|wanneer|als)\b",
    ),
    (
        "nl",
        "imperative:verb",
        r"^(voer|voeg|verwijder|stuur|toon|zorg|installeer|kopieer|schrijf|vertaal|negeer|vergeet)\b",
    ),
    // Polish
    (
        "pl",
        "override:ignore-previous",
        r"\b(zignoruj|ignoruj|zapomnij|pomi[nń])\b.{0,50}\b(instrukcj\w*|polece\w*|zasad\w*)",
    ),
    ("pl", "imperative:from-now-on", r"\b(od teraz|od tej chwili|od tej pory)\b"),
    ("pl", "imperative:you-must", r"\b(musisz|powiniene[sś]|powinna[sś])\b"),
    ("pl", "addressed:your-response", r"\b(twojej|swojej) odpowiedzi\b"),
    ("pl", "role-play", r"\b(jeste[sś] teraz|teraz jeste[sś]|udawaj)\b"),
    ("pl", "imperative:always", r"^(zawsze|nigdy)\s+\p{L}"),
    (
        "pl",
        "imperative:verb",
        concat!(
            r"^(uruchom|u[zż]yj|dodaj|usu[nń]|wy[sś]lij|poka[zż]|wypisz|",
            r"zr[oó]b|upewnij si[eę]|zainstaluj|wypchnij|skopiuj|ujawnij|",
            r"napisz|odpowiedz|przet[lł]umacz|nie (dodawaj|u[zż]ywaj|",
            r"usuwaj|wysy[lł]aj|wspominaj|pytaj))\b",
        ),
    ),
    // Russian
    (
        "ru",
        "override:ignore-previous",
        r"(игнорируй|проигнорируй|забудь|не обращай внимания на|отбрось)\p{L}*.{0,50}(инструкци|указани|правил|команд)",
    ),
    ("ru", "imperative:from-now-on", r"(отныне|с этого момента|с этого дня)"),
    ("ru", "imperative:you-must", r"\b(ты должен|ты должна|вы должны|тебе нужно|вам нужно|тебе следует)\b"),
    ("ru", "addressed:your-response", r"\bв (своём|своем|твоём|твоем|вашем) ответе\b"),
    ("ru", "role-play", r"(теперь ты|ты теперь|притворись|веди себя как|представь, что ты)"),
    ("ru", "polite-request", r"\bпожалуйста\b"),
    ("ru", "imperative:always", r"^(всегда|никогда)\s+\p{L}"),
    (
        "ru",
        "imperative:verb",
        concat!(
            r"^(выполни|используй|добавь|удали|отправь|покажи|выведи|",
            r"сделай|убедись|установи|запусти|запускай|скопируй|раскрой|",
            r"напиши|ответь|переведи|включи|игнорируй|забудь|не (добавляй|",
            r"используй|удаляй|отправляй|упоминай|спрашивай|запускай))\b",
        ),
    ),
    // Ukrainian
    ("uk", "override:ignore-previous", r"(ігноруй|проігноруй|забудь)\p{L}*.{0,50}(інструкці|вказівк|правил)"),
    ("uk", "imperative:from-now-on", r"(відтепер|від тепер|з цього моменту|віднині)"),
    ("uk", "imperative:you-must", r"\b(ти повинен|ти повинна|ви повинні|ти маєш)\b"),
    ("uk", "addressed:your-response", r"\bу (своїй|твоїй|вашій) відповіді\b"),
    ("uk", "polite-request", r"\bбудь ласка\b"),
    ("uk", "imperative:always", r"^(завжди|ніколи)\s+\p{L}"),
    (
        "uk",
        "imperative:verb",
        concat!(
            r"^(виконай|використовуй|додай|видали|надішли|покажи|виведи|",
            r"зроби|переконайся|встанови|запусти|запускай|напиши|ігноруй|",
            r"забудь|не (додавай|використовуй|видаляй|надсилай|згадуй|",
            r"питай|запускай))\b",
        ),
    ),
    // Chinese
    (
        "zh",
        "override:ignore-previous",
        r"(忽略|无视|忽视|不要理会|忘记|忘掉|跳过|無視|忽略掉)(之前|以前|先前|上面|上述|前面|所有|全部|一切|你的|的|掉|\s)*(指令|指示|说明|說明|提示|规则|規則|命令|要求)",
    ),
    ("zh", "imperative:from-now-on", r"(从现在开始|从现在起|從現在開始|从今以后|今后)"),
    ("zh", "imperative:you-must", r"你(必须|應該|应该|需要|必須)"),
    ("zh", "addressed:your-response", r"(你的)?(回答|回复|回覆|答复)中"),
    ("zh", "role-play", r"(你现在是|现在你是|你現在是|扮演|假装你是|假装成|假裝)"),
    ("zh", "prompt-leak", r"(系统提示|系統提示)"),
    ("zh", "imperative:verb", r"^(请|請|总是|始终|永远|务必|一定要|必须|不要|别|切勿|禁止|绝对不要|永远不要)"),
    // Japanese
    (
        "ja",
        "override:ignore-previous",
        r"(指示|命令|指令|ルール|プロンプト|設定)\p{Hiragana}{0,3}(すべて|全て)?無視|無視(して|しろ|せよ|してください)",
    ),
    ("ja", "imperative:from-now-on", r"(今後は|これからは|今から)"),
    (
        "ja",
        "imperative:you-must",
        r"(しなければなりません|しなければならない|する必要があります|してはいけません|しないでください)",
    ),
    ("ja", "imperative:verb", r"(てください|でください|て下さい|なさい)"),
    ("ja", "addressed:your-response", r"(回答|返答|応答)(に|の中に)"),
    ("ja", "role-play", r"(あなたは今|今からあなたは|ふりをして|として振る舞)"),
    ("ja", "prompt-leak", r"システムプロンプト"),
    ("ja", "imperative:always", r"^(常に|必ず|絶対に|決して)"),
    // Korean
    (
        "ko",
        "override:ignore-previous",
        r"(이전|앞의|위의|모든|기존)\s*(의\s*)?(지시|지침|명령|지시사항|규칙)\S*\s*(을|를)?\s*(모두\s*)?무시|무시하(고|세요|십시오|라)",
    ),
    ("ko", "imperative:from-now-on", r"(지금부터|앞으로는|이제부터)"),
    ("ko", "imperative:verb", r"(하세요|하십시오|해라|하라|해 주세요|해주세요|주세요|마세요|마십시오)(\s|[.!]|$)"),
    ("ko", "addressed:your-response", r"(답변|응답|대답)에"),
    ("ko", "role-play", r"(당신은 이제|너는 이제|이제 당신은|인 척)"),
    ("ko", "prompt-leak", r"시스템 프롬프트"),
    ("ko", "imperative:always", r"^(항상|절대|반드시|절대로)\s"),
    // Arabic
    ("ar", "override:ignore-previous", r"(تجاهل|انس|تناس)\S*\s.{0,40}(التعليمات|الأوامر|التوجيهات)"),
    ("ar", "imperative:from-now-on", r"من الآن فصاعد"),
    ("ar", "imperative:you-must", r"يجب عليك"),
    ("ar", "addressed:your-response", r"في (ردك|إجابتك)"),
    // Turkish
    ("tr", "override:ignore-previous", r"(talimat|komut|kural)\p{L}*\s.{0,30}(yok say|g[oö]rmezden gel|unut)"),
    ("tr", "imperative:from-now-on", r"\b(bundan sonra|[sş]u andan itibaren)\b"),
    ("tr", "addressed:your-response", r"\b(yan[ıi]t[ıi]na|cevab[ıi]na|yan[ıi]t[ıi]nda|cevab[ıi]nda)\b"),
    // Hindi
    ("hi", "override:ignore-previous", r"(निर्देशों|निर्देश).{0,30}(अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल)"),
    ("hi", "imperative:from-now-on", r"अब से"),
    // Indonesian / Malay
    ("id", "override:ignore-previous", r"\b(abaikan|lupakan)\b.{0,40}\b(instruksi|perintah|petunjuk|arahan)\b"),
    ("id", "imperative:from-now-on", r"\b(mulai sekarang|dari sekarang)\b"),
    ("id", "addressed:your-response", r"\b(jawaban|respons|tanggapan)(mu| anda)\b"),
    // Vietnamese
    ("vi", "override:ignore-previous", r"(bỏ qua|phớt lờ|quên)\s.{0,40}(hướng dẫn|chỉ dẫn|chỉ thị|lệnh)"),
    ("vi", "imperative:from-now-on", r"(từ bây giờ|kể từ bây giờ)"),
    // Scandinavian
    (
        "sv",
        "override:ignore-previous",
        concat!(
            r"\b(ignorera|glöm|ignorer|glem)\b.{0,40}\b(instruktioner|",
            r"instruktionerna|instruksjoner|instrukser|instruktionerne)\b",
        ),
    ),
    ("sv", "imperative:from-now-on", r"\b(från och med nu|fra nu af|fra nå av)\b"),
    // Czech / Slovak
    (
        "cs",
        "override:ignore-previous",
        r"\b(ignoruj(te)?|zapome[nň]|zabudni)\b.{0,40}\b(pokyny|instrukce|in[sš]trukcie)\b",
    ),
    // Irish
    (
        "ga",
        "override:ignore-previous",
        r"\b(d[ée]an neamhaird|n[aá] tabhair aird)\b.{0,60}\b(treoracha|treoir|orduithe)\b",
    ),
    ("ga", "addressed:your-response", r"\bdo (fhreagra|fhreagairt)\w*"),
    ("ga", "imperative:you-must", r"\b(n[ií] m[oó]r duit|caithfidh t[uú])\b"),
    ("ga", "addressed:agent", r"\b(m[aá] iarrtar ort|iarraidh ort|tugadh an tasc seo duit|tugadh an obair seo duit)\b"),
    ("ga", "polite-request", r"\ble do thoil\b"),
    ("ga", "override:new-instructions", r"\btreoracha nua\b"),
    ("ga", "imperative:verb", r"\b(d[ée]an cinnte|d[ée]an an m[ée]id seo|d[ée]an seo)\b"),
    ("ga", "imperative:from-now-on", r"\b[oó] seo amach\b"),
    // Scottish Gaelic
    (
        "gd",
        "override:ignore-previous",
        r"\b(leig seachad|d[iì]ochuimhnich|na toir an aire)\b.{0,60}\b(sti[uù]iridhean|[oò]rdughan|riaghailtean)\b",
    ),
    (
        "gd",
        "addressed:your-response",
        r"\b(nad fhreagairt|san fhreagairt agad|anns an fhreagairt agad|do fhreagairt)\b",
    ),
    ("gd", "imperative:you-must", r"\bfeumaidh tu\b"),
    ("gd", "addressed:agent", r"\b(ma th[eè]id iarraidh ort|iarraidh ort|a sh[oò]nrachadh dhut)\b"),
    ("gd", "override:new-instructions", r"\bsti[uù]ir(eadh|idhean) [uù]r"),
    ("gd", "imperative:verb", r"\b(d[eè]an cinnteach|d[eè]an seo|d[eè]an na leanas)\b"),
    ("gd", "imperative:from-now-on", r"\bbho seo a-mach\b"),
    // Albanian
    (
        "sq",
        "override:ignore-previous",
        r"\b(injoro|shp[eë]rfill|harro)\b.{0,60}\b(udh[eë]zimet|udh[eë]zime|urdhrat|rregullat)\b",
    ),
    ("sq", "addressed:your-response", r"\bp[eë]rgjigj\w* (t[eë]nde|tuaj)\b"),
    ("sq", "imperative:make-sure", r"\bsigurohu (t[eë]|q[eë])\b"),
    ("sq", "addressed:agent", r"\b(n[eë]se t[eë] k[eë]rkohet|t[eë] t[eë] k[eë]rkoj|t[eë] [eë]sht[eë] caktuar)\b"),
    ("sq", "override:new-instructions", r"\budh[eë]zime t[eë] reja\b"),
    ("sq", "imperative:you-must", r"\b(duhet t[eë] b[eë]sh|ti duhet|ju duhet)\b"),
    ("sq", "polite-request", r"\b(ju lutemi|t[eë] lutem|ju lutem)\b"),
    ("sq", "imperative:from-now-on", r"\b(tani e tutje|nga tani)\b"),
    // Zulu / Xhosa
    ("zu", "override:ignore-previous", r"\b(ziba|ungayinaki|khohlwa)\b.{0,60}\b(imiyalelo|imiyalo|iziyalezo)\b"),
    ("zu", "addressed:your-response", r"\b\w*(mpendulo|mpendulweni|phenduleni)\w*\s+(yakho|kwakho)\b"),
    ("zu", "imperative:make-sure", r"\bqinisekisa ukuthi\b"),
    (
        "zu",
        "addressed:agent",
        r"\b(uma utshelwe|unikezwe lo msebenzi|udinga ukwenza|kufanele wenze|ukukucela ukuthi)\b",
    ),
    ("zu", "imperative:verb", r"\b(sicela|ngicela) wenze\b|\bwenze lokhu\b"),
    ("zu", "override:new-instructions", r"\bimiyalelo emisha\b"),
    ("zu", "polite-request", r"\bngicela\b"),
    // Hebrew
    ("he", "override:ignore-previous", r"(התעלם|התעלמי|התעלמו|שכח|שכחי|שכחו)\s.{0,40}(הוראות|הנחיות|כללים)"),
    ("he", "imperative:from-now-on", r"(מעכשיו|מעתה|מהיום והלאה|מכאן והלאה)"),
    ("he", "addressed:your-response", r"(בתשובה שלך|בתשובתך|בתשובותיך)"),
    // Greek
    ("el", "override:ignore-previous", r"(αγνόησε|αγνοήστε|ξέχνα|ξεχάστε).{0,40}(οδηγί|εντολ|κανόν)"),
    ("el", "imperative:from-now-on", r"(από (εδώ και )?τώρα και (στο )?εξής|\bστο εξής)"),
    ("el", "addressed:your-response", r"στην απάντησ(ή|η) (σου|σας)"),
    // Swahili
    ("sw", "override:ignore-previous", r"\b(puuza|sahau)\b.{0,60}\b(maagizo|maelekezo)\b"),
    ("sw", "addressed:your-response", r"\bjibu lako\b"),
];

/// Rules matched anywhere and rules matched at clause openings, each with
/// the language of every entry.
struct Tables {
    anywhere: RuleTable,
    anywhere_langs: Vec<&'static str>,
    initial: RuleTable,
    initial_langs: Vec<&'static str>,
}

static RULES: LazyLock<Tables> = LazyLock::new(|| {
    let (initial, anywhere): (Vec<_>, Vec<_>) = TABLE.iter().partition(|(_, _, pattern)| pattern.starts_with('^'));
    Tables {
        anywhere: RuleTable::new("(?i)", anywhere.iter().map(|&&(_, l, p)| (l, p))),
        anywhere_langs: anywhere.iter().map(|&&(lang, _, _)| lang).collect(),
        initial: RuleTable::new("(?i)", initial.iter().map(|&&(_, l, p)| (l, p))),
        initial_langs: initial.iter().map(|&&(lang, _, _)| lang).collect(),
    }
});

pub(crate) fn check(prose: &str, clauses: &[Clause], reasons: &mut Vec<String>) {
    let t = &*RULES;
    for i in t.anywhere.matching(prose) {
        push(reasons, t.anywhere.label(i), t.anywhere_langs[i]);
    }
    for clause in clauses {
        let opening = clause.text.trim_start_matches(|c: char| !c.is_alphanumeric());
        // Openings are anchored patterns: the first few hundred bytes do.
        let cut = (0..=opening.len().min(300)).rev().find(|&i| opening.is_char_boundary(i)).unwrap_or(0);
        let opening = &opening[..cut];
        for i in t.initial.matching(opening) {
            push(reasons, t.initial.label(i), t.initial_langs[i]);
        }
    }
}

fn push(reasons: &mut Vec<String>, label: &str, lang: &str) {
    reasons.push(label.to_owned());
    reasons.push(format!("lang:{lang}"));
}
