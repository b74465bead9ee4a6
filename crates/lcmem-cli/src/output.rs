//! Printing: errors as sentences, warnings, dates, JSON.

use std::process::ExitCode;

use lcmem::Diagnostic;
use lcmem::recall::Hit;

/// An error chain as one or two sentences, each cause said once. The
/// engine's errors are worded for the command line ([`crate::error_words::cli`]).
pub fn sentence(error: &anyhow::Error) -> String {
    let words = |cause: &(dyn std::error::Error + 'static)| match cause.downcast_ref::<lcmem::Error>() {
        Some(engine) => crate::error_words::cli(engine),
        None => cause.to_string(),
    };
    let mut chain = error.chain();
    let mut message = chain.next().map(words).unwrap_or_default();
    for cause in chain {
        let cause = words(cause);
        if !message.contains(&cause) {
            message.push_str(&format!(": {cause}"));
        }
    }
    message
}

/// Prints an error chain as one or two sentences and picks the exit code.
pub fn report_error(error: &anyhow::Error) -> ExitCode {
    eprintln!("lcmem: {}", sentence(error));
    let memory_off =
        error.chain().any(|e| matches!(e.downcast_ref::<lcmem::Error>(), Some(lcmem::Error::MemoryOff { .. })));
    ExitCode::from(if memory_off { 3 } else { 1 })
}

pub fn warn_all(diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        eprintln!("warning: {d}");
    }
}

pub use lcmem::day;

pub fn print_json(value: &impl serde::Serialize) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// One hit as people read it: the citation, what it is and its standing,
/// then the snippet.
pub fn render_hit(n: usize, hit: &Hit, bold: bool) -> String {
    let mut what = hit.kind.to_string();
    if let Some(role) = hit.role {
        what.push_str(" · ");
        what.push_str(role.as_str());
    }
    if let Some(id) = &hit.message_id {
        what.push_str(&format!(" · message {id}"));
    }
    let mut out = format!("{n}. {}\n   {what} · {} · score {:.2}\n", hit.citation, hit.state, hit.score);
    out.push_str("   ");
    out.push_str(&highlight(&hit.snippet, &hit.highlights, bold));
    out.push('\n');
    if let Some(note) = &hit.note {
        out.push_str(&format!("   note: {note}\n"));
    }
    if !hit.echoes.is_empty() {
        out.push_str(&format!("   {}\n", echoes_line(&hit.echoes)));
    }
    out
}

/// Places listed after a hit whose words were said again elsewhere.
const ECHOES_LISTED: usize = 4;

/// "said 3 more times: SESSION line N, …": where a hit's words were said again.
fn echoes_line(echoes: &[lcmem::recall::Echo]) -> String {
    let mut places: Vec<String> =
        echoes.iter().take(ECHOES_LISTED).map(|e| format!("{} line {}", e.session, e.line)).collect();
    if echoes.len() > ECHOES_LISTED {
        places.push(format!("{} more", echoes.len() - ECHOES_LISTED));
    }
    let times = if echoes.len() == 1 { "time" } else { "times" };
    format!("said {} more {times}: {}", echoes.len(), places.join(", "))
}

fn highlight(snippet: &str, ranges: &[(usize, usize)], bold: bool) -> String {
    if !bold {
        return snippet.to_string();
    }
    let mut out = String::with_capacity(snippet.len() + ranges.len() * 8);
    for (part, marked) in highlighted(snippet, ranges) {
        match marked {
            true => out.push_str(&format!("\x1b[1m{part}\x1b[0m")),
            false => out.push_str(part),
        }
    }
    out
}

/// A snippet cut at its highlights: each part, and whether it is a match.
/// Ranges out of order, past the end or off a character boundary are skipped.
pub fn highlighted<'a>(snippet: &'a str, ranges: &[(usize, usize)]) -> Vec<(&'a str, bool)> {
    let mut parts = Vec::with_capacity(ranges.len() * 2 + 1);
    let mut at = 0;
    for &(from, to) in ranges {
        if from < at
            || to < from
            || to > snippet.len()
            || !snippet.is_char_boundary(from)
            || !snippet.is_char_boundary(to)
        {
            continue;
        }
        parts.push((&snippet[at..from], false));
        parts.push((&snippet[from..to], true));
        at = to;
    }
    parts.push((&snippet[at..], false));
    parts
}

/// What to tell a reader when the semantic lane saw only part of the turns.
pub fn semantic_note(coverage: &lcmem::recall::SemanticCoverage) -> Option<String> {
    (coverage.turns_embedded < coverage.turns).then(|| {
        format!(
            "the semantic lane covered {}% of turns ({} of {}); the rest were matched by their words only \
             (`lcmem index rebuild` embeds them)",
            coverage.percent(),
            coverage.turns_embedded,
            coverage.turns
        )
    })
}

/// A table for the terminal: every column as wide as its widest cell (in
/// characters), two spaces between columns, the last column unpadded. An
/// empty cell is written `-`, so that splitting a line on whitespace keeps
/// every field in its column.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let cell = |s: &str| if s.is_empty() { "-".to_string() } else { lcmem::control_free(s).into_owned() };
    let rows: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|c| cell(c)).collect()).collect();
    let widths: Vec<usize> = (0..headers.len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).chain([headers[i].len()]).max().unwrap_or(0))
        .collect();
    let line = |cells: Vec<&str>| {
        let last = cells.len() - 1;
        let mut out = String::new();
        for (i, c) in cells.into_iter().enumerate() {
            out.push_str(c);
            if i < last {
                out.push_str(&" ".repeat(widths[i] - c.chars().count() + 2));
            }
        }
        out.push('\n');
        out
    };
    let mut out = line(headers.to_vec());
    for r in &rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out
}
