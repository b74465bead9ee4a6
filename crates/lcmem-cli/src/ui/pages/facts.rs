//! Facts: every fact with its state, sources, history and supersede chain,
//! and the actions on it (edit, pin, delete, not true, confirm, restore).

use lcmem::facts::{Fact, Fold, State};

use super::super::{App, html};
use super::{SessionNames, state_badge};

pub fn page(app: &App) -> anyhow::Result<String> {
    let fold = app.memory().facts(lcmem::Whose::Project)?;
    let names = SessionNames::of(app)?;
    let mut body = String::from(
        "<p class=\"hint\">Inferred facts (seen once) are dimmer; facts that left memory are faded. A fact marked \
         not true never comes back when a session says it again.</p>",
    );
    body.push_str(&format!(
        "<form method=\"post\" action=\"/facts/add\" class=\"add\">{}<label>Add a fact of your own \
         <input name=\"text\" required maxlength=\"2000\" placeholder=\"The API returns dates in UTC.\"></label> \
         <button>Add</button><label class=\"check\"><input type=\"checkbox\" name=\"every\" value=\"1\">\
         <span>for every project (about you, not this project)</span></label></form>",
        html::hidden(app, "/facts")
    ));
    let person = app.memory().facts(lcmem::Whose::Person)?;
    let yours: Vec<&Fact> = person.active().collect();
    if !yours.is_empty() {
        body.push_str(&format!(
            "<h2>Yours, for every project ({})</h2><p class=\"hint\">Change them with <code>lcmem facts --user</code>.</p><ul>",
            yours.len()
        ));
        for fact in yours {
            body.push_str(&format!("<li>{} <code>{}</code></li>", html::esc(&fact.text), fact.id));
        }
        body.push_str("</ul>");
    }
    let (active, others): (Vec<&Fact>, Vec<&Fact>) = fold.facts.iter().partition(|f| f.is_active());
    body.push_str(&format!("<h2>May appear in the digest ({})</h2>", active.len()));
    if active.is_empty() {
        body.push_str("<p>None yet: facts are learned when sessions are sealed, or added above.</p>");
    }
    for fact in active {
        body.push_str(&card(app, &names, &fold, fact, "/facts"));
    }
    body.push_str(&format!("<h2>Out of the digest ({})</h2>", others.len()));
    for fact in others {
        body.push_str(&card(app, &names, &fold, fact, "/facts"));
    }
    Ok(html::page(app, "/facts", "Facts", &body))
}

/// One fact with everything about it and its actions; `back` is the page to return to.
pub fn card(app: &App, names: &SessionNames, fold: &Fold, fact: &Fact, back: &str) -> String {
    let mut class = vec!["fact".to_string(), format!("state-{}", fact.state.as_str())];
    if matches!(fact.state, State::Inferred | State::WorkspaceEcho) {
        class.push("dim".into());
    }
    if fact.not_true || fact.deleted || fact.state == State::Superseded {
        class.push("gone".into());
    }
    let text = if fact.deleted { "(text deleted)".to_string() } else { html::code_spans(&fact.text) };
    let mut flags = vec![state_badge(fact.state)];
    for (on, what) in [
        (fact.pinned, "pinned"),
        (fact.not_true, "not true"),
        (fact.deleted, "deleted"),
        (fact.convention, "convention"),
    ] {
        if on {
            flags.push(format!("<span class=\"badge flag\">{what}</span>"));
        }
    }
    let mut out = format!(
        "<article class=\"{}\" id=\"{}\" data-fact=\"{}\"><p class=\"text\">{text}</p><p class=\"meta\">{} · <code>{}</code> · confidence {:.2} · first learned {}</p>",
        class.join(" "),
        html::esc(&fact.id),
        html::esc(&fact.id),
        flags.join(" "),
        html::esc(&fact.id),
        fact.confidence,
        html::day(fact.learned_at)
    );
    if fact.state == State::UnconfirmedInstruction {
        out.push_str(
            "<p class=\"warn\">Withheld: it reads as an instruction, so it is not acted on unless you confirm it.</p>",
        );
    }
    if let Some((theirs, not_true)) = fact.proposes.as_ref().filter(|_| fact.is_proposal()) {
        let what = if *not_true { "mark your fact not true" } else { "replace your fact" };
        let text = fold.get(theirs).map(|f| html::esc(&f.text)).unwrap_or_default();
        out.push_str(&format!(
            "<p class=\"warn\">The agent proposes to {what} <a href=\"/facts#{0}\"><code>{0}</code></a>: {text}. \
             Nothing changes unless you confirm this proposal; Not true refuses it.</p>",
            html::esc(theirs)
        ));
    }
    if let Some(by) = &fact.superseded_by {
        let newer = fold.get(by).map(|f| html::esc(&f.text)).unwrap_or_default();
        out.push_str(&format!(
            "<p>Superseded by <a href=\"/facts#{0}\"><code>{0}</code></a>: {newer}</p>",
            html::esc(by)
        ));
    }
    for older in fold.facts.iter().filter(|f| f.superseded_by.as_deref() == Some(fact.id.as_str())) {
        out.push_str(&format!(
            "<p>Replaces <a href=\"/facts#{0}\"><code>{0}</code></a>: {1}</p>",
            html::esc(&older.id),
            html::esc(&older.text)
        ));
    }
    out.push_str("<ul class=\"sources\">");
    if fact.sources.is_empty() && fact.user_authored {
        out.push_str("<li>source: you</li>");
    }
    for s in &fact.sources {
        out.push_str(&format!(
            "<li>{} · seen {} · {}</li>",
            names.link(app, &s.session),
            html::day(s.at),
            s.provenance().as_str()
        ));
    }
    out.push_str("</ul>");
    if !fact.history.is_empty() {
        out.push_str(&format!("<details><summary>History ({})</summary><ul>", fact.history.len()));
        for h in &fact.history {
            out.push_str(&format!("<li>{} {}</li>", html::day(h.at), html::esc(&h.note)));
        }
        out.push_str("</ul></details>");
    }
    if !fact.deleted {
        out.push_str(&actions(app, fact, back));
    }
    out.push_str("</article>");
    out
}

/// The buttons a fact offers in its state.
pub fn actions(app: &App, fact: &Fact, back: &str) -> String {
    let path = |action: &str| format!("/facts/{}/{action}", fact.id);
    let mut out = String::from("<div class=\"actions\">");
    if !fact.confirmed || fact.state == State::UnconfirmedInstruction {
        out.push_str(&html::button(&path("confirm"), back, "Confirm", "confirm", &[], app));
    }
    let (pin, label) = if fact.pinned { ("unpin", "Unpin") } else { ("pin", "Pin") };
    out.push_str(&html::button(&path(pin), back, label, pin, &[], app));
    if fact.not_true || fact.state == State::Superseded {
        out.push_str(&html::button(&path("restore"), back, "Restore", "restore", &[], app));
    } else {
        out.push_str(&html::button(&path("not-true"), back, "Not true", "not-true", &[], app));
    }
    out.push_str(&html::button(&path("delete"), back, "Delete", "delete danger", &[], app));
    // The new wording opens on demand: a card shows the fact once.
    out.push_str(&format!(
        "<details class=\"edit\"><summary class=\"button\">Edit…</summary><form method=\"post\" action=\"{}\" class=\"edit\">{}<input name=\"text\" value=\"{}\" required maxlength=\"2000\" aria-label=\"New wording\"><button>Save the new wording</button></form></details>",
        html::esc(&path("edit")),
        html::hidden(app, back),
        html::esc(&fact.text)
    ));
    out.push_str("</div>");
    out
}
