//! `tasks note TASK TEXT`: a timestamped note (annotation) on a task — shown by `show`,
//! found by `search`, reverted by `undo` (marked removed, never deleted).

use crate::dedup;
use crate::error::{Error, Result};
use crate::keys;
use crate::limits::{self, NOTE_MAX_CHARS};
use crate::model::{Note, Task};
use crate::ops::Context;
use crate::store::events::{self, EventChange};
use crate::store::{Store, Tx, notes, tasks as task_rows};

/// The outcome of a note.
#[derive(Debug, Clone)]
pub struct NoteOutcome {
    /// The task after the note.
    pub task: Task,
    /// The note.
    pub note: Note,
}

/// Checks a note's text.
pub fn check_note(text: &str) -> Result<()> {
    limits::check_text("note", text, NOTE_MAX_CHARS)?;
    if text.trim().is_empty() {
        return Err(Error::invalid("note", text, "is empty"));
    }
    Ok(())
}

/// Appends a note to a task (closed tasks too: a note on why it was closed is common).
pub fn add(store: &mut Store, ctx: &Context, reference: &str, text: &str) -> Result<NoteOutcome> {
    check_note(text)?;
    store.write(|tx| {
        let id = keys::resolve(tx, reference)?;
        add_in(tx, ctx, id, text)
    })
}

/// Appends a note inside the caller's transaction.
pub(crate) fn add_in(tx: &Tx<'_>, ctx: &Context, task_id: i64, text: &str) -> Result<NoteOutcome> {
    let now = ctx.now_ms();
    let text = text.trim();
    let note_id = notes::insert(tx, task_id, now, &ctx.actor, text, &dedup::text_terms(text))?;
    events::record(
        tx,
        task_id,
        now,
        &ctx.actor,
        &EventChange::NoteAdded(crate::ops::undo::note_change(note_id, text)),
    )?;
    let note = Note { id: note_id, at: now, actor: ctx.actor.clone(), text: text.to_string() };
    Ok(NoteOutcome { task: task_rows::get(tx, task_id)?, note })
}

/// Returns a task's notes, oldest first.
pub fn of_task(store: &Store, reference: &str) -> Result<Vec<Note>> {
    let id = keys::resolve(store.conn(), reference)?;
    notes::for_task(store.conn(), id)
}
