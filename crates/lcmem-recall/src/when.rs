//! Dates named in a query ("in June", "October 13, 2023", "in 2024").
//!
//! A question that names a date usually asks about what happened then, and
//! the words of the answer rarely repeat the date: the time is in the
//! unit's timestamp, not in its text. So a named date is read as a soft
//! constraint on time: units from that day, month or year rank higher (see
//! `rank::score`); the words themselves are still searched as usual.
//!
//! Only unambiguous forms are read: an English month name, with a day and a
//! year next to it if they are there; a four-digit number from 1900 to 2199
//! as a year; `2023-10-13` and `2023-10`. "May" and "March" are also verbs,
//! so they count only next to a day or a year.

use jiff::Timestamp;
use jiff::civil::Date;

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// A calendar date, possibly partial: every part that is set must match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When {
    pub year: Option<i16>,
    pub month: Option<i8>,
    pub day: Option<i8>,
}

impl When {
    /// Whether `ts` (read in UTC) falls on this date.
    pub fn contains(&self, ts: i64) -> bool {
        let Ok(t) = Timestamp::from_second(ts) else { return false };
        let d: Date = jiff::tz::TimeZone::UTC.to_datetime(t).date();
        self.year.is_none_or(|y| y == d.year())
            && self.month.is_none_or(|m| m == d.month())
            && self.day.is_none_or(|x| x == d.day())
    }
}

fn month(word: &str) -> Option<i8> {
    let lower = word.to_ascii_lowercase();
    MONTHS.iter().position(|m| *m == lower).map(|i| i as i8 + 1)
}

fn year(word: &str) -> Option<i16> {
    (word.len() == 4).then(|| word.parse::<i16>().ok()).flatten().filter(|y| (1900..=2199).contains(y))
}

/// A day of the month, also written `13th`, `1st`.
fn day(word: &str) -> Option<i8> {
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &word[digits.len()..];
    if digits.is_empty() || digits.len() > 2 || !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
        return None;
    }
    digits.parse::<i8>().ok().filter(|d| (1..=31).contains(d))
}

/// `2023-10-13` or `2023-10`.
fn iso(chunk: &str) -> Option<When> {
    let mut parts = chunk.split('-');
    let y = year(parts.next()?)?;
    let m = parts.next().filter(|p| p.len() == 2)?.parse::<i8>().ok().filter(|m| (1..=12).contains(m))?;
    let d = match parts.next() {
        None => None,
        Some(p) if p.len() == 2 => Some(p.parse::<i8>().ok().filter(|d| (1..=31).contains(d))?),
        Some(_) => return None,
    };
    parts.next().is_none().then_some(When { year: Some(y), month: Some(m), day: d })
}

/// The dates a query names.
pub fn parse(text: &str) -> Vec<When> {
    let mut out = Vec::new();
    let mut words = Vec::new();
    for chunk in text.split(|c: char| !(c.is_alphanumeric() || c == '-')) {
        match iso(chunk) {
            Some(when) => out.push(when),
            None => words.extend(chunk.split('-').filter(|w| !w.is_empty())),
        }
    }
    let mut used = vec![false; words.len()];
    for (i, w) in words.iter().enumerate() {
        let Some(m) = month(w) else { continue };
        let after = words.get(i + 1).and_then(|w| day(w)).map(|d| (i + 1, d));
        let before = i.checked_sub(1).and_then(|j| day(words[j]).map(|d| (j, d)));
        let found_day = after.or(before);
        let year_at = found_day.map_or(i, |(j, _)| j.max(i)) + 1;
        let found_year = words.get(year_at).and_then(|w| year(w));
        if matches!(m, 3 | 5) && found_day.is_none() && found_year.is_none() {
            continue;
        }
        used[i] = true;
        if let Some((j, _)) = found_day {
            used[j] = true;
        }
        if found_year.is_some() {
            used[year_at] = true;
        }
        out.push(When { year: found_year, month: Some(m), day: found_day.map(|(_, d)| d) });
    }
    for (i, w) in words.iter().enumerate() {
        if !used[i]
            && let Some(y) = year(w)
        {
            out.push(When { year: Some(y), month: None, day: None });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn when(year: Option<i16>, month: Option<i8>, day: Option<i8>) -> When {
        When { year, month, day }
    }

    #[test]
    fn reads_months_days_and_years() {
        assert_eq!(parse("what did we ship in June?"), [when(None, Some(6), None)]);
        assert_eq!(parse("the outage on October 13, 2023"), [when(Some(2023), Some(10), Some(13))]);
        assert_eq!(parse("on 1 February, 2023"), [when(Some(2023), Some(2), Some(1))]);
        assert_eq!(parse("release notes 2024"), [when(Some(2024), None, None)]);
        assert_eq!(parse("the 3rd of july"), [when(None, Some(7), None)]);
        assert_eq!(parse("deploy on 2023-10-13?"), [when(Some(2023), Some(10), Some(13))]);
        assert_eq!(parse("builds in 2023-10"), [when(Some(2023), Some(10), None)]);
        assert_eq!(parse("retry-count in June"), [when(None, Some(6), None)]);
    }

    #[test]
    fn may_and_march_need_a_date_next_to_them() {
        assert!(parse("what may cause the retries").is_empty());
        assert!(parse("May we march on").is_empty());
        assert_eq!(parse("since May 2024"), [when(Some(2024), Some(5), None)]);
    }

    #[test]
    fn a_timestamp_matches_the_parts_that_are_set() {
        let ts = "2023-10-13T09:00:00Z".parse::<Timestamp>().unwrap().as_second();
        assert!(when(Some(2023), Some(10), Some(13)).contains(ts));
        assert!(when(None, Some(10), None).contains(ts));
        assert!(!when(Some(2024), None, None).contains(ts));
        assert!(!when(None, Some(10), Some(12)).contains(ts));
    }
}
