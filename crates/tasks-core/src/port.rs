//! The store as a port: the questions and writes the operations ask of a store, as
//! traits an engine implements, so every operation is written once.
//!
//! [`Reads`] is what may be asked outside a write, [`Writes`] what only a write
//! transaction may do (it extends [`Reads`]: a write reads what it is about to change
//! under the same lock). [`Engine`] opens those transactions. The SQLite store
//! ([`crate::Store`]) implements all three with its row modules; the PostgreSQL team
//! store (`tasks-pg`) implements them with its own SQL. The operations (`ops`,
//! `claims`, `graph`, `keys`) take `&dyn Engine` or `&dyn Writes` and never see SQL.
//!
//! Why trait objects and not generics: an operation is compiled once, not once per
//! engine, and the edges (CLI, MCP, chat) keep calling `ops::x(&mut store, …)` with a
//! concrete store that coerces. A virtual call costs nanoseconds beside a statement
//! (the `bench/run` table before and after is in docs/performance.md).
//!
//! # What each method owes
//! Every method's doc says what it guarantees. The guarantees that need a lock are the
//! engine's to give by its own means, and each is owed *inside one [`Engine::write`]*:
//! - **Counters** ([`Writes::next_project_number`], [`Writes::next_typed_number`]): no
//!   gap and no repeat, even with writers on other machines; a rolled-back write gives
//!   its number back. SQLite: the one writer. PostgreSQL: the counter row's lock.
//! - **Claims** ([`Writes::try_claim`]): one conditional update; two writers claiming
//!   at once, exactly one wins.
//! - **Checks before inserts** ([`Writes::lock_checked_writes`]): the duplicate check
//!   before a new task, the cycle check before a link, read and write with no other
//!   checked write in between. SQLite: the one writer. PostgreSQL: an advisory lock.
//! - **Atomicity**: everything one `write` did commits together or not at all; an
//!   engine that must retry (PostgreSQL's serialization failures, deadlocks) runs the
//!   closure again from the start, which is why it is `FnMut`.

use std::collections::HashMap;

use crate::dedup::source::CheckSource;
use crate::dedup::{Candidate, Decision};
use crate::error::Result;
use crate::keys::MessageLocator;
use crate::model::conversation::{ConversationKind, MessageRole, QueueKind, QueuePayload, QueueState};
use crate::model::schedule::JobState;
use crate::model::{LinkKind, Note, Project, ProjectKind, Status, Task};

pub use crate::store::conversations::{Conversation, Message};
pub use crate::store::dedup::{LabelledDecision, PendingPair};
pub use crate::store::events::{Completion, Event};
pub use crate::store::jobs::{Artifact, Job, NewJob, Run, RunEnd};
pub use crate::store::links::LinkRow;
pub use crate::store::operations::Operation;
pub use crate::store::queue::QueueItem;
pub use crate::store::schedules::{NewSchedule, Schedule};
pub use crate::store::tasks::{Column, ListFilter, NewTaskRow, Sort};

use crate::store::events::EventChange;

/// What may be asked of a store outside a write.
///
/// Reads outside a write see each statement's own snapshot (as SQLite's autocommit
/// reads do); a caller that needs one snapshot for several reads asks inside a write.
pub trait Reads {
    /// The engine's name, for messages ("SQLite", "PostgreSQL").
    fn engine_name(&self) -> &'static str;

