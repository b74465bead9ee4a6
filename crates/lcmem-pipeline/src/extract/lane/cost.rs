//! What a model lane spends: tokens in and out, an estimated price, and the
//! daily ledger the cap is checked against. The journal is the ledger: every
//! seal records its cost on its own line, so `lcmem journal --costs` and the
//! cap read the same numbers, and nothing else is kept.

use jiff::Timestamp;
use serde::Serialize;

pub use crate::journal::Cost;
use crate::journal::Journal;

/// US dollars per million tokens, in and out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub input: f64,
    pub output: f64,
    pub by: PricedBy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PricedBy {
    Table,
    Settings,
    Local,
    Default,
}

impl PricedBy {
    pub fn word(self) -> &'static str {
        match self {
            PricedBy::Table => "table",
            PricedBy::Settings => "settings",
            PricedBy::Local => "local",
            PricedBy::Default => "default",
        }
    }
}

/// List prices per million tokens (input, output) of common small models,
/// as their vendors publish them (openai.com/api/pricing and
/// docs.anthropic.com's pricing page, late 2025). A model is matched by the
/// longest name here that its own name starts with, so dated snapshots
/// (`gpt-4o-mini-2024-07-18`) find their family. `[extract.prices]` in
/// settings overrides any of them.
pub const PRICES: &[(&str, f64, f64)] = &[
    ("gpt-4o-mini", 0.15, 0.60),
    ("gpt-4o", 2.50, 10.00),
    ("gpt-4.1-nano", 0.10, 0.40),
    ("gpt-4.1-mini", 0.40, 1.60),
    ("gpt-4.1", 2.00, 8.00),
    ("gpt-5-nano", 0.05, 0.40),
    ("gpt-5-mini", 0.25, 2.00),
    ("gpt-5", 1.25, 10.00),
    ("o4-mini", 1.10, 4.40),
    ("claude-3-5-haiku", 0.80, 4.00),
    ("claude-3-haiku", 0.25, 1.25),
    ("claude-haiku-4-5", 1.00, 5.00),
    ("claude-sonnet-4", 3.00, 15.00),
    ("claude-opus-4", 15.00, 75.00),
];

/// The price of an unknown model on a remote endpoint: a large model's, so
/// that the daily cap errs towards stopping early.
pub const DEFAULT_PRICE: (f64, f64) = (3.00, 15.00);

/// The price of `model`: the user's own (`prices`, from settings), else the
/// table, else free for an endpoint on this machine, else [`DEFAULT_PRICE`].
pub fn price_of(model: &str, local: bool, prices: &[(String, f64, f64)]) -> Price {
    let mine = prices.iter().map(|(n, i, o)| (n.as_str(), *i, *o));
    if let Some((input, output)) = longest_prefix(model, mine) {
        return Price { input, output, by: PricedBy::Settings };
    }
    if let Some((input, output)) = longest_prefix(model, PRICES.iter().copied()) {
        return Price { input, output, by: PricedBy::Table };
    }
    if local {
        return Price { input: 0.0, output: 0.0, by: PricedBy::Local };
    }
    Price { input: DEFAULT_PRICE.0, output: DEFAULT_PRICE.1, by: PricedBy::Default }
}

/// The prices of the longest name in `names` that `model` starts with.
fn longest_prefix<'a>(model: &str, names: impl Iterator<Item = (&'a str, f64, f64)>) -> Option<(f64, f64)> {
    names.filter(|(name, ..)| model.starts_with(name)).max_by_key(|(name, ..)| name.len()).map(|(_, i, o)| (i, o))
}

impl Price {
    pub fn usd(&self, tokens_in: u64, tokens_out: u64) -> f64 {
        (tokens_in as f64 * self.input + tokens_out as f64 * self.output) / 1_000_000.0
    }

    pub fn is_free(&self) -> bool {
        self.input == 0.0 && self.output == 0.0
    }
}

/// What the journal says was spent on model lanes on `now`'s UTC day, over
/// every revision it keeps.
pub fn spent_today(journal: &Journal, now: Timestamp) -> f64 {
    let day = crate::dates::day;
    let today = day(now);
    journal
        .revisions()
        .filter(|c| day(c.entry.sealed_at) == today)
        .filter_map(|c| c.entry.cost.as_ref())
        .map(|c| c.usd)
        .sum()
}

/// Spend summed by day and by what was asked: what `lcmem journal --costs`
/// prints, oldest day first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DaySpend {
    pub day: String,
    pub seals: u32,
    pub fallbacks: u32,
    /// The day's spend on one lane, every seal's [`Cost`] added up.
    #[serde(flatten)]
    pub cost: Cost,
}

pub fn by_day(journal: &Journal) -> Vec<DaySpend> {
    let mut rows: Vec<DaySpend> = Vec::new();
    let mut seals: Vec<_> = journal.revisions().filter_map(|c| Some((&c.entry, c.entry.cost.as_ref()?))).collect();
    seals.sort_by_key(|(entry, _)| entry.sealed_at);
    for (entry, cost) in seals {
        let day = crate::dates::day(entry.sealed_at);
        let at = rows.iter().position(|r| r.day == day && r.cost.asked == cost.asked);
        let row = match at.and_then(|at| rows.get_mut(at)) {
            Some(row) => row,
            None => {
                rows.push(DaySpend { day, seals: 0, fallbacks: 0, cost: Cost::default() });
                let Some(row) = rows.last_mut() else { continue };
                row
            }
        };
        row.seals += 1;
        row.fallbacks += u32::from(entry.fallback.is_some());
        row.cost.add(cost);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dated_snapshot_finds_its_family_and_settings_win() {
        assert_eq!(price_of("gpt-4o-mini-2024-07-18", false, &[]).input, 0.15);
        assert_eq!(price_of("gpt-4o-2024-08-06", false, &[]).input, 2.50, "the longest prefix, not the first");
        let mine = vec![("gpt-4o-mini".to_string(), 1.0, 2.0)];
        let p = price_of("gpt-4o-mini", false, &mine);
        assert_eq!((p.input, p.output, p.by), (1.0, 2.0, PricedBy::Settings));
    }

    #[test]
    fn an_unknown_model_is_free_on_this_machine_and_dear_elsewhere() {
        assert!(price_of("qwen2.5-coder", true, &[]).is_free());
        let remote = price_of("qwen2.5-coder", false, &[]);
        assert_eq!((remote.input, remote.by), (DEFAULT_PRICE.0, PricedBy::Default));
        assert!((remote.usd(1_000_000, 100_000) - 4.5).abs() < 1e-9);
    }
}
