//! The one error type of schedule planning: refused input, named and quoted.
//!
//! Every variant carries what the user needs to fix the input (the field, the quoted
//! text, the reason). Messages follow the house style: what was wrong, the value in
//! quotes, where, no trailing period. Hints (`hint:` lines) are offered separately by
//! [`ScheduleError::hint`] so the CLI decides how to print them. This module does not
//! map errors to exit codes or wire codes; `tasks-cli` and `wire.rs` do.

use crate::cron::CronField;

/// Describes why a trigger, a zone or a piece of schedule input was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// The zone name is not in the bundled IANA time zone database.
    #[error("unknown time zone \"{name}\"")]
    UnknownZone {
        /// The name as given.
        name: String,
        /// IANA names that end in the given name (e.g. `Europe/Berlin` for `berlin`).
        suggestions: Vec<String>,
    },

    /// One field of a cron pattern was refused.
    #[error("cron field {field}: \"{text}\" {reason}")]
    CronField {
        /// The field, named as in crontab(5).
        field: CronField,
        /// The offending text (one list item, or the whole field).
        text: String,
        /// Why it was refused, phrased to follow the quoted text.
        reason: String,
    },

    /// A cron pattern was refused as a whole (field count, macros, length).
    #[error("cron \"{expression}\": {reason}")]
    CronShape {
        /// The pattern as given.
        expression: String,
        /// Why it was refused.
        reason: String,
    },

    /// A cron pattern fires more often than [`crate::limits::MIN_CRON_INTERVAL_MINUTES`].
    #[error(
        "cron \"{expression}\": fires {gap_minutes} minutes apart ({from} → {to}); \
         the minimum is {minimum} minutes"
    )]
    CronTooFrequent {
        /// The pattern as given.
        expression: String,
        /// The smallest gap found, in minutes of local wall-clock time.
        gap_minutes: u32,
        /// Local time (`HH:MM`) of the first firing of the tightest pair.
        from: String,
        /// Local time (`HH:MM`) of the second firing of the tightest pair.
        to: String,
        /// The minimum allowed gap, in minutes.
        minimum: u32,
    },

    /// A cron pattern can never fire (e.g. `0 0 31 2 *`).
    #[error("cron \"{expression}\": never fires: {reason}")]
    CronNeverFires {
        /// The pattern as given.
        expression: String,
        /// Why no date matches.
        reason: String,
    },

    /// A time of day could not be read.
    #[error("cannot read \"{input}\" as a time: {reason}")]
    Time {
        /// The input as given.
        input: String,
        /// Why it was refused.
        reason: String,
    },

    /// A weekday list could not be read.
    #[error("cannot read \"{input}\" as weekdays: {reason}")]
    Weekdays {
        /// The input as given.
        input: String,
        /// Why it was refused.
        reason: String,
    },

    /// A day of the month could not be read.
    #[error("cannot read \"{input}\" as a day of the month: {reason}")]
    MonthDay {
        /// The input as given.
        input: String,
        /// Why it was refused.
        reason: String,
    },

    /// A local date-time for a one-off trigger could not be read.
    #[error("cannot read \"{input}\" as a local date-time: {reason}")]
    DateTime {
        /// The input as given.
        input: String,
        /// Why it was refused.
        reason: String,
    },

    /// A trigger built in code (or read from storage) breaks a rule the parsers enforce.
    #[error("{trigger} trigger: {reason}")]
    InvalidTrigger {
        /// The trigger type (`once`, `daily`, `weekly`, `monthly`, `cron`).
        trigger: &'static str,
        /// What is wrong with it.
        reason: String,
    },

    /// A one-off trigger names a local day that does not exist in its zone.
    #[error("{at} never occurs in {zone}: that whole local day was skipped")]
    NeverOccurs {
        /// The local date-time as given (`YYYY-MM-DDTHH:MM`).
        at: String,
        /// The zone's IANA name.
        zone: String,
    },
}

impl ScheduleError {
    /// Returns a one-line hint that tells the user how to fix the input, if there is one.
    ///
    /// The text has no `hint:` prefix; the renderer adds it.
    pub fn hint(&self) -> Option<String> {
        match self {
            ScheduleError::UnknownZone { suggestions, .. } if !suggestions.is_empty() => {
                Some(format!("did you mean {}?", suggestions.join(" or ")))
            }
            ScheduleError::UnknownZone { .. } => {
                Some("use an IANA zone name such as Europe/Berlin or America/New_York".into())
            }
            ScheduleError::CronTooFrequent { .. } => {
                Some("use a step of 15 minutes or more, e.g. */15 or 0,30 in the minute field".into())
            }
            ScheduleError::NeverOccurs { .. } => Some("pick a time on the day before or after".into()),
            _ => None,
        }
    }
}
