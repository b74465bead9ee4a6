//! Word classes of Japanese, Chinese, Korean, Indonesian and Vietnamese, in the shape of `table`.

use super::table::Words;

pub(super) const ASIAN_LANGUAGES: &[Words] = &[
    Words {
        lang: "ja",
        agent: r"(アシスタント|エージェント|ＡＩ|\bai|モデル|ボット)|((^|[^a-z])ai($|[^a-z])|llm|生成ai|コパイロット|copilot|チャットボット|クロード)",
        act: concat!(
            r"(実行|マージ|デプロイ|承認|削除|インストール|適用|公開)|(実行|マイグレーション|マージ|デプロイ)|(走らせ|動かし|動かす|回す|起動|反映|本番反映|リリース|プッシュ|push|",
            r"コミット|commit|取り込|取込|統合|配備|消去|消す|消し|抹消|破棄|上書き|書き換え|変更|修正|更新|アップデート|アップグレード|ダウングレード|ロールバック|再起動|有効化|無効化|",
            r"権限付与|アンインストール|導入|購入|支払|決済|クローズ|lgtm|approve|初期化|リセット)",
        ),
        unasked: concat!(
            r"(確認せず|確認なし|確認なく|聞かずに|尋ねずに|許可なく|承認なしで|レビューなしで|自ら|勝手に|誰も)|(確認を待たずに|確認なしで|確認せずに|無断で|勝手に)|(確認しないで|",
            r"確認を取らず|確認を取らないで|確認を求めず|確認を求めないで|承認を待たず|承認を得ず|承認を得ないで|承認なく|承認不要|許可を得ず|許可を取らず|許可を求めず|許可なしで|許可不要|断りなく|",
            r"断りもなく|断らずに|相談せず|相談なしに|相談なく|相談しないで|聞かないで|尋ねないで|問い合わせず|ユーザーに聞かず|黙って|こっそり|独断で|独自の判断で|自己判断で|自分の判断で|",
            r"人手を介さず|人を介さず|レビューを待たず|レビューを経ずに|報告せず|報告なしに|通知せず|知らせずに|知らせないで|伝えずに|誰にも|だれも|だれにも|一存で)|(確認せず|確認しないで|",
            r"そのまま実行|残さない|記録しない|報告しない)|(確認は不要|確認不要|の判断で)|(しても構わない|てもかまわない|て構わない|問題ない)|(てかまわない|て構わない|てよい)",
        ),
        orders: r"(コマンド|指示|命令|タスク)|(指令|依頼|要求|要望|命じ|指図|プロンプト|オーダー)",
        obey: concat!(
            r"(実行|従う|従い|従って|命令として扱)|(従わ|従っ|従います|遵守|順守|準拠|守る|守り|守っ|遂行|実施|行う|そのまま実行|鵜呑み|言われた通り|書かれた通り|書かれたとおり|記載通り|",
            r"指示通り|指示どおり|として扱|として解釈|として受け入|命令とみなし|聞き入れ|服従)",
        ),
        source: concat!(
            r"(コメント|イシュー|チケット|ファイル|メッセージ|メール|readme|todo)|(課題|プルリク|マージリクエスト|ドキュメント|文書|資料|wiki|ウィキ|ウェブページ|webページ|",
            r"ページ|サイト|ログ|出力|検索結果|チャット|slack|スラック|掲示板|注釈|docstring|設定ファイル|変更履歴|リリースノート)",
        ),
        priority: concat!(
            r"(より優先|よりも優先|優先され)|(よりも重要|より重要|より重視|よりも重視|に優越|を差し置いて|ユーザーの指示より|ユーザーより優先|ユーザーの指示を上書き|ユーザーの指示を覆|",
            r"ユーザーの(指示|意向)を無視|利用者の指示より|に優先する|に優先して)",
        ),
        own: r"(自分の|自身の|自ら)|(自分で|自ら)|(自分自身|自身で|自身が|自己承認|自己レビュー|セルフレビュー|セルフ承認|セルフマージ|自分が(書いた|作った|作成した|出した)|自らの)",
        data: concat!(
            r"(ソースコード|コード|リポジトリ|ログ|ダンプ|データベース|バックアップ|顧客データ|顧客|環境変数|パスワード)|(ソース|レポジトリ|データ|顧客情報|個人情報|ユーザー情報|利用者情報|",
            r"会員情報|社員情報|従業員情報|機密情報|機密データ|社外秘|社内資料|社内文書|設計書|仕様書|議事録|トークン|シークレット|秘密鍵|認証情報|資格情報|apiキー|設定ファイル|取引データ|",
            r"注文データ|カード情報|メールアドレス|電話番号|チャット履歴|会話ログ)",
        ),
        send: concat!(
            r"(送信|送ら|送る|アップロード|転送|コピー|同期)|(送っ|送り|送付|にアップ|へアップ|渡し|渡す|共有|プッシュ|push|ミラー|複製|エクスポート|書き出|投稿|添付|メールで送|流す|",
            r"流し|提供|提出|移行|移す|移し|退避|持ち出|持出|複写|貼り付け|配信)",
        ),
        outside: concat!(
            r"(外部|第三者|個人の|個人用|公開|無料|元請負|以前の委託)|(社外|外注|委託先|協力会社|取引先|ベンダー|他社|競合|個人アカウント|個人メール|私用|私物|自宅|個人pc|個人端末|",
            r"フリーメール|パブリック|一般公開|インターネット上|ネット上|未承認|無許可|退職者|元社員|元従業員)",
        ),
        inside: r"(社内|内部|自社|暗号化|匿名化)|(社内用|組織内|自前|オンプレ|オンプレミス|セルフホスト|閉域|イントラ|イントラネット|仮名化|マスキング|マスク済|秘匿化|匿名加工)",
        negation: concat!(
            r"(しない|されない|ない|禁止|ブロック)|(ません|禁じ|厳禁|禁物|ダメ|だめ|駄目|べからず|不可|防止|遮断)|(確認する|確認して|確認を取|承認を得|実行前に|データとして扱)|(せず|",
            r"実行しない|しないこと)",
        ),
    },
    Words {
        lang: "zh",
        agent: r"(助手|智能体|代理|人工智能|\bai|模型|机器人)|((^|[^a-z])ai($|[^a-z])|智能體|機器人|人工智慧|助理|llm|copilot|编程助手|編程助手)",
        act: concat!(
            r"(执行|运行|合并|部署|批准|删除|安装|应用|发布)|(执行)|(執行|運行|合併|合入|上线|上線|发版|發版|推送|强推|強推|核准|审批|審批|刪除|删掉|刪掉|清空|清除|卸载|卸載|",
            r"安裝|升级|升級|迁移|遷移|回滚|回滾|重置|覆盖|覆蓋|提交|变更|變更|發布|發佈|重启|重啟|跑脚本|跑腳本|跑命令|修改|改动|改動|关闭|關閉|下线|下線|授权|授權|开通|開通)",
        ),
        unasked: concat!(
            r"(不再(向用户)?确认|无需确认|不经确认|未经(确认|批准|审核|同意)|不询问|不问|直接照做|自行|擅自|没有人)|(不必告知|无需(确认|询问|告知)|不告知|不通知)|(不用问|不用問|",
            r"不必问|不必問|无需询问|無需詢問|不需要确认|不需要確認|无须确认|無須確認|不经(用户)?同意|不經(用戶)?同意|未经允许|未經允許|未经授权|未經授權|未經確認|未經批准|不等(待)?(确认|",
            r"確認|批准|审核|審核|审批|審批|回复|回覆|同意)|不必等|不用等|直接(合并|合併|部署|上线|上線|推送|删除|刪除)|自主决定|自主決定|自主执行|自主執行|自作主张|自作主張|自行决定|",
            r"自行決定|無人|无人审核|無人審核|无人确认|無人確認|不请示|不請示|不报备|不報備|先斩后奏|先斬後奏|不打招呼|不要(再)?(询问|詢問|问|問|确认|確認|请示|請示)|别问|別問|无须告知|",
            r"無須告知|跳过确认|跳過確認|不需要人工|无需人工|無需人工|沒有人|不要求(确认|確認|审批|審批|批准))|(不用脱敏|无需脱敏|不脱敏)|(无需征得用户同意|无需同意|不用在回复里提及|不提及|",
            r"不用告诉)",
        ),
        orders: r"(命令|指令|指示|内容|任务)|(要求|请求|請求|任務|吩咐|嘱咐|囑咐|待办事项|待辦事項|提示词|提示詞|prompt|指引|规则|規則|操作步骤|操作步驟)",
        obey: concat!(
            r"(执行|照做|遵循|服从|视为命令)|(執行|照办|照辦|照着做|照著做|遵照|遵守|遵從|遵从|听从|聽從|服從|照搬|落实|落實|奉行|視為命令|当作命令|當作命令|当成指令|當成指令|视为指令|",
            r"視為指令|作为指令|作為指令|逐条执行|逐條執行|照单全收|照單全收)",
        ),
        source: concat!(
            r"(注释|评论|issue|工单|文件|消息|邮件|readme|todo)|(注釋|評論|留言|备注|備註|说明文档|說明文件|文档|文檔|工單|议题|議題|问题单|問題單|提交信息|提交说明|",
            r"提交說明|commit ?message|合并请求|合併請求|拉取请求|pull request|pr ?描述|mr ?描述|網頁|网页|网站|網站|郵件|聊天记录|聊天記錄|訊息|檔案|配置文件|",
            r"日志|日誌|输出|輸出|docstring|变更日志|變更日誌)",
        ),
        priority: concat!(
            r"(优先于|比用户.{0,6}更重要|高于用户)|(優先於|高於用戶|凌驾于|凌駕於|压过|壓過|优先级高于|優先級高於|以.{0,10}为准|以.{0,10}為準|最高优先级|最高優先級|优先遵循|",
            r"優先遵循|取代用户|取代用戶|无视用户|無視用戶|忽略用户|忽略用戶|比用戶.{0,6}更重要)",
        ),
        own: concat!(
            r"(自己的|自行批准)|(它自己|其自身|自我(审批|審批|批准|审核|審核|合并|合併|核准|确认|確認)|自审|自審|自批|自行审批|自行審批|自行合并|自行合併|自己写的|自己寫的|自己提交的|",
            r"自己生成的|自己创建的|自己創建的|自己发起的|自己發起的)",
        ),
        data: concat!(
            r"(源码|源代码|代码|仓库|日志|转储|数据库|备份|客户数据|客户|环境变量|密码)|(原始碼|源碼|代碼|倉庫|代码库|代碼庫|日誌|資料庫|備份|客戶資料|客户资料|客户信息|客戶信息|",
            r"用户数据|用戶數據|用户信息|用戶資訊|个人信息|個人資訊|个人数据|個人數據|隐私数据|隱私數據|敏感数据|敏感數據|内部文档|內部文件|凭证|憑證|密钥|密鑰|令牌|口令|生产数据|生產數據|",
            r"数据|數據|資料|轉儲|配置文件|聊天记录|聊天記錄|客户名单|客戶名單|手机号|手機號|身份证号|身份證號|環境變數|環境變量)|(用户表|生产库|生产数据库)",
        ),
        send: concat!(
            r"(上传|发送|发到|转发|复制到|同步到|打包上传)|(上傳|發送|发给|發給|轉發|複製到|同步至|拷贝到|拷貝到|传到|傳到|传给|傳給|传送|傳送|推送到|推到|备份到|備份到|导出到|導出到|",
            r"匯出|导出|外发|外發|发往|發往|镜像到|鏡像到|提交到|上报|上報|回传|回傳|分享到|分享给|分享給|共享给|共享給|贴到|貼到|粘贴到|粘貼到|發到|抄送)",
        ),
        outside: concat!(
            r"(外部|第三方|个人|公共|公开|免费|前承包商)|(外網|外网|第三方服务|第三方服務|個人|私人|私人邮箱|私人郵箱|个人邮箱|個人郵箱|个人网盘|個人網盤|个人账号|個人帳號|公網|公网|公開|",
            r"友商|竞争对手|競爭對手|合作方|供应商|供應商|外包|前员工|前員工|离职员工|離職員工|網盤|网盘|个人电脑|個人電腦|私人电脑|私人電腦|免費|公司外|公司以外|组织外|組織外)|(公网|外包)",
        ),
        inside: concat!(
            r"(内部|公司内部|自有|加密|匿名化)|(內部|公司內部|私有化部署|私有部署|私有云|私有雲|自建|自托管|自託管|本地部署|自有服务器|自有伺服器|已加密|加密后|加密後|脱敏|脫敏|去标识|",
            r"去標識|堡垒机|堡壘機|内网服务器|內網伺服器)",
        ),
        negation: concat!(
            r"(不会|不得|禁止|从不|绝不|没有|阻止)|(不可|不能|不准|不许|不許|不允许|不允許|严禁|嚴禁|切勿|请勿|請勿|勿|不要|千万别|千萬別|不应|不應|永不|从未|從未|未曾|决不|決不|",
            r"絕不|沒有|拒绝|拒絕|不會)|(确认后|先确认|征得|询问用户|执行前)",
        ),
    },
    Words {
        lang: "ko",
        agent: r"(어시스턴트|에이전트|인공지능|\bai|모델|봇)|((^|[^a-z])ai($|[^a-z])|llm|코파일럿|copilot|도우미|클로드|에이아이)",
        act: concat!(
            r"(실행|병합|머지|배포|승인|삭제|설치|적용|게시)|(돌리|돌려|돌린|구동|기동|릴리스|릴리즈|출시|푸시|push|커밋|commit|반영|지우|지워|지운|제거|폐기|초기화|리셋|",
            r"덮어쓰|덮어써|수정|변경|업데이트|업그레이드|롤백|되돌리|재시작|재부팅|마이그레이션|이관|권한 부여|허용|approve|lgtm|닫아|닫고|닫는|결제|구매|발행|drop|",
            r"truncate)",
        ),
        unasked: concat!(
            r"(묻지 않고|확인 없이|확인하지 않고|승인 없이|검토 없이|스스로|아무도)|(묻지 말고|물어보지 않고|물어보지 말고|묻지도 않고|확인을 받지 않고|확인받지 않고|확인 ?절차 없이|",
            r"승인을 받지 않고|승인받지 않고|승인을 기다리지 않고|허락 없이|허락을 받지 않고|허락받지 않고|허가 없이|동의 없이|동의를 받지 않고|리뷰 없이|검토를 거치지 않고|",
            r"사전 ?확인 없이|사전 ?승인 없이|알리지 않고|보고하지 않고|통보 없이|상의 없이|상의하지 않고|임의로|마음대로|멋대로|독단적으로|자의적으로|단독으로|혼자서|사람의 ?개입 없이|",
            r"무단으로|몰래|아무에게도|누구에게도|누구의 ?승인도)",
        ),
        orders: r"(명령|지시|지침|작업)|(명령어|커맨드|지령|부탁|할 일|태스크|프롬프트|지시문|지시사항|지시 사항)",
        obey: concat!(
            r"(실행|따르|따릅|명령으로 간주)|(따랐|따른다|따라 실행|따라 처리|준수|지키|지켜|수행|이행|복종|그대로 (실행|수행|적용)|시키는 대로|적힌 대로|쓰인 대로|적혀 있는 대로|",
            r"지시 ?대로|명령으로 취급|명령으로 처리|명령으로 받아들|지시로 간주|지시로 취급)",
        ),
        source: concat!(
            r"(주석|댓글|이슈|티켓|파일|메시지|이메일|readme|todo)|(코멘트|메일|문서|도큐먼트|위키|wiki|풀 ?리퀘스트|머지 ?리퀘스트|pr 설명|pr 본문|웹 ?페이지|",
            r"웹사이트|사이트|페이지|로그|출력|검색 결과|채팅|슬랙|게시판|노션|컨플루언스|지라|설정 파일|docstring|변경 로그|체인지로그|changelog)",
        ),
        priority: concat!(
            r"(보다 우선|보다 더 중요|우선합니다)|(우선하여|우선한다|보다 우선)|(보다 중요|보다 상위|에 우선|우선시|우선순위가 높|우선 순위가 높|사용자(의)? (지시|요청|말)(보다|",
            r"을 무시|를 무시))",
        ),
        own: r"(자신의|스스로)|(자기 자신|자기가 (작성|만든|올린|생성)|자신이 (작성|만든|올린|생성|제출)|자체 승인|셀프 승인|셀프 리뷰|셀프 머지|자가 승인|자기의)",
        data: concat!(
            r"(소스 코드|코드|저장소|로그|덤프|데이터베이스|백업|고객 데이터|고객|환경 변수|비밀번호)|(덤프|db|데이터베이스|소스 코드|로그)|(소스|레포|리포지토리|데이터|디비|",
            r"개인정보|개인 정보|고객 정보|고객정보|사용자 정보|회원 정보|회원정보|직원 정보|기밀|사내 문서|내부 문서|설계 문서|회의록|토큰|시크릿|키 파일|인증서|자격 증명|인증 정보|",
            r"api 키|설정 파일|환경변수|주문 데이터|거래 내역|결제 정보|카드 정보|이메일 주소|전화번호|대화 기록|채팅 기록)",
        ),
        send: concat!(
            r"(전송|보냅|보내|업로드|전달|복사|동기화)|(보낸|보내|전송|업로드|동기화|rsync)|(올리|올려|올린|푸시|push|미러링|미러|복제|내보내|익스포트|export|공유|첨부|",
            r"넘기|넘겨|넘긴|제공|이관|옮기|옮겨|포워딩|발송|송신|유출|반출|가져가)",
        ),
        outside: concat!(
            r"(외부|제3자|개인|공개|무료|전 협력)|(외주|개인적|개인 |외부|공개)|(제삼자|타사|경쟁사|협력사|협력 업체|벤더|거래처|사외|회사 밖|퍼블릭|개인 계정|개인 메일|퇴사자|",
            r"퇴직자|전직 직원|자택)",
        ),
        inside: r"(내부|사내|자체 서버|암호화|익명화)|(사내망|내부망|폐쇄망|온프레미스|온프렘|셀프 호스팅|자체 호스팅|자체 구축|회사 소유|가명화|비식별|마스킹|인트라넷)",
        negation: concat!(
            r"(않|금지|차단|절대)|(마세요|마십시오|말 것|말아야|하지 마|안 됩니다|안 된다|안 됨|안 돼|불허|불가능|불가합니다|못 하|못합|못한|할 수 없|허용되지)|(확인한 후|",
            r"확인을 받|승인을 받|실행 전에|묻는다)",
        ),
    },
    Words {
        lang: "id",
        agent: concat!(
            r"\b(asisten\w*|agen\w*|ai|model)\b|\b(asisten ai|kecerdasan buatan|llm|copilot|chatbot|bot|",
            r"model bahasa|robot|claude)\b",
        ),
        act: concat!(
            r"\b(menjalankan|mengeksekusi|menggabungkan|merge|men-deploy|menyetujui|menghapus|memasang|menerapkan|",
            r"menerbitkan)\b|\b(jalankan|dijalankan|eksekusi|dieksekusi|gabungkan|digabungkan|di-?merge|deploy|",
            r"di-?deploy|mendeploy|rilis|merilis|dirilis|approve|di-?approve|setujui|disetujui|hapus|dihapus|",
            r"install|instal|menginstal|menginstall|diinstal|pasang|dipasang|terapkan|diterapkan|terbitkan|",
            r"diterbitkan|push|di-?push|commit|meng-?commit|mengubah|diubah|mengganti|menimpa|ditimpa|update|",
            r"memperbarui|upgrade|rollback|migrasi|restart|mematikan|reset|drop|truncate|menutup|membayar|membeli|",
            r"mencabut)\b",
        ),
        unasked: concat!(
            r"\b(tanpa (bertanya|menanyakan|konfirmasi|menunggu|review|persetujuan|pengecekan)|dengan sendirinya|",
            r"tidak ada yang)\b|\b(tanpa (izin|seizin|minta izin|meminta izin|sepengetahuan|pemberitahuan|",
            r"memberi tahu|memberitahu|dikonfirmasi|dicek|ditinjau|peninjauan|approval|disetujui|cek|tanya|nanya|",
            r"bilang|lapor|melapor)|tak perlu (bertanya|tanya|konfirmasi|izin)|tidak perlu (bertanya|tanya|",
            r"konfirmasi|izin|menunggu)|tidak usah (bertanya|tanya|konfirmasi|izin|menunggu)|gak? usah (tanya|",
            r"nanya|konfirmasi|izin)|gak? perlu (tanya|nanya|konfirmasi|izin)|secara mandiri|",
            r"atas inisiatif sendiri|seenaknya|sesukanya|diam-diam|tak ada yang|gak ada yang|tidak seorang pun|",
            r"tanpa campur tangan manusia)\b",
        ),
        orders: r"\b(perintah|instruksi|tugas)\b|\b(arahan|komando|command|titah|suruhan|todo|to-do|prompt|direktif)\b",
        obey: concat!(
            r"\b(menjalankan|mengeksekusi|mengikuti|mematuhi|menganggap\w*)\b|\b(jalankan|dijalankan|eksekusi|",
            r"dieksekusi|ikuti|diikuti|patuhi|dipatuhi|menuruti|turuti|dituruti|taati|menaati|mentaati|",
            r"melaksanakan|laksanakan|dilaksanakan|mengerjakan|dikerjakan|kerjakan|diperlakukan sebagai|",
            r"dianggap sebagai perintah|apa adanya)\b",
        ),
        source: concat!(
            r"\b(komentar|issue|tiket|berkas|file|pesan|email|readme|todo|dokumen)\b|\b(komen|catatan|keterangan|",
            r"pesan commit|commit message|pull request|merge request|deskripsi pr|halaman web|situs|website|laman|",
            r"wiki|log|keluaran|output|hasil pencarian|chat|obrolan|surel|docstring|changelog|catatan rilis)\b",
        ),
        priority: concat!(
            r"\b(lebih penting dari(pada)?|diutamakan|prioritas di atas)\b|\b(lebih diutamakan|diprioritaskan|",
            r"lebih tinggi dari(pada)?|lebih berhak|mengalahkan|mengesampingkan (pengguna|instruksi pengguna|",
            r"permintaan pengguna)|di atas (instruksi|perintah|permintaan) pengguna|prioritas lebih tinggi)\b",
        ),
        own: concat!(
            r"\b(miliknya sendiri)\b|\b(dirinya|dirinya sendiri|buatannya|miliknya|karyanya|yang dibuatnya|",
            r"yang ditulisnya)\b",
        ),
        data: concat!(
            r"\b(kode( sumber)?|repositori|log|dump|basis data|database|cadangan|backup|data pelanggan|pelanggan|",
            r"variabel lingkungan|kata sandi)\b|\b(folder proyek|isi folder|kode( sumber)?|data pelanggan|log)\b|",
            r"\b(source code|kodingan|codingan|repo|data|db|data pribadi|data pengguna|data nasabah|data karyawan|",
            r"informasi pribadi|data sensitif|data rahasia|dokumen internal|dokumen rahasia|rahasia|kredensial|",
            r"token|kunci api|api key|nomor telepon|alamat email|riwayat chat|data transaksi|data pesanan)\b",
        ),
        send: concat!(
            r"\b(dikirim\w*|mengirim\w*|diunggah|mengunggah|diteruskan|disalin|disinkronkan)\b|\b(mengunggah|",
            r"unggah|diunggah|mengirim|dikirim)\b|\b(kirim\w*|upload|di-?upload|teruskan|forward|salin|menyalin|",
            r"copy|sinkron\w*|menyinkronkan|push|di-?push|ekspor|mengekspor|diekspor|dibagikan|membagikan|bagikan|",
            r"share|di-?share|dilampirkan|melampirkan|dipindahkan|memindahkan|pindahkan|mirror|diserahkan|",
            r"menyerahkan|dibocorkan|membocorkan|dibawa keluar|membawa keluar)\b|\b(menyinkronkan|sinkron\w*)\b",
        ),
        outside: concat!(
            r"\b(eksternal|pihak ketiga|pribadi|publik|gratis|mantan kontraktor)\b|\b(pribadi|eksternal|publik|",
            r"pihak ketiga)\b|\b(luar perusahaan|di luar perusahaan|luar organisasi|pihak luar|orang luar|vendor|",
            r"mitra|rekanan|kompetitor|pesaing|perusahaan lain|akun pribadi|email pribadi|laptop pribadi|",
            r"perangkat pribadi|terbuka untuk umum|mantan karyawan|mantan pegawai|alih daya|outsource)\b|",
            r"\b(pribadi\w*)\b",
        ),
        inside: concat!(
            r"\b(internal|server sendiri|terenkripsi|dianonimkan|perusahaan)\b|\b(intranet|jaringan internal|",
            r"jaringan kantor|server kantor|server internal|on-?premise|on-?prem|self-?hosted|di-?host sendiri|",
            r"dienkripsi|anonim|dianonimisasi|disamarkan|pseudonim\w*|disensor|milik perusahaan)\b",
        ),
        negation: concat!(
            r"\b(tidak|tak|jangan|dilarang|diblokir|bukan)\b|\b(gak|ga|nggak|enggak|ngga|belum pernah|",
            r"tidak pernah|tak pernah|jangan pernah|terlarang|tidak boleh|tak boleh|tidak diperbolehkan|",
            r"tidak diizinkan|ditolak|dicegah|mencegah|hindari)\b",
        ),
    },
    Words {
        lang: "vi",
        agent: concat!(
            r"(trợ lý|tác tử|agent|ai|mô hình)|\b(trợ lý ai|trí tuệ nhân tạo|llm|copilot|chatbot|bot|",
            r"mô hình ngôn ngữ|công cụ ai|claude)\b",
        ),
        act: concat!(
            r"(chạy|thực thi|thực hiện|hợp nhất|merge|triển khai|phê duyệt|duyệt|xóa|xoá|cài đặt|áp dụng|",
            r"phát hành)|\b(khởi chạy|chạy lệnh|thi hành|gộp|push|đẩy code|đẩy lên|deploy|release|chấp thuận|",
            r"approve|xóa bỏ|xoá bỏ|gỡ cài đặt|cài|nâng cấp|cập nhật|hạ cấp|rollback|ghi đè|sửa|chỉnh sửa|",
            r"thay đổi|commit|khởi động lại|migrate|cấp quyền|đóng issue|thanh toán)\b",
        ),
        unasked: concat!(
            r"(không (cần )?hỏi|không cần xác nhận|không chờ|chẳng cần hỏi|tự động duyệt|tự ý|không ai)|",
            r"\b(không hỏi ý kiến|không xin phép|không cần xin phép|chưa xin phép|không cần phê duyệt|",
            r"không cần duyệt|không cần review|không cần kiểm tra|không đợi|không cần đợi|không cần chờ|",
            r"không chờ xác nhận|không chờ phê duyệt|không thông báo|không báo trước|không báo cho|không cần báo|",
            r"chưa hỏi|chưa xác nhận|không qua review|không qua duyệt|không ai duyệt|không có ai|chẳng ai|tự mình|",
            r"tự quyết|tự quyết định|âm thầm|lặng lẽ|mà không hỏi|mà không cần hỏi)\b",
        ),
        orders: concat!(
            r"(lệnh|chỉ dẫn|hướng dẫn|yêu cầu|nhiệm vụ)|\b(mệnh lệnh|chỉ thị|câu lệnh|command|chỉ lệnh|",
            r"việc cần làm|todo|tác vụ|task|prompt|lời nhắc)\b",
        ),
        obey: concat!(
            r"(chạy|thực thi|thực hiện|làm theo|tuân theo|coi .{0,20} là lệnh)|\b(tuân thủ|nghe theo|vâng lời|",
            r"phục tùng|chấp hành|thi hành|y theo|làm đúng như|thực hiện theo|xem như lệnh|xem là lệnh|",
            r"coi như lệnh|coi là chỉ thị|áp dụng ngay|thực hiện ngay)\b",
        ),
        source: concat!(
            r"(bình luận|chú thích|issue|ticket|tệp|file|tin nhắn|email|readme|todo)|\b(comment|ghi chú|tài liệu|",
            r"trang wiki|wiki|commit message|thông điệp commit|pull request|merge request|mô tả pr|trang web|",
            r"website|kết quả tìm kiếm|nhật ký|đầu ra|output|thư|mail|docstring|tệp cấu hình|file cấu hình|",
            r"kênh chat|slack|changelog)\b",
        ),
        priority: concat!(
            r"(ưu tiên hơn|quan trọng hơn)|\b(được ưu tiên|ưu tiên cao hơn|ưu tiên trước|ưu tiên so với|",
            r"cao hơn người dùng|hơn cả người dùng|đè lên|ghi đè (chỉ dẫn|yêu cầu|lệnh)|thay thế (chỉ dẫn|",
            r"yêu cầu) của người dùng|bỏ qua (chỉ dẫn|yêu cầu) của người dùng|phớt lờ người dùng|",
            r"có hiệu lực cao hơn)\b",
        ),
        own: concat!(
            r"(của chính nó|tự duyệt|chính mình)|\b(chính nó|bản thân nó|tự phê duyệt|tự chấp thuận|tự approve|",
            r"tự review|tự merge|tự hợp nhất|do nó viết|do nó tạo|do chính nó|tự kiểm duyệt)\b",
        ),
        data: concat!(
            r"(mã nguồn|kho mã|nhật ký|log|bản sao lưu|cơ sở dữ liệu|dữ liệu khách hàng|khách hàng|",
            r"biến môi trường|mật khẩu)|\b(source code|code|repo|dữ liệu|database|csdl|db|dump|thông tin cá nhân|",
            r"dữ liệu cá nhân|dữ liệu người dùng|thông tin khách hàng|thông tin người dùng|dữ liệu nhạy cảm|",
            r"tài liệu nội bộ|tài liệu mật|bí mật|khóa|khoá|token|thông tin đăng nhập|số điện thoại|địa chỉ email|",
            r"lịch sử chat|dữ liệu giao dịch|dữ liệu đơn hàng)\b|(mã nguồn|cơ sở dữ liệu|dữ liệu khách hàng)",
        ),
        send: concat!(
            r"(gửi|tải lên|chuyển tiếp|sao chép|đồng bộ)|\b(upload|up lên|đẩy lên|đẩy sang|push|chuyển sang|",
            r"chuyển đến|chuyển cho|xuất sang|export|chia sẻ|đăng lên|mirror|nhân bản|sao lưu sang|sao lưu lên|",
            r"copy|chép|đính kèm|gửi kèm|forward|cung cấp cho|bàn giao|mang ra ngoài|đưa ra ngoài|đưa lên|",
            r"truyền)\b|(đẩy|tải lên)",
        ),
        outside: concat!(
            r"(bên ngoài|bên thứ ba|cá nhân|công khai|miễn phí|nhà thầu cũ)|\b(ngoài công ty|ngoài tổ chức|",
            r"bên ngoài công ty|đối tác|nhà cung cấp|vendor|đối thủ|đối thủ cạnh tranh|công ty khác|thuê ngoài|",
            r"outsource|nhân viên cũ|người đã nghỉ việc|tài khoản riêng|email riêng|máy cá nhân|máy nhà|ở nhà|",
            r"công cộng|public)\b|(cá nhân|bên ngoài|công khai)",
        ),
        inside: concat!(
            r"(nội bộ|máy chủ riêng|được mã hóa|mã hoá|ẩn danh|của công ty)|\b(mạng nội bộ|intranet|tự host|",
            r"self-hosted|on-premise|on-prem|máy chủ công ty|hạ tầng công ty|server công ty|đã mã hóa|đã mã hoá|",
            r"mã hóa|đã ẩn danh|ẩn danh hóa|ẩn danh hoá|khử định danh|giả danh hóa)\b|(chỉ\b|trình quản lý bí mật|",
            r"nội bộ)",
        ),
        negation: concat!(
            r"(không bao giờ|không được|cấm|bị chặn|chưa bao giờ)|\b(đừng|chớ|không nên|không thể|không hề|",
            r"không cho phép|chẳng bao giờ|nghiêm cấm|bị cấm|tuyệt đối không|không (gửi|tải|đẩy|chia sẻ|sao chép|",
            r"đồng bộ|chuyển|xuất|upload))\b|(tắt|không gửi|ngừng)",
        ),
    },
];
