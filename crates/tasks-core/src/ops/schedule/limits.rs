//! Every number that changes how schedules run (issue 5), each with its reason.
//!
//! Planning bounds (cron interval, catch-up defaults, grace) live in
//! `tasks_schedule::limits`; this module holds the bounds of running Jobs: budgets
//! frozen into actions, retries, event windows, list sizes. It holds no logic.

use std::time::Duration;

/// Holds how long a `command` action may run unless `--timeout` says otherwise: 10 min.
///
/// Scheduled commands are mostly reports, syncs and backups of a personal machine;
/// ten minutes covers those, and a hung command still frees its schedule (one active
/// Job at a time) well before the next daily firing.
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(10 * 60);

/// Holds the longest `--timeout` accepted: 24 hours. A command that runs longer than a
/// day would overlap every daily firing; run it as a service instead.
pub const MAX_COMMAND_TIMEOUT: Duration = Duration::from_secs(24 * 3600);

/// Holds how many bytes of a command's output (stdout and stderr together) are kept
/// unless `--output-budget` says otherwise: 64 KiB.
///
/// The output is stored on the Run and posted into the conversation; 64 KiB is a few
/// screens of text, enough for an error trace, small enough for a chat message and for
/// thousands of Runs in the store.
pub const DEFAULT_OUTPUT_BUDGET: u64 = 64 * 1024;

/// Holds the largest output budget accepted: 4 MiB (one SQLite row stays small).
pub const MAX_OUTPUT_BUDGET: u64 = 4 * 1024 * 1024;

/// Holds the longest a `prompt` action's LLM run may take (frozen into its snapshot for
/// the conversation runner of issue 6): 5 minutes.
pub const DEFAULT_PROMPT_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// Holds how many model calls a `prompt` action's run may make (frozen into its
/// snapshot): a read, its answer and a summary are three; six leaves room for a second
/// look without letting a confused model loop.
pub const DEFAULT_PROMPT_MODEL_CALLS: u32 = 6;

/// Holds how many tool calls a `prompt` action's run may make (frozen into its snapshot):
/// 20, several list/update rounds, and a stop for a model that loops.
pub const DEFAULT_PROMPT_TOOL_CALLS: u32 = 20;

/// Holds the exit code that marks a command's failure as transient: 75, `EX_TEMPFAIL`
/// of sysexits.h ("temporary failure; the user is invited to retry").
///
/// Any other non-zero exit is a real failure and is not retried: the program ran, may
/// have had side effects, and said no. A command that wants a retry exits 75.
pub const TRANSIENT_EXIT_CODE: i32 = 75;

/// Holds how many Runs one Job gets at most when its failures are transient: 3 (the
/// first and two retries).
pub const RETRY_MAX_RUNS: u32 = 3;

/// Holds the wait before the first retry; each later retry waits twice as long.
///
/// One second, then two: a transient failure of a local program (a busy lock, a full
/// process table) clears in seconds, and a scheduled Job should not sit for minutes.
pub const RETRY_FIRST_BACKOFF: Duration = Duration::from_secs(1);

/// Holds the longest wait between two Runs of one Job, whatever the doubling says.
pub const RETRY_MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Holds the default dedupe window of an event trigger: 60 s. Events about the same
/// task inside the window make one Job (a task ticked done, undone and done again by a
/// slip of the finger fires once).
pub const DEFAULT_EVENT_DEDUPE: Duration = Duration::from_secs(60);

/// Holds how many task events one scan reads per batch (the scan loops until done).
pub const EVENT_SCAN_BATCH: usize = 500;

/// Holds the most Jobs of one schedule that may be active at once when `--max-active`
/// raises the default of 1: 16. More parallel firings of one schedule are a mistake.
pub const MAX_ACTIVE_CEILING: u32 = 16;

/// Holds how many Jobs `tasks jobs` lists unless `--limit` says otherwise.
pub const JOBS_LIST_LIMIT: usize = 50;

/// Holds how many firings `tasks schedule preview --count` shows at most.
pub const PREVIEW_MAX_COUNT: usize = 1000;

/// Holds how long a daemon's lease on a Run it runs lasts from its last renewal: 60 s.
///
/// The daemon renews its leases every loop (at most a third of this apart), so a live
/// daemon never loses one; a daemon that was killed loses its Runs to the first other
/// daemon that looks after this long. Shorter would interrupt a daemon stalled by a
/// slow disk or a suspended laptop; longer leaves a dead daemon's Job `running` longer
/// on the page. `tasks daemon --lease` changes it (tests use seconds).
pub const JOB_LEASE_MS: i64 = 60_000;

/// Holds how long a queue item another runner took stays its own on a shared store:
/// 15 min. A turn is bounded well below it (the model's timeout times its rounds);
/// after it, a runner that starts takes the item for abandoned and interrupts it.
pub const RUNNER_ITEM_LEASE_MS: i64 = 15 * 60_000;

/// Returns the wait before retry number `retry` (1 for the first retry).
pub fn retry_backoff(retry: u32) -> Duration {
    let factor = 1u32.checked_shl(retry.saturating_sub(1)).unwrap_or(u32::MAX);
    RETRY_FIRST_BACKOFF.saturating_mul(factor).min(RETRY_MAX_BACKOFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let secs: Vec<u64> = [1, 2, 3, 7, 40].iter().map(|&r| retry_backoff(r).as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 60, 60]);
    }
}
