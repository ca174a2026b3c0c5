//! Conversations, their messages, and their durable FIFO queue (SPEC §6, §7).
//!
//! Firings of prompt schedules and (from issue 6) chat messages of one conversation
//! wait in one queue, in order of position then id: a firing waits while a reply is
//! being produced. A person can remove a pending item (its Job is cancelled) or promote
//! one: it moves to the head and the running item is interrupted (its Job too). The
//! queue is rows in the store, so it survives restarts. [`take_next`] and [`finish`]
//! are the steps the conversation runner (issue 6) takes; nothing here runs an item.

use super::{Job, Message, QueueItem, Schedule};
use crate::error::{Error, Result};
use crate::model::conversation::{MessagePayload, MessageRole, QueueKind, QueuePayload, QueueState};
use crate::model::schedule::JobState;
use crate::ops::Context;
use crate::port::Engine;

/// Holds the title of the local conversation, made on first use.
pub const LOCAL_TITLE: &str = "local";

/// Posts a message of a schedule into its conversation (role `schedule`).
pub(crate) fn post(tx: &dyn crate::port::Writes, s: &Schedule, job: Option<&Job>, text: &str, now: i64) -> Result<()> {
    tx.insert_conversation_message(
        s.conversation_id,
        MessageRole::Schedule,
        text,
        Some(s.task_id),
        job.map(|j| j.id),
        now,
    )?;
    Ok(())
}

/// Resolves a conversation id: the given one (must exist), else the local one if any.
fn conversation_or_local(store: &dyn Engine, conversation: Option<i64>) -> Result<Option<i64>> {
    match conversation {
        Some(id) => store
            .reader()
            .conversation(id)?
            .map(|c| Some(c.id))
            .ok_or_else(|| Error::NotFound { what: "conversation", value: id.to_string() }),
        None => store.reader().local_conversation_id(),
    }
}

/// Lists the running and pending items of a conversation's queue (the local one when
/// `None`), running first, then in queue order.
pub fn list(store: &dyn Engine, conversation: Option<i64>) -> Result<Vec<QueueItem>> {
    match conversation_or_local(store, conversation)? {
        Some(id) => store.reader().live_queue(Some(id)),
        None => Ok(Vec::new()),
    }
}

/// Returns the last `limit` messages of a conversation (the local one when `None`).
pub fn messages(store: &dyn Engine, conversation: Option<i64>, limit: usize) -> Result<Vec<Message>> {
    match conversation_or_local(store, conversation)? {
        Some(id) => store.reader().conversation_messages(id, limit),
        None => Ok(Vec::new()),
    }
}

/// Appends a chat message to a conversation's queue (the local one, made if needed)
/// and to its messages (role `user`).
pub fn push_message(store: &mut dyn Engine, ctx: &Context, conversation: Option<i64>, text: &str) -> Result<QueueItem> {
    if text.trim().is_empty() {
        return Err(Error::invalid("text", text, "the message is empty"));
    }
    let now = ctx.now_ms();
    store.write(|tx| {
        let conv = match conversation {
            Some(id) => {
                tx.conversation(id)?.ok_or_else(|| Error::NotFound { what: "conversation", value: id.to_string() })?.id
            }
            None => tx.local_conversation(LOCAL_TITLE, now)?,
        };
        tx.insert_conversation_message(conv, MessageRole::User, text, None, None, now)?;
        let payload = QueuePayload::Message(MessagePayload::text(text, ctx.actor.clone()));
        let id = tx.enqueue(conv, QueueKind::Message, None, &payload, now)?;
        item(tx, id)
    })
}

fn item(tx: &dyn crate::port::Reads, id: i64) -> Result<QueueItem> {
    tx.queue_item(id)?.ok_or_else(|| Error::NotFound { what: "queue item", value: id.to_string() })
}

fn not_pending(item: &QueueItem, what: &str) -> Error {
    Error::WrongState {
        key: format!("queue item {}", item.id),
        status: item.state.to_string(),
        reason: format!("only a pending item can be {what}"),
    }
}

/// Removes a pending item; a firing's Job is cancelled. Refuses a running or finished item.
pub fn remove(store: &mut dyn Engine, ctx: &Context, id: i64) -> Result<QueueItem> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let it = item(tx, id)?;
        if it.state != QueueState::Pending {
            return Err(not_pending(&it, "removed"));
        }
        tx.set_queue_state(id, QueueState::Removed, now)?;
        if let Some(job_id) = it.job_id {
            let reason = format!("removed from the conversation queue by {}", ctx.actor);
            tx.set_job_state(job_id, JobState::Cancelled, Some(&reason), now)?;
        }
        tx.insert_conversation_message(
            it.conversation_id,
            MessageRole::System,
            &format!("queue item #{id} removed by {}", ctx.actor),
            None,
            it.job_id,
            now,
        )?;
        item(tx, id)
    })
}

