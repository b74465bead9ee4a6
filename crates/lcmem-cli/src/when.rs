//! Dates as people type them, for `--since`/`--until` and the MCP tool's
//! `since`.

use jiff::Timestamp;

/// What every date error ends with: the forms that are accepted.
pub const DATE_FORMS: &str = "use 2026-11-01 or an RFC 3339 time such as 2026-11-01T09:00:00Z";

/// A date or a time. A bare date is a whole UTC day: its first second when
/// it starts a range, its last when it ends one (`end_of_day`).
pub fn parse_date(s: &str, end_of_day: bool) -> Result<Timestamp, String> {
    let s = s.trim();
    if let Ok(ts) = s.parse::<Timestamp>() {
        return Ok(ts);
    }
    let date: jiff::civil::Date = s.parse().map_err(|_| format!("{s:?} is not a date: {DATE_FORMS}"))?;
    let time = if end_of_day { jiff::civil::time(23, 59, 59, 999_999_999) } else { jiff::civil::Time::midnight() };
    jiff::tz::TimeZone::UTC.to_timestamp(date.to_datetime(time)).map_err(|e| format!("{s:?}: {e}"))
}