    // --- tasks ---
    /// Reads a task with its derived values (tags, blockers, `blocked`); a missing id is
    /// [`Error::NotFound`].
    fn task(&self, id: i64) -> Result<Task>;
    /// Returns the id of the task with this key or legacy key (exact, canonical spelling).
    fn task_id_by_key(&self, key: &str) -> Result<Option<i64>>;
    /// Returns the id of the task an import gave this external id.
    fn task_id_by_external_id(&self, external_id: &str) -> Result<Option<i64>>;
    /// Returns (id, key) of the tasks whose UUID starts with `prefix` (lowercase hex and
    /// dashes), oldest first, at most `limit`.
    fn task_ids_by_uuid_prefix(&self, prefix: &str, limit: usize) -> Result<Vec<(i64, String)>>;
    /// Returns a task's key.
    fn task_key(&self, id: i64) -> Result<String>;
    /// Returns whether any task carries an external id (an import's caller id).
    fn any_external_id(&self) -> Result<bool>;
    /// Returns the tasks matching `filter`, in its order (both engines order alike:
    /// ties go to the lower id).
    fn tasks(&self, filter: &ListFilter) -> Result<Vec<Task>>;
    /// Counts the tasks matching `filter`, stopping at `at_most`.
    fn count_tasks(&self, filter: &ListFilter, at_most: usize) -> Result<usize>;

    // --- projects and persons ---
    /// Reads a project by id.
    fn project(&self, id: i64) -> Result<Project>;
    /// Reads a project by key.
    fn project_by_key(&self, key: &str) -> Result<Option<Project>>;
    /// Reads the inbox project of a message account.
    fn project_by_account(&self, account_id: &str) -> Result<Option<Project>>;
    /// Every project, by key.
    fn projects(&self) -> Result<Vec<Project>>;
    /// Open tasks per project id.
    fn open_counts(&self) -> Result<HashMap<i64, i64>>;
    /// Returns the id of the person with this handle.
    fn person_id(&self, handle: &str) -> Result<Option<i64>>;

    // --- links ---
    /// Returns whether a live task → task link exists.
    fn link_exists(&self, from: i64, kind: LinkKind, to: i64) -> Result<bool>;
    /// Returns whether `to` is reachable from `from` over live links of `kind` (the
    /// cycle check; owes an exact answer for the write it runs in).
    fn reachable(&self, from: i64, kind: LinkKind, to: i64) -> Result<bool>;
    /// Returns the targets of a task's live links of `kind`, by id.
    fn link_targets(&self, from: i64, kind: LinkKind) -> Result<Vec<i64>>;
    /// Returns every live link from or to a task.
    fn links_of_task(&self, task_id: i64) -> Result<Vec<LinkRow>>;
    /// Returns every live task → task link of `kind` as (from, to).
    fn links_of_kind(&self, kind: LinkKind) -> Result<Vec<(i64, i64)>>;
    /// Returns the open tasks blocked by `id`.
    fn blocked_dependants(&self, id: i64) -> Result<Vec<i64>>;

    // --- history ---
    /// A task's events, oldest first.
    fn events_of_task(&self, task_id: i64) -> Result<Vec<Event>>;
    /// The actor's newest operation that is neither undone nor itself an undo.
    fn last_undoable(&self, actor: &str) -> Result<Option<Operation>>;
    /// An operation's events, oldest first, with their task ids.
    fn events_of_operation(&self, op: i64) -> Result<Vec<(i64, Event)>>;
    /// The events on a task after event `after` that still stand (not undone, not an
    /// undo).
    fn standing_after(&self, task_id: i64, after: i64) -> Result<Vec<(i64, Event)>>;

    // --- notes and messages ---
    /// A task's live notes, oldest first.
    fn notes_of_task(&self, task_id: i64) -> Result<Vec<Note>>;
    /// The task a rule made from a message (the duplicate check's one exact match).
    fn rule_hit(&self, message_id: i64, rule: &str) -> Result<Option<i64>>;

