//! `lcmem ui`: the project's memory as a local page. A small axum server on
//! a current-thread tokio runtime; every request passes [`security`] first,
//! then a GET renders a page ([`pages`]) and a POST runs one action
//! ([`actions`]) through the same engine functions as the CLI, then
//! redirects back (post/redirect/get) with a one-line note of what it did.
//! The engine is synchronous and the page has one user, so handlers call it
//! directly.

mod actions;
mod form;
mod html;
mod pages;
mod security;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::response::Response;
use lcmem::Store;

use crate::context::Context;

/// Everything a request needs: the store, the clock, the secrets.
pub struct App {
    pub store: Store,
    context: Context,
    port: u16,
    /// What the printed URL carries, and the cookie then holds.
    token: String,
    /// What every form carries.
    csrf: String,
    /// What the last action did, shown once on the next page.
    flash: Mutex<Option<Flash>>,
}

/// A note after an action: what it did, or why it could not.
#[derive(Clone)]
pub struct Flash {
    pub error: bool,
    pub text: String,
}

impl App {
    pub fn new(store: Store, context: Context, port: u16) -> App {
        App { store, context, port, token: lcmem::random_hex(), csrf: lcmem::random_hex(), flash: Mutex::new(None) }
    }

    /// The URL to open: it carries the token once.
    pub fn entry_url(&self) -> String {
        format!("http://127.0.0.1:{}/?token={}", self.port, self.token)
    }

    /// The front door to this project's memory, for one request.
    pub fn memory(&self) -> lcmem::Memory {
        lcmem::Memory::open(self.store.clone())
    }

    fn now(&self) -> anyhow::Result<jiff::Timestamp> {
        self.context.now()
    }

    fn set_flash(&self, flash: Flash) {
        *self.flash.lock().unwrap_or_else(|p| p.into_inner()) = Some(flash);
    }

    fn take_flash(&self) -> Option<Flash> {
        self.flash.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// Serves until the process is stopped.
pub fn serve(app: App, listener: std::net::TcpListener) -> anyhow::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let app = Arc::new(app);
        let router = axum::Router::new().fallback(move |request: Request| {
            let app = Arc::clone(&app);
            async move { security::with_headers(handle(&app, request).await) }
        });
        axum::serve(listener, router).await?;
        Ok(())
    })
}

/// The most a form may send.
const BODY_LIMIT: usize = 256 * 1024;

async fn handle(app: &App, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    if let Some(refused) = security::host_refused(app, &parts.headers) {
        return refused;
    }
    let query = form::parse(parts.uri.query().unwrap_or(""));
    if let Some(token) = query.get("token") {
        return security::accept_token(app, token, parts.uri.path());
    }
    if !security::has_session_cookie(app, &parts.headers) {
        return security::refuse(
            StatusCode::UNAUTHORIZED,
            "This page needs the token: open the URL `lcmem ui` printed.",
        );
    }
    let path = parts.uri.path().to_string();
    match parts.method {
        Method::GET | Method::HEAD => pages::get(app, &path, &query),
        Method::POST => {
            if let Some(refused) = security::origin_refused(app, &parts.headers) {
                return refused;
            }
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return security::refuse(StatusCode::PAYLOAD_TOO_LARGE, "The form is too large.");
            };
            let fields = form::parse(&String::from_utf8_lossy(&bytes));
            if !security::check_csrf(app, &fields) {
                return security::refuse(
                    StatusCode::FORBIDDEN,
                    "This change lacks the page's CSRF token: reload the page and try again.",
                );
            }
            let back = form::safe_back(fields.get("back").map(String::as_str));
            app.set_flash(actions::post(app, &path, &fields));
            redirect(&back)
        }
        _ => security::refuse(StatusCode::METHOD_NOT_ALLOWED, "Only GET and POST."),
    }
}

/// A 303 to a path of this page.
fn redirect(to: &str) -> Response {
    Response::builder()
        .status(StatusCode::SEE_OTHER)
        .header(header::LOCATION, to)
        .body(Body::empty())
        .expect("a redirect is a valid response")
}

/// An HTML response.
fn html_response(status: StatusCode, body: String) -> Response {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        .body(Body::from(body))
        .expect("a page is a valid response")
}

/// A file to save.
fn download(content_type: &str, filename: &str, body: String) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, content_type)
        .header(header::CONTENT_DISPOSITION, format!("attachment; filename=\"{filename}\""))
        .body(Body::from(body))
        .expect("a download is a valid response")
}

/// Form fields or query parameters by name.
type Fields = HashMap<String, String>;
