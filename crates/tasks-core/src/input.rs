//! Reading user values the core needs as typed values: due dates and amounts. The
//! language work (ru/en/es phrases, every currency notation) lives in `tasks-text`;
//! this module turns its answers into model types and core errors.

use jiff::civil::Date;
use tasks_text::{amount, dates};

use crate::error::{Error, Result};
use crate::model::{Due, Money};

/// Reads a due date: ISO `2026-12-01`, or a phrase relative to `today` in Russian,
/// English or Spanish (`tomorrow`, `в пятницу`, `next week`, `el lunes`).
pub fn parse_due(text: &str, today: Date) -> Result<Due> {
    let due = dates::parse_due(text, today).map_err(|e| Error::invalid("due", text, format!("{e}; {}", e.hint())))?;
    Ok(from_text_due(due))
}

/// Reads a due value that may carry a time of day (`tomorrow 15:00`, «завтра в 10:00»,
/// `fri 9am`, `in 2 hours`) against the context's now and zone; a day phrase gives a
/// day or week due as [`parse_due`] does. A wall-clock time that a DST change skips
/// is taken as the first moment after the gap; one that happens twice, as the first.
pub fn parse_due_at(text: &str, ctx: &crate::ops::Context) -> Result<Due> {
    let now = ctx.zone.to_datetime(ctx.now);
    let when =
        tasks_text::parse_when(text, now).map_err(|e| Error::invalid("due", text, format!("{e}; {}", e.hint())))?;
    match when {
        tasks_text::When::Day(due) => Ok(from_text_due(due)),
        tasks_text::When::At(local) => {
            let at =
                ctx.zone.to_ambiguous_timestamp(local).compatible().map_err(|e| {
                    Error::invalid("due", text, format!("not a moment in {}: {e}", zone_name(&ctx.zone)))
                })?;
            Ok(Due::at(local.date(), at.as_millisecond()))
        }
    }
}

fn zone_name(zone: &jiff::tz::TimeZone) -> String {
    zone.iana_name().unwrap_or("the zone").to_string()
}

/// Converts `tasks-text`'s due into the model's.
pub fn from_text_due(due: dates::Due) -> Due {
    match due.kind {
        dates::DueKind::Day => Due::day(due.date),
        dates::DueKind::Week => Due::week(due.date),
    }
}

/// Reads an amount with currency (`15000 RUB`, `15 000 ₽`, `$1,200.50`, `40к руб`).
pub fn parse_amount(text: &str) -> Result<Money> {
    let a =
        amount::parse_amount_flag(text).map_err(|e| Error::invalid("amount", text, format!("{e}; {}", e.hint())))?;
    Ok(from_text_amount(&a))
}

/// Converts `tasks-text`'s amount into the model's money.
pub fn from_text_amount(a: &amount::Amount) -> Money {
    Money { minor: a.minor, currency: a.currency.code().to_string() }
}

/// Parses a byte size such as `4096`, `64k`, `64KiB` or `1M` for the named flag.
pub fn parse_bytes(field: &'static str, text: &str) -> Result<u64> {
    let t = text.trim().to_ascii_lowercase();
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    let (number, unit) = t.split_at(digits);
    let n: u64 = number.parse().map_err(|_| Error::invalid(field, text, "expected a size like 4096, 64k or 1M"))?;
    let factor: u64 = match unit.trim() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1024,
        "m" | "mb" | "mib" => 1024 * 1024,
        _ => return Err(Error::invalid(field, text, "expected a size like 4096, 64k or 1M")),
    };
    Ok(n.saturating_mul(factor))
}

pub use crate::time::parse_duration;

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check_duration(input: &str, expected: Option<u64>) {
        assert_eq!(parse_duration("timeout", input).ok().map(|d| d.as_secs()), expected, "{input}");
    }

    #[test]
    fn durations() {
        check_duration("90s", Some(90));
        check_duration("10m", Some(600));
        check_duration("1h30m", Some(5400));
        check_duration("2d", Some(172_800));
        check_duration("", None);
        check_duration("10", None);
        check_duration("m", None);
        check_duration("10x", None);
    }

    #[track_caller]
    fn check_bytes(input: &str, expected: Option<u64>) {
        assert_eq!(parse_bytes("output-budget", input).ok(), expected, "{input}");
    }

    #[test]
    fn sizes() {
        check_bytes("4096", Some(4096));
        check_bytes("64k", Some(65_536));
        check_bytes("64KiB", Some(65_536));
        check_bytes("1M", Some(1_048_576));
        check_bytes("1G", None);
        check_bytes("k", None);
    }
}
