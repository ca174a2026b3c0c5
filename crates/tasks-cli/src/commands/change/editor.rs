//! `tasks edit TASK` with no field flags: the task's editable fields as a small,
//! commented TOML file in `$VISUAL` / `$EDITOR`. Saving applies every change at once
//! (one transaction, one undo); a file that does not read is opened again with the
//! error at the top; an empty or unchanged file changes nothing.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use tasks_core::input;
use tasks_core::model::{Money, Task, TaskType};
use tasks_core::ops::edit::EditRequest;
use toml_edit::{DocumentMut, Item};

use super::super::App;
use crate::env;
use crate::error::CliError;

/// The fields the file holds, in order.
const FIELDS: &[&str] = &["title", "due", "priority", "project", "type", "category", "person", "amount", "description"];

/// Opens the editor until the file reads; returns the changes, or `None` when the file
/// was left empty or unchanged.
pub fn edit_in_editor(app: &App, task: &Task) -> Result<Option<EditRequest>, CliError> {
    let editor = editor_command()?;
    let file = EditFile::create(&task.key)?;
    let path = file.0.clone();
    let original = template(task, app);
    let mut text = original.clone();
    loop {
        std::fs::write(&path, &text).map_err(|e| CliError::other(format!("cannot write {}: {e}", path.display())))?;
        run_editor(&editor, &path)?;
        let saved = std::fs::read_to_string(&path)
            .map_err(|e| CliError::other(format!("cannot read {} back: {e}", path.display())))?;
        let body = without_errors(&saved);
        if body.trim().is_empty() || body == without_errors(&original) {
            return Ok(None);
        }
        match read(&body, task, app) {
            Ok(req) if req.is_empty() => return Ok(None),
            Ok(req) => return Ok(Some(req)),
            Err(message) => {
                // Again, with the reason on top; what the person typed is kept.
                text = format!("# ERROR: {message}\n# Fix it and save, or empty the file to change nothing.\n{body}");
            }
        }
    }
}

/// The file the editor opens: private (0600), made fresh, removed when done.
struct EditFile(std::path::PathBuf);

impl EditFile {
    fn create(key: &str) -> Result<EditFile, CliError> {
        use std::os::unix::fs::OpenOptionsExt;
        let path = std::env::temp_dir().join(format!("tasks-edit-{}-{key}.toml", std::process::id()));
        let _ = std::fs::remove_file(&path);
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| CliError::other(format!("cannot make {} for the editor: {e}", path.display())))?;
        Ok(EditFile(path))
    }
}

impl Drop for EditFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Returns the editor to run: `$VISUAL`, else `$EDITOR`, split on white space (`code -w`).
fn editor_command() -> Result<Vec<String>, CliError> {
    let snapshot = env::capture();
    let command = snapshot.text("VISUAL")?.or(snapshot.text("EDITOR")?).ok_or_else(|| {
        CliError::config(
            "tasks edit with no field flags opens your editor, and neither VISUAL nor EDITOR is set",
            Some("hint: export EDITOR=nano (or vim, hx, \"code -w\"), or give the fields as flags: tasks edit KEY --due friday"),
        )
    })?;
    let parts: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    if parts.is_empty() {
        return Err(CliError::config("VISUAL/EDITOR is blank", Some("hint: export EDITOR=nano")));
    }
    Ok(parts)
}

fn run_editor(editor: &[String], path: &Path) -> Result<(), CliError> {
    let _ = std::io::stdout().flush();
    let status = Command::new(&editor[0])
        .args(&editor[1..])
        .arg(path)
        .status()
        .map_err(|e| CliError::other(format!("cannot start the editor {:?}: {e}", editor[0])))?;
    if !status.success() {
        return Err(CliError::other(format!(
            "the editor {:?} exited with {status}; nothing was changed",
            editor.join(" ")
        )));
    }
    Ok(())
}