/// The outcome of `promote`.
#[derive(Debug, Clone)]
pub struct Promoted {
    /// The promoted item, now at the head.
    pub item: QueueItem,
    /// The items that were running and are now interrupted.
    pub interrupted: Vec<QueueItem>,
}

/// Moves a pending item to the head of its queue and interrupts the running item (and
/// its Job): interrupt-and-promote. Refuses an item that is not pending.
pub fn promote(store: &mut dyn Engine, ctx: &Context, id: i64) -> Result<Promoted> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let it = item(tx, id)?;
        if it.state != QueueState::Pending {
            return Err(not_pending(&it, "promoted"));
        }
        let mut interrupted = Vec::new();
        for running in tx.live_queue(Some(it.conversation_id))?.into_iter().filter(|i| i.state == QueueState::Running) {
            tx.set_queue_state(running.id, QueueState::Interrupted, now)?;
            if let Some(job_id) = running.job_id
                && matches!(tx.job_state(job_id)?, Some(JobState::Running | JobState::WaitingApproval))
            {
                let reason = format!("interrupted: queue item #{id} was promoted by {}", ctx.actor);
                tx.interrupt_runs(job_id, &reason, now)?;
                tx.set_job_state(job_id, JobState::Interrupted, Some(&reason), now)?;
            }
            interrupted.push(item(tx, running.id)?);
        }
        tx.move_queue_item_to_head(id, it.conversation_id, now)?;
        tx.insert_conversation_message(
            it.conversation_id,
            MessageRole::System,
            &format!("queue item #{id} promoted by {}", ctx.actor),
            None,
            it.job_id,
            now,
        )?;
        Ok(Promoted { item: item(tx, id)?, interrupted })
    })
}

/// Starts the head of a conversation's queue (pending → running) unless an item is
/// running already; returns it. A firing's Job becomes `running`. For the conversation
/// runner (issue 6).
pub fn take_next(store: &mut dyn Engine, ctx: &Context, conversation: i64) -> Result<Option<QueueItem>> {
    let now = ctx.now_ms();
    store.write(|tx| {
        // Two runners (two daemons on a team store) must not both take the head.
        tx.lock_conversation_queue(conversation)?;
        let live = tx.live_queue(Some(conversation))?;
        if live.iter().any(|i| i.state == QueueState::Running) {
            return Ok(None);
        }
        let Some(head) = live.into_iter().find(|i| i.state == QueueState::Pending) else { return Ok(None) };
        tx.set_queue_state(head.id, QueueState::Running, now)?;
        if let Some(job_id) = head.job_id {
            let attempt = tx.start_job(job_id, now)?;
            tx.insert_run(job_id, attempt, now)?;
        }
        Ok(Some(item(tx, head.id)?))
    })
}

/// Marks a running item done. For the conversation runner (issue 6), which also sets
/// the firing's Job state.
pub fn finish(store: &mut dyn Engine, ctx: &Context, id: i64) -> Result<QueueItem> {
    let now = ctx.now_ms();
    store.write(|tx| {
        let it = item(tx, id)?;
        if it.state != QueueState::Running {
            return Err(Error::WrongState {
                key: format!("queue item {id}"),
                status: it.state.to_string(),
                reason: "only a running item can be finished".into(),
            });
        }
        tx.set_queue_state(id, QueueState::Done, now)?;
        item(tx, id)
    })
}

#[cfg(test)]
mod tests {
    use crate::store::{Store, conversations};
    use jiff::civil::Time;
    use tasks_schedule::{MissedPolicy, Trigger};

    use super::*;
    use crate::model::schedule::{Action, PromptAction, PromptMode, When};
    use crate::ops::add::{AddRequest as TaskRequest, DupChoice};
    use crate::ops::schedule::manage::{self, AddRequest};

    struct Env {
        _dir: tempfile::TempDir,
        store: Store,
    }

