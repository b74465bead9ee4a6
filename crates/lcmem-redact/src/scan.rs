//! The scanning engine: one Aho-Corasick pass over literal anchors, then the
//! rules those anchors call for, run only on the lines where they occur.
//!
//! Most text that reaches memory holds no secret, so the cost that matters is
//! the cost of saying "nothing here". One automaton pass over anchors such as
//! `ghp_`, `sk-`, `AKIA`, `eyJ`, `://`, `password`, `token` answers that for
//! most lines; text with no anchor at all comes back borrowed without any
//! regex having run.

use std::ops::Range;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;

use crate::rules::SHAPES;
use crate::{Finding, context, pem, web};

/// Overlapping findings merge; the merged marker names the kind of the most
/// specific rule involved.
pub(crate) const PRIO_PEM: u8 = 100;
pub(crate) const PRIO_NAMED: u8 = 90;
pub(crate) const PRIO_AUTH: u8 = 60;
pub(crate) const PRIO_BEARER: u8 = 55;
pub(crate) const PRIO_URL: u8 = 50;
pub(crate) const PRIO_CLI: u8 = 45;
pub(crate) const PRIO_CONTEXT: u8 = 30;
pub(crate) const PRIO_PROSE: u8 = 20;

/// A range some rule wants redacted, before overlaps are merged.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub range: Range<usize>,
    pub kind: &'static str,
    pub priority: u8,
}

impl Candidate {
    pub(crate) fn new(range: Range<usize>, kind: &'static str, priority: u8) -> Self {
        Candidate { range, kind, priority }
    }
}

type LineFn = fn(&str, Range<usize>, &mut Vec<Candidate>);

enum Run {
    /// A named token shape from [`SHAPES`], by index.
    Shape(usize),
    /// A context rule run over the logical line around an anchor.
    Line(LineFn),
    /// A rule that starts exactly at its anchor and may run past the line.
    FromHit(fn(&str, usize) -> Option<Candidate>),
}

struct Rule {
    anchors: &'static [&'static str],
    run: Run,
}

const KEYWORDS: &[&str] = &["pass", "pwd", "secret", "token", "key", "auth", "cred"];

fn context_rules() -> Vec<Rule> {
    let line = |anchors, f: LineFn| Rule { anchors, run: Run::Line(f) };
    vec![
        line(&["authorization"], web::authorization),
        line(&["bearer"], web::bearer),
        line(&["://"], web::url_credentials),
        line(KEYWORDS, context::assignments),
        line(&["password", "passwd", "passphrase", "identified"], context::phrases),
        line(&["curl", "wget"], web::curl_user),
        line(&["login", "cred"], web::login),
        line(&["mysql", "mariadb"], web::mysql),
        Rule { anchors: &["-----begin"], run: Run::FromHit(pem::block_at) },
    ]
}

struct Engine {
    anchors: AhoCorasick,
    /// For each anchor pattern, the bit set of rules it triggers.
    masks: Vec<u64>,
    rules: Vec<Rule>,
    shapes: Vec<Regex>,
    from_hit: u64,
}

static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    let mut rules: Vec<Rule> = (0..SHAPES.len())
        .map(|i| Rule { anchors: SHAPES[i].anchors, run: Run::Shape(i) })
        .collect();
    rules.extend(context_rules());
    assert!(rules.len() <= 64, "rule masks are 64 bits wide");
    let mut patterns: Vec<String> = Vec::new();
    let mut masks: Vec<u64> = Vec::new();
    let mut from_hit = 0u64;
    for (bit, rule) in rules.iter().enumerate() {
        if matches!(rule.run, Run::FromHit(_)) {
            from_hit |= 1 << bit;
        }
        for anchor in rule.anchors {
            let anchor = anchor.to_ascii_lowercase();
            match patterns.iter().position(|p| *p == anchor) {
                Some(i) => masks[i] |= 1 << bit,
                None => {
                    patterns.push(anchor);
                    masks.push(1 << bit);
                }
            }
        }
    }
    let anchors = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .build(&patterns)
        .expect("anchor automaton builds");
    let shapes = SHAPES.iter().map(|s| Regex::new(s.pattern).expect("shape compiles")).collect();
    Engine { anchors, masks, rules, shapes, from_hit }
});

