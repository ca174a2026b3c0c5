//! Looking up a schedule's IANA zone in the bundled time zone database.
//!
//! A schedule's zone is stored with its trigger and never follows the machine (SPEC
//! §6), so lookups go to the tz database compiled into the binary
//! (`TimeZoneDatabase::bundled`), not to `/usr/share/zoneinfo`, `TZDIR` or `TZ`: the
//! same schedule plans the same firings on every machine. This module never calls
//! `TimeZone::system()`.

use std::sync::OnceLock;

use jiff::tz::{TimeZone, TimeZoneDatabase};

use crate::error::ScheduleError;

/// Holds how many "did you mean" names an unknown-zone error offers at most.
const MAX_SUGGESTIONS: usize = 3;

/// Returns the process-wide handle to the bundled database.
///
/// Built once: jiff caches parsed zones inside the handle, so sharing it makes repeated
/// lookups of the same zone cheap.
fn database() -> &'static TimeZoneDatabase {
    static DATABASE: OnceLock<TimeZoneDatabase> = OnceLock::new();
    DATABASE.get_or_init(TimeZoneDatabase::bundled)
}

/// Returns the zone with this IANA name from the bundled database.
///
/// The lookup ignores ASCII case (`europe/berlin` works); [`TimeZone::iana_name`] gives
/// the canonical spelling to store. Refuses names outside the database (`UTC+3`,
/// `Berlin`), suggesting IANA names that end in the given one, and refuses
/// `Etc/Unknown`, which jiff treats as a placeholder.
pub fn time_zone(name: &str) -> Result<TimeZone, ScheduleError> {
    let trimmed = name.trim();
    match database().get(trimmed) {
        Ok(zone) if !zone.is_unknown() && zone.iana_name().is_some() => Ok(zone),
        _ => Err(ScheduleError::UnknownZone { name: name.to_string(), suggestions: suggestions(trimmed) }),
    }
}

/// Returns IANA names whose last segment is the given name (`berlin` →
/// `Europe/Berlin`, `new york` → `America/New_York`).
fn suggestions(name: &str) -> Vec<String> {
    let wanted = name.to_lowercase().replace(' ', "_");
    let wanted = wanted.rsplit('/').next().unwrap_or_default();
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<String> = database()
        .available()
        .filter(|n| n.as_str().rsplit('/').next().is_some_and(|last| last.eq_ignore_ascii_case(wanted)))
        .map(|n| n.as_str().to_string())
        .filter(|n| !n.eq_ignore_ascii_case(name))
        .collect();
    found.sort();
    found.truncate(MAX_SUGGESTIONS);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks one name: the canonical IANA name, or the error with its hint.
    #[track_caller]
    fn check(name: &str, expected: &str) {
        let got = match time_zone(name) {
            Ok(zone) => zone.iana_name().unwrap_or("?").to_string(),
            Err(e) => format!("{e} / {}", e.hint().unwrap_or_default()),
        };
        assert_eq!(got, expected, "zone {name:?}");
    }

    #[test]
    #[rustfmt::skip]
    fn lookups() {
        check("Europe/Berlin", "Europe/Berlin");
        check("america/new_york", "America/New_York");
        check(" Pacific/Apia ", "Pacific/Apia");
        check("UTC", "UTC");
        check("Australia/Lord_Howe", "Australia/Lord_Howe");
        check("Berlin", "unknown time zone \"Berlin\" / did you mean Europe/Berlin?");
        check("new york", "unknown time zone \"new york\" / did you mean America/New_York?");
        check(
            "UTC+3",
            "unknown time zone \"UTC+3\" / use an IANA zone name such as Europe/Berlin or America/New_York",
        );
        check(
            "Etc/Unknown",
            "unknown time zone \"Etc/Unknown\" / use an IANA zone name such as Europe/Berlin or America/New_York",
        );
        check("", "unknown time zone \"\" / use an IANA zone name such as Europe/Berlin or America/New_York");
    }
}
