//! Claims as leases (SPEC §4, seed 000 "Бронь"): a claim ends by itself, so a crashed
//! agent never holds a task forever; the holder renews by claiming again; `release`
//! and closing end it early. `next --claim` picks the best ready task and claims it in
//! the same transaction — the primitive a pool of agents needs.

use crate::error::{Error, Result};
use crate::model::Task;
use crate::ops::Context;
use crate::port::Engine;
use crate::store::events::{Change, ClaimChange, EventChange, ReleaseChange};
use crate::store::tasks::{self as task_rows, ListFilter};
use crate::{keys, time};

/// How long a claim lasts unless `--for` says otherwise: 30 minutes (SPEC §4).
///
/// Long enough for one focused agent step, short enough that a crashed agent's task
/// returns to the pool within a coffee break.
pub const DEFAULT_LEASE: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// Longest lease accepted: one week. A longer lease is an assignment, not a claim.
pub const MAX_LEASE: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

/// Checks a lease length against [`MAX_LEASE`] and zero.
pub fn check_lease(lease: std::time::Duration, as_given: &str) -> Result<()> {
    if lease.is_zero() {
        return Err(Error::invalid("for", as_given, "a lease must be longer than zero"));
    }
    if lease > MAX_LEASE {
        return Err(Error::invalid("for", as_given, "a lease is at most 7 days; release and claim again to extend"));
    }
    Ok(())
}

/// Claims (or renews) a task for `ctx.actor` for `lease`.
///
/// Refuses a closed task, a task blocked by open tasks, and a task whose live lease is
/// held by someone else (naming the holder and until when).
pub fn claim(store: &mut dyn Engine, ctx: &Context, reference: &str, lease: std::time::Duration) -> Result<Task> {
    let now = ctx.now_ms();
    let until = now + lease.as_millis() as i64;
    store.write(|tx| {
        let id = keys::resolve(tx, reference)?;
        let task = tx.task(id)?;
        if task.status.is_closed() {
            return Err(Error::WrongState {
                key: task.key,
                status: task.status.to_string(),
                reason: "only open or in-progress tasks can be claimed".into(),
            });
        }
        if task.is_blocked() {
            return Err(Error::Blocked { key: task.key, blockers: task.open_blockers });
        }
        if !tx.try_claim(id, &ctx.actor, until, now)? {
            let (holder, until) = task.live_claim(now).map(|(h, u)| (h.to_string(), u)).unwrap_or_default();
            return Err(Error::Claimed { key: task.key, holder, until: time::rfc3339(until) });
        }
        let renewal = task.live_claim(now).is_some_and(|(h, _)| h == ctx.actor);
        tx.record_event(
            id,
            now,
            &ctx.actor,
            &EventChange::Claim(ClaimChange {
                claimed_by: Change(task.claimed_by.clone(), Some(ctx.actor.clone())),
                claimed_until: Change(task.claimed_until.map(time::rfc3339), Some(time::rfc3339(until))),
                renewal: Some(renewal),
                via: None,
            }),
        )?;
        tx.task(id)
    })
}

/// Ends `ctx.actor`'s lease on a task early.
///
/// Releasing a task nobody holds is a no-op; releasing another actor's live lease is
/// refused (a person can still `done` the task, which ends any lease).
pub fn release(store: &mut dyn Engine, ctx: &Context, reference: &str) -> Result<Task> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let id = keys::resolve(tx, reference)?;
        let task = tx.task(id)?;
        match task.live_claim(now) {
            None => return Ok(task),
            Some((holder, _)) if holder != ctx.actor => {
                return Err(Error::NotHolder { key: task.key.clone(), actor: ctx.actor.clone() });
            }
            Some(_) => {}
        }
        tx.release_lease(id, now)?;
        tx.record_event(
            id,
            now,
            &ctx.actor,
            &EventChange::Release(ReleaseChange { claimed_by: Change(task.claimed_by.clone(), None) }),
        )?;
        tx.task(id)
    })
}

/// Picks the best ready task (priority, due, age) matching `filter` and claims it, in
/// one transaction, so two agents asking at once never get the same task.
pub fn next(
    store: &mut dyn Engine,
    ctx: &Context,
    filter: ListFilter,
    lease: std::time::Duration,
    describe: &str,
) -> Result<Task> {
    let now = ctx.now_ms();
    let until = now + lease.as_millis() as i64;
    store.write(|tx| {
        let mut f = task_rows::ready_filter(&ctx.actor, now, Some(1));
        f.project_id = filter.project_id;
        f.task_type = filter.task_type;
        f.tag = filter.tag.clone();
        f.person_id = filter.person_id;
        // "Next" means a task nobody holds, the caller included: an agent asking again
        // wants more work, not the task it already has.
        f.unclaimed_at = Some(now);
        // The engine passes over a task another writer is claiming right now (see
        // `Writes::pick_for_claim`): agents asking at once take different tasks.
        let Some(id) = tx.pick_for_claim(&f)? else {
            return Err(Error::NothingReady { filter: describe.to_string() });
        };
        let task = tx.task(id)?;
        // The pick is held for this write: nobody else can have claimed it since.
        if !tx.try_claim(task.id, &ctx.actor, until, now)? {
            return Err(Error::NothingReady { filter: describe.to_string() });
        }
        tx.record_event(
            task.id,
            now,
            &ctx.actor,
            &EventChange::Claim(ClaimChange {
                claimed_by: Change(task.claimed_by.clone(), Some(ctx.actor.clone())),
                claimed_until: Change(task.claimed_until.map(time::rfc3339), Some(time::rfc3339(until))),
                renewal: None,
                via: Some("next".into()),
            }),
        )?;
        tx.task(task.id)
    })
}

/// Reads a lease length: `30m`, `2h`, `90s`, `1h30m`, `1d` (at most [`MAX_LEASE`]).
pub fn parse_lease(text: &str) -> Result<std::time::Duration> {
    let lease = time::parse_duration("for", text)?;
    check_lease(lease, text)?;
    Ok(lease)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Option<u64>) {
        assert_eq!(parse_lease(input).ok().map(|d| d.as_secs()), expected, "{input}");
    }

    #[test]
    fn lease_lengths() {
        check("30m", Some(1800));
        check("2h", Some(7200));
        check("1h30m", Some(5400));
        check("90s", Some(90));
        check("1d", Some(86_400));
        check(" 45M ", Some(2700));
        check("7d", Some(7 * 86_400));
        check("8d", None);
        check("0m", None);
        check("30", None);
        check("m", None);
        check("half an hour", None);
        check("", None);
    }
}
