//! Reading user values the core needs as typed values: due dates and amounts. The
//! language work (ru/en/es phrases, every currency notation) lives in `tasks-text`;
//! this module turns its answers into model types and core errors.

use jiff::civil::Date;
use tasks_text::{amount, dates};

use crate::error::{Error, Result};
use crate::model::{Due, DueKind, Money};

/// Reads a due date: ISO `2026-12-01`, or a phrase relative to `today` in Russian,
/// English or Spanish (`tomorrow`, `в пятницу`, `next week`, `el lunes`).
pub fn parse_due(text: &str, today: Date) -> Result<Due> {
    let due = dates::parse_due(text, today).map_err(|e| Error::invalid("due", text, format!("{e}; {}", e.hint())))?;
    Ok(from_text_due(due))
}

/// Converts `tasks-text`'s due into the model's.
pub fn from_text_due(due: dates::Due) -> Due {
    let kind = match due.kind {
        dates::DueKind::Day => DueKind::Day,
        dates::DueKind::Week => DueKind::Week,
    };
    Due { date: due.date, kind }
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
