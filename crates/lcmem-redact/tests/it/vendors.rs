//! The longer tail of vendor shapes and credential idioms: each redacted in
//! a context it shows up in, with a near-miss beside it where one exists.

use crate::common::*;

#[test]
fn more_vendor_shapes() {
    let cases = [
        (format!("GOCSPX-{}", fake(1, URLSAFE, 28)), "google-oauth-secret"),
        (format!("ya29.{}", fake(2, URLSAFE, 120)), "google-oauth-token"),
        (format!("hvs.{}", fake(3, URLSAFE, 90)), "vault-token"),
        (format!("GR1348941{}", fake(4, URLSAFE, 20)), "gitlab-token"),
        (format!("glrt-{}", fake(5, URLSAFE, 20)), "gitlab-token"),
        (format!("dapi{}", fake(6, HEX, 32)), "databricks-token"),
        (format!("gsk_{}", fake(7, ALNUM, 52)), "groq-key"),
        (format!("r8_{}", fake(8, ALNUM, 37)), "replicate-token"),
        (format!("pplx-{}", fake(9, ALNUM, 48)), "perplexity-key"),
        (format!("xai-{}", fake(10, ALNUM, 80)), "xai-key"),
        (format!("lin_api_{}", fake(11, ALNUM, 40)), "linear-key"),
        (format!("ntn_{}", fake(12, ALNUM, 46)), "notion-token"),
        (format!("sbp_{}", fake(13, HEX, 40)), "supabase-token"),
        (format!("pul-{}", fake(14, HEX, 40)), "pulumi-token"),
        (format!("NRAK-{}", fake(15, BASE32, 27)), "newrelic-key"),
        (format!("PMAK-{}-{}", fake(16, HEX, 24), fake(17, HEX, 34)), "postman-key"),
        (format!("glsa_{}_{}", fake(18, ALNUM, 32), fake(19, HEX, 8)), "grafana-token"),
        (format!("dp.pt.{}", fake(20, ALNUM, 43)), "doppler-token"),
        (format!("sntrys_{}", fake(21, ALNUM, 60)), "sentry-token"),
        (format!("sq0atp-{}", fake(22, URLSAFE, 22)), "square-token"),
        (format!("AGE-SECRET-KEY-1{}", fake(23, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)), "age-secret-key"),
        (format!("abc7Q~{}", fake(24, ALNUM, 34)), "azure-client-secret"),
        (format!("sk-or-v1-{}", fake(25, HEX, 64)), "openai-key"),
        (format!("ATBB{}", fake(26, ALNUM, 32)), "bitbucket-token"),
        (format!("fo1_{}", fake(27, URLSAFE, 43)), "fly-token"),
        (format!("key-{}", fake(28, HEX, 32)), "mailgun-key"),
    ];
    for (token, kind) in &cases {
        let out = assert_redacted(&format!("export SERVICE_CREDENTIAL={token} # rotated"), token, kind);
        assert!(out.ends_with(" # rotated"), "{out}");
    }
}

#[test]
fn connection_strings_and_config_commands() {
    let key = format!("{}==", fake(30, B64, 86));
    let out = assert_redacted(
        &format!("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={key};EndpointSuffix=core.windows.net"),
        &key,
        "api-key",
    );
    assert!(out.ends_with(";EndpointSuffix=core.windows.net"), "{out}");
    let pw = format!("{}!", fake(31, ALNUM, 14));
    let out = assert_redacted(&format!("Server=db;User Id=sa;Password={pw};Encrypt=true"), &pw, "password");
    assert!(out.ends_with(";Encrypt=true"), "{out}");
    let secret = fake(32, B64, 40);
    assert_redacted(&format!("aws configure set aws_secret_access_key {secret}"), &secret, "aws-secret-access-key");
    let body = fake(33, ALNUM, 24);
    assert_redacted(&format!("gh secret set DEPLOY_KEY --body \"{body}\""), &body, "secret");
    let pw = fake(34, ALNUM, 12);
    assert_redacted(&format!("machine api.example.test login bob password {pw}"), &pw, "password");
    assert_redacted(&format!("requests.get(url, auth=(\"admin\", \"{pw}\"))"), &pw, "password");
}

#[test]
fn database_and_shell_tools() {
    let pw = fake(40, ALNUM, 14);
    for text in [
        format!("sshpass -p {pw} ssh deploy@10.0.0.5"),
        format!("redis-cli -h cache -a {pw} ping"),
        format!("sqlcmd -S db -U sa -P {pw} -Q \"select 1\""),
        format!("ldapsearch -x -D cn=admin -w {pw} -b dc=test"),
        format!("mongosh --host db -u admin -p {pw}"),
        format!("mariadb -uroot -p{pw} -e 'show databases'"),
    ] {
        assert_redacted(&text, &pw, "password");
    }
    assert_kept("ssh -p 2222 deploy@login.example.test");
    assert_kept("mysql -h db -P 3306 -u root -p shop");
    assert_kept("echo \"$TOKEN\" | docker login ghcr.io -u bot --password-stdin");
}

#[test]
fn cookies_and_signed_urls() {
    let sid = fake(50, ALNUM, 32);
    let out = assert_redacted(&format!("Set-Cookie: sessionid={sid}; Path=/; HttpOnly"), &sid, "cookie");
    assert_eq!(out, "Set-Cookie: sessionid=[REDACTED:cookie]; Path=/; HttpOnly");
    assert_kept("Cookie: theme=dark; lang=en-GB");
    let sig = fake(51, HEX, 64);
    let url = format!("https://bucket.test/k.tar?X-Amz-Date=20240101T000000Z&X-Amz-Signature={sig}");
    assert_redacted(&url, &sig, "url-signature");
    let sas = format!("{}%3D", fake(52, ALNUM, 43));
    assert_redacted(&format!("https://acct.blob.test/c/b?sv=2022-11-02&sig={sas}&se=2030"), &sas, "url-signature");
    assert_kept("https://files.test/list?prefix=photos&key=photos/2024/img.jpg");
}

#[test]
fn bearer_challenges_name_parameters() {
    assert_kept(r#"WWW-Authenticate: Bearer realm="api", scope="read write""#);
    assert_kept(r#"let header = r"Bearer resource_metadata=\"/metadata\"";"#);
}

#[test]
fn new_vendor_shapes_have_near_miss_twins_that_are_kept() {
    assert_kept("The ATBB team met on Tuesday.");
    assert_kept("fo1_ is the prefix of a Fly.io token.");
    assert_kept("Set key-value pairs with key-0123abcd in the map.");
    assert_kept(&format!("The cache key-{} is a content hash of the page.", fake(29, HEX, 40)));
}

#[test]
fn a_private_key_body_without_its_header_is_redacted_and_a_certificate_is_kept() {
    let rsa = format!("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC{}", fake(30, B64, 120));
    assert_redacted(&format!("the key is {rsa}"), &rsa, "private-key");
    let lines = format!("MIIEpAIBAAKCAQEA{}\n{}\n{}", fake(31, B64, 48), fake(32, B64, 64), fake(33, B64, 40));
    let out = assert_redacted(&format!("key:\n{lines}\nthat was it"), &lines, "private-key");
    assert!(out.ends_with("that was it"), "{out}");
    let ec = format!("MHcCAQEEI{}", fake(34, B64, 100));
    assert_redacted(&format!("ec key {ec}"), &ec, "private-key");
    assert_kept(&format!("the certificate body MIIDdzCCAl+gAwIBAgIE{}", fake(35, B64, 120)));
}
