//! The digest: MEMORY.md as a new session receives it, its tokens against
//! the cap, its as-of date and the welcome-back strip.

use super::super::{App, html};
use lcmem::DigestAnswer;

pub fn page(app: &App) -> anyhow::Result<String> {
    let store = &app.store;
    let settings = store.settings()?;
    let mut body = String::new();
    let memory = lcmem::Memory::open(store.clone());
    match memory.welcome(app.now()?)? {
        Some(strip) => {
            let waiting = memory.facts(lcmem::Whose::Project)?.pending().len();
            let link = if waiting > 0 { " <a href=\"/waiting\">See what waits for you</a>" } else { "" };
            body.push_str(&format!("<p class=\"welcome\" id=\"welcome\">{}{link}</p>", html::esc(&strip)))
        }
        None => body.push_str("<p class=\"welcome off\">Memory is off for this project: a new session is told nothing. <a href=\"/settings\">Settings</a></p>"),
    }
    match memory.digest()? {
        DigestAnswer::Digest(d) => {
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
            body.push_str(&format!("<div class=\"document\" id=\"digest\">{}</div>", document(&d.text)));
            body.push_str(&format!(
                "<details class=\"raw\"><summary>Exactly what a new session is given (plain text, framing \
                 included)</summary><pre class=\"digest\" id=\"digest-text\">{}</pre></details>",
                html::esc(&d.text)
            ));
        }
        DigestAnswer::NotYet => body.push_str(
            "<p id=\"digest\">No digest yet: there is no MEMORY.md. Seal a session, or consolidate now in \
             <a href=\"/settings\">Settings</a>.</p>",
        ),
        DigestAnswer::MemoryOff => {}
    }
    body.push_str(
        "<p class=\"exports\">Export the memory set: <a href=\"/export/memory.md\">Markdown</a> · \
         <a href=\"/export/memory.json\">JSON</a></p>",
    );
    Ok(html::page(app, "/", "Digest", &body))
}

/// The digest as a document: its frame as a note, its headings, lists and
/// paragraphs as such, `code` spans kept; every string escaped first.
fn document(text: &str) -> String {
    let mut out = String::new();
    let mut in_list = false;
    let mut framed = false;
    for line in text.lines() {
        let line = line.trim_end();
        if line.starts_with("<project-memory") || line == "</project-memory>" {
            continue;
        }
        let item = line.strip_prefix("- ");
        if in_list && item.is_none() {
            out.push_str("</ul>");
            in_list = false;
        }
        if let Some(item) = item {
            if !in_list {
                out.push_str("<ul>");
                in_list = true;
            }
            out.push_str(&format!("<li>{}</li>", html::code_spans(item)));
        } else if let Some(heading) = line.strip_prefix("## ") {
            out.push_str(&format!("<h3>{}</h3>", html::code_spans(heading)));
        } else if let Some(heading) = line.strip_prefix("# ") {
            out.push_str(&format!("<h2>{}</h2>", html::code_spans(heading)));
        } else if !line.is_empty() {
            let class = if framed { "" } else { " class=\"frame\"" };
            framed = true;
            out.push_str(&format!("<p{class}>{}</p>", html::code_spans(line)));
        }
    }
    if in_list {
        out.push_str("</ul>");
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_digest_reads_as_a_document_with_nothing_unescaped() {
        let text = "<project-memory project=\"p\" as-of=\"2026-11-30\">\nThis is lcmem's memory.\n\n# Project memory: p\n\n\
                    ## Facts\n- Tests use `vitest` <b>now</b>. (inferred; s1, 2026-11-24) [f1]\n- A `lone tick.\n\n\
                    ## Recently\n- 2026-11-24 Done.\n</project-memory>";
        assert_eq!(
            super::document(text),
            "<p class=\"frame\">This is lcmem&#39;s memory.</p><h2>Project memory: p</h2><h3>Facts</h3><ul><li>Tests use \
             <code>vitest</code> &lt;b&gt;now&lt;/b&gt;. (inferred; s1, 2026-11-24) [f1]</li><li>A `lone tick.</li></ul>\
             <h3>Recently</h3><ul><li>2026-11-24 Done.</li></ul>"
        );
    }
}
