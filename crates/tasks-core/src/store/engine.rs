//! The SQLite store as the port ([`crate::port`]): each method is one of the row
//! modules' functions, so the SQL stays where it was and the operations reach it
//! through the same interface the PostgreSQL store implements.
//!
//! How SQLite gives what the port asks: one writer at a time (`BEGIN IMMEDIATE`) makes
//! counters, claims and checked writes exact with no lock of their own, so
//! [`Writes::lock_checked_writes`] has nothing to do; a write is never retried (a busy
//! store waits for the lock instead, up to [`super::BUSY_TIMEOUT`]).

use std::collections::HashMap;

use rusqlite::Connection;

use super::tasks as task_rows;
use super::{
    Store, Tx, conversations, dedup as dedup_rows, events, jobs, links, messages, notes, operations, persons, projects,
    queue, schedules, tags,
};
use crate::dedup::source::CheckSource;
use crate::dedup::{Candidate, Decision, SqliteSource};
use crate::error::Result;
use crate::keys::MessageLocator;
use crate::model::conversation::{ConversationKind, MessageRole, QueueKind, QueuePayload, QueueState};
use crate::model::schedule::JobState;
use crate::model::{LinkKind, Note, Project, ProjectKind, Status, Task};
use crate::port::{
    Artifact, Column, Completion, Conversation, Engine, Event, Job, LabelledDecision, LinkRow, ListFilter, Message,
    NewJob, NewSchedule, NewTaskRow, Operation, PendingPair, QueueItem, Reads, Run, RunEnd, Schedule, WriteEnd, Writes,
};
use crate::store::events::EventChange;

/// The tables whose secondary indexes an import into an empty store builds at the end.
const BULK_TABLES: &[&str] = &["tasks", "task_events", "taggings", "links"];

/// The engine's name in messages.
pub const ENGINE_NAME: &str = "SQLite";

