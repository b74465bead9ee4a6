//! Figures for one labelled corpus of the secret redactor.
//!
//! Each case is `{family, text, expect: redact|keep, tier, secret?}`. A
//! `redact` case passes when its `secret` substring is gone after
//! `lcmem_redact::redact`; a `keep` case passes when the text comes out
//! byte-identical. Figures are reported by tier (core must be 100%) and by
//! family. Miss listings never print a secret whole: it is cut to a prefix.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{Context, bail};
use serde_json::{Value, json};

/// Passed/total for one expectation.
#[derive(Default, Clone, Copy)]
struct Tally {
    pass: usize,
    total: usize,
}

impl Tally {
    fn add(&mut self, ok: bool) {
        self.total += 1;
        self.pass += usize::from(ok);
    }

    fn cell(self) -> String {
        if self.total == 0 {
            return "-".to_string();
        }
        let pct = 100.0 * self.pass as f64 / self.total as f64;
        format!("{}/{} {:.1}%", self.pass, self.total, pct)
    }

    fn json(self) -> Value {
        json!({ "pass": self.pass, "total": self.total })
    }
}

/// Redact and keep tallies for one tier or family.
#[derive(Default, Clone, Copy)]
struct Row {
    redact: Tally,
    keep: Tally,
}

impl Row {
    fn all(self) -> Tally {
        Tally { pass: self.redact.pass + self.keep.pass, total: self.redact.total + self.keep.total }
    }

    fn json(self) -> Value {
        json!({ "redact": self.redact.json(), "keep": self.keep.json(), "all": self.all().json() })
    }
}

struct Miss {
    family: String,
    tier: String,
    expect: String,
    text: String,
    got: Option<String>,
}

impl Miss {
    fn json(&self) -> Value {
        json!({"family": self.family, "tier": self.tier, "expect": self.expect, "text": self.text, "got": self.got})
    }
}

/// Shows a secret as its first few characters so a report never repeats it.
fn cut_secret(text: &str, secret: &str) -> String {
    if secret.is_empty() {
        return text.to_string();
    }
    let keep: String = secret.chars().take(6).collect();
    text.replace(secret, &format!("{keep}…"))
}

/// One line, at most `max` characters, newlines shown as `⏎`.
fn one_line(text: &str, max: usize) -> String {
    let flat: String = text.chars().map(|c| if c == '\n' { '⏎' } else { c }).collect();
    if flat.chars().count() <= max {
        return flat;
    }
    let mut cut: String = flat.chars().take(max).collect();
    cut.push('…');
    cut
}

fn field<'a>(case: &'a Value, name: &str, i: usize) -> anyhow::Result<&'a str> {
    case.get(name).and_then(Value::as_str).with_context(|| format!("case {i} has no string field {name:?}"))
}

/// Tier order: the ones the project names first, then any others by name.
fn tier_rank(tier: &str) -> (usize, &str) {
    let rank = ["core", "hard", "lenient"].iter().position(|t| *t == tier).unwrap_or(3);
    (rank, tier)
}

