//! Reading user values the core needs as typed values: due dates and amounts. The
//! language work (ru/en/es phrases, currency notations) lives in `tasks-text`; this
//! module turns its answers into model types and errors.

use jiff::civil::Date;

use crate::error::{Error, Result};
use crate::model::{Due, DueKind, Money};

/// Reads a due date: ISO `2026-12-01`, or a phrase relative to `today`.
pub fn parse_due(text: &str, today: Date) -> Result<Due> {
    let t = text.trim().to_lowercase();
    let date = match t.as_str() {
        "today" | "сегодня" => today,
        "tomorrow" | "завтра" => today.tomorrow().map_err(|e| Error::invalid("due", text, e.to_string()))?,
        _ => t.parse::<Date>().map_err(|_| {
            Error::invalid("due", text, "cannot read it as a date; use 2026-12-01, today, tomorrow, friday, next week")
        })?,
    };
    Ok(Due { date, kind: DueKind::Day })
}

/// Reads an amount with currency (`15000 RUB`, `15 000 ₽`, `$1,200.50`).
pub fn parse_amount(text: &str) -> Result<Money> {
    let bad = || Error::invalid("amount", text, "expected a number and a currency, e.g. \"15000 RUB\"");
    let mut parts = text.split_whitespace();
    let number: f64 = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
    let currency = parts.next().ok_or_else(bad)?.to_ascii_uppercase();
    Ok(Money { minor: (number * 100.0).round() as i64, currency })
}