    fn env() -> Env {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("t.db")).expect("store");
        Env { _dir: dir, store }
    }

    fn ctx() -> Context {
        Context::new("2026-11-29T12:00:00Z".parse().expect("an RFC 3339 instant"), "tester", jiff::tz::TimeZone::UTC)
    }

    /// A prompt schedule's `run-now` Job, parked in the local queue; returns the Job.
    fn parked_firing(env: &mut Env, title: &str) -> Job {
        let mut req = TaskRequest::titled(title);
        req.dup_choice = DupChoice::New;
        let key = crate::ops::add::add(&mut env.store, &ctx(), &req).expect("add").task.key;
        let action = Action::Prompt(PromptAction {
            text: "Summarize the week".into(),
            mode: PromptMode::Ask,
            tools: "read_only".into(),
            approval: "never".into(),
            timeout_seconds: 60,
            max_tool_calls: 5,
            output_budget_bytes: 1024,
            max_model_calls: 6,
        });
        let req = AddRequest {
            task: key.clone(),
            when: When::Time(Trigger::Daily { time: Time::constant(8, 0, 0, 0) }),
            zone: "UTC".into(),
            missed: MissedPolicy::RunOnce,
            action,
            max_active: 1,
            conversation: None,
            replace: false,
        };
        manage::add(&mut env.store, &ctx(), &req).expect("schedule");
        manage::run_now(&mut env.store, &ctx(), &key, "k").expect("run now").job
    }

    fn job_of(env: &Env, id: i64) -> Job {
        manage::job(&env.store, id).expect("job").job
    }

    fn ids(items: &[QueueItem]) -> Vec<i64> {
        items.iter().map(|i| i.id).collect()
    }

    /// Returns the state and reason of a `WrongState` refusal.
    #[track_caller]
    fn wrong_state<T: std::fmt::Debug>(result: Result<T>) -> (String, String) {
        match result {
            Err(Error::WrongState { status, reason, .. }) => (status, reason),
            other => panic!("expected a refusal for the item's state, got {other:?}"),
        }
    }

    #[test]
    fn an_empty_message_is_refused_and_nothing_is_made() {
        let mut env = env();
        for text in ["", "   ", "\n\t"] {
            let got = push_message(&mut env.store, &ctx(), None, text);
            assert!(matches!(&got, Err(Error::Invalid { field: "text", value, .. }) if value == text), "{got:?}");
        }
        assert_eq!(conversations::find_local_conversation(env.store.conn()).expect("find"), None);
    }

    #[test]
    fn a_message_joins_the_queue_and_the_conversation_from_its_author() {
        let mut env = env();
        let item = push_message(&mut env.store, &ctx(), None, "What is due today?").expect("push");
        assert_eq!((item.kind, item.state, item.job_id), (QueueKind::Message, QueueState::Pending, None));
        let payload = QueuePayload::Message(MessagePayload::text("What is due today?", "tester"));
        assert_eq!(item.payload, payload);
        let said = messages(&env.store, None, 10).expect("messages");
        assert_eq!(
            said.iter().map(|m| (m.role, m.text.as_str())).collect::<Vec<_>>(),
            [(MessageRole::User, "What is due today?")]
        );
        let again = push_message(&mut env.store, &ctx(), Some(item.conversation_id), "And tomorrow?").expect("push");
        assert_eq!(again.conversation_id, item.conversation_id, "one local conversation");
        assert_eq!(ids(&list(&env.store, None).expect("list")), [item.id, again.id]);
    }

    #[test]
    fn without_a_local_conversation_there_is_nothing_to_show() {
        let env = env();
        assert!(list(&env.store, None).expect("list").is_empty());
        assert!(messages(&env.store, None, 10).expect("messages").is_empty());
    }

    #[test]
    fn an_unknown_conversation_or_item_is_not_found() {
        let mut env = env();
        let not_found = |r: Result<Vec<QueueItem>>| matches!(r, Err(Error::NotFound { what: "conversation", .. }));
        assert!(not_found(list(&env.store, Some(9))));
        assert!(matches!(messages(&env.store, Some(9), 10), Err(Error::NotFound { what: "conversation", .. })));
        let push = push_message(&mut env.store, &ctx(), Some(9), "hi");
        assert!(matches!(push, Err(Error::NotFound { what: "conversation", .. })));
        let item =
            |r: Result<QueueItem>| matches!(r, Err(Error::NotFound { what: "queue item", value }) if value == "9");
        assert!(item(remove(&mut env.store, &ctx(), 9)));
        assert!(item(finish(&mut env.store, &ctx(), 9)));
        assert!(matches!(promote(&mut env.store, &ctx(), 9), Err(Error::NotFound { what: "queue item", .. })));
    }

    #[test]
    fn removing_a_pending_firing_cancels_its_job_and_says_who_did() {
        let mut env = env();
        let job = parked_firing(&mut env, "Weekly digest");
        let item = list(&env.store, None).expect("list")[0].clone();
        assert_eq!(item.job_id, Some(job.id));
        let removed = remove(&mut env.store, &ctx(), item.id).expect("remove");
        assert_eq!(removed.state, QueueState::Removed);
        let cancelled = job_of(&env, job.id);
        assert_eq!(cancelled.state, JobState::Cancelled);
        assert_eq!(cancelled.reason.as_deref(), Some("removed from the conversation queue by tester"));
        let last = messages(&env.store, None, 1).expect("messages").pop().expect("a message");
        assert_eq!(
            (last.role, last.text.as_str(), last.job_id),
            (MessageRole::System, &*format!("queue item #{} removed by tester", item.id), Some(job.id))
        );
        assert!(list(&env.store, None).expect("list").is_empty());
    }

    #[test]
    fn only_a_pending_item_can_be_removed_or_promoted() {
        let mut env = env();
        let done = push_message(&mut env.store, &ctx(), None, "first").expect("push");
        let running = push_message(&mut env.store, &ctx(), None, "second").expect("push");
        let removed = push_message(&mut env.store, &ctx(), None, "third").expect("push");
        let conversation = done.conversation_id;
        take_next(&mut env.store, &ctx(), conversation).expect("take").expect("the first");
        finish(&mut env.store, &ctx(), done.id).expect("finish");
        take_next(&mut env.store, &ctx(), conversation).expect("take").expect("the second");
        remove(&mut env.store, &ctx(), removed.id).expect("remove");
        for (id, status) in [(done.id, "done"), (running.id, "running"), (removed.id, "removed")] {
            let r = wrong_state(remove(&mut env.store, &ctx(), id));
            assert_eq!(r, (status.to_string(), "only a pending item can be removed".to_string()));
            let p = wrong_state(promote(&mut env.store, &ctx(), id));
            assert_eq!(p, (status.to_string(), "only a pending item can be promoted".to_string()));
        }
    }

    #[test]
    fn promoting_with_nothing_running_only_moves_the_item_to_the_head() {
        let mut env = env();
        let a = push_message(&mut env.store, &ctx(), None, "a").expect("push");
        let b = push_message(&mut env.store, &ctx(), None, "b").expect("push");
        let c = push_message(&mut env.store, &ctx(), None, "c").expect("push");
        let promoted = promote(&mut env.store, &ctx(), c.id).expect("promote");
        assert!(promoted.interrupted.is_empty());
        assert_eq!(promoted.item.state, QueueState::Pending);
        assert_eq!(ids(&list(&env.store, None).expect("list")), [c.id, a.id, b.id]);
        let last = messages(&env.store, None, 1).expect("messages").pop().expect("a message");
        assert_eq!((last.role, last.text), (MessageRole::System, format!("queue item #{} promoted by tester", c.id)));
    }

    #[test]
    fn the_head_starts_only_when_nothing_runs_and_a_firing_starts_its_job() {
        let mut env = env();
        let job = parked_firing(&mut env, "Weekly digest");
        let message = push_message(&mut env.store, &ctx(), None, "hello").expect("push");
        let conversation = message.conversation_id;
        let head = take_next(&mut env.store, &ctx(), conversation).expect("take").expect("the firing");
        assert_eq!((head.job_id, head.state), (Some(job.id), QueueState::Running));
        let detail = manage::job(&env.store, job.id).expect("job");
        assert_eq!((detail.job.state, detail.job.attempts, detail.runs.len()), (JobState::Running, 1, 1));
        assert!(take_next(&mut env.store, &ctx(), conversation).expect("take").is_none(), "one at a time");
        assert_eq!(finish(&mut env.store, &ctx(), head.id).expect("finish").state, QueueState::Done);
        let next = take_next(&mut env.store, &ctx(), conversation).expect("take").expect("the message");
        assert_eq!(next.id, message.id);
        finish(&mut env.store, &ctx(), next.id).expect("finish");
        assert!(take_next(&mut env.store, &ctx(), conversation).expect("take").is_none(), "the queue is empty");
    }

    #[test]
    fn only_a_running_item_can_be_finished() {
        let mut env = env();
        let item = push_message(&mut env.store, &ctx(), None, "hello").expect("push");
        let got = wrong_state(finish(&mut env.store, &ctx(), item.id));
        assert_eq!(got, ("pending".to_string(), "only a running item can be finished".to_string()));
        take_next(&mut env.store, &ctx(), item.conversation_id).expect("take");
        finish(&mut env.store, &ctx(), item.id).expect("finish");
        let again = wrong_state(finish(&mut env.store, &ctx(), item.id));
        assert_eq!(again.0, "done");
    }

    #[test]
    fn a_schedule_posts_as_the_schedule_about_its_task() {
        let mut env = env();
        let job = parked_firing(&mut env, "Weekly digest");
        let said = messages(&env.store, None, 100).expect("messages");
        assert!(
            said.iter()
                .all(|m| m.role == MessageRole::Schedule && m.task_key.as_deref() == Some(job.task_key.as_str()))
        );
        assert_eq!(said.last().map(|m| m.job_id), Some(Some(job.id)), "the firing's message names its Job");
        assert_eq!(said.first().map(|m| m.job_id), Some(None), "the schedule's own message names none");
    }
}
