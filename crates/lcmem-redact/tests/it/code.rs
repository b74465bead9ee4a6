//! Source code talks about passwords, tokens and keys all the time; none of
//! these lines holds a secret and each must come out byte-identical.

use crate::common::*;

#[test]
fn rust() {
    for text in [
        "let brace_token = braced!(content in input);",
        "    pub const_token: Token![const],",
        "let enum_token = input.parse::<Token![enum]>()?;",
        "let secret = &secrets[text];",
        "let token = tokens.next()?;",
        "pub const NSS_BUFLEN_PASSWD: usize = 1024;",
        "pub log_passwd: __u32,",
        "pub const FLAGS_PASS: u32 = 2;",
        "    DEVSTAT_MATCH_PASS = 0x04,",
        "credentials: Arc::new(RwLock::new(None)),",
        "let segment_key = (reader.segment_id(), reader.delete_opstamp());",
        "authorization: header(&headers, AUTHORIZATION.as_str()),",
        "let authorization = request.headers().get(\"authorization\");",
        "api_key: Option<String>,",
    ] {
        assert_kept(text);
    }
    let begin = armour("BEGIN", "RSA PRIVATE KEY");
    assert_kept(&format!("if line.starts_with(\"{begin}\") {{"));
}

#[test]
fn python_js_and_docs() {
    for text in [
        "if password == confirm_password:",
        "user = User(name=name, password=hashed)",
        "username, password = split",
        "self._passphrase = passphrase",
        "self.username, self.password = credentials",
        "def unix_getpass(prompt='Password: ', stream=None):",
        "and user_pass == \"git\"",
        "backend: \"Backend\", private_key: \"_EllipticCurvePrivateKey\", data: bytes",
        ":type passphrase: :py:data:`bytes`",
        "information can be provided via the --username and --password options",
        "const { token } = await api.login(user, password);",
        "  PWD: '/Users/someone/project',",
        "'Test2::Event::Pass'    => '1.302103',",
        "\"-auth=anonymous:$FROM_EMAIL\",",
        "password: \"{{ vault_db_password }}\"",
        "client_secret: \"test-m2m-secret\".to_string(),",
        "curl -u user:pass https://x.test and `scheme://user:password@host`",
    ] {
        assert_kept(text);
    }
}
