//! Journal: a timeline of sealed sessions, newest first; pin and unpin;
//! archived ones faded.

use lcmem::journal::SealKind;

use super::super::{App, html};
use super::SessionNames;

pub fn page(app: &App) -> anyhow::Result<String> {
    let journal = app.memory().journal()?;
    let names = SessionNames::from(app, &journal)?;
    let mut entries: Vec<_> = journal.entries.iter().collect();
    entries.sort_by_key(|c| std::cmp::Reverse(c.entry.last_active));
    let mut body = String::from(
        "<p class=\"hint\">One entry per sealed session. A pinned session stays in front of the digest regardless \
         of age; archived ones went quiet and are faded.</p><ol class=\"timeline\">",
    );
    if entries.is_empty() {
        body.push_str(
            "<li>The journal is empty: seal a session (<code>lcmem seal SESSION</code>) to add its first entry.</li>",
        );
    }
    for current in entries {
        let e = &current.entry;
        let archived = e.kind == SealKind::Archived;
        let mut class = vec!["entry"];
        if archived {
            class.push("gone");
        }
        if e.pinned {
            class.push("pinned");
        }
        body.push_str(&format!(
            "<li class=\"{}\" data-session=\"{}\"><p class=\"meta\">{} · {} · {:?} · {:?}{}{}</p><h3>{}</h3><p>{}</p>",
            class.join(" "),
            html::esc(&e.session_id),
            html::day(e.last_active),
            names.id_link(&e.session_id),
            e.kind,
            e.outcome,
            if e.pinned { " · <span class=\"badge flag\">pinned</span>" } else { "" },
            if current.revision > 1 { format!(" · revision {}", current.revision) } else { String::new() },
            html::esc(&e.title),
            html::esc(&e.summary)
        ));
        if !e.files.is_empty() {
            let files: Vec<String> = e.files.iter().map(|f| format!("<code>{}</code>", html::esc(f))).collect();
            body.push_str(&format!("<p class=\"files\">files: {}</p>", files.join(", ")));
        }
        for d in &e.decisions {
            body.push_str(&format!("<p class=\"decision\">decision: {}</p>", html::esc(d)));
        }
        if names.is_stored(&e.session_id) {
            body.push_str(&pin_button(app, &e.session_id, e.pinned, "/journal"));
        }
        body.push_str("</li>");
    }
    body.push_str("</ol>");
    Ok(html::page(app, "/journal", "Journal", &body))
}

/// Pin or unpin a stored session, as `lcmem pin` / `lcmem unpin` do.
pub fn pin_button(app: &App, id: &str, pinned: bool, back: &str) -> String {
    let (action, label) = if pinned { ("unpin", "Unpin") } else { ("pin", "Pin") };
    html::button(&format!("/sessions/{id}/{action}"), back, label, action, &[], app)
}
