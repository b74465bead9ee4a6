//! Recall: a search box, and cited hits labelled with their state.

use lcmem::Padding;
use lcmem::recall::{Hit, HitKind, Projects, Query, Quiet};

use super::super::{App, html};

pub fn page(app: &App, q: &str) -> anyhow::Result<String> {
    let mut body = format!(
        "<form method=\"get\" action=\"/recall\" class=\"search\" role=\"search\"><input type=\"search\" name=\"q\" \
         value=\"{}\" placeholder=\"retry backoff\" aria-label=\"Search\" autofocus> <button>Search</button></form>",
        html::esc(q)
    );
    let q = q.trim();
    if q.is_empty() {
        body.push_str("<p class=\"hint\">Searches every transcript, the journal and every fact (not-true and deleted ones excepted).</p>");
        return Ok(html::page(app, "/recall", "Recall", &body));
    }
    let recalled = app.memory().recall(&Query::new(q), &Projects::This, Padding::Kept, app.now()?, &mut Quiet)?;
    recalled.marked?;
    let hits: Vec<Hit> = recalled.answer.hits.into_iter().map(|found| found.hit).collect();
    if hits.is_empty() {
        body.push_str(&format!("<p id=\"no-hits\">Nothing in this project's memory matches “{}”.</p>", html::esc(q)));
    }
    body.push_str("<ol class=\"hits\">");
    for hit in &hits {
        let snippet: String = crate::output::highlighted(&hit.snippet, &hit.highlights)
            .into_iter()
            .map(|(part, marked)| if marked { format!("<mark>{}</mark>", html::esc(part)) } else { html::esc(part) })
            .collect();
        let role = hit.role.map(|r| format!(" · {}", r.as_str())).unwrap_or_default();
        let link = match super::stored_session(app, &hit.session) {
            Some(id) if hit.kind == HitKind::Turn => {
                format!(" <a href=\"/sessions/{0}#line-{1}\">open</a>", html::esc(&id), hit.line)
            }
            _ if hit.fact_id.is_some() => {
                format!(" <a href=\"/facts#{}\">open</a>", html::esc(hit.fact_id.as_deref().unwrap_or("")))
            }
            _ => String::new(),
        };
        body.push_str(&format!(
            "<li class=\"hit\"><p class=\"meta\"><code>{}</code>{link}</p><p class=\"meta\">{}{role} · <span class=\"badge\">{}</span> · {}</p><p class=\"snippet\">{snippet}</p>{}</li>",
            html::esc(&hit.citation),
            hit.kind,
            html::esc(&hit.state.to_string()),
            html::esc(&hit.session_title),
            hit.note.as_ref().map(|n| format!("<p class=\"warn\">{}</p>", html::esc(n))).unwrap_or_default()
        ));
    }
    body.push_str("</ol>");
    Ok(html::page(app, "/recall", "Recall", &body))
}
