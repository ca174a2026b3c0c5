//! `tasks note TASK TEXT`: a timestamped note (annotation) on a task — shown by `show`,
//! found by `search`, reverted by `undo` (marked removed, never deleted).

use crate::dedup;
use crate::error::{Error, Result};
use crate::keys;
use crate::limits::{self, NOTE_MAX_CHARS};
use crate::model::{Note, Task};
use crate::ops::Context;
use crate::port::{Engine, Writes};
use crate::store::events::EventChange;

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
pub fn add(store: &mut dyn Engine, ctx: &Context, reference: &str, text: &str) -> Result<NoteOutcome> {
    check_note(text)?;
    store.write(|tx| {
        let id = keys::resolve(tx, reference)?;
        add_in(tx, ctx, id, text)
    })
}

/// Appends a note inside the caller's transaction.
pub(crate) fn add_in(tx: &dyn Writes, ctx: &Context, task_id: i64, text: &str) -> Result<NoteOutcome> {
    let now = ctx.now_ms();
    let text = text.trim();
    let note_id = tx.insert_note(task_id, now, &ctx.actor, text, &dedup::text_terms(text))?;
    tx.record_event(task_id, now, &ctx.actor, &EventChange::NoteAdded(crate::ops::undo::note_change(note_id, text)))?;
    let note = Note { id: note_id, at: now, actor: ctx.actor.clone(), text: text.to_string() };
    Ok(NoteOutcome { task: tx.task(task_id)?, note })
}

/// Returns a task's notes, oldest first.
pub fn of_task(store: &dyn Engine, reference: &str) -> Result<Vec<Note>> {
    let id = keys::resolve(store.reader(), reference)?;
    store.reader().notes_of_task(id)
}
