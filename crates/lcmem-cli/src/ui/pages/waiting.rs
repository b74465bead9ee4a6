//! Waiting for you: what a session (or a repository, through it) tried to
//! plant and was withheld until a person confirms it, each with the session
//! and line it came from; conventions waiting for confirmation; conflicts,
//! both sides with a choice.

use lcmem::Line;
use lcmem::facts::{Fact, Fold, normalize};

use super::super::{App, html};
use super::{SessionNames, facts};

pub fn page(app: &App) -> anyhow::Result<String> {
    let fold = app.memory().facts(lcmem::Whose::Project)?;
    let names = SessionNames::of(app)?;
    let waiting = fold.pending();
    let (proposals, waiting): (Vec<&Fact>, Vec<&Fact>) = waiting.into_iter().partition(|f| f.is_proposal());
    let (conventions, orders): (Vec<&Fact>, Vec<&Fact>) = waiting.into_iter().partition(|f| f.convention);
    let mut body = String::from(
        "<p class=\"hint\">Text shaped like an order is recorded but never acted on until you confirm it. \
         A repository can plant such text in files the agent reads: check where each came from.</p>",
    );
    body.push_str(&format!("<h2>The agent's proposals to change your facts ({})</h2>", proposals.len()));
    section(app, &names, &fold, &proposals, &mut body);
    body.push_str(&format!("<h2>Conventions waiting for confirmation ({})</h2>", conventions.len()));
    section(app, &names, &fold, &conventions, &mut body);
    body.push_str(&format!("<h2>Instructions withheld ({})</h2>", orders.len()));
    section(app, &names, &fold, &orders, &mut body);
    body.push_str(&format!("<h2>Conflicts ({})</h2>", fold.conflicts.len()));
    if fold.conflicts.is_empty() {
        body.push_str("<p>No open conflicts.</p>");
    }
    for c in &fold.conflicts {
        body.push_str(&format!(
            "<section class=\"conflict\"><p>{} · {}: these may contradict each other. Confirm the one that holds, \
             or mark the other not true.</p><div class=\"sides\">",
            html::day(c.at),
            html::esc(&c.reason)
        ));
        for id in [&c.fact, &c.with] {
            if let Some(fact) = fold.get(id) {
                body.push_str(&facts::card(app, &names, &fold, fact, "/waiting"));
            }
        }
        body.push_str("</div></section>");
    }
    Ok(html::page(app, "/waiting", "Waiting for you", &body))
}

fn section(app: &App, names: &SessionNames, fold: &Fold, facts: &[&Fact], body: &mut String) {
    if facts.is_empty() {
        body.push_str("<p>Nothing waits here.</p>");
    }
    for fact in facts {
        body.push_str("<div class=\"waiting\">");
        for source in &fact.sources {
            body.push_str(&origin(app, names, &source.session, &fact.text));
        }
        body.push_str(&facts::card(app, names, fold, fact, "/waiting"));
        body.push_str("</div>");
    }
}

/// Where in a session the fact's words are: the session, the line and the
/// turn that says them.
fn origin(app: &App, names: &SessionNames, session: &str, text: &str) -> String {
    let wanted = normalize(text);
    let found = super::stored_session(app, session).and_then(|id| app.store.read_session(&id).ok()).and_then(|s| {
        s.events.into_iter().find_map(|e| match e.value {
            Line::Message { role, text, .. } if normalize(&text).contains(&wanted) => Some((e.line, role, text)),
            _ => None,
        })
    });
    match found {
        Some((line, role, said)) => {
            let said = app.store.shown(&said);
            format!(
                "<p class=\"origin\">From {} <a href=\"/sessions/{}#line-{line}\">line {line}</a>, in a {} turn:</p><blockquote>{}</blockquote>",
                names.link(app, session),
                html::esc(session),
                role_name(role),
                html::esc(&lcmem::clip(&said, 400))
            )
        }
        None => {
            format!("<p class=\"origin\">From {} (the turn is no longer in the store)</p>", names.link(app, session))
        }
    }
}

pub fn role_name(role: lcmem::Role) -> &'static str {
    match role {
        lcmem::Role::User => "user",
        lcmem::Role::Assistant => "assistant",
        lcmem::Role::System => "system",
        lcmem::Role::Tool => "tool output",
    }
}
