//! The digest: MEMORY.md as a new session receives it, its tokens against
//! the cap, its as-of date and the welcome-back strip.

use super::super::{App, html};

pub fn page(app: &App) -> anyhow::Result<String> {
    let store = &app.store;
    let settings = store.settings()?;
    let mut body = String::new();
    match lcmem::digest::welcome(store, app.now()?)? {
        Some(strip) => {
            let waiting = lcmem::facts::Fold::read(&store.facts_path())?.pending().len();
            let link = if waiting > 0 { " <a href=\"/waiting\">See what waits for you</a>" } else { "" };
            body.push_str(&format!("<p class=\"welcome\" id=\"welcome\">{}{link}</p>", html::esc(&strip)))
        }
        None => body.push_str("<p class=\"welcome off\">Memory is off for this project: a new session is told nothing. <a href=\"/settings\">Settings</a></p>"),
    }
    match lcmem::digest::digest(store)? {
        Some(d) => {
            let as_of = d.as_of.map_or_else(|| "an unknown date".to_string(), html::day);
            let tokens = d.tokens.map_or_else(|| "?".to_string(), |t| t.to_string());
            let estimate =
                if d.edited_since_generated { " (estimated: edited by hand since it was written)" } else { "" };
            let over = d.tokens.is_some_and(|t| t > settings.cap_tokens as usize);
            body.push_str(&format!(
                "<p class=\"meta\" id=\"digest-meta\"><span class=\"{}\">{tokens} of {} tokens</span>{estimate} · as of {} · {} sources</p>",
                if over { "over" } else { "" },
                settings.cap_tokens,
                html::esc(&as_of),
                d.sources.len()
            ));
            body.push_str(
                "<p class=\"hint\">Exactly what a new session of this project is given, framing included:</p>",
            );
            body.push_str(&format!("<pre class=\"digest\" id=\"digest\">{}</pre>", html::esc(&d.text)));
        }
        None if settings.memory_enabled => body.push_str(
            "<p id=\"digest\">No digest yet: there is no MEMORY.md. Seal a session, or consolidate now in \
             <a href=\"/settings\">Settings</a>.</p>",
        ),
        None => {}
    }
    body.push_str(
        "<p class=\"exports\">Export the memory set: <a href=\"/export/memory.md\">Markdown</a> · \
         <a href=\"/export/memory.json\">JSON</a></p>",
    );
    Ok(html::page(app, "/", "Digest", &body))
}
