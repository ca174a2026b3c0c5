//! Placing one local wall-clock minute of a zone on the timeline, by SPEC §6's DST rules.
//!
//! jiff's `Disambiguation::Compatible` sends a gap time 02:30 to 03:30; the rule here is
//! different, so gaps and folds are resolved from jiff's raw offset and transition data:
//!
//! - a minute that exists once fires then;
//! - a minute repeated by a fall-back fold fires on its first pass only;
//! - a minute skipped by a spring-forward gap fires at the first valid minute after the
//!   gap, provided that minute is on the same local date — so a day that does not exist
//!   at all (Pacific/Apia 2011-12-30) fires nothing.
//!
//! This module does not know which minutes a trigger wants; `plan.rs` asks it about
//! each candidate. It never reads the machine's zone.

use jiff::civil::DateTime;
use jiff::tz::{AmbiguousOffset, TimeZone};
use jiff::{SignedDuration, Timestamp};

/// Describes how a local date-time exists in a zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalTime {
    /// The local time occurs exactly once.
    Unique(Timestamp),
    /// The local time occurs twice (a fall-back fold).
    Repeated {
        /// The first pass, before the clocks go back.
        first: Timestamp,
        /// The second pass, after the clocks go back.
        second: Timestamp,
    },
    /// The local time does not occur (a spring-forward gap, or a skipped day).
    Skipped {
        /// The instant of the first valid whole minute after the gap.
        resumes: Timestamp,
        /// That minute as local time; its date may be later than the asked-for date.
        resumes_local: DateTime,
    },
}

impl LocalTime {
    /// Returns the instant a schedule due at this local time fires, or `None` when the
    /// gap swallows the rest of the local day.
    ///
    /// `local` must be the date-time this value was built from.
    pub fn firing(self, local: DateTime) -> Option<Timestamp> {
        match self {
            LocalTime::Unique(at) => Some(at),
            // Each local minute fires at most once: the fold's first pass.
            LocalTime::Repeated { first, .. } => Some(first),
            // "The first valid minute after the gap, on that day": a gap that runs
            // past midnight leaves no such minute on that day.
            LocalTime::Skipped { resumes, resumes_local } => (resumes_local.date() == local.date()).then_some(resumes),
        }
    }
}

/// Classifies a local date-time in a zone as unique, repeated or skipped.
///
/// Returns `None` only at the very ends of jiff's supported range (years -9999 and
/// 9999), where the instant cannot be represented.
pub fn classify(zone: &TimeZone, local: DateTime) -> Option<LocalTime> {
    match zone.to_ambiguous_timestamp(local).offset() {
        AmbiguousOffset::Unambiguous { offset } => offset.to_timestamp(local).ok().map(LocalTime::Unique),
        AmbiguousOffset::Fold { before, after } => {
            // The offset before a fall-back is the larger one, so it gives the earlier
            // instant for the same wall-clock reading.
            let first = before.to_timestamp(local).ok()?;
            let second = after.to_timestamp(local).ok()?;
            Some(LocalTime::Repeated { first, second })
        }
        AmbiguousOffset::Gap { after, .. } => {
            // The gap covers local times [T + before, T + after) for the transition
            // instant T, so `local - after` lies strictly before T and the next
            // transition after it is T.
            let probe = after.to_timestamp(local).ok()?;
            let transition = zone.following(probe).next()?;
            let offset = transition.offset();
            let at = transition.timestamp();
            let resumes_local = offset.to_datetime(at);
            // Transitions from the local-mean-time era can fall on odd seconds; the
            // rule speaks of the first valid *minute*.
            let into_minute = SignedDuration::new(i64::from(resumes_local.second()), resumes_local.subsec_nanosecond());
            if into_minute.is_zero() {
                return Some(LocalTime::Skipped { resumes: at, resumes_local });
            }
            let rounded =
                resumes_local.checked_sub(into_minute).ok()?.checked_add(SignedDuration::from_mins(1)).ok()?;
            Some(LocalTime::Skipped { resumes: offset.to_timestamp(rounded).ok()?, resumes_local: rounded })
        }
    }
}

/// Returns the instant a schedule due at `local` fires in `zone`, by SPEC §6's rules;
/// `None` when that local time and the rest of its day do not exist.
pub fn firing_instant(zone: &TimeZone, local: DateTime) -> Option<Timestamp> {
    classify(zone, local)?.firing(local)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zone::time_zone;

    /// Checks one local time: the firing instant (RFC 3339, UTC) or "none".
    #[track_caller]
    fn check(zone: &str, local: &str, expected: &str) {
        let tz = time_zone(zone).expect("known zone");
        let local: DateTime = local.parse().expect("valid local date-time");
        let got = firing_instant(&tz, local).map_or("none".to_string(), |t| t.to_string());
        assert_eq!(got, expected, "{zone} {local}");
    }

    #[test]
    #[rustfmt::skip]
    fn firing_instants() {
        // New York: gap 02:00-03:00 on 2026-03-08 (EST → EDT), fold 01:00-02:00 on 11-01.
        check("America/New_York", "2026-03-08T01:59", "2026-03-08T06:59:00Z");
        check("America/New_York", "2026-03-08T02:00", "2026-03-08T07:00:00Z");
        check("America/New_York", "2026-03-08T02:30", "2026-03-08T07:00:00Z");
        check("America/New_York", "2026-03-08T03:00", "2026-03-08T07:00:00Z");
        check("America/New_York", "2026-11-01T01:30", "2026-11-01T05:30:00Z");
        check("America/New_York", "2026-11-01T02:00", "2026-11-01T07:00:00Z");
        // Lord Howe: 30-minute gap 02:00-02:30 (+10:30 → +11) on 2026-10-04.
        check("Australia/Lord_Howe", "2026-10-04T02:15", "2026-10-03T15:30:00Z");
        check("Australia/Lord_Howe", "2026-04-05T01:45", "2026-04-04T14:45:00Z");
        // Apia: 2011-12-30 does not exist; midnight of the 31st does.
        check("Pacific/Apia", "2011-12-30T09:00", "none");
        check("Pacific/Apia", "2011-12-30T00:00", "none");
        check("Pacific/Apia", "2011-12-31T00:00", "2011-12-30T10:00:00Z");
        // Santiago: the day 2026-09-06 starts at 01:00 (-03).
        check("America/Santiago", "2026-09-06T00:00", "2026-09-06T04:00:00Z");
        check("America/Santiago", "2026-04-04T23:30", "2026-04-05T02:30:00Z");
        check("Asia/Kolkata", "2026-03-08T02:30", "2026-03-07T21:00:00Z");
    }

    #[test]
    fn classification() {
        let tz = time_zone("Europe/Berlin").expect("known zone");
        let fold: DateTime = "2026-10-25T02:30".parse().expect("valid");
        assert_eq!(
            classify(&tz, fold),
            Some(LocalTime::Repeated {
                first: "2026-10-25T00:30:00Z".parse().expect("valid"),
                second: "2026-10-25T01:30:00Z".parse().expect("valid"),
            })
        );
        let gap: DateTime = "2026-03-29T02:30".parse().expect("valid");
        assert_eq!(
            classify(&tz, gap),
            Some(LocalTime::Skipped {
                resumes: "2026-03-29T01:00:00Z".parse().expect("valid"),
                resumes_local: "2026-03-29T03:00".parse().expect("valid"),
            })
        );
    }
}
