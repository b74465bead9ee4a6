//! The pages, one module each; this routes a GET to its page.

mod digest;
mod facts;
mod journal;
mod recall;
mod sessions;
mod settings;
mod waiting;

use axum::body::Body;
use axum::http::{StatusCode, header};
use axum::response::Response;

use super::{App, Fields, download, html, html_response};

pub fn get(app: &App, path: &str, query: &Fields) -> Response {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let page = match segments.as_slice() {
        [""] => digest::page(app),
        ["style.css"] => {
            return Response::builder()
                .header(header::CONTENT_TYPE, "text/css; charset=utf-8")
                .body(Body::from(html::STYLE))
                .expect("a stylesheet is a valid response");
        }
        ["facts"] => facts::page(app),
        ["waiting"] => waiting::page(app),
        ["journal"] => journal::page(app),
        ["sessions"] => sessions::list(app),
        ["sessions", id] => match stored_session(app, id) {
            Some(id) => sessions::one(app, &id),
            None => return not_found(),
        },
        ["sessions", id, "forget"] => match stored_session(app, id) {
            Some(id) => sessions::forget_confirmation(app, &id),
            None => return not_found(),
        },
        ["recall"] => recall::page(app, query.get("q").map(String::as_str).unwrap_or("")),
        ["settings"] => settings::page(app),
        ["export", "memory.md"] => {
            return exported(app, "text/markdown; charset=utf-8", "memory.md", |app| {
                Ok(app.memory().export_memory(app.now()?)?)
            });
        }
        ["export", "memory.json"] => {
            return exported(app, "application/json", "memory.json", |app| {
                Ok(serde_json::to_string_pretty(&app.memory().export_set(app.now()?)?)?)
            });
        }
        ["export", "sessions", file] => {
            let Some(id) = file.strip_suffix(".md").and_then(|id| stored_session(app, id)) else {
                return not_found();
            };
            let name = format!("{id}.md");
            return exported(app, "text/markdown; charset=utf-8", &name, |app| Ok(app.memory().export_session(&id)?));
        }
        _ => return not_found(),
    };
    match page {
        Ok(body) => html_response(StatusCode::OK, body),
        Err(error) => failed(&error),
    }
}

/// `id` when it names a session in the store, exactly: the only ids a page
/// reads or acts on (never a path of its own).
pub fn stored_session(app: &App, id: &str) -> Option<String> {
    app.store.session_ids().ok()?.into_iter().find(|s| s == id)
}

fn exported(app: &App, content_type: &str, name: &str, make: impl FnOnce(&App) -> anyhow::Result<String>) -> Response {
    match make(app) {
        Ok(text) => download(content_type, name, text),
        Err(error) => failed(&error),
    }
}

fn not_found() -> Response {
    html_response(StatusCode::NOT_FOUND, html::bare("Not found", "<p>No such page, session or fact here.</p>"))
}

fn failed(error: &anyhow::Error) -> Response {
    let body =
        format!("<p>{}</p><p><a href=\"/\">Back to the digest</a></p>", html::esc(&crate::output::sentence(error)));
    html_response(StatusCode::INTERNAL_SERVER_ERROR, html::bare("Something went wrong", &body))
}

/// A fact's state as a badge, the same words as `lcmem facts`.
pub fn state_badge(state: lcmem::facts::State) -> String {
    format!("<span class=\"badge state-{0}\">{0}</span>", state.as_str())
}

/// Sessions by what a person calls them: each sealed session's title and
/// the day it started, read once per page from the journal, and which
/// sessions the store holds (listed once, not once per link).
pub struct SessionNames {
    names: std::collections::HashMap<String, (String, String)>,
    stored: std::collections::HashSet<String>,
}

impl SessionNames {
    pub fn of(app: &App) -> anyhow::Result<SessionNames> {
        SessionNames::from(app, &app.memory().journal()?)
    }

    /// [`SessionNames::of`] from a journal the page has read already.
    pub fn from(app: &App, journal: &lcmem::journal::Journal) -> anyhow::Result<SessionNames> {
        let names = journal
            .entries
            .iter()
            .map(|c| (c.entry.session_id.clone(), (c.entry.title.clone(), html::day(c.entry.created_at))))
            .collect();
        let stored = app.store.session_ids()?.into_iter().collect();
        Ok(SessionNames { names, stored })
    }

    /// Whether the store holds session `id`.
    pub fn is_stored(&self, id: &str) -> bool {
        self.stored.contains(id)
    }

    /// A link to the session by its id, or its id alone when it is no longer
    /// in the store.
    pub fn id_link(&self, id: &str) -> String {
        match self.is_stored(id) {
            true => format!("<a href=\"/sessions/{0}\"><code>{0}</code></a>", html::esc(id)),
            false => format!("<code>{}</code>", html::esc(id)),
        }
    }

    /// A link to the session named by its title and day (its id in the
    /// link's title), or its id when the journal has no title for it; plain
    /// text when it is no longer in the store.
    pub fn link(&self, app: &App, id: &str) -> String {
        let shown = match self.names.get(id) {
            Some((title, day)) if !title.trim().is_empty() => {
                let title = app.store.shown(title);
                format!("{} <span class=\"note\">({day})</span>", html::esc(&title))
            }
            _ => format!("<code>{}</code>", html::esc(id)),
        };
        match self.is_stored(id) {
            true => format!("<a href=\"/sessions/{0}\" title=\"{0}\">{shown}</a>", html::esc(id)),
            false => shown,
        }
    }
}
