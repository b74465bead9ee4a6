//! The scanning engine: an Aho-Corasick pass over literal anchors, then the
//! rules those anchors call for, run only on the lines where they occur.
//!
//! Most text that reaches memory holds no secret, so the cost that matters is
//! the cost of saying "nothing here". One automaton pass over anchors such as
//! `ghp_`, `sk-`, `AKIA`, `eyJ`, `://`, `password`, `token` answers that for
//! most lines; a second, much cheaper literal search finds private key
//! blocks and markers this redactor wrote before. Text with no anchor at all
//! comes back borrowed without any regex having run.

use std::ops::Range;
use std::sync::{LazyLock, OnceLock};

use aho_corasick::{AhoCorasick, AhoCorasickKind, Input, MatchKind};
use regex::Regex;

use crate::candidate::{Candidate, PRIO_NAMED, captures};
use crate::rules::SHAPES;
use crate::{Finding, aws, context, pem, web};

type LineFn = fn(&str, Range<usize>, &mut Vec<Candidate>);

enum Run {
    /// A named token shape from [`SHAPES`], by index.
    Shape(usize),
    /// A context rule run over the logical line around an anchor.
    Line(LineFn),
}

struct Rule {
    anchors: &'static [&'static str],
    run: Run,
}

const KEYWORDS: &[&str] = &["pass", "pwd", "secret", "token", "key", "auth", "cred", "sig=", "signature="];

fn context_rules() -> Vec<Rule> {
    let line = |anchors, f: LineFn| Rule { anchors, run: Run::Line(f) };
    vec![
        line(&["authorization"], web::authorization),
        line(&["bearer"], web::bearer),
        line(&["://"], web::url_credentials),
        line(KEYWORDS, context::assignments),
        line(&["cookie"], web::cookies),
        line(&["config set", "configure set", "git config", "secret set", "secrets set"], context::config_commands),
        line(web::CLI_TOOLS, web::cli_passwords),
        line(&["password", "passwd", "passphrase", "identified"], context::phrases),
        line(&["curl", "wget"], web::curl_user),
        line(&["login", "cred"], web::login),
        line(aws::ANCHORS, aws::prose_secrets),
    ]
}

struct Engine {
    /// Anchors of the line rules, ASCII case-insensitive.
    anchors: AhoCorasick,
    /// For each anchor, the rules it triggers, widened by the rules of every
    /// anchor it can hide (see [`hides`]).
    masks: Vec<u128>,
    rules: Vec<Rule>,
    /// Each shape's regex, compiled the first time an anchor calls for it:
    /// a process that redacts a few lines should not pay for compiling every
    /// shape.
    shapes: Vec<OnceLock<Regex>>,
    /// Exact-position literals: a private key block and a marker written earlier.
    exact: AhoCorasick,
}

const PEM_BEGIN: usize = 0;
const MARKER: usize = 1;

/// Whether an occurrence of `b` can hide behind a reported occurrence of
/// `a`. The search reports the match that ends first and resumes one byte
/// after its start, so the only anchors it can skip are those containing the
/// one it reported (`pass` inside `password`, `key` inside `apikey`). Such an
/// `a` must carry `b`'s rules.
fn hides(a: &str, b: &str) -> bool {
    b.contains(a)
}