fn line_start(text: &str, pos: usize) -> usize {
    text[..pos].rfind('\n').map_or(0, |i| i + 1)
}

fn line_end(text: &str, pos: usize) -> usize {
    text[pos..].find('\n').map_or(text.len(), |i| pos + i)
}

/// Whether the physical line ending at `end` continues with a backslash.
fn continues(text: &str, end: usize) -> bool {
    let line = text[..end].strip_suffix('\r').unwrap_or(&text[..end]);
    line.ends_with('\\')
}

/// The line around `pos`, joined with backslash-continued neighbours so a
/// `curl … \` command is judged as one command. Bounded to 64 lines each way.
fn logical_line(text: &str, pos: usize) -> Range<usize> {
    let mut start = line_start(text, pos);
    for _ in 0..64 {
        if start == 0 || !continues(text, start - 1) {
            break;
        }
        start = line_start(text, start - 1);
    }
    let mut end = line_end(text, pos);
    for _ in 0..64 {
        if end >= text.len() || !continues(text, end) {
            break;
        }
        end = line_end(text, end + 1);
    }
    start..end
}

fn run_shape(i: usize, shapes: &[Regex], text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let shape = &SHAPES[i];
    for caps in shapes[i].captures_iter(&text[win.clone()]) {
        let Some(m) = caps.get(0) else { continue };
        let whole = win.start + m.start()..win.start + m.end();
        let t = caps.name("t").map_or(whole.clone(), |t| win.start + t.start()..win.start + t.end());
        if let Some(r) = (shape.check)(text, whole, t)
            && !r.is_empty()
        {
            out.push(Candidate::new(r, shape.kind, PRIO_NAMED));
        }
    }
}

/// Every secret in `text`, merged, non-overlapping and sorted.
pub(crate) fn find(text: &str) -> Vec<Finding> {
    let engine = &*ENGINE;
    let mut windows: Vec<(Range<usize>, u64)> = Vec::new();
    let mut out: Vec<Candidate> = Vec::new();
    let mut pem_end = 0;
    for m in engine.anchors.find_overlapping_iter(text) {
        let mask = engine.masks[m.pattern().as_usize()];
        let from_hit = mask & engine.from_hit;
        if from_hit != 0 && m.start() >= pem_end {
            for bit in bits(from_hit) {
                if let Run::FromHit(f) = engine.rules[bit].run
                    && let Some(c) = f(text, m.start())
                {
                    pem_end = c.range.end;
                    out.push(c);
                }
            }
        }
        let line_mask = mask & !engine.from_hit;
        if line_mask == 0 {
            continue;
        }
        match windows.last_mut() {
            Some((w, wm)) if m.start() < w.end => *wm |= line_mask,
            _ => windows.push((logical_line(text, m.start()), line_mask)),
        }
    }
    for (win, mask) in windows {
        for bit in bits(mask) {
            match engine.rules[bit].run {
                Run::Shape(i) => run_shape(i, &engine.shapes, text, win.clone(), &mut out),
                Run::Line(f) => f(text, win.clone(), &mut out),
                Run::FromHit(_) => {}
            }
        }
    }
    merge(out)
}

fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            bit
        })
    })
}

/// Unions overlapping candidates so no fragment of a secret survives between
/// two rules' ranges; the most specific rule names the merged marker.
fn merge(mut out: Vec<Candidate>) -> Vec<Finding> {
    out.sort_by(|a, b| a.range.start.cmp(&b.range.start).then(b.range.end.cmp(&a.range.end)));
    let mut merged: Vec<Candidate> = Vec::with_capacity(out.len());
    for c in out {
        match merged.last_mut() {
            Some(last) if c.range.start < last.range.end => {
                last.range.end = last.range.end.max(c.range.end);
                if c.priority > last.priority {
                    last.kind = c.kind;
                    last.priority = c.priority;
                }
            }
            _ => merged.push(c),
        }
    }
    merged.into_iter().map(|c| Finding { kind: c.kind, range: c.range }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logical_lines_follow_backslashes() {
        let text = "a\ncurl x \\\n  -u a:b\nz";
        let w = logical_line(text, text.find("-u").unwrap());
        assert_eq!(&text[w], "curl x \\\n  -u a:b");
    }

    #[test]
    fn engine_builds() {
        assert!(ENGINE.rules.len() <= 64);
    }
}
