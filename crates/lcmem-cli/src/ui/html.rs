//! HTML: escaping (every string from memory passes [`esc`]; memory holds
//! text a hostile repository wrote), the page frame, and the small forms
//! every action is.

use super::{App, Flash};

/// Escapes text for an element's content or a quoted attribute.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The stylesheet, built into the binary.
pub const STYLE: &str = include_str!("style.css");

/// The pages of the menu: path, label.
const MENU: [(&str, &str); 7] = [
    ("/", "Digest"),
    ("/facts", "Facts"),
    ("/waiting", "Waiting for you"),
    ("/journal", "Journal"),
    ("/sessions", "Sessions"),
    ("/recall", "Recall"),
    ("/settings", "Settings"),
];

/// A whole page: the menu (with `current` marked), the note of the last
/// action, then `body` (already HTML).
pub fn page(app: &App, current: &str, title: &str, body: &str) -> String {
    let menu: String = MENU
        .iter()
        .map(|(path, label)| {
            let here = if *path == current { " aria-current=\"page\"" } else { "" };
            format!("<a href=\"{path}\"{here}>{label}</a>")
        })
        .collect();
    let flash = match app.take_flash() {
        Some(Flash { error, text }) => {
            format!("<p class=\"flash{}\" role=\"status\">{}</p>", if error { " error" } else { "" }, esc(&text))
        }
        None => String::new(),
    };
    let project = esc(&app.store.project().name());
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · {project} · lcmem</title><link rel=\"stylesheet\" href=\"/style.css\"></head>\
         <body><header><span class=\"brand\">lcmem · {project}</span><nav>{menu}</nav></header>\
         <main>{flash}<h1>{}</h1>\n{body}</main></body></html>\n",
        esc(title),
        esc(title)
    )
}

/// A minimal page for refusals and errors (no menu: the request may not be the user's).
pub fn bare(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} · lcmem</title>\
         <link rel=\"stylesheet\" href=\"/style.css\"></head><body><main><h1>{}</h1>{body}</main></body></html>\n",
        esc(title),
        esc(title)
    )
}

/// One action: a POST form to `action` with the CSRF token, where to come
/// back to, any `extra` fields, and a button.
pub fn button(action: &str, back: &str, label: &str, class: &str, extra: &[(&str, &str)], app: &App) -> String {
    let fields: String = extra
        .iter()
        .map(|(k, v)| format!("<input type=\"hidden\" name=\"{}\" value=\"{}\">", esc(k), esc(v)))
        .collect();
    format!(
        "<form method=\"post\" action=\"{}\" class=\"inline\">{}{fields}<button class=\"{class}\">{}</button></form>",
        esc(action),
        hidden(app, back),
        esc(label)
    )
}

/// The hidden fields every form carries: the CSRF token and where to come back to.
pub fn hidden(app: &App, back: &str) -> String {
    format!(
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"back\" value=\"{}\">",
        esc(&app.csrf),
        esc(back)
    )
}

/// A UTC day, as the CLI shows dates.
pub fn day(ts: jiff::Timestamp) -> String {
    crate::output::day(ts)
}

/// One line of Markdown, escaped, with its `code` spans as code.
pub fn code_spans(text: &str) -> String {
    let escaped = esc(text);
    if escaped.matches('`').count() % 2 == 1 {
        // An unpaired backtick stays a backtick.
        return escaped;
    }
    let mut out = String::new();
    for (i, part) in escaped.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{part}</code>"));
        } else {
            out.push_str(part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_memory_is_inert() {
        assert_eq!(
            esc("<script>alert(1)</script> <img src=x onerror=\"a('b')\"> & co"),
            "&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt; &amp; co"
        );
    }
}
