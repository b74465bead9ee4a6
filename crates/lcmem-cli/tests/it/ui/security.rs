//! The page's guards, over raw HTTP: the token, the Host header, the Origin
//! header, the CSRF token, escaping, session ids. Each refusal is shown to
//! change nothing, next to the same request done right, which does.

use super::{POISON, Server, WRONG_FACT, fact, store};

#[test]
fn a_request_without_the_token_is_refused_and_the_token_becomes_a_strict_cookie() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    let (status, page) = server.request("GET", "/facts", &[], "");
    assert_eq!(status, 401, "{page}");
    assert!(!page.contains(WRONG_FACT), "{page}");
    let (status, _) = server.request("GET", "/?token=0123456789abcdef0123456789abcdef", &[], "");
    assert_eq!(status, 401);
    let (status, _) = server.request("GET", "/facts", &[("Cookie", &format!("lcmem_ui_{}=wrong", server.port))], "");
    assert_eq!(status, 401);

    let (status, response) = server.request("GET", &format!("/facts?token={}", server.token), &[], "");
    assert_eq!(status, 303, "{response}");
    let cookie = format!("set-cookie: {}; HttpOnly; SameSite=Strict; Path=/", server.cookie());
    assert!(response.to_lowercase().contains(&cookie.to_lowercase()), "{response}");
    assert!(response.to_lowercase().contains("location: /facts\r\n"), "the token leaves the address bar: {response}");
    let (status, page) = server.get("/facts");
    assert_eq!(status, 200);
    assert!(page.contains(WRONG_FACT));
}

#[test]
fn a_foreign_host_is_refused_even_with_the_cookie() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    for host in ["evil.example".to_string(), format!("evil.example:{}", server.port), "127.0.0.1:1".to_string()] {
        let (status, page) = server.request("GET", "/facts", &[("Host", &host), ("Cookie", &server.cookie())], "");
        assert_eq!(status, 421, "{host}: {page}");
        assert!(!page.contains(WRONG_FACT));
    }
    let localhost = format!("localhost:{}", server.port);
    let (status, _) = server.request("GET", "/facts", &[("Host", &localhost), ("Cookie", &server.cookie())], "");
    assert_eq!(status, 200);
}

/// A second `Host` after this page's own is refused whole, whichever comes
/// first: the page cannot know which one a resolver on the way honoured.
#[test]
fn a_request_with_two_host_headers_is_refused() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    let own = format!("127.0.0.1:{}", server.port);
    for pair in [[own.as_str(), "evil.example"], ["evil.example", own.as_str()], [own.as_str(), own.as_str()]] {
        let headers = [("Host", pair[0]), ("Host", pair[1]), ("Cookie", &server.cookie())];
        let (status, page) = server.request("GET", "/facts", &headers, "");
        assert_eq!(status, 400, "{pair:?}: {page}");
        assert!(page.contains("names its host more than once"), "{page}");
        assert!(!page.contains(WRONG_FACT), "{page}");
    }
    let (status, _) = server.request("GET", "/facts", &[("Host", &own), ("Cookie", &server.cookie())], "");
    assert_eq!(status, 200, "one Host header of its own is answered");
}

#[test]
fn a_change_needs_the_csrf_token_and_this_origin() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    let id = fact(&sandbox, WRONG_FACT)["id"].as_str().unwrap().to_string();
    let path = format!("/facts/{id}/not-true");
    let csrf = server.csrf();
    let cookie = server.cookie();
    let good_origin = format!("http://127.0.0.1:{}", server.port);

    let (status, page) =
        server.request("POST", &path, &[("Cookie", &cookie), ("Origin", &good_origin)], "back=%2Ffacts");
    assert_eq!(status, 403, "no CSRF token: {page}");
    let wrong = format!("csrf={}&back=%2Ffacts", "0".repeat(32));
    let (status, _) = server.request("POST", &path, &[("Cookie", &cookie), ("Origin", &good_origin)], &wrong);
    assert_eq!(status, 403, "a wrong CSRF token");
    let body = format!("csrf={csrf}&back=%2Ffacts");
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        let (status, _) = server.request("POST", &path, &[("Cookie", &cookie), ("Origin", origin)], &body);
        assert_eq!(status, 403, "{origin}");
    }
    let (status, _) = server.request("POST", &path, &[("Origin", &good_origin)], &body);
    assert_eq!(status, 401, "no cookie");
    let (status, _) = server.request("GET", &path, &[("Cookie", &cookie)], "");
    assert_eq!(status, 404, "a GET changes nothing");
    assert_eq!(fact(&sandbox, WRONG_FACT)["not_true"], false, "no refused request changed the fact");

    let (status, response) = server.request("POST", &path, &[("Cookie", &cookie), ("Origin", &good_origin)], &body);
    assert_eq!(status, 303, "{response}");
    assert!(response.to_lowercase().contains("location: /facts\r\n"), "{response}");
    assert_eq!(fact(&sandbox, WRONG_FACT)["not_true"], true, "the same request done right changes it");
    let (_, digest) = server.get("/");
    assert!(!digest.contains(WRONG_FACT), "it left the digest at once");
}

#[test]
fn every_page_carries_a_strict_policy_and_memory_markup_is_escaped() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    let id = fact(&sandbox, POISON)["id"].as_str().unwrap().to_string();
    for path in ["/", "/facts", "/waiting", "/journal", "/sessions", "/recall?q=deploys", "/settings"] {
        let (status, page) = server.get(path);
        assert_eq!(status, 200, "{path}");
        let lower = page.to_lowercase();
        assert!(lower.contains(&format!("content-security-policy: {}", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")), "{path}");
        assert!(lower.contains("x-content-type-options: nosniff"), "{path}");
        assert!(!lower.contains("<script") && !lower.contains("<img"), "{path}: markup from memory came through");
    }
    let (_, facts) = server.get("/facts");
    assert!(facts.contains("&lt;script&gt;window.__pwned = 1&lt;/script&gt;"), "the text is shown, escaped");
    assert!(facts.contains("&lt;img src=x onerror=&quot;window.__pwned = 2&quot;&gt;"));
    assert!(facts.contains(&format!("id=\"{id}\"")));
}

#[test]
fn session_ids_are_the_stores_and_nothing_else() {
    let sandbox = store();
    let server = Server::start(&sandbox);
    for path in [
        "/sessions/..%2F..%2Fconfig.toml",
        "/sessions/../memory/facts.jsonl",
        "/sessions/%2e%2e",
        "/export/sessions/..%2Fmemory%2Fjournal.md",
        "/sessions/no-such-session",
        "/sessions/2026-10-20",
    ] {
        let (status, _) = server.get(path);
        assert_eq!(status, 404, "{path}");
    }
    let (status, page) = server.get("/sessions/2026-10-20-flaky-checkout");
    assert_eq!(status, 200);
    assert!(page.contains("Tool output"), "tool output is labelled as workspace content");
    let (status, md) = server.get("/export/sessions/2026-10-20-flaky-checkout.md");
    assert_eq!(status, 200);
    assert!(md.contains("**User**") && md.contains("attachment; filename=\"2026-10-20-flaky-checkout.md\""), "{md}");
}
