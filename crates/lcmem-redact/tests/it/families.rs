//! Every named family is redacted in the contexts it shows up in, and only
//! the value goes: keys, user names, hosts and surrounding text stay.

use crate::common::*;
use lcmem_redact::{find_secrets, redact};

#[test]
fn github_tokens() {
    for (i, prefix) in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"].iter().enumerate() {
        let tok = format!("{prefix}{}", fake(i as u64 + 1, ALNUM, 36));
        let out = assert_redacted(&format!("GH_TOKEN={tok}"), &tok, "github-token");
        assert_eq!(out, "GH_TOKEN=[REDACTED:github-token]");
    }
    let pat = format!("github_pat_{}_{}", fake(7, ALNUM, 22), fake(8, ALNUM, 59));
    assert_redacted(&format!("echo {pat} | gh auth login -h ghe.test --with-token"), &pat, "github-token");
    let tok = format!("ghp_{}", fake(9, ALNUM, 36));
    let out = assert_redacted(&format!("git clone https://{tok}@github.com/o/r.git"), &tok, "github-token");
    assert_eq!(out, "git clone https://[REDACTED:github-token]@github.com/o/r.git");
}

#[test]
fn anthropic_and_openai_keys() {
    let ant = format!("sk-ant-api03-{}AA", fake(11, URLSAFE, 93));
    let out = assert_redacted(&format!(r#"client = Anthropic(api_key="{ant}")"#), &ant, "anthropic-key");
    assert_eq!(out, r#"client = Anthropic(api_key="[REDACTED:anthropic-key]")"#);
    let admin = format!("sk-ant-admin01-{}AA", fake(12, URLSAFE, 93));
    assert_redacted(&format!("ANTHROPIC_ADMIN_KEY={admin}"), &admin, "anthropic-key");

    let legacy = format!("sk-{}T3BlbkFJ{}", fake(13, ALNUM, 20), fake(14, ALNUM, 20));
    assert_redacted(&format!("openai.api_key = '{legacy}'"), &legacy, "openai-key");
    let proj = format!("sk-proj-{}", fake(15, URLSAFE, 156));
    assert_redacted(&format!("llm:\n  api_key: {proj}\n  model: x"), &proj, "openai-key");
    let svc = format!("sk-svcacct-{}", fake(16, URLSAFE, 120));
    assert_redacted(&format!("export OPENAI_API_KEY=\"{svc}\""), &svc, "openai-key");
}

#[test]
fn stripe_keys() {
    for (i, p) in ["sk_live_", "sk_test_", "rk_live_"].iter().enumerate() {
        let tok = format!("{p}{}", fake(20 + i as u64, ALNUM, 40));
        assert_redacted(&format!("stripe.api_key = \"{tok}\""), &tok, "stripe-key");
    }
    let wh = format!("whsec_{}", fake(24, ALNUM, 32));
    assert_redacted(&format!("STRIPE_WEBHOOK={wh}"), &wh, "stripe-webhook-secret");
}

#[test]
fn aws_key_ids_and_secret_keys() {
    for (i, p) in ["AKIA", "ASIA", "ABIA", "ACCA"].iter().enumerate() {
        let id = format!("{p}{}", fake(30 + i as u64, BASE32, 16));
        assert_redacted(&format!("aws_access_key_id = {id}"), &id, "aws-access-key-id");
        assert_redacted(&format!("  \"AccessKeyId\": \"{id}\","), &id, "aws-access-key-id");
    }
    let secret = fake(35, B64, 40);
    let out = assert_redacted(&format!("[prod]\naws_secret_access_key={secret}"), &secret, "aws-secret-access-key");
    assert_eq!(out, "[prod]\naws_secret_access_key=[REDACTED:aws-secret-access-key]");
    assert_redacted(&format!("AWS_SECRET_ACCESS_KEY: {secret}"), &secret, "aws-secret-access-key");
    assert_redacted(&format!("\"SecretAccessKey\": \"{secret}\""), &secret, "aws-secret-access-key");
}

#[test]
fn google_slack_gitlab_npm_pypi() {
    let g = format!("AIza{}", fake(40, URLSAFE, 35));
    assert_redacted(&format!("maps.js?key={g}&callback=init"), &g, "google-api-key");

    let bot = format!("xoxb-{}-{}-{}", fake(41, DIGITS, 12), fake(42, DIGITS, 13), fake(43, ALNUM, 24));
    assert_redacted(&format!("slack:\n  token: {bot}\n"), &bot, "slack-token");
    let user = format!("xoxp-{}-{}-{}", fake(44, DIGITS, 11), fake(45, DIGITS, 11), fake(46, HEX, 32));
    assert_redacted(&format!("\"user\": \"{user}\""), &user, "slack-token");
    let app = format!("xapp-1-{}-{}-{}", fake(47, BASE32, 11), fake(48, DIGITS, 13), fake(49, HEX, 64));
    assert_redacted(&app, &app, "slack-token");
    let path = format!("T{}/B{}/{}", fake(50, BASE32, 8), fake(51, BASE32, 8), fake(52, ALNUM, 24));
    let hook = format!("https://{}.slack.com/services/{path}", "hooks");
    let out = assert_redacted(&format!("post to {hook} when done"), &path, "slack-webhook");
    assert!(out.contains(".slack.com/services/[REDACTED:slack-webhook] when done"), "{out}");

    let gl = format!("glpat-{}", fake(53, URLSAFE, 20));
    assert_redacted(&format!("GITLAB_TOKEN={gl}."), &gl, "gitlab-token");
    let npm = format!("npm_{}", fake(54, ALNUM, 36));
    assert_redacted(&format!("//npm.corp.test/:_authToken={npm}"), &npm, "npm-token");
    let pypi = format!("pypi-AgEIcHlwaS5vcmc{}", fake(55, URLSAFE, 70));
    assert_redacted(&format!("[pypi]\n  username = __token__\n  password = {pypi}\n"), &pypi, "pypi-token");
}

#[test]
fn npmrc_uuid_auth_token_is_a_secret_in_context() {
    let uuid = format!(
        "{}-{}-4{}-a{}-{}",
        fake(56, HEX, 8),
        fake(57, HEX, 4),
        fake(58, HEX, 3),
        fake(59, HEX, 3),
        fake(60, HEX, 12)
    );
    assert_redacted(&format!("//npm.internal.test/:_authToken={uuid}"), &uuid, "npm-token");
    assert_kept(&format!("tenant id {uuid} is seeded by the fixtures"));
}

#[test]
fn huggingface_sendgrid_twilio_shopify_digitalocean() {
    let hf = format!("hf_{}", fake(61, LETTERS, 34));
    assert_redacted(&format!("hf auth login --token {hf} --add-to-git-credential"), &hf, "huggingface-token");
    let sg = format!("SG.{}.{}", fake(62, URLSAFE, 22), fake(63, URLSAFE, 43));
    assert_redacted(&format!("SENDGRID_API_KEY={sg}"), &sg, "sendgrid-key");
    let sk = format!("SK{}", fake(64, HEX, 32));
    assert_redacted(&format!("twilio_client = Client(\"{sk}\", secret)"), &sk, "twilio-key");
    let ac = format!("AC{}", fake(65, HEX, 32));
    assert_redacted(&format!("TWILIO_ACCOUNT_SID={ac}"), &ac, "twilio-sid");
    let shp = format!("shpat_{}", fake(66, HEX, 32));
    assert_redacted(&format!("shopify.token = \"{shp}\""), &shp, "shopify-token");
    let dop = format!("dop_v1_{}", fake(67, HEX, 64));
    assert_redacted(&format!("doctl auth init -t {dop}"), &dop, "digitalocean-token");
}

#[test]
fn discord_telegram_jwt() {
    let discord = format!("MT{}.{}.{}", fake(70, ALNUM, 22), fake(71, URLSAFE, 6), fake(72, URLSAFE, 38));
    assert_redacted(&format!("client.run('{discord}')  # discord bot"), &discord, "discord-token");
    let hook_tok = fake(73, URLSAFE, 68);
    let hook = format!("https://discord.com/api/webhooks/{}/{hook_tok}", fake(74, DIGITS, 18));
    assert_redacted(&hook, &hook_tok, "discord-webhook");
    let tg = format!("{}:AA{}", fake(75, DIGITS, 10), fake(76, URLSAFE, 33));
    assert_redacted(&format!("GET /bot{tg}/sendMessage HTTP/1.1"), &tg, "telegram-bot-token");
    let jwt = jwt(77);
    let out = assert_redacted(&format!("Cookie: sid={jwt}; Path=/"), &jwt, "jwt");
    assert_eq!(out, "Cookie: sid=[REDACTED:jwt]; Path=/");
}

#[test]
fn authorization_headers() {
    let tok = fake(80, ALNUM, 40);
    let out =
        assert_redacted(&format!("curl -H \"Authorization: Bearer {tok}\" https://api.test/v1"), &tok, "bearer-token");
    assert_eq!(out, "curl -H \"Authorization: Bearer [REDACTED:bearer-token]\" https://api.test/v1");
    let basic = format!("{}=", fake(81, B64, 27));
    assert_redacted(&format!("Authorization: Basic {basic}"), &basic, "basic-auth");
    let t = fake(82, HEX, 40);
    assert_redacted(&format!("-H 'Authorization: Token {t}'"), &t, "authorization");
    let b = fake(83, ALNUM, 32);
    assert_redacted(&format!("headers = {{\"Authorization\": f\"Bearer {b}\"}}"), &b, "bearer-token");
    let h = fake(84, HEX, 16);
    assert_redacted(&format!("-H \"Token: {h}\""), &h, "token");
    let k = fake(85, ALNUM, 32);
    assert_redacted(&format!("X-Api-Key: {k}"), &k, "api-key");
}

#[test]
fn url_credentials_keep_user_and_host() {
    let pw = fake(90, ALNUM, 18);
    let out = assert_redacted(&format!("DATABASE_URL=postgres://app:{pw}@db:5432/x"), &pw, "url-password");
    assert_eq!(out, "DATABASE_URL=postgres://app:[REDACTED:url-password]@db:5432/x");
    let pw2 = format!("{}@{}", fake(91, ALNUM, 6), fake(92, ALNUM, 6));
    let out = assert_redacted(&format!("amqp://svc:{pw2}@mq.local/vhost"), &pw2, "url-password");
    assert_eq!(out, "amqp://svc:[REDACTED:url-password]@mq.local/vhost");
}

#[test]
fn generic_assignments_keep_the_key() {
    let v = fake(100, ALNUM, 20);
    let cases = [
        (format!("password={v}"), "password"),
        (format!("DB_PASSWORD: \"{v}\""), "password"),
        (format!("  passwd: {v}"), "password"),
        (format!("\"client_secret\": \"{v}\","), "secret"),
        (format!("JWT_SECRET='{v}'"), "secret"),
        (format!("api_key = {v}"), "api-key"),
        (format!("apiKey := \"{v}\""), "api-key"),
        (format!("'refresh_token' => '{v}'"), "token"),
        (format!("auth_token={v}&user=bob"), "token"),
        (format!("--set auth.adminPassword={v}"), "password"),
        (format!("<password>{v}</password>"), "password"),
        (format!("if (\"{v}\" == expected_password) {{"), "password"),
        (format!("mysql -u root -p{v} shop"), "password"),
        (format!("docker login ghcr.io -u bot -p {v}"), "password"),
        (format!("curl -u deploy:{v} https://ci.test/api"), "password"),
        (format!("tool sync --api-key {v}"), "api-key"),
        (format!("PGPASSWORD={v} psql -h db"), "password"),
    ];
    for (text, kind) in &cases {
        let out = assert_redacted(text, &v, kind);
        assert_eq!(out, text.replace(&v, &format!("[REDACTED:{kind}]")), "only the value goes");
    }
    let out = assert_redacted("password = \"two words here\"", "two words here", "password");
    assert_eq!(out, "password = \"[REDACTED:password]\"");
    let out = assert_redacted("The demo login is admin / Vq9!trk4Lz until SSO.", "Vq9!trk4Lz", "password");
    assert_eq!(out, "The demo login is admin / [REDACTED:password] until SSO.");
}

#[test]
fn hex_is_a_secret_under_a_secret_key_only() {
    let hex = fake(101, HEX, 64);
    assert_redacted(&format!("client_secret = \"{hex}\""), &hex, "secret");
    assert_kept(&format!("checksum = \"{hex}\""));
}

#[test]
fn findings_are_sorted_typed_and_disjoint() {
    let a = format!("ghp_{}", fake(110, ALNUM, 36));
    let b = format!("AKIA{}", fake(111, BASE32, 16));
    let text = format!("one {a} two {b} three password={}", fake(112, ALNUM, 12));
    let found = find_secrets(&text);
    let kinds: Vec<&str> = found.iter().map(|f| f.kind).collect();
    assert_eq!(kinds, ["github-token", "aws-access-key-id", "password"]);
    assert!(found.windows(2).all(|w| w[0].range.end <= w[1].range.start));
    assert_eq!(&text[found[0].range.clone()], a);
    assert_eq!(redact(&text).matches("[REDACTED:").count(), 3);
}
