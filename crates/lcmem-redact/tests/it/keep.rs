//! Near-misses: true facts that look a little like secrets must come out
//! byte-identical, and placeholders or references must leak nothing and stay.

use crate::common::*;

#[test]
fn hashes_ids_and_digests() {
    let sha = fake(1, HEX, 40);
    assert_kept(&format!("git checkout {sha} -- src/main.rs"));
    assert_kept(&format!("{} Merge pull request #12 from team/token-refresh", &sha[..7]));
    assert_kept(&format!("HEAD is now at {} fix(auth): retry on 401", &sha[..10]));
    assert_kept(&format!("rev = \"{sha}\""));
    let digest = fake(2, HEX, 64);
    assert_kept(&format!("SHA256 (app.tar.xz) = {digest}"));
    assert_kept(&format!("FROM debian:bookworm@sha256:{digest}"));
    assert_kept(&format!("--hash=sha256:{digest}"));
    assert_kept(&format!("\"content_hash\": \"{digest}\""));
    assert_kept(&format!("sha512: {}", fake(3, HEX, 128)));
    assert_kept(&format!("integrity sha512-{}==", fake(4, B64, 86)));
    assert_kept(&format!("hash = \"sha256-{}=\";", fake(5, B64, 43)));
    let uuid = format!(
        "{}-{}-4{}-8{}-{}",
        fake(6, HEX, 8),
        fake(7, HEX, 4),
        fake(8, HEX, 3),
        fake(9, HEX, 3),
        fake(10, HEX, 12)
    );
    assert_kept(&format!("  uid: {uuid}"));
    assert_kept(&format!("\"kms_key_id\": \"{uuid}\","));
    assert_kept(&format!("request {uuid} failed after 3 retries"));
    assert_kept(&format!("trace_id={} span_id={}", fake(11, HEX, 32), fake(12, HEX, 16)));
}

#[test]
fn asset_names_and_base64_data() {
    assert_kept(&format!("<script src=\"/static/js/main.{}.js\"></script>", fake(13, HEX, 8)));
    assert_kept(&format!("/_next/static/chunks/app-{}.js", fake(14, HEX, 16)));
    assert_kept(&format!("url(\"data:image/png;base64,{}\")", fake(15, B64, 300)));
    assert_kept(&format!("caBundle: {}", fake(16, B64, 200)));
    assert_kept(&format!("ssh-ed25519 AAAAC3Nza{} ci@runner", fake(17, B64, 60)));
}

#[test]
fn prose_about_secrets() {
    for text in [
        "Rotate the password regularly and never share your token.",
        "password: see vault",
        "The secret to fast builds is caching.",
        "Use an API key from the dashboard; keys expire after 90 days.",
        "Bearer tokens are sent in the Authorization header.",
        "We discussed the login flow and credentials storage.",
        "MAX_PASSWORD_AGE_DAYS = 90",
        "max_tokens: 1024",
        "token_url = \"https://auth.example.test/oauth/token\"",
        "secret_length = Cipher.secret_length",
        "key: app.kubernetes.io/name",
        "kubectl get secret app-env -o yaml",
        "Trains across Asia run late; the key insight is batching.",
        "the task-list view and disk-usage panel",
        "mkdir -p /var/lib/app && docker run -u 1000:1000 app",
        "tokenizer = load_tokenizer(\"bert-base\")",
        "let keys = map.keys(); // password-less flow",
        "password = await hash(input)",
        "secret: db-credentials-2024",
    ] {
        assert_kept(text);
    }
}

#[test]
fn references_and_placeholders() {
    for text in [
        "password=${DB_PASSWORD}",
        "password=<your-password>",
        "password: <your password here>",
        "api_key=os.environ[\"OPENAI_API_KEY\"]",
        "api_key = os.environ.get(\"OPENAI_API_KEY\", \"\")",
        "token=xxx",
        "token: \"********\"",
        "password = \"changeme\"",
        "password: ${link}",
        "NPM_TOKEN: ${{ secrets.NPM_PUBLISH }}",
        "secret_key = settings.SECRET_KEY",
        "password = user_password",
        "pub password: SecretString,",
        "token: Option<String>,",
        "password: 'DB_PASSWORD'",
        "snowflake.password=\njdbc.url=",
        "curl -u \"$USER:$PASS\" https://x.test",
        "curl --user user:pass http://localhost",
        "authorization: Bearer $(vault print token)",
        "authorization: Bearer <token>",
        "postgres://postgres:postgres@localhost:5432/dev",
        "mongodb+srv://admin:<password>@cluster0.test/db",
        "aws_access_key_id = AKIAQRSTUVWX7EXAMPLE",
    ] {
        assert_kept(text);
    }
}

#[test]
fn token_lookalikes_without_their_shape() {
    assert_kept("&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_q_rx");
    assert_kept("+ (void)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;");
    assert_kept("let api_org_members = await listMembers(org);");
    assert_kept("xoxb-xxx and xoxb-12345-abcd234 are doc examples");
    assert_kept(&format!("ghs_{}", "x".repeat(36)));
    assert_kept(&format!("AIza{}", fake(20, ALNUM, 42)));
    assert_kept("see https://indieweb.test/images/xoxo-meetup.jpg");
    assert_kept("gpg: key 3AA5C34371567BD2: public key imported");
    assert_kept("org.example:jjwt-api:0.11.2 and io.jsonwebtoken:jjwt-impl:0.11.2");
}