static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    let mut rules: Vec<Rule> =
        (0..SHAPES.len()).map(|i| Rule { anchors: SHAPES[i].anchors, run: Run::Shape(i) }).collect();
    rules.extend(context_rules());
    assert!(rules.len() <= 128, "rule masks are 128 bits wide");
    let mut patterns: Vec<String> = Vec::new();
    let mut own: Vec<u128> = Vec::new();
    for (bit, rule) in rules.iter().enumerate() {
        for anchor in rule.anchors {
            let anchor = anchor.to_ascii_lowercase();
            match patterns.iter().position(|p| *p == anchor) {
                Some(i) => own[i] |= 1 << bit,
                None => {
                    patterns.push(anchor);
                    own.push(1 << bit);
                }
            }
        }
    }
    let masks = patterns
        .iter()
        .map(|a| patterns.iter().zip(&own).filter(|(b, _)| hides(a, b)).fold(0, |m, (_, o)| m | o))
        .collect();
    let anchors = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .kind(Some(AhoCorasickKind::DFA))
        .match_kind(MatchKind::Standard)
        .build(&patterns)
        .expect("anchor automaton builds");
    let exact = AhoCorasick::new(["-----BEGIN ", "[REDACTED:"]).expect("literal automaton builds");
    let shapes = SHAPES.iter().map(|_| OnceLock::new()).collect();
    Engine { anchors, masks, rules, shapes, exact }
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
pub(crate) fn logical_line(text: &str, pos: usize) -> Range<usize> {
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

fn run_shape(i: usize, shapes: &[OnceLock<Regex>], text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let shape = &SHAPES[i];
    if let Some(gate) = shape.gate
        && !gate(&text[win.clone()])
    {
        return;
    }
    let regex = shapes[i].get_or_init(|| Regex::new(shape.pattern).expect("shape compiles"));
    for caps in captures(regex, &text[win.clone()]) {
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

/// The result of one scan.
pub(crate) struct Scan {
    /// Merged, non-overlapping, sorted.
    pub findings: Vec<Finding>,
    /// A `BEGIN … PRIVATE KEY` line was left alone (a placeholder body): its
    /// verdict depends on text further down, which redaction may change.
    pub dormant_pem: bool,
}

/// Every secret in `text`, merged, non-overlapping and sorted.
pub(crate) fn find(text: &str) -> Scan {
    let engine = &*ENGINE;
    let mut out: Vec<Candidate> = Vec::new();
    let mut markers: Vec<Range<usize>> = Vec::new();
    let mut dormant_pem = false;
    let mut pem_end = 0;
    for m in engine.exact.find_iter(text) {
        if m.pattern().as_usize() == MARKER {
            markers.extend(marker_at(text, m.start()));
        } else if m.pattern().as_usize() == PEM_BEGIN && m.start() >= pem_end {
            match pem::block_at(text, m.start()) {
                Some(c) => {
                    pem_end = c.range.end;
                    out.push(c);
                }
                None => dormant_pem = true,
            }
        }
    }
    let mut windows: Vec<(Range<usize>, u128)> = Vec::new();
    let mut at = 0;
    while let Some(m) = engine.anchors.find(Input::new(text).span(at..text.len())) {
        let mask = engine.masks[m.pattern().as_usize()];
        match windows.last_mut() {
            Some((w, wm)) if m.start() < w.end => *wm |= mask,
            _ => windows.push((logical_line(text, m.start()), mask)),
        }
        at = m.start() + 1;
    }
    for (win, mask) in windows {
        for bit in bits(mask) {
            match engine.rules[bit].run {
                Run::Shape(i) => run_shape(i, &engine.shapes, text, win.clone(), &mut out),
                Run::Line(f) => f(text, win.clone(), &mut out),
            }
        }
    }
    if !markers.is_empty() {
        out.retain(|c| !overlaps_any(&markers, &c.range));
    }
    Scan { findings: merge(out), dormant_pem }
}

/// `[REDACTED:kind]` starting at `start`, as [`crate::redact`] writes it.
fn marker_at(text: &str, start: usize) -> Option<Range<usize>> {
    let head = "[REDACTED:".len();
    let rest = text.get(start + head..)?;
    let kind = rest.bytes().take(64).take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-').count();
    (kind > 0 && rest.as_bytes().get(kind) == Some(&b']')).then(|| start..start + head + kind + 1)
}

/// Whether `r` overlaps one of the sorted, disjoint `ranges`.
fn overlaps_any(ranges: &[Range<usize>], r: &Range<usize>) -> bool {
    let i = ranges.partition_point(|m| m.end <= r.start);
    ranges.get(i).is_some_and(|m| m.start < r.end)
}

fn bits(mut mask: u128) -> impl Iterator<Item = usize> {
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
        assert!(ENGINE.rules.len() <= 128);
    }
}
