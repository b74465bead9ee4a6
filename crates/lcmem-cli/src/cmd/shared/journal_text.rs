//! How the journal reads to a person: each entry as a block of lines, and
//! what a model lane did and cost. `lcmem journal`, `lcmem seal` and the tour
//! print entries with these.

use lcmem::control_free;
use lcmem::journal::{Cost, Entry, Journal};

use crate::output::day;

/// The journal as people read it: newest activity last, one block per entry
/// (at its current revision).
pub fn render_journal(journal: &Journal) -> String {
    let mut out = String::new();
    let mut entries: Vec<_> = journal.entries.iter().collect();
    entries.sort_by_key(|c| c.entry.last_active);
    for current in entries {
        let e = &current.entry;
        let pin = if e.pinned { " · pinned" } else { "" };
        let revision = match current.revision {
            1 => String::new(),
            n => format!(" · revision {n}"),
        };
        out.push_str(&format!(
            "{}  {}  [{:?} · {:?}{pin}{revision}]  ({})\n",
            day(e.last_active),
            e.title,
            e.kind,
            e.outcome,
            e.session_id
        ));
        out.push_str(&format!("    {}\n", e.summary));
        if !e.files.is_empty() {
            out.push_str(&format!("    files: {}\n", e.files.join(", ")));
        }
        for d in &e.decisions {
            out.push_str(&format!("    decision: {d}\n"));
        }
        if let Some(line) = lane_line(e) {
            out.push_str(&format!("    {line}\n"));
        }
    }
    out
}

/// Which lane wrote an entry, why it fell back and what it cost, when a
/// model lane was involved: `by openai:m · 1 request · … · $0.0005`.
pub fn lane_line(entry: &Entry) -> Option<String> {
    if entry.cost.is_none() && entry.fallback.is_none() {
        return None;
    }
    let fell = entry.fallback.as_ref().map_or(String::new(), |r| format!(" (fallback: {r})"));
    let spent = entry.cost.as_ref().map_or(" · nothing spent".to_string(), |c| format!(" · {}", spend(c)));
    Some(control_free(&format!("by {}{fell}{spent}", entry.extractor)).into_owned())
}

/// A cost in one line: `2 requests · 2,310 tokens in, 182 out · $0.0005`
/// (and the time waited, when it was measured).
pub fn spend(cost: &Cost) -> String {
    let requests = match cost.requests {
        1 => "1 request".to_string(),
        n => format!("{n} requests"),
    };
    let priced = if cost.priced_by == "default" { " (unknown model: priced as a large one)" } else { "" };
    let waited = if cost.ms > 0 { format!(" · {:.1} s", cost.ms as f64 / 1000.0) } else { String::new() };
    format!(
        "{requests} · {} tokens in, {} out · ${:.4}{priced}{waited}",
        thousands(cost.tokens_in),
        thousands(cost.tokens_out),
        cost.usd
    )
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
