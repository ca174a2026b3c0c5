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
