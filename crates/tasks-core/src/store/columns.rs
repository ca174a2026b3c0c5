//! Helpers shared by the row modules: reading a JSON or spelled column with an error
//! that names what could not be read, and writing an `IN (…)` list of stored spellings.

use rusqlite::Row;

/// Returns a conversion error for a stored value this binary cannot read.
pub(crate) fn bad_column(idx: usize, what: &str, detail: impl std::fmt::Display) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        idx,
        rusqlite::types::Type::Text,
        format!("unreadable {what} in the store: {detail}").into(),
    )
}

/// Reads a JSON column into its type.
pub(crate) fn json_column<T: serde::de::DeserializeOwned>(
    row: &Row<'_>,
    idx: usize,
    what: &str,
) -> rusqlite::Result<T> {
    let text: String = row.get(idx)?;
    serde_json::from_str(&text).map_err(|e| bad_column(idx, what, e))
}

/// Reads a spelled column (an enum kept by its `as_str`).
pub(crate) fn spelled_column<T: std::str::FromStr>(row: &Row<'_>, idx: usize, what: &str) -> rusqlite::Result<T>
where
    T::Err: std::fmt::Display,
{
    let text: String = row.get(idx)?;
    text.parse().map_err(|e| bad_column(idx, what, e))
}

/// Writes a value as its JSON text for a JSON column.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("stored values are plain structs and enums")
}

/// Returns `'a', 'b'` for an SQL `IN (…)`: the stored spellings of a fixed list of
/// enum values. Only for the enums' own constant spellings, never for user text.
pub(crate) fn sql_list(spellings: impl IntoIterator<Item = &'static str>) -> String {
    spellings.into_iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(", ")
}