/// Runs every case and returns the printed report.
pub fn report(cases: &[Value], json: bool, misses: bool) -> anyhow::Result<String> {
    let mut tiers: BTreeMap<String, Row> = BTreeMap::new();
    let mut families: BTreeMap<String, Row> = BTreeMap::new();
    let mut total = Row::default();
    let mut missed: Vec<Miss> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let family = field(case, "family", i)?;
        let tier = field(case, "tier", i)?;
        let expect = field(case, "expect", i)?;
        let text = field(case, "text", i)?;
        let out = lcmem_redact::redact(text);
        let (ok, secret) = match expect {
            "redact" => {
                let secret = field(case, "secret", i)?;
                if secret.is_empty() {
                    bail!("case {i} expects redact but its secret is empty");
                }
                (!out.contains(secret), secret)
            }
            "keep" => (out == text, ""),
            other => bail!("case {i}: expect must be redact or keep, not {other:?}"),
        };
        let pick = |row: &mut Row| {
            if expect == "redact" { row.redact.add(ok) } else { row.keep.add(ok) }
        };
        pick(tiers.entry(tier.to_string()).or_default());
        pick(families.entry(family.to_string()).or_default());
        pick(&mut total);
        if !ok {
            missed.push(Miss {
                family: family.to_string(),
                tier: tier.to_string(),
                expect: expect.to_string(),
                text: cut_secret(text, secret),
                got: (expect == "keep").then(|| out.into_owned()),
            });
        }
    }
    let mut tier_names: Vec<&String> = tiers.keys().collect();
    tier_names.sort_by_key(|t| tier_rank(t));

    if json {
        let mut tier_obj = serde_json::Map::new();
        for t in &tier_names {
            tier_obj.insert((*t).clone(), tiers[*t].json());
        }
        let fam_obj: serde_json::Map<String, Value> = families.iter().map(|(f, r)| (f.clone(), r.json())).collect();
        let mut doc = json!({
            "corpus": "secrets",
            "cases": cases.len(),
            "tiers": tier_obj,
            "families": fam_obj,
            "total": total.json(),
        });
        if misses {
            doc["misses"] = missed.iter().map(Miss::json).collect();
        }
        return Ok(serde_json::to_string_pretty(&doc)? + "\n");
    }

    let mut s = String::new();
    writeln!(s, "secrets corpus: {} cases (redact: secret gone; keep: byte-identical)", cases.len())?;
    writeln!(s)?;
    writeln!(s, "{:<20} {:>18} {:>18} {:>18}", "tier", "redact", "keep", "all")?;
    for t in &tier_names {
        let r = tiers[*t];
        writeln!(s, "{:<20} {:>18} {:>18} {:>18}", t, r.redact.cell(), r.keep.cell(), r.all().cell())?;
    }
    let t = total;
    writeln!(s, "{:<20} {:>18} {:>18} {:>18}", "total", t.redact.cell(), t.keep.cell(), t.all().cell())?;
    writeln!(s)?;
    writeln!(s, "{:<20} {:>18} {:>18}", "family", "redact", "keep")?;
    for (f, r) in &families {
        writeln!(s, "{:<20} {:>18} {:>18}", f, r.redact.cell(), r.keep.cell())?;
    }
    if misses {
        writeln!(s)?;
        writeln!(s, "misses: {}", missed.len())?;
        for m in &missed {
            writeln!(s, "  [{} {} {}] {}", m.tier, m.family, m.expect, one_line(&m.text, 160))?;
            if let Some(got) = &m.got {
                writeln!(s, "      got: {}", one_line(got, 160))?;
            }
        }
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_by_tier_and_lists_misses_without_the_secret() {
        let secret = format!("ghp_{}", "Ab3".repeat(12));
        let case = |family: &str, tier: &str, expect: &str, text: &str, secret: &str| json!({"family": family, "tier": tier, "expect": expect, "text": text, "secret": secret});
        let cases = vec![
            case("github", "core", "redact", &format!("token {secret}"), &secret),
            case("prose", "core", "keep", "rotate the password regularly", ""),
            case("exotic", "hard", "redact", "opaque zq_not_a_known_shape_123", "zq_not_a_known_shape_123"),
        ];
        let text = report(&cases, false, true).unwrap();
        assert!(text.contains("core"), "{text}");
        assert!(text.contains("2/2 100.0%"), "{text}");
        assert!(text.contains("misses: 1"), "{text}");
        assert!(!text.contains("zq_not_a_known_shape_123"), "{text}");
        let doc: Value = serde_json::from_str(&report(&cases, true, true).unwrap()).unwrap();
        assert_eq!(doc["tiers"]["hard"]["redact"]["pass"], 0);
        assert_eq!(doc["misses"].as_array().unwrap().len(), 1);
    }
}