/// Drops the error lines a previous round put on top.
fn without_errors(text: &str) -> String {
    text.lines()
        .skip_while(|l| l.starts_with("# ERROR:") || l.starts_with("# Fix it and save"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Writes a TOML string value.
fn quoted(text: &str) -> String {
    toml_edit::Value::from(text).to_string().trim().to_string()
}

/// Returns a task's due as the file writes it.
fn due_text(t: &Task, app: &App) -> String {
    t.due
        .as_ref()
        .map(|d| match d.at {
            Some(at) => {
                app.style.zone.to_datetime(tasks_core::time::from_ms(at)).strftime("%Y-%m-%d %H:%M").to_string()
            }
            None if d.kind == tasks_core::model::DueKind::Week => format!("week {}", d.date),
            None => d.date.to_string(),
        })
        .unwrap_or_default()
}

/// The file a task is edited as.
fn template(t: &Task, app: &App) -> String {
    let due = due_text(t, app);
    let mut s = format!(
        "# Editing {} — save and close to apply every change at once; empty the file (or\n\
         # leave it unchanged) to change nothing. \"\" clears a field.\n\
         # due: 2026-12-24, friday, \"tomorrow 15:00\", «завтра в 10:00», \"next week\"\n\
         # priority: 0 (highest) to 4 · type: {} · amount: \"15000 RUB\", \"$1,200.50\"\n",
        t.key,
        TaskType::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
    );
    s.push_str(&format!("title = {}\n", quoted(&t.title)));
    s.push_str(&format!("due = {}\n", quoted(&due)));
    s.push_str(&format!("priority = {}\n", quoted(&t.priority.map(|p| p.to_string()).unwrap_or_default())));
    s.push_str(&format!("project = {}\n", quoted(&t.project)));
    s.push_str(&format!("type = {}\n", quoted(t.task_type.as_str())));
    s.push_str(&format!("category = {}\n", quoted(t.category.as_deref().unwrap_or_default())));
    s.push_str(&format!("person = {}\n", quoted(t.person.as_deref().unwrap_or_default())));
    s.push_str(&format!("amount = {}\n", quoted(&t.amount.as_ref().map(Money::to_major_text).unwrap_or_default())));
    let description = toml_edit::Value::from(t.description.as_str());
    s.push_str(&format!("description = {}\n", description.to_string().trim()));
    s
}

/// Reads the saved file into the changes it asks for; the error says which field and why.
fn read(text: &str, t: &Task, app: &App) -> Result<EditRequest, String> {
    let doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| e.to_string().replace('\n', " "))?;
    for (key, _) in doc.iter() {
        if !FIELDS.contains(&key) {
            return Err(format!("{key}: not a field here (the fields are {})", FIELDS.join(", ")));
        }
    }
    let field = |name: &str| -> Result<Option<String>, String> {
        match doc.get(name) {
            None => Ok(None),
            Some(Item::Value(v)) => match v.as_str() {
                Some(s) => Ok(Some(s.to_string())),
                None => match v.as_integer() {
                    Some(n) => Ok(Some(n.to_string())),
                    None => Err(format!("{name}: write the value in quotes, like {name} = \"…\"")),
                },
            },
            Some(_) => Err(format!("{name}: write the value in quotes, like {name} = \"…\"")),
        }
    };
    let changed = |name: &str, now: String| -> Result<Option<String>, String> {
        Ok(field(name)?.filter(|v| v.trim() != now.trim()).map(|v| v.trim().to_string()))
    };
    let mut req = EditRequest::default();
    if let Some(title) = field("title")?.filter(|v| *v != t.title) {
        if title.trim().is_empty() {
            return Err("title: a task needs a title".into());
        }
        req.title = Some(title);
    }
    if let Some(d) = field("description")?.filter(|v| v.trim_end() != t.description.trim_end()) {
        req.description = Some(d.trim_end().to_string());
    }
    if let Some(d) = changed("due", due_text(t, app))? {
        req.due = Some(if d.is_empty() {
            None
        } else {
            match d.strip_prefix("week ") {
                // "week 2026-12-13": the week ending that Sunday, as the file wrote it.
                Some(date) => match date.trim().parse::<jiff::civil::Date>() {
                    Ok(sunday) => Some(tasks_core::model::Due::week(sunday)),
                    Err(_) => Some(input::parse_due_at(&d, &app.ctx).map_err(|e| format!("due: {e}"))?),
                },
                None => Some(input::parse_due_at(&d, &app.ctx).map_err(|e| format!("due: {e}"))?),
            }
        });
    }
    if let Some(p) = changed("priority", t.priority.map(|p| p.to_string()).unwrap_or_default())? {
        req.priority = Some(if p.is_empty() {
            None
        } else {
            Some(tasks_core::model::parse_priority(&p).map_err(|e| format!("priority: {e}"))?)
        });
    }
    if let Some(p) = changed("project", t.project.clone())? {
        if p.is_empty() {
            return Err("project: a task is always in a project; write INBOX for the inbox".into());
        }
        req.project = Some(p);
    }
    if let Some(ty) = changed("type", t.task_type.to_string())? {
        req.task_type = Some(ty.parse::<TaskType>().map_err(|e| format!("type: {e}"))?);
    }
    if let Some(c) = changed("category", t.category.clone().unwrap_or_default())? {
        req.category = Some((!c.is_empty()).then_some(c));
    }
    if let Some(p) = changed("person", t.person.clone().unwrap_or_default())? {
        req.person = Some((!p.is_empty()).then_some(p));
    }
    if let Some(a) = changed("amount", t.amount.as_ref().map(Money::to_major_text).unwrap_or_default())? {
        req.amount =
            Some(if a.is_empty() { None } else { Some(input::parse_amount(&a).map_err(|e| format!("amount: {e}"))?) });
    }
    Ok(req)
}