/// One implementation of [`Reads`] for a connection and for a write transaction (which
/// dereferences to its connection).
macro_rules! sqlite_reads {
    ($ty:ty) => {
        impl Reads for $ty {
            fn engine_name(&self) -> &'static str {
                ENGINE_NAME
            }
            fn task(&self, id: i64) -> Result<Task> {
                task_rows::get(self, id)
            }
            fn task_id_by_key(&self, key: &str) -> Result<Option<i64>> {
                task_rows::id_by_key(self, key)
            }
            fn task_id_by_external_id(&self, external_id: &str) -> Result<Option<i64>> {
                task_rows::id_by_external_id(self, external_id)
            }
            fn task_ids_by_uuid_prefix(&self, prefix: &str, limit: usize) -> Result<Vec<(i64, String)>> {
                task_rows::ids_by_uuid_prefix(self, prefix, limit)
            }
            fn task_key(&self, id: i64) -> Result<String> {
                task_rows::key_of(self, id)
            }
            fn any_external_id(&self) -> Result<bool> {
                task_rows::any_external_id(self)
            }
            fn tasks(&self, filter: &ListFilter) -> Result<Vec<Task>> {
                task_rows::list(self, filter)
            }
            fn count_tasks(&self, filter: &ListFilter, at_most: usize) -> Result<usize> {
                task_rows::count(self, filter, at_most)
            }
            fn project(&self, id: i64) -> Result<Project> {
                projects::get(self, id)
            }
            fn project_by_key(&self, key: &str) -> Result<Option<Project>> {
                projects::by_key(self, key)
            }
            fn project_by_account(&self, account_id: &str) -> Result<Option<Project>> {
                projects::by_account(self, account_id)
            }
            fn projects(&self) -> Result<Vec<Project>> {
                projects::list(self)
            }
            fn open_counts(&self) -> Result<HashMap<i64, i64>> {
                projects::open_counts(self)
            }
            fn person_id(&self, handle: &str) -> Result<Option<i64>> {
                persons::find(self, handle)
            }
            fn link_exists(&self, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
                links::exists(self, from, kind, to)
            }
            fn reachable(&self, from: i64, kind: LinkKind, to: i64) -> Result<bool> {
                links::reachable(self, from, kind, to)
            }
            fn link_targets(&self, from: i64, kind: LinkKind) -> Result<Vec<i64>> {
                links::targets(self, from, kind)
            }
            fn links_of_task(&self, task_id: i64) -> Result<Vec<LinkRow>> {
                links::of_task(self, task_id)
            }
            fn links_of_kind(&self, kind: LinkKind) -> Result<Vec<(i64, i64)>> {
                links::all_of_kind(self, kind)
            }
            fn blocked_dependants(&self, id: i64) -> Result<Vec<i64>> {
                links::blocked_dependants(self, id)
            }
            fn events_of_task(&self, task_id: i64) -> Result<Vec<Event>> {
                events::for_task(self, task_id)
            }
            fn last_undoable(&self, actor: &str) -> Result<Option<Operation>> {
                operations::last_undoable(self, actor)
            }
            fn events_of_operation(&self, op: i64) -> Result<Vec<(i64, Event)>> {
                operations::events_of(self, op)
            }
            fn standing_after(&self, task_id: i64, after: i64) -> Result<Vec<(i64, Event)>> {
                operations::standing_after(self, task_id, after)
            }
            fn notes_of_task(&self, task_id: i64) -> Result<Vec<Note>> {
                notes::for_task(self, task_id)
            }
            fn rule_hit(&self, message_id: i64, rule: &str) -> Result<Option<i64>> {
                messages::rule_hit(self, message_id, rule)
            }
            fn check_source(&self) -> Result<Box<dyn CheckSource + '_>> {
                Ok(Box::new(SqliteSource::snapshot(self)?))
            }
            fn pending_pairs(&self, limit: usize) -> Result<Vec<PendingPair>> {
                dedup_rows::pending_pairs(self, limit)
            }
            fn search_matches(&self, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>> {
                dedup_rows::ranked_matches_with_notes(self, terms, pool)
            }
            fn labelled_decisions(&self) -> Result<Vec<LabelledDecision>> {
                dedup_rows::labelled_decisions(self)
            }
            fn sample_task_ids(&self, n: usize) -> Result<Vec<i64>> {
                dedup_rows::sample_ids(self, n)
            }
            fn is_merged_pair(&self, a: i64, b: i64) -> Result<bool> {
                dedup_rows::is_merged_pair(self, a, b)
            }
            fn conversation_id(&self, kind: ConversationKind, external_id: &str) -> Result<Option<i64>> {
                conversations::find(self, kind, external_id)
            }
            fn local_conversation_id(&self) -> Result<Option<i64>> {
                conversations::find_local_conversation(self)
            }
            fn conversation(&self, id: i64) -> Result<Option<Conversation>> {
                conversations::conversation(self, id)
            }
            fn conversation_state(&self, id: i64) -> Result<Option<String>> {
                conversations::state(self, id)
            }
            fn conversation_messages(&self, id: i64, limit: usize) -> Result<Vec<Message>> {
                conversations::messages(self, id, limit)
            }
            fn bot_offset(&self, bot: &str) -> Result<Option<i64>> {
                conversations::bot_offset(self, bot)
            }
            fn live_queue(&self, conversation_id: Option<i64>) -> Result<Vec<QueueItem>> {
                queue::live_queue(self, conversation_id)
            }
            fn queue_item(&self, id: i64) -> Result<Option<QueueItem>> {
                queue::queue_item(self, id)
            }
            fn startable_queue_heads(&self, kinds: &[ConversationKind]) -> Result<Vec<QueueItem>> {
                queue::startable_heads(self, &kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>())
            }
            fn running_queue_items(&self, kinds: &[ConversationKind]) -> Result<Vec<QueueItem>> {
                queue::running_items(self, &kinds.iter().map(|k| k.as_str()).collect::<Vec<_>>())
            }
            fn job_state(&self, id: i64) -> Result<Option<JobState>> {
                Ok(jobs::job(self, id)?.map(|j| j.state))
            }
            fn schedule(&self, id: i64) -> Result<Schedule> {
                schedules::schedule(self, id)
            }
            fn live_schedule_of_task(&self, task_id: i64) -> Result<Option<Schedule>> {
                schedules::live_schedule_of_task(self, task_id)
            }
            fn latest_schedule_of_task(&self, task_id: i64) -> Result<Option<Schedule>> {
                schedules::latest_schedule_of_task(self, task_id)
            }
            fn schedules(&self, include_removed: bool) -> Result<Vec<Schedule>> {
                schedules::list_schedules(self, include_removed)
            }
            fn jobs(&self, task_id: Option<i64>, state: Option<JobState>, limit: usize) -> Result<Vec<Job>> {
                jobs::list_jobs(self, task_id, state, limit)
            }
            fn job(&self, id: i64) -> Result<Option<Job>> {
                jobs::job(self, id)
            }
            fn runs_of_job(&self, job_id: i64) -> Result<Vec<Run>> {
                jobs::runs_of_job(self, job_id)
            }
            fn artifacts_of_job(&self, job_id: i64) -> Result<Vec<Artifact>> {
                jobs::artifacts_of_job(self, job_id)
            }
            fn active_jobs(&self, schedule_id: i64) -> Result<Vec<Job>> {
                jobs::active_jobs(self, schedule_id)
            }
            fn queue_item_of_job(&self, job_id: i64) -> Result<Option<QueueItem>> {
                queue::queue_item_of_job(self, job_id)
            }
            fn last_task_event_id(&self) -> Result<i64> {
                schedules::last_task_event_id(self)
            }
            fn latest_jobs(&self) -> Result<HashMap<i64, Job>> {
                jobs::latest_jobs(self)
            }
            fn jobs_in_state(&self, state: JobState) -> Result<Vec<Job>> {
                jobs::jobs_in_state(self, state)
            }
            fn jobs_of_schedule(&self, schedule_id: i64, limit: usize) -> Result<Vec<Job>> {
                jobs::jobs_of_schedule(self, schedule_id, limit)
            }
            fn conversations_with_schedules(&self) -> Result<Vec<(Conversation, usize)>> {
                conversations::conversations_with_schedules(self)
            }
            fn change_stamp(&self) -> Result<i64> {
                Ok(self.query_row("PRAGMA data_version", [], |r| r.get(0))?)
            }
            fn is_shared(&self) -> bool {
                // The daemon's flock beside the file keeps every other daemon out.
                false
            }
            fn job_by_key(&self, key: &str) -> Result<Option<Job>> {
                jobs::job_by_key(self, key)
            }
            fn due_time_schedules(&self, now: i64) -> Result<Vec<i64>> {
                schedules::due_time_schedules(self, now)
            }
            fn event_schedules(&self) -> Result<Vec<Schedule>> {
                schedules::event_schedules(self)
            }
            fn earliest_next_fire(&self) -> Result<Option<i64>> {
                schedules::earliest_next_fire(self)
            }
            fn next_retry_at(&self) -> Result<Option<i64>> {
                jobs::next_retry_at(self)
            }
            fn completions_after(&self, cursor: i64, limit: usize) -> Result<Vec<Completion>> {
                events::completions_after(self, cursor, limit)
            }
            fn last_event_job_at(&self, schedule_id: i64, subject: Option<&str>) -> Result<Option<i64>> {
                jobs::last_event_job_at(self, schedule_id, subject)
            }
            fn pending_calls(&self, job_id: i64) -> Result<Option<String>> {
                jobs::pending_calls(self, job_id)
            }
            fn daemon_running_jobs(&self) -> Result<Vec<Job>> {
                jobs::daemon_running_jobs(self, None)
            }
        }
    };
}

