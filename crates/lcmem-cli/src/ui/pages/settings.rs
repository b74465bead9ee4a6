//! Settings: memory on or off for this project and for every project;
//! consolidate now; undo the last consolidation, showing what it changes
//! first.

use lcmem::config::{Scope, Source};

use super::super::{App, html};

pub fn page(app: &App) -> anyhow::Result<String> {
    let files = app.store.config_files();
    let enabled = files.effective("memory.enabled")?;
    let source = match enabled.source {
        Source::Default => "the default",
        Source::Global => "the global setting",
        Source::Project => "this project's setting",
        Source::GlobalSwitch => "the global master switch, over any project's setting",
    };
    let mut body = format!(
        "<h2>Memory</h2><p id=\"memory-state\">Memory is <strong>{}</strong> for this project ({source}).</p>",
        if enabled.value.as_bool() == Some(true) { "on" } else { "off" }
    );
    for (scope, what, file) in [
        (Scope::Project, "this project", files.path(Scope::Project)),
        (Scope::Global, "every project", files.path(Scope::Global)),
    ] {
        let set = files.get_in(scope, "memory.enabled")?.and_then(|v| v.as_bool());
        let now = match set {
            Some(true) => "on",
            Some(false) => "off",
            None => "not set",
        };
        let name = if scope == Scope::Global { "global" } else { "project" };
        body.push_str(&format!(
            "<p>For {what}: {now} <span class=\"note\">(<code>{}</code>)</span> {} {}</p>",
            html::esc(&file.display().to_string()),
            html::button(
                "/settings/memory",
                "/settings",
                &format!("Turn on for {what}"),
                "on",
                &[("scope", name), ("enabled", "true")],
                app
            ),
            html::button(
                "/settings/memory",
                "/settings",
                &format!("Turn off for {what}"),
                "off",
                &[("scope", name), ("enabled", "false")],
                app
            ),
        ));
    }
    body.push_str(&format!(
        "<h2>Consolidate</h2><p>Rewrite MEMORY.md from the journal and the facts now (it also runs by itself every few seals).</p>{}",
        html::button("/settings/consolidate", "/", "Consolidate now", "consolidate", &[], app)
    ));
    body.push_str("<h2>Undo the last consolidation</h2>");
    body.push_str(&undo_preview(app)?);
    Ok(html::page(app, "/settings", "Settings", &body))
}

/// What an undo would change: the lines that go and the lines that come back.
fn undo_preview(app: &App) -> anyhow::Result<String> {
    let Some(previous) = app.memory().digest_history()?.pop() else {
        return Ok("<p>Nothing to undo: MEMORY.md has no earlier version in history.</p>".into());
    };
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_default();
    let (now, before) = (read(&app.store.memory_md_path()), read(&previous));
    let gone: Vec<&str> = now.lines().filter(|l| !l.trim().is_empty() && !before.lines().any(|b| b == *l)).collect();
    let back: Vec<&str> = before.lines().filter(|l| !l.trim().is_empty() && !now.lines().any(|n| n == *l)).collect();
    let list = |lines: &[&str]| -> String {
        if lines.is_empty() {
            return "<p class=\"note\">none</p>".into();
        }
        format!(
            "<ul>{}</ul>",
            lines.iter().map(|l| format!("<li><code>{}</code></li>", html::esc(l))).collect::<String>()
        )
    };
    Ok(format!(
        "<p>Undo brings back MEMORY.md as it was before the last consolidation (<code>{}</code>), and takes back \
         the facts and edits that consolidation took from hand edits.</p><div class=\"undo\" id=\"undo-preview\">\
         <h3>Lines that go ({})</h3>{}<h3>Lines that come back ({})</h3>{}</div>{}",
        html::esc(&previous.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()),
        gone.len(),
        list(&gone),
        back.len(),
        list(&back),
        html::button("/settings/undo", "/", "Undo the last consolidation", "undo danger", &[], app)
    ))
}
