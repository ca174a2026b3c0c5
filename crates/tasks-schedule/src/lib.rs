//! Schedule planning for `tasks`: triggers, restricted cron, exact DST rules, missed runs.
//!
//! This crate is the pure planning half of scheduled tasks (SPEC §6). It answers "when
//! does this schedule fire next" and "what to run after downtime"; the store persists
//! schedules and Jobs and the daemon runs them. Deliberately absent: SQLite, async,
//! clock reads (`now` and `after` are always arguments), environment reads, and the
//! machine's time zone — zones come from the tz database bundled into the binary, so a
//! schedule plans the same firings on every machine and whatever `TZ` says.
//!
//! # API
//!
//! - [`Trigger`] — `once`, `daily`, `weekly`, `monthly`, `cron`; stored as tagged JSON;
//!   [`Trigger::workdays`] is the Mon–Fri weekly preset. [`MonthDay`] is `Day(1..=31)`
//!   or `Last`.
//! - [`Plan::new`]`(trigger, zone)` validates a trigger in an IANA zone;
//!   [`Plan::next_after`] gives the first firing strictly after an instant;
//!   [`Plan::preview`] gives [`Firing`]s (instant and local time) for `schedule preview`;
//!   [`Plan::firings_after`] iterates.
//! - Parsers for CLI flags: [`parse_time`], [`parse_weekdays`], [`parse_month_day`],
//!   [`parse_once`], [`parse_cron`] (a [`CronPattern`]), and [`time_zone`].
//! - [`plan_missed`] with a [`MissedPolicy`] gives a [`MissedPlan`].
//! - [`LocalTime`], [`classify`] and [`firing_instant`] expose the DST resolution, so
//!   a CLI can explain "02:30 does not exist that day; fires at 03:00".
//! - [`ScheduleError`] is the one error type; [`limits`] holds every tunable number.
//!
//! # Rules
//!
//! - Each local wall-clock minute fires at most once: in a fall-back fold only the first
//!   pass fires, for fixed times and cron patterns alike.
//! - A local time inside a spring-forward gap fires once at the first valid minute after
//!   the gap, on that day (New York 2026-03-08 02:30 → 03:00 EDT, not jiff's
//!   "compatible" 03:30); several gap minutes of one pattern collapse into that one
//!   firing. If the gap swallows the rest of the day (Pacific/Apia 2011-12-30), that
//!   day fires nothing.
//! - Monthly day 29–31 skips months without that day; `last` is the month's last day.
//! - Cron is the five-field core of crontab(5), at least
//!   [`limits::MIN_CRON_INTERVAL_MINUTES`] between firings in local wall-clock terms.
//!   When day-of-month and day-of-week are both restricted, a day matches if EITHER
//!   does (Vixie cron); a field counts as unrestricted when it starts with `*`.
//!
//! # Example
//!
//! ```
//! use tasks_schedule::{Plan, Trigger, parse_time};
//!
//! let plan = Plan::new(Trigger::Daily { time: parse_time("02:30")? }, "America/New_York")?;
//! let after: jiff::Timestamp = "2026-03-07T12:00:00Z".parse()?;
//! let firings: Vec<String> = plan
//!     .preview(after, 2)
//!     .into_iter()
//!     .map(|f| f.local.to_string())
//!     .collect();
//! assert_eq!(firings, [
//!     "2026-03-08T03:00:00-04:00[America/New_York]", // 02:30 does not exist that day
//!     "2026-03-09T02:30:00-04:00[America/New_York]",
//! ]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod cron;
mod error;
pub mod limits;
mod missed;
mod plan;
mod resolve;
mod trigger;
mod zone;

pub use cron::{CronField, CronPattern, parse_cron};
pub use error::ScheduleError;
pub use missed::{MissedPlan, MissedPolicy, SkippedCount, plan_missed};
pub use plan::{Firing, Plan};
pub use resolve::{LocalTime, classify, firing_instant};
pub use trigger::{
    MonthDay, Trigger, format_datetime, format_time, parse_month_day, parse_once, parse_time, parse_weekdays,
    weekday_name,
};
pub use zone::time_zone;