    // --- the duplicate check and search ---
    /// The duplicate check's questions, over this engine's index.
    fn check_source(&self) -> Result<Box<dyn CheckSource + '_>>;
    /// The review queue: pairs a rule-made task was created beside, oldest first.
    fn pending_pairs(&self, limit: usize) -> Result<Vec<PendingPair>>;
    /// Task ids matching search terms (with their idf) in titles, descriptions and
    /// notes, best first, at most `pool`.
    fn search_matches(&self, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>>;

    /// Every decision that carries levels (merge, attach, reject, new): what `duplicates
    /// retrain` counts m from.
    fn labelled_decisions(&self) -> Result<Vec<LabelledDecision>>;
    /// Returns the ids of up to `n` tasks spread evenly over the store (every
    /// `count / n`-th id), for the random pairs u is counted from; both engines pick the
    /// same ids of the same store.
    fn sample_task_ids(&self, n: usize) -> Result<Vec<i64>>;
    /// Returns whether a merge or attach decision joins the two tasks (either order).
    fn is_merged_pair(&self, a: i64, b: i64) -> Result<bool>;

    // --- conversations ---
    /// Returns the id of the conversation of `kind` with this provider id (or name).
    fn conversation_id(&self, kind: ConversationKind, external_id: &str) -> Result<Option<i64>>;
    /// Returns the id of the first local conversation, if one exists.
    fn local_conversation_id(&self) -> Result<Option<i64>>;
    /// Reads a conversation.
    fn conversation(&self, id: i64) -> Result<Option<Conversation>>;
    /// Returns a conversation's remembered state (JSON kept for tasks-chat).
    fn conversation_state(&self, id: i64) -> Result<Option<String>>;
    /// Returns the last `limit` messages of a conversation, oldest first.
    fn conversation_messages(&self, id: i64, limit: usize) -> Result<Vec<Message>>;
    /// Returns the last update id a bot has queued.
    fn bot_offset(&self, bot: &str) -> Result<Option<i64>>;
    /// Returns the running and pending items of one conversation's queue (or of all),
    /// running first, then by position and id.
    fn live_queue(&self, conversation_id: Option<i64>) -> Result<Vec<QueueItem>>;
    /// Reads one queue item.
    fn queue_item(&self, id: i64) -> Result<Option<QueueItem>>;
    /// Returns the head pending item of every conversation of these kinds that has no
    /// running item, by conversation.
    fn startable_queue_heads(&self, kinds: &[ConversationKind]) -> Result<Vec<QueueItem>>;
    /// Returns the running items of conversations of these kinds.
    fn running_queue_items(&self, kinds: &[ConversationKind]) -> Result<Vec<QueueItem>>;

    // --- Jobs (what the queue changes of a firing's Job) ---
    /// Returns a Job's state, if the Job exists.
    fn job_state(&self, id: i64) -> Result<Option<JobState>>;

    // --- schedules, Jobs and Runs ---
    /// Reads a schedule; a missing id is an error.
    fn schedule(&self, id: i64) -> Result<Schedule>;
    /// Returns the live (not removed) schedule of a task.
    fn live_schedule_of_task(&self, task_id: i64) -> Result<Option<Schedule>>;
    /// Returns the task's most recent schedule, live or removed.
    fn latest_schedule_of_task(&self, task_id: i64) -> Result<Option<Schedule>>;
    /// Every schedule (the removed ones too when asked), oldest first.
    fn schedules(&self, include_removed: bool) -> Result<Vec<Schedule>>;
    /// Jobs, newest first, of one task and in one state when given, at most `limit`.
    fn jobs(&self, task_id: Option<i64>, state: Option<JobState>, limit: usize) -> Result<Vec<Job>>;
    /// Reads one Job.
    fn job(&self, id: i64) -> Result<Option<Job>>;
    /// A Job's Runs, first attempt first.
    fn runs_of_job(&self, job_id: i64) -> Result<Vec<Run>>;
    /// What a Job produced, oldest first.
    fn artifacts_of_job(&self, job_id: i64) -> Result<Vec<Artifact>>;
    /// The active Jobs of a schedule, oldest first.
    fn active_jobs(&self, schedule_id: i64) -> Result<Vec<Job>>;
    /// The queue item of a firing's Job, if it has one.
    fn queue_item_of_job(&self, job_id: i64) -> Result<Option<QueueItem>>;
    /// The newest history event's id (0 for none): where a new event trigger starts.
    fn last_task_event_id(&self) -> Result<i64>;
    /// The newest Job of every schedule that has one, by schedule id.
    fn latest_jobs(&self) -> Result<HashMap<i64, Job>>;
    /// Every Job in a state, oldest first.
    fn jobs_in_state(&self, state: JobState) -> Result<Vec<Job>>;
    /// A schedule's Jobs, newest first, at most `limit`.
    fn jobs_of_schedule(&self, schedule_id: i64, limit: usize) -> Result<Vec<Job>>;
    /// Every conversation with the number of live schedules posting into it, oldest first.
    fn conversations_with_schedules(&self) -> Result<Vec<(Conversation, usize)>>;
    /// A number that changes whenever any connection commits a change to the store (a
    /// page polls it to refresh). SQLite: `data_version`. PostgreSQL: the WAL insert
    /// position, which every commit that changed something moves.
    fn change_stamp(&self) -> Result<i64>;

    // --- making and running Jobs ---
    /// Whether other daemons and runners may work on this store at the same time.
    /// SQLite: no — the daemon holds a file lock beside the store, so whatever it finds
    /// running at start belongs to a dead process. PostgreSQL: yes, on any machine — so
    /// a running Job or queue item is another's until its lease ends.
    fn is_shared(&self) -> bool;
    /// Reads the Job with this idempotency key.
    fn job_by_key(&self, key: &str) -> Result<Option<Job>>;
    /// The ids of live, unpaused time schedules whose next firing is due by `now`,
    /// soonest first.
    fn due_time_schedules(&self, now: i64) -> Result<Vec<i64>>;
    /// The live, unpaused event schedules, oldest first.
    fn event_schedules(&self) -> Result<Vec<Schedule>>;
    /// The earliest next firing of any live, unpaused schedule.
    fn earliest_next_fire(&self) -> Result<Option<i64>>;
    /// When the next deferred Job may retry, if one waits.
    fn next_retry_at(&self) -> Result<Option<i64>>;
    /// Tasks turning `done` after history event `cursor`, oldest first, at most `limit`.
    fn completions_after(&self, cursor: i64, limit: usize) -> Result<Vec<Completion>>;
    /// The `scheduled_for` of a schedule's latest event Job (not skipped), of one
    /// subject when given.
    fn last_event_job_at(&self, schedule_id: i64, subject: Option<&str>) -> Result<Option<i64>>;
    /// The calls a prompt Job waits to have approved.
    fn pending_calls(&self, job_id: i64) -> Result<Option<String>>;
    /// The running Jobs whose action a daemon runs (due, command), oldest first.
    fn daemon_running_jobs(&self) -> Result<Vec<Job>>;
}

/// What only a write transaction may do. Everything written through one `&dyn Writes`
/// commits together (see [`Engine::write`]).
pub trait Writes: Reads {
    // --- tasks ---
    /// Inserts a task row and returns its id (the index rows are [`Writes::index_task`]).
    fn insert_task(&self, row: &NewTaskRow<'_>) -> Result<i64>;
    /// Sets a task's status (and `closed_at`, `close_reason`; closing ends any lease).
    fn set_task_status(&self, id: i64, status: Status, close_reason: Option<&str>, now: i64) -> Result<()>;
    /// Writes one column of a task and bumps `updated_at`.
    fn set_task_column(&self, id: i64, column: Column<'_>, now: i64) -> Result<()>;
    /// Takes or renews the lease when nobody else holds a live one: one conditional
    /// update, so of two writers exactly one wins. Returns whether it did.
    fn try_claim(&self, id: i64, actor: &str, until: i64, now: i64) -> Result<bool>;
    /// Returns the best task matching `filter` (in its order) that no other writer is
    /// taking at this moment, held for this write: what `next --claim` claims. Agents
    /// asking at once must get different tasks, not all the same one and then nothing.
    /// SQLite: the one writer makes the first row enough. PostgreSQL: `FOR UPDATE SKIP
    /// LOCKED`, so a row another transaction is claiming is passed over, not waited for.
    fn pick_for_claim(&self, filter: &ListFilter) -> Result<Option<i64>>;
    /// Sets the lease columns as they were (undo).
    fn set_lease(&self, id: i64, holder: Option<&str>, until: Option<i64>, now: i64) -> Result<()>;
    /// Ends a lease.
    fn release_lease(&self, id: i64, now: i64) -> Result<()>;
    /// Serializes checked writes (the duplicate check before a new task, the cycle check
    /// before a link) against every other checked write until this transaction ends.
    fn lock_checked_writes(&self) -> Result<()>;

    // --- projects, persons, tags ---
    /// Inserts a project; refuses a key that exists ([`Error::ProjectExists`]).
    fn insert_project(
        &self,
        key: &str,
        name: &str,
        description: &str,
        kind: ProjectKind,
        account_id: Option<&str>,
        now: i64,
    ) -> Result<Project>;
    /// Takes the project's next task number: no gap, no repeat (a row lock held to
    /// commit on an engine with several writers).
    fn next_project_number(&self, project_id: i64) -> Result<i64>;
    /// Takes the next number of a typed key prefix (`Q`, `REQ`, `M`, `PR`), as above.
    fn next_typed_number(&self, prefix: &str) -> Result<i64>;
    /// Returns the person with this handle, creating them when new.
    fn person_id_or_create(&self, handle: &str, now: i64) -> Result<i64>;
    /// Tags a task; returns false when it had the tag.
    fn add_tag(&self, task_id: i64, name: &str, now: i64) -> Result<bool>;
    /// Untags a task; returns false when it did not have the tag.
    fn remove_tag(&self, task_id: i64, name: &str) -> Result<bool>;

    // --- links ---
    /// Inserts a live task → task link.
    fn insert_link(&self, from: i64, kind: LinkKind, to: i64, actor: &str, now: i64) -> Result<()>;
    /// Ends a live task → task link; returns false when none was live.
    fn remove_link(&self, from: i64, kind: LinkKind, to: i64, actor: &str, now: i64) -> Result<bool>;
    /// Inserts a live task → message link unless it exists.
    fn insert_message_link(&self, task_id: i64, kind: LinkKind, message_id: i64, actor: &str, now: i64) -> Result<()>;
    /// Moves every live message link of `from` to `to` (a merge); returns the message ids.
    fn move_message_links(&self, from: i64, to: i64, actor: &str, now: i64) -> Result<Vec<i64>>;
    /// Moves one message link from `from` back to `to` (unmerge); returns 1 when it moved.
    fn move_message_link(&self, from: i64, to: i64, message_id: i64, actor: &str, now: i64) -> Result<usize>;
    /// Ends a task's live evidence link to a message; returns false when none was live.
    fn remove_evidence(&self, task_id: i64, locator: &str, actor: &str, now: i64) -> Result<bool>;

    // --- history ---
    /// Records one event of this transaction's operation (the unit of undo; the first
    /// event of a transaction makes the operation).
    fn record_event(&self, task_id: i64, at: i64, actor: &str, change: &EventChange) -> Result<()>;
    /// Returns this transaction's operation, making it on first use (every event of one
    /// write belongs to it; it is what `undo` reverts).
    fn current_operation(&self, at: i64, actor: &str) -> Result<i64>;
    /// Records that operation `undo` reverted `target`.
    fn mark_undone(&self, target: i64, undo: i64) -> Result<()>;

    // --- notes and messages ---
    /// Inserts a note with its index terms; returns its id.
    fn insert_note(&self, task_id: i64, at: i64, actor: &str, text: &str, terms: &str) -> Result<i64>;
    /// Removes a note (undo of a note).
    fn remove_note(&self, note_id: i64, at: i64) -> Result<()>;
    /// Returns the message with this locator, inserting it when new.
    fn upsert_message(&self, loc: &MessageLocator, author_person_id: Option<i64>, text: &str, now: i64) -> Result<i64>;
    /// Records that a rule made (or attached) a task from a message.
    fn insert_rule_hit(&self, message_id: i64, rule: &str, task_id: i64, now: i64) -> Result<()>;

    // --- the duplicate check's index and decisions ---
    /// Writes (or rewrites) a task's rows in the duplicate check's index from its stored
    /// fields, and keeps the index's statistics.
    fn index_task(&self, task_id: i64) -> Result<()>;
    /// Records a decision about a pair (merge, reject, attach, new, unmerge).
    fn record_decision(
        &self,
        task_id: Option<i64>,
        candidate_id: i64,
        decision: Decision,
        candidate: Option<&Candidate>,
        actor: &str,
        now: i64,
    ) -> Result<()>;
    /// Queues a pair for review (a rule-made task that looked like a duplicate).
    fn queue_pair(&self, task_id: i64, candidate: &Candidate, now: i64) -> Result<()>;
    /// Marks the queued pairs of `a` and `b` (either order) resolved; returns how many.
    fn resolve_pairs(&self, a: i64, b: i64, resolution: Decision, now: i64) -> Result<usize>;

    /// Writes the index rows of many new tasks, computed beforehand (an import computes
    /// them on its reader thread), and keeps the statistics once. An engine may ignore the
    /// rows and index each task from its stored fields: the rows are exactly that.
    fn index_new_tasks(&self, rows: &[(i64, crate::dedup::IndexRows, String)]) -> Result<()>;
    /// Prepares this write for many inserts (an import); returns what
    /// [`Writes::end_bulk_insert`] must restore. SQLite: references checked at commit,
    /// and into an empty store the secondary indexes of tasks, events, taggings and links
    /// dropped, to be built once at the end. PostgreSQL: nothing.
    fn begin_bulk_insert(&self) -> Result<Vec<String>>;
    /// Ends what [`Writes::begin_bulk_insert`] began (builds the indexes it dropped).
    fn end_bulk_insert(&self, dropped: &[String]) -> Result<()>;

    /// Replaces the learned weights (`duplicates retrain --apply`): (level, m, u, weight).
    fn store_weights(&self, rows: &[(crate::dedup::levels::Level, f64, f64, f64)], now: i64) -> Result<()>;

    // --- conversations ---
    /// Makes a conversation of `kind` with this provider id (or name); returns its id.
    fn create_conversation(&self, kind: ConversationKind, external_id: &str, title: &str, now: i64) -> Result<i64>;
    /// Appends a message to a conversation; returns its id.
    fn insert_conversation_message(
        &self,
        conversation_id: i64,
        role: MessageRole,
        text: &str,
        task_id: Option<i64>,
        job_id: Option<i64>,
        now: i64,
    ) -> Result<i64>;
    /// Replaces a conversation's remembered state.
    fn set_conversation_state(&self, id: i64, state: &str, now: i64) -> Result<()>;
    /// Records the last update id a bot has queued (never moving it back).
    fn set_bot_offset(&self, bot: &str, update_id: i64, now: i64) -> Result<()>;
    /// Appends a pending item at the tail of a conversation's queue; returns its id.
    fn enqueue(
        &self,
        conversation_id: i64,
        kind: QueueKind,
        job_id: Option<i64>,
        payload: &QueuePayload,
        now: i64,
    ) -> Result<i64>;
    /// Sets a queue item's state.
    fn set_queue_state(&self, id: i64, state: QueueState, now: i64) -> Result<()>;
    /// Moves a queue item ahead of every live item of its conversation.
    fn move_queue_item_to_head(&self, id: i64, conversation_id: i64, now: i64) -> Result<()>;

    // --- Jobs (what the queue changes of a firing's Job) ---
    /// Sets a Job's state and reason; a final state also sets its finish time.
    fn set_job_state(&self, id: i64, state: JobState, reason: Option<&str>, now: i64) -> Result<()>;
    /// Marks a Job running and counts one more Run; returns the Run's attempt number.
    fn start_job(&self, id: i64, now: i64) -> Result<u32>;
    /// Inserts a running Run of a Job; returns its id.
    fn insert_run(&self, job_id: i64, attempt: u32, now: i64) -> Result<i64>;
    /// Marks every running Run of a Job interrupted.
    fn interrupt_runs(&self, job_id: i64, error: &str, now: i64) -> Result<()>;

    // --- schedules ---
    /// Returns the local conversation, making it (with this title) on first use.
    fn local_conversation(&self, title: &str, now: i64) -> Result<i64>;
    /// Inserts a schedule; returns its id.
    fn insert_schedule(&self, s: &NewSchedule<'_>) -> Result<i64>;
    /// Replaces a schedule's trigger, zone, policy, action and limits, bumping its plan
    /// version (the paused flag, conversation and history stay).
    fn replace_schedule(&self, id: i64, s: &NewSchedule<'_>) -> Result<()>;
    /// Pauses or resumes a schedule, with where planning and matching go on from.
    fn set_schedule_paused(
        &self,
        id: i64,
        paused: bool,
        next_fire_at: Option<i64>,
        event_cursor: i64,
        now: i64,
    ) -> Result<()>;
    /// Marks a schedule removed (its row and history stay).
    fn set_schedule_removed(&self, id: i64, actor: &str, now: i64) -> Result<()>;

    // --- making and running Jobs (every method owes its answer to this write alone:
    // another daemon's write to the same rows waits or is passed over) ---
    /// Takes a schedule for planning in this write; false when another writer is
    /// planning it now (it is passed over, not waited for: that writer moves its
    /// `next_fire_at`). SQLite: always true. PostgreSQL: `FOR UPDATE SKIP LOCKED`.
    fn take_schedule_for_planning(&self, id: i64) -> Result<bool>;
    /// Inserts a Job unless its idempotency key exists (unique on both engines, so a
    /// firing is one Job whoever makes it); returns the new id, or `None`.
    fn insert_job(&self, job: &NewJob<'_>) -> Result<Option<i64>>;
    /// Sets a schedule's next planned firing.
    fn set_next_fire_at(&self, id: i64, next: Option<i64>, now: i64) -> Result<()>;
    /// Sets a schedule's event cursor.
    fn set_event_cursor(&self, id: i64, cursor: i64) -> Result<()>;
    /// Returns the oldest Job a daemon may start now — a queued due/command Job, or a
    /// deferred one whose retry time has come, of a schedule with a free active slot,
    /// not in `skip` — held for this write. Daemons asking at once get different Jobs,
    /// and never two of one schedule beyond its slots. SQLite: the one writer.
    /// PostgreSQL: the Job and its schedule `FOR UPDATE SKIP LOCKED`.
    fn pick_startable_job(&self, now: i64, skip: &[i64]) -> Result<Option<Job>>;
    /// Returns the running due/command Jobs nobody runs any more, held for this write:
    /// with `lease_ended_before`, those with no running Run leased to then; without,
    /// every one (SQLite's daemon, alone by its file lock). Two daemons recovering at
    /// once never both take one Job (PostgreSQL: `FOR UPDATE SKIP LOCKED`).
    fn take_abandoned_jobs(&self, lease_ended_before: Option<i64>) -> Result<Vec<Job>>;
    /// Marks a Job deferred until `retry_at`.
    fn defer_job(&self, id: i64, retry_at: i64, reason: &str, now: i64) -> Result<()>;
    /// Records how a Run ended.
    fn finish_run(&self, id: i64, end: &RunEnd<'_>, now: i64) -> Result<()>;
    /// Records the process id of a Run's program.
    fn set_run_pid(&self, id: i64, pid: u32) -> Result<()>;
    /// Gives a running Run an owner and a lease.
    fn lease_run(&self, id: i64, owner: &str, until: i64) -> Result<()>;
    /// Renews the lease of every running Run an owner holds; returns how many.
    fn renew_run_leases(&self, owner: &str, until: i64) -> Result<usize>;
    /// Inserts a text artifact of a Job.
    fn insert_artifact(&self, job_id: i64, run_id: Option<i64>, kind: &str, text: &str, now: i64) -> Result<()>;
    /// Sets (or clears) the calls a prompt Job waits to have approved.
    fn set_pending_calls(&self, id: i64, calls: Option<&str>) -> Result<()>;
    /// Holds a conversation's queue for this write, so two runners taking its next item
    /// at once do not both take it. SQLite: the one writer. PostgreSQL: the
    /// conversation's row lock (the one [`Writes::enqueue`] takes).
    fn lock_conversation_queue(&self, conversation_id: i64) -> Result<()>;
}

/// How a write ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteEnd {
    /// Commit when the closure returns `Ok`.
    Commit,
    /// Always roll back: `--dry-run` sees exactly what the write would do.
    Rehearse,
}

/// An engine: opens the transactions the operations run in.
pub trait Engine {
    /// Reads outside a write.
    fn reader(&self) -> &dyn Reads;
    /// Runs `f` in one write transaction ending as `end` says; on `Err` it rolls back.
    /// An engine may run `f` again after a retryable conflict.
    fn run_write(&mut self, end: WriteEnd, f: &mut dyn FnMut(&dyn Writes) -> Result<()>) -> Result<()>;
    /// Runs `f` as ONE transaction: each write inside becomes part of it, and an error
    /// anywhere rolls every step back (MCP `task_update`: several changes in one call).
    fn run_batch(&mut self, f: &mut dyn FnMut(&mut dyn Engine) -> Result<()>) -> Result<()>;
    /// Connects again when the server dropped the connection; a long-lived process
    /// (MCP, the daemon, the bot, the web page) calls it before each request. An engine
    /// with no server (SQLite) has nothing to do.
    fn reconnect_if_lost(&mut self) -> Result<()> {
        Ok(())
    }
    /// Tunes the connection for one long bulk write (`true`) and back (`false`). SQLite:
    /// a larger page cache and temp tables in memory. An engine with nothing to tune does
    /// nothing.
    fn bulk_session(&mut self, _on: bool) -> Result<()> {
        Ok(())
    }
}

impl dyn Engine + '_ {
    /// Runs `f` in one write transaction and commits when it returns `Ok`.
    pub fn write<T>(&mut self, mut f: impl FnMut(&dyn Writes) -> Result<T>) -> Result<T> {
        self.write_as(WriteEnd::Commit, &mut f)
    }

    /// Runs `f` in a write transaction and always rolls it back.
    pub fn rehearse<T>(&mut self, mut f: impl FnMut(&dyn Writes) -> Result<T>) -> Result<T> {
        self.write_as(WriteEnd::Rehearse, &mut f)
    }

    /// Runs several writes as one transaction (see [`Engine::run_batch`]).
    pub fn batch<T>(&mut self, f: impl FnOnce(&mut dyn Engine) -> Result<T>) -> Result<T> {
        let mut f = Some(f);
        let mut out = None;
        self.run_batch(&mut |engine| {
            // An engine runs a batch's closure once (it is not retried: its writes may
            // have told the caller things); a second call finds nothing to run.
            if let Some(f) = f.take() {
                out = Some(f(engine)?);
            }
            Ok(())
        })?;
        Ok(out.expect("Engine::run_batch returned Ok without running its closure (an engine bug)"))
    }

    fn write_as<T>(&mut self, end: WriteEnd, f: &mut dyn FnMut(&dyn Writes) -> Result<T>) -> Result<T> {
        let mut out = None;
        self.run_write(end, &mut |tx| {
            out = Some(f(tx)?);
            Ok(())
        })?;
        Ok(out.expect("Engine::run_write returned Ok without running its closure (an engine bug)"))
    }
}
