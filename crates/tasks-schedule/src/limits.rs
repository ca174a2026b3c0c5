//! Every number that changes how schedules are planned, each with its reason.
//!
//! Callers that make a value configurable (the catch-up bounds, SPEC §6) use these as
//! defaults and pass their own values through [`crate::MissedPolicy`]. This module holds
//! no logic and reads no configuration.

use jiff::SignedDuration;

/// Holds the smallest allowed gap, in minutes of local wall-clock time, between two
/// consecutive firings of a cron pattern.
///
/// SPEC §6 sets 15 minutes: every firing becomes a Job with Runs and may start an LLM
/// run, so a tighter pattern would flood the queue. The gap is measured on the pattern
/// itself (including 23:50 → 00:00 and xx:50 → next hour's xx:00), not on real
/// elapsed time, so DST transitions neither allow nor forbid a pattern.
pub const MIN_CRON_INTERVAL_MINUTES: u32 = 15;

/// Holds the number of minutes in one local day, the size of the minute-of-day grid
/// that fixed times and cron patterns are placed on.
pub const MINUTES_PER_DAY: u16 = 24 * 60;

/// Holds the longest cron expression accepted, in bytes.
///
/// A valid restricted pattern listing every minute value is far below this; the bound
/// only keeps error messages and parsing cheap on pasted garbage.
pub const CRON_MAX_LEN: usize = 256;

/// Holds how many firings `tasks schedule preview` shows by default (SPEC §6: "shows
/// the next five firings").
pub const PREVIEW_COUNT: usize = 5;

/// Holds how many local days the search for the next firing walks before giving up.
///
/// The sparsest pattern the cron rules accept is "Feb 29 that is also a Sunday"
/// (`0 0 29 2 */7`: a `*`-led day-of-week field makes the day rule an AND), whose
/// firings can be 40 years apart around 2100, a non-leap year. Fifty years of days
/// covers it with margin; ordinary patterns stop within a few days.
pub const SEARCH_HORIZON_DAYS: u32 = 50 * 366;

/// Holds the default of `catch_up_bounded`'s run bound: at most this many missed
/// firings become Jobs after downtime (SPEC §6: "at most 3").
pub const CATCH_UP_MAX_RUNS: u32 = 3;

/// Holds the most missed firings one catch-up may run, whatever `max_runs` is
/// configured to.
///
/// Keeps planning work bounded (each run is found by the search) and stops a typo in
/// the configuration from queueing thousands of Jobs at once.
pub const CATCH_UP_RUNS_CEILING: u32 = 100;

/// Holds the default of `catch_up_bounded`'s age bound in days: a missed firing older
/// than this is skipped, never run (SPEC §6: "at most 7 days back").
///
/// Days here are 24-hour spans of real time, not calendar days, so the bound does not
/// stretch or shrink across a DST change.
pub const CATCH_UP_MAX_AGE_DAYS: i64 = 7;

/// Holds [`CATCH_UP_MAX_AGE_DAYS`] as a duration.
pub const CATCH_UP_MAX_AGE: SignedDuration = SignedDuration::from_hours(CATCH_UP_MAX_AGE_DAYS * 24);

/// Holds how late a firing may be noticed and still count as on time, not missed.
///
/// The daemon sleeps until the next `next_fire_at` and wakes a little late (timer
/// slack, a busy store writer). A firing at most this old when planned runs normally
/// under every policy; anything older is "missed" and obeys the missed-run policy. One
/// minute covers ordinary wake-up latency while still treating a laptop that slept
/// through 09:00 and woke at 09:05 as having missed the firing.
pub const MISSED_GRACE: SignedDuration = SignedDuration::from_secs(60);

/// Holds how many skipped firings are counted one by one before the count is reported
/// as "at least" this many.
///
/// A `*/15` schedule missed for three years has over 100 000 firings; counting them
/// exactly buys nothing (the message says "1000 or more skipped") and costs time.
pub const SKIPPED_COUNT_CAP: u64 = 1000;

/// Holds the first window, in hours, of the backward search for the most recent missed
/// firings; the window doubles until it holds enough firings or reaches the last
/// planned time.
///
/// This changes only speed, never results: one day holds at most 96 firings of an
/// allowed pattern, so the first window is usually the last.
pub const MISSED_SEARCH_FIRST_WINDOW_HOURS: i64 = 24;
