//! Proves planning ignores the machine's zone settings (`TZ`, `TZDIR`).
//!
//! This binary holds exactly one test because it changes the process environment,
//! which is only sound while no other thread reads it. It does not test DST rules
//! themselves (see `tests/dst.rs`).

use jiff::Timestamp;
use jiff::civil::Time;
use tasks_schedule::{Plan, Trigger, time_zone};

#[test]
fn machine_zone_and_tzdir_are_ignored() {
    // SAFETY: this is the only test in this binary, so no other thread of the test
    // harness reads or writes the environment concurrently.
    unsafe {
        std::env::set_var("TZ", "Asia/Tokyo");
        std::env::set_var("TZDIR", "/nonexistent-tzdir");
    }
    // The bundled database answers even though TZDIR points nowhere.
    let apia = time_zone("Pacific/Apia").expect("Pacific/Apia is in the bundled tz database");
    assert_eq!(apia.iana_name(), Some("Pacific/Apia"));

    let plan = Plan::new(Trigger::Daily { time: Time::constant(9, 0, 0, 0) }, "Europe/Berlin").expect("valid plan");
    let after: Timestamp = "2026-01-15T00:00:00Z".parse().expect("valid instant");
    let firing = &plan.preview(after, 1)[0];
    // 09:00 in Berlin (+01:00 in January), not 09:00 in Tokyo.
    assert_eq!(firing.at.to_string(), "2026-01-15T08:00:00Z");
    assert_eq!(firing.local.to_string(), "2026-01-15T09:00:00+01:00[Europe/Berlin]");
}
