//! Sessions: the list, one transcript (roles as labels, tool output marked
//! as workspace content, secrets redacted), pin, forget with a confirmation
//! that lists what will be removed, export as Markdown.

use lcmem::{Line, Role};

use super::super::{App, html};
use super::journal::pin_button;
use super::waiting::role_name;

pub fn list(app: &App) -> anyhow::Result<String> {
    let store = &app.store;
    let journal = app.memory().journal()?;
    let mut rows = Vec::new();
    for id in store.session_ids()? {
        let Ok(session) = store.read_session(&id) else { continue };
        let standing = journal.standing(&id, session.closing_status(), session.pinned());
        rows.push((session.header.created_at, id, session, standing));
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut body = String::from(
        "<table class=\"sessions\"><thead><tr><th>Started</th><th>Title</th><th>Status</th><th>Sealed</th><th>Messages</th><th></th></tr></thead><tbody>",
    );
    for (created, id, session, standing) in &rows {
        body.push_str(&format!(
            "<tr class=\"{}\" data-session=\"{}\"><td>{}</td><td><a href=\"/sessions/{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if standing.status.as_str() == "archived" { "gone" } else { "" },
            html::esc(id),
            html::day(*created),
            html::esc(id),
            html::esc(&title(app, &session.title)),
            standing.status.as_str(),
            if standing.sealed { "yes" } else { "no" },
            session.message_count(),
            if standing.pinned { "<span class=\"badge flag\">pinned</span>" } else { "" }
        ));
    }
    body.push_str("</tbody></table>");
    if rows.is_empty() {
        body = "<p>No sessions yet. Add some with <code>lcmem import FILE…</code>.</p>".into();
    }
    Ok(html::page(app, "/sessions", "Sessions", &body))
}

/// A stored title, redacted (transcripts stored before redaction may hold anything).
fn title(app: &App, title: &str) -> String {
    app.store.shown(title)
}

pub fn one(app: &App, id: &str) -> anyhow::Result<String> {
    let store = &app.store;
    let session = store.read_session(id)?;
    let journal = app.memory().journal()?;
    let standing = journal.standing(id, session.closing_status(), session.pinned());
    let back = format!("/sessions/{id}");
    let mut body = format!(
        "<p class=\"meta\"><code>{}</code> · started {} · last active {} · {} · {}{}</p><div class=\"actions\">{}\
         <a class=\"button\" href=\"/export/sessions/{}.md\">Export as Markdown</a> \
         <a class=\"button danger\" href=\"/sessions/{}/forget\">Forget…</a></div>",
        html::esc(id),
        html::day(session.header.created_at),
        html::day(session.last_active()),
        standing.status.as_str(),
        if standing.sealed { "sealed" } else { "not sealed" },
        if standing.pinned { " · <span class=\"badge flag\">pinned</span>" } else { "" },
        pin_button(app, id, standing.pinned, &back),
        html::esc(id),
        html::esc(id)
    );
    if let Some(current) = journal.get(id) {
        body.push_str(&format!(
            "<p class=\"summary\" id=\"journal-line\"><strong>Journal:</strong> {}</p>",
            html::esc(&current.entry.summary)
        ));
    }
    body.push_str(&taught(app, id)?);
    body.push_str("<ol class=\"transcript\">");
    for event in &session.events {
        body.push_str(&turn(app, event.line, &event.value));
    }
    body.push_str("</ol>");
    Ok(html::page(app, "/sessions", &title(app, &session.title), &body))
}

fn turn(app: &App, line: usize, value: &Line) -> String {
    let clean = |s: &str| html::esc(&app.store.shown(s));
    let when =
        |ts: &Option<jiff::Timestamp>| ts.map(|t| t.strftime(" · %Y-%m-%d %H:%M").to_string()).unwrap_or_default();
    match value {
        Line::Message { recalled: true, text, ts, .. } => format!(
            "<li class=\"turn workspace\" id=\"line-{line}\"><p class=\"label\">Memory's own output <span class=\"note\">what a memory tool gave the agent; left out of recall and of what this session taught</span>{}</p><pre>{}</pre></li>",
            when(ts),
            clean(text)
        ),
        Line::Message { role: Role::Tool, text, ts, .. } => format!(
            "<li class=\"turn workspace\" id=\"line-{line}\"><p class=\"label\">Tool output <span class=\"note\">workspace content, not instructions</span>{}</p><pre>{}</pre></li>",
            when(ts),
            clean(text)
        ),
        Line::Message { role, text, ts, compaction, .. } => format!(
            "<li class=\"turn role-{0}\" id=\"line-{line}\"><p class=\"label\">{1}{2}</p><pre>{3}</pre></li>",
            role_name(*role),
            match (role, compaction) {
                (Role::Assistant, true) => "Assistant (summary of earlier turns)",
                (Role::Assistant, false) => "Assistant",
                (Role::User, _) => "User",
                _ => "System",
            },
            when(ts),
            clean(text)
        ),
        Line::Tool { name, files, command, ts, .. } => {
            let files: Vec<String> = files.iter().map(|f| format!("<code>{}</code>", clean(f))).collect();
            let command = command.as_ref().map(|c| format!("<pre>{}</pre>", clean(c))).unwrap_or_default();
            format!(
                "<li class=\"turn tool\" id=\"line-{line}\"><p class=\"label\">Tool call <code>{}</code>{} {}</p>{command}</li>",
                clean(name),
                when(ts),
                files.join(", ")
            )
        }
        Line::Status { status, ts } => {
            format!(
                "<li class=\"turn status\" id=\"line-{line}\"><p class=\"label\">Status: {status:?}{}</p></li>",
                when(ts)
            )
        }
        Line::Result { ok, marks, .. } => {
            let mut said = vec![if *ok { "succeeded" } else { "failed" }];
            said.extend(marks.iter().map(|m| m.words()));
            format!(
                "<li class=\"turn status\" id=\"line-{line}\"><p class=\"label\">Result: {}</p></li>",
                said.join(", ")
            )
        }
        Line::Session(_) | Line::Title { .. } => String::new(),
    }
}

pub fn forget_confirmation(app: &App, id: &str) -> anyhow::Result<String> {
    let plan = app.memory().forget_plan(id)?;
    let mut body = format!(
        "<p class=\"warn\">Forgetting <code>{}</code> removes its whole contribution to memory, physically. \
         There is no undo. This is what goes:</p><ul class=\"plan\" id=\"forget-plan\">",
        html::esc(id)
    );
    if let Some(file) = &plan.session_file {
        body.push_str(&format!("<li>the transcript <code>{}</code></li>", html::esc(&file.display().to_string())));
    }
    body.push_str(&format!("<li>{} journal line(s) naming it</li>", plan.journal_lines));
    body.push_str(&format!("<li>{} fact(s) only it supports, entirely:<ul>", plan.facts_removed.len()));
    for (fact, text) in &plan.facts_removed {
        body.push_str(&format!("<li><code>{}</code> {}</li>", html::esc(fact), html::esc(text)));
    }
    body.push_str("</ul></li>");
    body.push_str(&format!(
        "<li>its observations of {} fact(s) other sessions also support (those facts stay)</li>",
        plan.facts_losing_a_source
    ));
    body.push_str(&format!(
        "<li>{} MEMORY.md line(s) citing it, and {} history snapshot(s) of MEMORY.md that cite it</li>",
        plan.memory_lines, plan.history_entries
    ));
    body.push_str("<li>the derived search cache (rebuilt on demand)</li></ul>");
    body.push_str(&format!(
        "<div class=\"actions\">{}<a class=\"button\" href=\"/sessions/{}\">Cancel</a></div>",
        html::button(
            &format!("/sessions/{id}/forget"),
            "/sessions",
            "Forget this session for good",
            "forget danger",
            &[],
            app
        ),
        html::esc(id)
    ));
    Ok(html::page(app, "/sessions", "Forget a session", &body))
}

/// The facts the session taught (it is one of their sources), each linked
/// to its card on the Facts page.
fn taught(app: &App, id: &str) -> anyhow::Result<String> {
    let fold = app.memory().facts(lcmem::Whose::Project)?;
    let facts: Vec<&lcmem::facts::Fact> =
        fold.facts.iter().filter(|f| !f.deleted && f.sources.iter().any(|s| s.session == id)).collect();
    if facts.is_empty() {
        return Ok(String::new());
    }
    let mut out = format!("<details class=\"taught\" open><summary>Facts it taught ({})</summary><ul>", facts.len());
    for fact in facts {
        out.push_str(&format!(
            "<li><a href=\"/facts#{0}\">{1}</a> {2}</li>",
            html::esc(&fact.id),
            html::esc(&fact.text),
            super::state_badge(fact.state)
        ));
    }
    out.push_str("</ul></details>");
    Ok(out)
}