sqlite_reads!(Connection);
sqlite_reads!(Tx<'_>);

impl Writes for Tx<'_> {
    fn insert_task(&self, row: &NewTaskRow<'_>) -> Result<i64> {
        task_rows::insert(self, row)
    }
    fn set_task_status(&self, id: i64, status: Status, close_reason: Option<&str>, now: i64) -> Result<()> {
        task_rows::set_status(self, id, status, close_reason, now)
    }
    fn set_task_column(&self, id: i64, column: Column<'_>, now: i64) -> Result<()> {
        task_rows::set_column(self, id, column, now)
    }
    fn try_claim(&self, id: i64, actor: &str, until: i64, now: i64) -> Result<bool> {
        task_rows::try_claim(self, id, actor, until, now)
    }
    fn pick_for_claim(&self, filter: &ListFilter) -> Result<Option<i64>> {
        // Under BEGIN IMMEDIATE nobody else writes until this transaction ends.
        let mut f = filter.clone();
        f.limit = Some(1);
        Ok(task_rows::list_ids(self, &f)?.first().copied())
    }
    fn set_lease(&self, id: i64, holder: Option<&str>, until: Option<i64>, now: i64) -> Result<()> {
        task_rows::set_lease(self, id, holder, until, now)
    }
    fn release_lease(&self, id: i64, now: i64) -> Result<()> {
        task_rows::release(self, id, now)
    }
    fn lock_checked_writes(&self) -> Result<()> {
        // `BEGIN IMMEDIATE` already holds the one write lock.
        Ok(())
    }
    fn insert_project(
        &self,
        key: &str,
        name: &str,
        description: &str,
        kind: ProjectKind,
        account_id: Option<&str>,
        now: i64,
    ) -> Result<Project> {
        projects::insert(self, key, name, description, kind, account_id, now)
    }
    fn next_project_number(&self, project_id: i64) -> Result<i64> {
        projects::next_number(self, project_id)
    }
    fn next_typed_number(&self, prefix: &str) -> Result<i64> {
        projects::next_typed_number(self, prefix)
    }
    fn person_id_or_create(&self, handle: &str, now: i64) -> Result<i64> {
        persons::resolve_or_create(self, handle, now)
    }
    fn add_tag(&self, task_id: i64, name: &str, now: i64) -> Result<bool> {
        tags::add(self, task_id, name, now)
    }
    fn remove_tag(&self, task_id: i64, name: &str) -> Result<bool> {
        tags::remove(self, task_id, name)
    }
    fn insert_link(&self, from: i64, kind: LinkKind, to: i64, actor: &str, now: i64) -> Result<()> {
        links::insert(self, from, kind, to, actor, now)
    }
    fn remove_link(&self, from: i64, kind: LinkKind, to: i64, actor: &str, now: i64) -> Result<bool> {
        links::remove(self, from, kind, to, actor, now)
    }
    fn insert_message_link(&self, task_id: i64, kind: LinkKind, message_id: i64, actor: &str, now: i64) -> Result<()> {
        links::insert_message(self, task_id, kind, message_id, actor, now)
    }
    fn move_message_links(&self, from: i64, to: i64, actor: &str, now: i64) -> Result<Vec<i64>> {
        links::move_message_links(self, from, to, actor, now)
    }
    fn move_message_link(&self, from: i64, to: i64, message_id: i64, actor: &str, now: i64) -> Result<usize> {
        links::move_message_link(self, from, to, message_id, actor, now)
    }
    fn remove_evidence(&self, task_id: i64, locator: &str, actor: &str, now: i64) -> Result<bool> {
        links::remove_evidence(self, task_id, locator, actor, now)
    }
    fn record_event(&self, task_id: i64, at: i64, actor: &str, change: &EventChange) -> Result<()> {
        events::record(self, task_id, at, actor, change)
    }
    fn current_operation(&self, at: i64, actor: &str) -> Result<i64> {
        Tx::operation(self, at, actor)
    }
    fn mark_undone(&self, target: i64, undo: i64) -> Result<()> {
        operations::mark_undone(self, target, undo)
    }
    fn insert_note(&self, task_id: i64, at: i64, actor: &str, text: &str, terms: &str) -> Result<i64> {
        notes::insert(self, task_id, at, actor, text, terms)
    }
    fn remove_note(&self, note_id: i64, at: i64) -> Result<()> {
        notes::remove(self, note_id, at)
    }
    fn upsert_message(&self, loc: &MessageLocator, author_person_id: Option<i64>, text: &str, now: i64) -> Result<i64> {
        messages::upsert(self, loc, author_person_id, text, now)
    }
    fn insert_rule_hit(&self, message_id: i64, rule: &str, task_id: i64, now: i64) -> Result<()> {
        messages::insert_rule_hit(self, message_id, rule, task_id, now)
    }
    fn index_task(&self, task_id: i64) -> Result<()> {
        crate::dedup::index(self, task_id)
    }
    fn record_decision(
        &self,
        task_id: Option<i64>,
        candidate_id: i64,
        decision: Decision,
        candidate: Option<&Candidate>,
        actor: &str,
        now: i64,
    ) -> Result<()> {
        dedup_rows::insert_decision(self, task_id, candidate_id, decision, candidate, actor, now)
    }
    fn queue_pair(&self, task_id: i64, candidate: &Candidate, now: i64) -> Result<()> {
        dedup_rows::insert_pair(self, task_id, candidate, now)
    }
    fn resolve_pairs(&self, a: i64, b: i64, resolution: Decision, now: i64) -> Result<usize> {
        dedup_rows::resolve_pairs(self, a, b, resolution, now)
    }
    fn store_weights(&self, rows: &[(crate::dedup::levels::Level, f64, f64, f64)], now: i64) -> Result<()> {
        dedup_rows::store_weights(self, rows, now)
    }
    fn create_conversation(&self, kind: ConversationKind, external_id: &str, title: &str, now: i64) -> Result<i64> {
        conversations::create(self, kind, external_id, title, now)
    }
    fn insert_conversation_message(
        &self,
        conversation_id: i64,
        role: MessageRole,
        text: &str,
        task_id: Option<i64>,
        job_id: Option<i64>,
        now: i64,
    ) -> Result<i64> {
        conversations::insert_message(self, conversation_id, role, text, task_id, job_id, now)
    }
    fn set_conversation_state(&self, id: i64, state: &str, now: i64) -> Result<()> {
        conversations::set_state(self, id, state, now)
    }
    fn set_bot_offset(&self, bot: &str, update_id: i64, now: i64) -> Result<()> {
        conversations::set_bot_offset(self, bot, update_id, now)
    }
    fn enqueue(
        &self,
        conversation_id: i64,
        kind: QueueKind,
        job_id: Option<i64>,
        payload: &QueuePayload,
        now: i64,
    ) -> Result<i64> {
        queue::enqueue(self, conversation_id, kind, job_id, payload, now)
    }
    fn set_queue_state(&self, id: i64, state: QueueState, now: i64) -> Result<()> {
        queue::set_queue_state(self, id, state, now)
    }
    fn move_queue_item_to_head(&self, id: i64, conversation_id: i64, now: i64) -> Result<()> {
        queue::move_to_head(self, id, conversation_id, now)
    }
    fn set_job_state(&self, id: i64, state: JobState, reason: Option<&str>, now: i64) -> Result<()> {
        jobs::set_job_state(self, id, state, reason, now)
    }
    fn start_job(&self, id: i64, now: i64) -> Result<u32> {
        jobs::start_job(self, id, now)
    }
    fn insert_run(&self, job_id: i64, attempt: u32, now: i64) -> Result<i64> {
        jobs::insert_run(self, job_id, attempt, now)
    }
    fn interrupt_runs(&self, job_id: i64, error: &str, now: i64) -> Result<()> {
        jobs::interrupt_runs(self, job_id, error, now)
    }
    fn local_conversation(&self, title: &str, now: i64) -> Result<i64> {
        conversations::local_conversation(self, title, now)
    }
    fn insert_schedule(&self, s: &NewSchedule<'_>) -> Result<i64> {
        schedules::insert_schedule(self, s)
    }
    fn replace_schedule(&self, id: i64, s: &NewSchedule<'_>) -> Result<()> {
        schedules::replace_schedule(self, id, s)
    }
    fn set_schedule_paused(
        &self,
        id: i64,
        paused: bool,
        next_fire_at: Option<i64>,
        event_cursor: i64,
        now: i64,
    ) -> Result<()> {
        schedules::set_paused(self, id, paused, next_fire_at, event_cursor, now)
    }
    fn set_schedule_removed(&self, id: i64, actor: &str, now: i64) -> Result<()> {
        schedules::set_removed(self, id, actor, now)
    }
    fn index_new_tasks(&self, rows: &[(i64, crate::dedup::IndexRows, String)]) -> Result<()> {
        crate::dedup::index_many(self, rows)
    }
    fn begin_bulk_insert(&self) -> Result<Vec<String>> {
        // References are checked at commit, not per statement: a per-row check makes
        // every insert a statement that may abort, which opens a statement journal each
        // time. Into an empty store, the secondary indexes are built once at the end.
        self.execute_batch("PRAGMA defer_foreign_keys = ON")?;
        if task_rows::is_empty(self)? { task_rows::drop_secondary_indexes(self, BULK_TABLES) } else { Ok(Vec::new()) }
    }
    fn end_bulk_insert(&self, dropped: &[String]) -> Result<()> {
        task_rows::create_indexes(self, dropped)
    }
    fn take_schedule_for_planning(&self, _id: i64) -> Result<bool> {
        // BEGIN IMMEDIATE: nobody else plans while this write lasts.
        Ok(true)
    }
    fn insert_job(&self, job: &NewJob<'_>) -> Result<Option<i64>> {
        jobs::insert_job(self, job)
    }
    fn set_next_fire_at(&self, id: i64, next: Option<i64>, now: i64) -> Result<()> {
        schedules::set_next_fire_at(self, id, next, now)
    }
    fn set_event_cursor(&self, id: i64, cursor: i64) -> Result<()> {
        schedules::set_event_cursor(self, id, cursor)
    }
    fn pick_startable_job(&self, now: i64, skip: &[i64]) -> Result<Option<Job>> {
        jobs::next_startable_job(self, now, skip)
    }
    fn take_abandoned_jobs(&self, lease_ended_before: Option<i64>) -> Result<Vec<Job>> {
        jobs::daemon_running_jobs(self, lease_ended_before)
    }
    fn defer_job(&self, id: i64, retry_at: i64, reason: &str, now: i64) -> Result<()> {
        jobs::defer_job(self, id, retry_at, reason, now)
    }
    fn finish_run(&self, id: i64, end: &RunEnd<'_>, now: i64) -> Result<()> {
        jobs::finish_run(self, id, end, now)
    }
    fn set_run_pid(&self, id: i64, pid: u32) -> Result<()> {
        jobs::set_run_pid(self, id, pid)
    }
    fn lease_run(&self, id: i64, owner: &str, until: i64) -> Result<()> {
        jobs::lease_run(self, id, owner, until)
    }
    fn renew_run_leases(&self, owner: &str, until: i64) -> Result<usize> {
        jobs::renew_leases(self, owner, until)
    }
    fn insert_artifact(&self, job_id: i64, run_id: Option<i64>, kind: &str, text: &str, now: i64) -> Result<()> {
        jobs::insert_artifact(self, job_id, run_id, kind, text, now)
    }
    fn set_pending_calls(&self, id: i64, calls: Option<&str>) -> Result<()> {
        jobs::set_pending_calls(self, id, calls)
    }
    fn lock_conversation_queue(&self, _conversation_id: i64) -> Result<()> {
        // BEGIN IMMEDIATE: nobody else takes an item while this write lasts.
        Ok(())
    }
}

impl Engine for Store {
    fn reader(&self) -> &dyn Reads {
        self.conn()
    }

    fn run_write(&mut self, end: WriteEnd, f: &mut dyn FnMut(&dyn Writes) -> Result<()>) -> Result<()> {
        match end {
            WriteEnd::Commit => self.write(|tx| f(tx)),
            WriteEnd::Rehearse => self.rehearse(|tx| f(tx)),
        }
    }

    fn run_batch(&mut self, f: &mut dyn FnMut(&mut dyn Engine) -> Result<()>) -> Result<()> {
        self.batch(|store| f(store))
    }

    fn bulk_session(&mut self, on: bool) -> Result<()> {
        if on { self.begin_bulk() } else { self.end_bulk() }
    }
}
