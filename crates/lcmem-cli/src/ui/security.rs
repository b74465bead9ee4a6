//! What every request passes before it reaches a page: the `Host` header
//! (against DNS rebinding), the token (in the printed URL once, then an
//! HttpOnly SameSite=Strict cookie), and for a change the `Origin` header
//! and the CSRF token of the page's forms. Every response carries a strict
//! Content-Security-Policy: no script, no inline style, nothing from
//! elsewhere, no framing.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;

use super::{App, Fields, html};

/// The policy: only this page's own stylesheet; no script at all is served.
pub const CSP: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; \
form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// Compares secrets in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The hosts this page answers to: the loopback address or `localhost`, at its port.
fn allowed_hosts(app: &App) -> [String; 2] {
    [format!("127.0.0.1:{}", app.port), format!("localhost:{}", app.port)]
}

/// The refusal of a request whose `Host` is not this page's (a DNS
/// rebinding attack names the attacker's host), if it is not.
pub fn host_refused(app: &App, headers: &HeaderMap) -> Option<Response> {
    // Two `Host` headers are not a request any browser sends; which one a
    // proxy or a resolver on the way honoured cannot be known, so neither is.
    if headers.get_all(header::HOST).iter().nth(1).is_some() {
        return Some(refuse(StatusCode::BAD_REQUEST, "This request names its host more than once and was refused."));
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if allowed_hosts(app).iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return None;
    }
    Some(refuse(StatusCode::MISDIRECTED_REQUEST, "This page answers only to 127.0.0.1 and localhost at its own port."))
}

/// The refusal of a change sent from another origin, if it was. A browser
/// always sends `Origin` with a form's POST; a script on this machine may
/// not, and it still needs the token and the CSRF token.
pub fn origin_refused(app: &App, headers: &HeaderMap) -> Option<Response> {
    let origin = headers.get(header::ORIGIN)?.to_str().unwrap_or("");
    if allowed_hosts(app).iter().any(|h| origin.eq_ignore_ascii_case(&format!("http://{h}"))) {
        return None;
    }
    Some(refuse(StatusCode::FORBIDDEN, "This change comes from another site and was refused."))
}

pub fn check_csrf(app: &App, fields: &Fields) -> bool {
    fields.get("csrf").is_some_and(|t| same(t, &app.csrf))
}

/// The cookie's name: per port, since cookies are not kept apart by port.
fn cookie_name(app: &App) -> String {
    format!("lcmem_ui_{}", app.port)
}

pub fn has_session_cookie(app: &App, headers: &HeaderMap) -> bool {
    let name = cookie_name(app);
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .any(|pair| pair.trim().split_once('=').is_some_and(|(k, v)| k == name && same(v, &app.token)))
}

/// The first visit: a right token becomes the cookie, and the browser is
/// sent on to the same page without the token in its address bar.
pub fn accept_token(app: &App, token: &str, path: &str) -> Response {
    if !same(token, &app.token) {
        return refuse(StatusCode::UNAUTHORIZED, "That token is not this page's: open the URL `lcmem ui` printed.");
    }
    let cookie = format!("{}={}; HttpOnly; SameSite=Strict; Path=/", cookie_name(app), app.token);
    Response::builder()
        .status(StatusCode::SEE_OTHER)
        .header(header::SET_COOKIE, cookie)
        .header(header::LOCATION, super::form::safe_back(Some(path)))
        .body(Body::empty())
        .expect("a redirect is a valid response")
}

/// A short page saying why a request was refused.
pub fn refuse(status: StatusCode, why: &str) -> Response {
    super::html_response(status, html::bare("Refused", &format!("<p>{}</p>", html::esc(why))))
}

/// The headers every response carries.
pub fn with_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        // Not `no-referrer`: under it a browser sends `Origin: null` with a form, and the check refuses it.
        (header::REFERRER_POLICY, "same-origin"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_compared_whole() {
        let (a, b) = (lcmem::random_hex(), lcmem::random_hex());
        assert!(same(&a, &a.clone()));
        assert!(!same(&a, &b) && !same(&a, &a[..31]));
    }
}
