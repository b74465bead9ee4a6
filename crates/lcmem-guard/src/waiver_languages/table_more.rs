//! Word classes of more languages, in the shape of `table`: Polish, Turkish,
//! Dutch, Korean, Vietnamese, Indonesian, Swedish, Danish, Czech, Romanian,
//! Hungarian and Finnish.

use super::table::Words;

pub(super) const MORE_LANGUAGES: &[Words] = &[
    Words {
        lang: "pl",
        marker: r"[ąćęłńśźż]|\b(jest|są|nie|się|oraz|dla)\b",
        agent: r"\b(agent\w*|asystent\w*|sztuczna inteligencja|model|bot)\b",
        binding: r"\b(musi|muszą|powinien|powinni|powinna|zawsze|nigdy|oczekuje się|ma obowiązek)\b",
        secret: r"\b(hasł\w*|token\w*|klucz\w*|sekret\w*|dane logowania|poświadczen\w*)",
        leak: concat!(
            r"\b(udostępni\w*|opublikow\w*|publikow\w*|wklej\w*|wrzuc\w*|wrzuca\w*|commit\w*|wysył\w*|wysła\w*)",
            r"|\b(wpisuj\w*|wpisan\w*|wklej\w*|zapisan\w*|wysyła\w*|wysłan\w*|udostępni\w*)\b"
        ),
        place: concat!(
            r"\b(czat\w*|kanał\w*|slack|repozytori\w*|repo\b|git\b|log\w*|publiczn\w*|readme|wiki|ticket\w*|zgłoszeni\w*)",
            r"|\b(zgłosze\w*|jir\w*|ticket\w*|kod\w*|publiczn\w*|jawn\w*|e-?mail\w*)\b"
        ),
        no_secret: r"\bnie (jest|są) (tajn\w*|poufn\w*|sekretem)",
        duty: concat!(
            r"\b(przegląd\w* kodu|code review|review|test\w*|weryfikacj\w*|kontrol\w*|2fa|dwuskładnikow\w*|",
            r"podpis\w*|kopi\w* zapasow\w*|backup\w*|skanowani\w*|audyt\w*)",
        ),
        optional: r"\b(opcjonaln\w*|nieobowiązkow\w*|nie (jest|są) (wymagan|potrzebn|konieczn)\w*|niepotrzebn\w*)",
        skip: r"\b(pomij\w*|pomin\w*|wyłącz\w*|ignoruj\w*|zignoruj\w*|obejść|omij\w*)",
        permit: concat!(
            r"\b(można|wolno|dozwolon\w*|bezpieczn\w*|domyślnie|zazwyczaj|zwykle|powinn\w*|trzeba|należy|",
            r"kolejnym krokiem|każd\w*|rutynow\w*)",
        ),
        purpose: r"\b(żeby|aby)\b",
        frame: None,
        affirming: r"\b(nie ma problemu|bez problemu)",
        negation: r"\b(nie|nigdy|zakaz\w*|zabronion\w*)\b",
    },
    Words {
        lang: "tr",
        marker: r"[çğıöşü]|\b(ve|bir|bu|için|ile|değil|olarak)\b",
        agent: r"\b(ajan\w*|asistan\w*|yapay zeka\w*|model\w*|bot\w*)",
        binding: r"(zorunda|gerekir|her zaman|asla|daima|beklenir|mal[ıi]d[ıi]r|mel[ıi]d[ıi]r)",
        secret: r"\b(şifre\w*|parola\w*|token\w*|anahtar\w*|gizli anahtar\w*|kimlik bilgi\w*)",
        leak: concat!(
            r"\b(paylaş\w*|yayınla\w*|yapıştır\w*|commit\w*|gönder\w*|yükle\w*)",
            r"|\b(yazıl\w*|yapıştır\w*|paylaş\w*|gönder\w*)\b"
        ),
        place: concat!(
            r"\b(sohbet\w*|kanal\w*|slack|depo\w*|repo\w*|git\b|log\w*|herkese açık|readme|wiki|bilet\w*|issue)",
            r"|\b(düz metin|kaynak kod\w*|herkese açık|e-?posta\w*|commit mesaj\w*)\b"
        ),
        no_secret: r"\bgizli değil\w*",
        duty: concat!(
            concat!(
                r"\b(kod inceleme\w*|inceleme\w*|review|test\w*|doğrulama\w*|kontrol\w*|2fa|iki faktör\w*|imza\w*|",
                r"yedek\w*|tarama\w*|denetim\w*)",
            ),
            r"|\b(onay\w*|inceleme\w*|doğrulama\w*|imza\w*|yedek\w*|iki faktör\w*)"
        ),
        optional: concat!(
            r"\b(isteğe bağlı|opsiyonel|zorunlu değil\w*|gerekli değil\w*|gerek yok)",
            r"|\b(zorunlu değil|isteğe bağlı|gerek(li)? (yok|değil)|tavsiye\w*)\b"
        ),
        skip: concat!(
            r"\b(atla\w*|devre dışı\w*|kapat\w*|yok say\w*|görmezden gel\w*|es geç\w*)",
            r"|\b(kaldırıl\w*|atlan\w*|atla\w*|devre dışı|kapatıl\w*)\b"
        ),
        permit: r"\b(izin\w*|güvenli\w*|varsayılan\w*|genellikle|her zaman|her\b|rutin\w*|\w+[ae]bilir\w*)",
        purpose: r"\b(için|diye)\b",
        frame: None,
        affirming: r"\b(sorun değil|sorun yok)",
        negation: r"\b(asla|yasak\w*|hiçbir zaman|değil)\b",
    },
    Words {
        lang: "nl",
        marker: r"\b(het|een|zijn|niet|van|voor|mag|mogen|wordt|worden|geen|wachtwoord)\b",
        agent: r"\b(de agent|de agenten|de assistent|de ai|het model|de bot|copilot|claude)\b",
        binding: r"\b(moet|moeten|altijd|nooit|wordt verwacht|mag|mogen)\b",
        secret: concat!(r"\b(wachtwoord\w*|token\w*|sleutel\w*|geheim\w*|inloggegevens)", r"|(\w*wachtwoord\w*)"),
        leak: concat!(
            concat!(
                r"\b(gedeeld|delen|deel|publiceer\w*|gepubliceerd|plak\w*|geplakt|commit\w*|gestuurd|sturen|geüpload|upload\w*)",
                r"|\b(staa?t|staan|gezet|geplakt|gestuurd|verstuurd|geschreven|opgeslagen|gedeeld)\b"
            ),
            r"|\b(plakt|plakken|geplakt)\b"
        ),
        place: concat!(
            concat!(
                r"\b(chat|kanaal|slack|repository|repo\b|git\b|logs?\b|openbaar\w*|publiek\w*|readme|wiki|ticket\w*|issue)",
                r"|\b(platte tekst|commitbericht\w*|spreadsheet\w*|iedereen|openbaar|publiek\w*|broncode|code|e-?mail\w*|dockerfile)\b"
            ),
            r"|\b(pr-beschrijving\w*|beschrijving\w*)\b"
        ),
        no_secret: r"\b(is|zijn) geen geheim\w*|\bniet geheim",
        duty: concat!(
            concat!(
                r"\b(code ?review\w*|review\w*|test\w*|controle\w*|verificatie\w*|2fa|tweestaps\w*|handtekening\w*|",
                r"back-?up\w*|scan\w*|audit\w*)",
            ),
            r"|\b(tweestapsverificatie|review\w*|goedkeuring\w*|handtekening\w*|back-?up\w*|controle\w*)"
        ),
        optional: concat!(
            r"\b(optioneel|facultatief|niet (nodig|verplicht|vereist)|onnodig)",
            r"|\b(optioneel|vrijwillig|niet (meer )?(verplicht|nodig|vereist))\b"
        ),
        skip: concat!(
            concat!(
                r"\b(overslaan|overgeslagen|sla\w* over|uitgeschakeld|uitschakelen|uitzetten|uitgezet|negeren|genegeerd|omzeil\w*)",
                r"|\b(uitgeschakeld|staa?n uit|staat uit|overgeslagen|omzeild|genegeerd)\b"
            ),
            r"|\b(zet\w*\b.{0,40}\buit)\b"
        ),
        permit: r"\b(mag|mogen|kan|kunnen|toegestaan|veilig|standaard|normaal|gewoonlijk|altijd|elke|iedere|moet|moeten)\b",
        purpose: r"\b(zodat|om te)\b",
        frame: None,
        affirming: r"\b(geen probleem|geen bezwaar)",
        negation: r"\b(niet|nooit|geen|verboden)\b",
    },
    Words {
        lang: "ko",
        marker: r"[\u{AC00}-\u{D7A3}]",
        agent: r"(에이전트|어시스턴트|인공지능|\bai|모델|봇)",
        binding: r"(해야 합니다|해야 한다|해야 함|항상|반드시|절대|기대됩니다)",
        secret: r"(비밀번호|암호|토큰|키|자격 증명|시크릿|인증 정보)",
        leak: concat!(
            r"(공유|게시|붙여|커밋|보내|전송|업로드|출력|올려)",
            r"|(적혀|적어|붙여|올리|올려|보내|넣어|커밋)"
        ),
        place: concat!(
            r"(채팅|채널|슬랙|저장소|레포|깃|로그|공개|리드미|위키|티켓|이슈|커밋 메시지)",
            r"|(평문|공개|코드|이메일|슬랙|채팅|readme|위키)"
        ),
        no_secret: r"(비밀이 아닙니다|민감하지 않)",
        duty: concat!(
            concat!(
                r"(코드 리뷰|리뷰|검토|테스트|검사|점검|2단계 인증|2fa|서명|백업|스캔|감사|보안 검사)",
                r"|(테스트|리뷰|검토|승인|서명|백업|2단계 인증|이중 인증)"
            ),
            r"|(보호 규칙|브랜치 보호)"
        ),
        optional: r"(선택 사항|필수가 아닙|필요 없|생략 가능)",
        skip: concat!(
            concat!(r"(건너뛰|생략|비활성화|꺼져|끄는|끕니다|무시|우회)", r"|(주석 처리|비활성화|건너뛰|생략|우회)"),
            r"|(해제)"
        ),
        permit: r"(해도 됩니다|허용|괜찮|기본적으로|기본값|관례|일상적|보통|매번|항상)",
        purpose: r"(위해|하도록)",
        frame: None,
        affirming: r"(문제없|문제 없)",
        negation: r"(하지 않|하면 안|금지|절대|안 됩니다)",
    },
    Words {
        lang: "vi",
        marker: r"[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]",
        agent: r"(trợ lý|tác tử|\bagent|\bai\b|mô hình|\bbot)",
        binding: r"(phải|luôn luôn|luôn|không bao giờ|được kỳ vọng)",
        secret: r"(mật khẩu|\btoken|khóa|khoá|bí mật|thông tin đăng nhập)",
        leak: concat!(
            concat!(r"(chia sẻ|đăng|dán|commit|gửi|tải lên|in ra)", r"|(ghi vào|lưu|gửi|dán|chia sẻ)"),
            r"|(hiển thị)"
        ),
        place: concat!(
            concat!(
                r"(trò chuyện|\bchat|kênh|slack|kho mã|\brepo|\bgit\b|nhật ký|\blog|công khai|readme|wiki|ticket|issue)",
                r"|(văn bản thuần|mã nguồn|công khai|email)"
            ),
            r"|(trang lỗi)"
        ),
        no_secret: r"(không phải bí mật|không nhạy cảm)",
        duty: r"(review|xem xét|kiểm thử|\btest|kiểm tra|xác thực hai yếu tố|\b2fa|chữ ký|sao lưu|backup|quét|kiểm toán)",
        optional: r"(tùy chọn|không bắt buộc|không cần thiết|không cần)",
        skip: r"(bỏ qua|tắt|vô hiệu hóa|vô hiệu hoá|phớt lờ)",
        permit: r"(được phép|có thể|an toàn|mặc định|thông thường|thường lệ|luôn|mỗi)",
        purpose: r"(để|nhằm)",
        frame: None,
        affirming: r"(không sao|không vấn đề)",
        negation: r"(không được|không bao giờ|cấm|tuyệt đối không)",
    },
    Words {
        lang: "id",
        marker: r"\b(yang|dan|ini|untuk|dengan|tidak|di|ke|dari|adalah|sudah)\b",
        agent: r"\b(agen|asisten|ai|model|bot)\b",
        binding: r"\b(harus|wajib|selalu|tidak pernah|diharapkan)\b",
        secret: r"\b(kata sandi|sandi|token|kunci (privat|rahasia|api)|rahasia|kredensial)",
        leak: concat!(
            r"\b(dibagikan|membagikan|bagikan|diposting|tempel\w*|ditempel|commit\w*|dikirim|kirim|diunggah|unggah)",
            r"|\b(ditulis|disimpan|dikirim|ditempel|dibagikan)\b"
        ),
        place: concat!(
            r"\b(obrolan|chat|kanal|slack|repositori|repo|git|log|publik|umum|readme|wiki|tiket|issue|folder docs)",
            r"|\b(teks biasa|kode( sumber)?|publik|email|surel)\b"
        ),
        no_secret: r"\bbukan rahasia",
        duty: r"\b(review|tinjauan|tes|pengujian|pemeriksaan|verifikasi|2fa|tanda tangan|cadangan|backup|pemindaian|audit)",
        optional: r"\b(opsional|tidak wajib|tidak perlu|tidak diperlukan)",
        skip: r"\b(dilewati|lewati|dimatikan|matikan|dinonaktifkan|nonaktifkan|diabaikan|abaikan)",
        permit: r"\b(boleh|dapat|bisa|aman|bawaan|default|biasanya|rutin|selalu|setiap|sengaja)\b",
        purpose: r"\b(agar|supaya|untuk)\b",
        frame: None,
        affirming: r"\b(tidak masalah|tidak apa-apa)",
        negation: r"\b(tidak|jangan|dilarang|tidak pernah)\b",
    },
    Words {
        lang: "sv",
        marker: r"[åäö]|\b(och|att|det|inte|som|för|ska)\b",
        agent: r"\b(agenten|agenter|assistenten|ai:n|ai|modellen|boten)\b",
        binding: r"\b(måste|ska|alltid|aldrig|förväntas)\b",
        secret: concat!(
            r"\b(lösenord\w*|token\w*|nyckel\w*|nycklar\w*|hemlighet\w*|inloggningsuppgifter)",
            r"|(\w*cookie\w*|\w*token\w*)"
        ),
        leak: concat!(
            concat!(
                r"\b(delas|delar|dela|publicera\w*|klistra\w*|commit\w*|skicka\w*|laddas upp|ladda upp)",
                r"|\b(står|ligger|skickas|skickar|klistra\w*|sparad\w*|skriv\w*)\b"
            ),
            r"|\b(mejla\w*)\b"
        ),
        place: concat!(
            concat!(
                r"\b(chatt\w*|kanal\w*|slack|repo\w*|git\b|loggar?\b|offentlig\w*|readme|wiki|ärende\w*|issue)",
                r"|\b(klartext|källkod\w*|kod\w*|offentlig\w*|e-?post|kalkylark)\b"
            ),
            r"|\b(felsida\w*)\b"
        ),
        no_secret: r"\b(är|är inte) (någon )?hemlig",
        duty: r"\b(kodgranskning\w*|granskning\w*|review|test\w*|kontroll\w*|2fa|tvåfaktor\w*|signatur\w*|säkerhetskopi\w*|backup\w*|skanning\w*)",
        optional: r"\b(valfri\w*|frivillig\w*|inte nödvändig\w*|inte obligatorisk\w*|behövs inte)",
        skip: r"\b(hoppa\w* över|avstängd\w*|stängs av|stäng\w* av|ignorera\w*|kringgå\w*)",
        permit: r"\b(får|kan|tillåt\w*|säkert|standard|normalt|vanligtvis|rutin\w*|alltid|varje)\b",
        purpose: r"\b(så att|för att)\b",
        frame: None,
        affirming: r"\b(inga problem|inget problem)",
        negation: r"\b(inte|aldrig|ingen|inga|förbjud\w*)\b",
    },
    Words {
        lang: "da",
        marker: r"[æøå]|\b(og|det|ikke|skal|ved|af|til)\b",
        agent: r"\b(agenten|agenter|assistenten|ai'en|ai|modellen|botten)\b",
        binding: r"\b(skal|altid|aldrig|forventes)\b",
        secret: r"\b(adgangskode\w*|password\w*|token\w*|nøgle\w*|hemmelighed\w*|legitimationsoplysninger)",
        leak: concat!(
            concat!(
                r"\b(deles|deler|dele|publicer\w*|indsæt\w*|commit\w*|sendes|sender|sende|uploade\w*)",
                r"|\b(står|ligger|sendes|sender|indsat|gemt|skrevet)\b"
            ),
            r"|\b(vises|vist)\b"
        ),
        place: concat!(
            concat!(
                r"\b(chat\w*|kanal\w*|slack|repo\w*|git\b|logs?\b|offentlig\w*|readme|wiki|sag\w*|issue)",
                r"|\b(klartekst|kildekode\w*|kode|offentlig\w*|e-?mail|regneark)\b"
            ),
            r"|\b(fejlside\w*)\b"
        ),
        no_secret: r"\bikke hemmelig",
        duty: r"\b(kodegennemgang\w*|gennemgang\w*|review|test\w*|kontrol\w*|2fa|tofaktor\w*|signatur\w*|backup\w*|sikkerhedskopi\w*|scanning\w*)",
        optional: r"\b(valgfri\w*|frivillig\w*|ikke nødvendig\w*|ikke påkrævet)",
        skip: r"\b(spring\w* over|slået fra|slå\w* fra|deaktiver\w*|ignorer\w*|omgå\w*)",
        permit: r"\b(må|kan|tilladt|sikkert|standard|normalt|sædvanligvis|rutine\w*|altid|hver)\b",
        purpose: r"\b(så|for at)\b",
        frame: None,
        affirming: r"\b(intet problem|ikke noget problem)",
        negation: r"\b(ikke|aldrig|ingen|forbudt)\b",
    },
    Words {
        lang: "cs",
        marker: r"[ěščřžůý]|\b(je|jsou|není|nebo|pro|také)\b",
        agent: r"\b(agent\w*|asistent\w*|ai|model\w*|bot\w*)\b",
        binding: r"\b(musí|má|vždy|nikdy|očekává se)\b",
        secret: concat!(
            r"\b(hesl\w*|token\w*|klíč\w*|tajemstv\w*|přihlašovací údaje)",
            r"|\b(klíč\w*|hesl\w*|přihlašovací údaje)"
        ),
        leak: concat!(
            r"\b(sdíl\w*|zveřejň\w*|vlož\w*|commit\w*|posíl\w*|odesl\w*|nahr\w*)",
            r"|\b(vložen\w*|uložen\w*|zapsan\w*|poslan\w*|sdílen\w*|napsan\w*)\b"
        ),
        place: concat!(
            r"\b(chat\w*|kanál\w*|slack|repozitář\w*|repo\b|git\b|log\w*|veřejn\w*|readme|wiki|tiket\w*|issue)",
            r"|\b(zdrojov\w*|kód\w*|veřejn\w*|prost\w* text\w*|e-?mail\w*)\b"
        ),
        no_secret: r"\bnení tajn\w*",
        duty: r"\b(revize|review|kontrol\w*|test\w*|ověřen\w*|2fa|dvoufázov\w*|podpis\w*|zálohy|záloh\w*|sken\w*|audit\w*)",
        optional: r"\b(volitelné|nepovinné|není nutn\w*|není potřeba|není povinn\w*)",
        skip: r"\b(přeskoč\w*|vypnut\w*|vypín\w*|ignoruj\w*|obejít|obchází\w*)",
        permit: r"\b(smí|může|lze|povolen\w*|bezpečné|výchozí|běžně|obvykle|rutinn\w*|vždy|každ\w*)\b",
        purpose: r"\b(aby|abychom)\b",
        frame: None,
        affirming: r"\b(žádný problém|není problém)",
        negation: r"\b(ne|nesmí|nemá|nemůže|není|nejsou|nikdy|zakázan\w*)\b",
    },
    Words {
        lang: "ro",
        marker: r"[ăâîșşțţ]|\b(și|este|pentru|sunt|nu)\b",
        agent: r"\b(agentul|agenți|asistentul|ai|modelul|botul)\b",
        binding: r"\b(trebuie|mereu|întotdeauna|niciodată|se așteaptă)\b",
        secret: r"\b(parol\w*|token\w*|chei\w*|cheia|secret\w*|credențial\w*)",
        leak: concat!(
            r"\b(partaj\w*|publica\w*|lipi\w*|commit\w*|trimi\w*|încărca\w*)",
            r"|\b(scris\w*|trimis\w*|lipit\w*|salvat\w*)\b"
        ),
        place: concat!(
            r"\b(chat\w*|canal\w*|slack|depozit\w*|repo\b|git\b|log\w*|public\w*|readme|wiki|tichet\w*|issue)",
            r"|\b(text simplu|cod\w*|public\w*|e-?mail)\b"
        ),
        no_secret: r"\bnu (este|e) (un )?secret",
        duty: r"\b(revizuire\w*|review|test\w*|verificar\w*|2fa|autentificare în doi pași|semnătur\w*|backup\w*|copii de rezervă|scanar\w*|audit\w*)",
        optional: r"\b(opțional\w*|facultativ\w*|nu (este|e) necesar\w*|nu (este|e) obligatori\w*)",
        skip: r"\b(sări\w*|sărit\w*|dezactiva\w*|oprit\w*|ignor\w*|ocoli\w*)",
        permit: r"\b(poate|pot|permis\w*|sigur|implicit|de obicei|rutin\w*|mereu|fiecare)\b",
        purpose: r"\b(ca să|pentru a)\b",
        frame: None,
        affirming: r"\b(nicio problemă|nu e problemă)",
        negation: r"\b(nu|niciodată|interzis\w*)\b",
    },
    Words {
        lang: "hu",
        marker: r"[őű]|\b(és|az|hogy|nem|egy|van|kell|minden)\b",
        agent: r"\b(ügynök\w*|asszisztens\w*|ai|modell\w*|bot\w*)",
        binding: r"\b(kell|mindig|soha|elvárt)\b",
        secret: r"\b(jelsz\w*|token\w*|kulcs\w*|titk\w*|hitelesítő adat\w*)",
        leak: concat!(
            r"\b(megoszt\w*|közzé\w*|beilleszt\w*|commit\w*|elküld\w*|küld\w*|feltölt\w*)",
            r"|\b(beír\w*|küld\w*|beilleszt\w*|mentett\w*|szerepel\w*)\b"
        ),
        place: concat!(
            r"\b(chat\w*|csatorn\w*|slack|tárol\w*|repo\w*|git\b|napló\w*|log\w*|nyilvános\w*|readme|wiki|jegy\w*|issue)",
            r"|\b(egyszerű szöveg\w*|forráskód\w*|kód\w*|nyilvános\w*|e-?mail\w*)\b"
        ),
        no_secret: r"\bnem titk\w*",
        duty: r"\b(kódellenőrzés\w*|ellenőrzés\w*|review|teszt\w*|2fa|kétlépcsős\w*|aláírás\w*|mentés\w*|biztonsági mentés\w*|szkennel\w*|audit\w*)",
        optional: r"\b(opcionális|nem kötelező|nem szükséges|fölösleges)",
        skip: r"\b(kihagy\w*|kikapcsol\w*|letilt\w*|figyelmen kívül|megkerül\w*)",
        permit: r"\b(szabad|lehet|megengedett|biztonságos|alapértelmezett\w*|általában|rutin\w*|mindig|minden)\b",
        purpose: r"\b(hogy|azért)\b",
        frame: None,
        affirming: r"\b(nem probléma|semmi gond)",
        negation: r"\b(nem|soha|tilos)\b",
    },
    Words {
        lang: "fi",
        marker: r"[äö]|\b(ja|ei|että|tämä|kanssa|ovat|myös|kun)\b",
        agent: r"\b(agentti\w*|avustaja\w*|tekoäly\w*|ai|malli\w*|botti\w*)",
        binding: r"\b(täytyy|pitää|aina|ei koskaan|odotetaan)\b",
        secret: r"\b(salasan\w*|token\w*|avai\w*|salaisuu\w*|tunnistetie\w*)",
        leak: r"\b(jae\w*|jaet\w*|julkais\w*|liite\w*|commit\w*|lähet\w*|ladat\w*|lataa\w*)",
        place: r"\b(chat\w*|kanava\w*|slack\w*|repo\w*|git\w*|loki\w*|julkise\w*|julkinen|readme|wiki\w*|tiketi\w*|issue)",
        no_secret: r"\bei ole salai\w*",
        duty: concat!(
            r"\b(koodikatselmoin\w*|katselmoin\w*|review|testi\w*|tarkist\w*|2fa|kaksivaihei\w*|allekirjoitu\w*|varmuuskopi\w*|skannau\w*|audit\w*)",
            r"|\b(tarkist\w*|varmuuskop\w*|katselmo\w*|allekirjoit\w*|kaksivaihei\w*|hyväksyn\w*)"
        ),
        optional: concat!(
            r"\b(valinnai\w*|vapaaehtoi\w*|ei ole pakollinen|ei tarvita|tarpeeton)",
            r"|\b(vapaaehtoi\w*|ei (enää )?(pakollinen|tarpeen|vaadita))\b"
        ),
        skip: concat!(
            r"\b(ohite\w*|ohitta\w*|pois päältä|poistettu käytöstä|kytketty pois|sivuute\w*)",
            r"|\b(poistettu|poistet\w*|ohitet\w*|ohita\w*|pois päältä|kytketty pois)\b"
        ),
        permit: r"\b(saa|voi|sallittu|turvallis\w*|oletus\w*|yleensä|rutiini\w*|aina|jokai\w*)\b",
        purpose: r"\b(jotta|että)\b",
        frame: None,
        affirming: r"\b(ei ongelmaa|ei haittaa)",
        negation: r"\b(ei|älä|koskaan|kielletty)\b",
    },
];
