//! The commands a team runs against the shared PostgreSQL store (`TASKS_DB` or `--db`
//! set to `postgres://…`): the same flags, the same JSON and the same text as on a
//! SQLite store, through `tasks-pg`. A command that runs only on SQLite so far is
//! refused with a message naming it, before anything is read or written.

use std::io::{BufRead, BufReader, Write};
use std::time::Duration;

use serde_json::json;
use tasks_core::model::Status;
use tasks_core::{Context, wire};
use tasks_pg::PgStore;
use tasks_pg::ops::StatusVerb;

use super::project::ProjectCommand;
use super::{Cli, Command, add, change, claim, duplicates, project, transfer, view};
use crate::env;
use crate::error::CliError;
use crate::render::{self, Style, safe};

/// The commands that run on a PostgreSQL store, for the refusal's hint.
const SUPPORTED: &str = "project, add, edit (with field flags), list, show, history, ready, blocked, check, claim, \
     release, next, start, stop, done, dismiss, reopen, tag, untag, note, search, link, unlink, export, import, daemon";

/// What a command needs on the team store.
struct Team {
    store: PgStore,
    ctx: Context,
    json: bool,
    style: Style,
}

impl Team {
    fn print(&self, value: impl FnOnce() -> serde_json::Value, human: impl FnOnce() -> String) {
        if self.json {
            println!("{}", value());
        } else {
            print!("{}", human());
        }
    }
}

/// Returns the name of a command, for the refusal.
fn name_of(cmd: &Command) -> String {
    let debug = format!("{cmd:?}");
    debug.split(['(', ' ', '{']).next().unwrap_or("this command").to_ascii_lowercase()
}

fn unsupported(what: &str) -> CliError {
    CliError::config(
        format!("`tasks {what}` is not available on a PostgreSQL store yet; it runs on a SQLite store"),
        Some(&format!("hint: on PostgreSQL these run: {SUPPORTED}")),
    )
}

/// Refuses a flag the PostgreSQL store does not take yet: a validation error (exit 2),
/// as the store's own refusals of a flag are; a whole command refused is exit 3.
fn refuse_flag(set: bool, flag: &str) -> Result<(), CliError> {
    if set {
        return Err(CliError::validation(
            format!("{flag} is not available on a PostgreSQL store yet"),
            Some("hint: leave it out, or run the command against a SQLite store".into()),
        ));
    }
    Ok(())
}

/// Runs a command line against the PostgreSQL store at `url`.
pub fn run(cli: Cli, url: &str) -> Result<(), CliError> {
    let what = name_of(&cli.command);
    let supported = matches!(
        &cli.command,
        Command::Project(_)
            | Command::Add(_)
            | Command::List(_)
            | Command::Show(_)
            | Command::Ready(_)
            | Command::Check(_)
            | Command::Claim(_)
            | Command::Release(_)
            | Command::Next(_)
            | Command::Done(_)
            | Command::Edit(_)
            | Command::Search(_)
            | Command::Tag(_)
            | Command::Untag(_)
            | Command::Note(_)
            | Command::Start(_)
            | Command::Stop(_)
            | Command::Dismiss(_)
            | Command::Reopen(_)
            | Command::History(_)
            | Command::Blocked(_)
            | Command::Unlink(_)
            | Command::Link(_)
            | Command::Export(_)
            | Command::Import(_)
            | Command::Daemon(_)
    );
    if !supported {
        return Err(unsupported(&what));
    }
    let ctx = env::context(cli.global.actor.as_deref())?;
    let style = Style {
        colour: env::colour(),
        today: ctx.today(),
        now_ms: ctx.now_ms(),
        zone: ctx.zone.clone(),
        width: env::width(),
    };
    let store = PgStore::connect(url)?;
    if let Some(n) = store.reindexed() {
        super::duplicates::say_rebuilt(n, cli.global.json);
    }
    let mut t = Team { store, ctx, json: cli.global.json, style };
    dispatch(&mut t, cli.command)
}

fn dispatch(t: &mut Team, cmd: Command) -> Result<(), CliError> {
    let now = t.ctx.now_ms();
    match cmd {
        Command::Project(ProjectCommand::Add(a)) => {
            let p = tasks_pg::ops::project_add(
                &mut t.store,
                &t.ctx,
                &a.key,
                a.name.as_deref().unwrap_or(""),
                &a.description,
            )?;
            t.print(|| wire::project_created(&p), || format!("Created project {}\n", p.key));
        }
        Command::Project(ProjectCommand::List) => {
            let list = tasks_pg::ops::projects(&mut t.store)?;
            t.print(|| wire::project_list(&list), || project::list_text(&list));
        }
        Command::Add(a) => {
            let req = add::request(&t.ctx, &a.fields, add::choice(&a))?;
            let out = if a.dry_run {
                tasks_pg::ops::rehearse(&mut t.store, &t.ctx, &req)?
            } else {
                tasks_pg::ops::add(&mut t.store, &t.ctx, &req)?
            };
            t.print(|| wire::added(&out, now, a.dry_run), || add::added_text(&out, a.dry_run, &t.style));
        }
        Command::List(a) => {
            let f = &a;
            refuse_flag(f.task_type.is_some(), "--type")?;
            refuse_flag(f.tag.is_some(), "--tag")?;
            refuse_flag(f.person.is_some(), "--person")?;
            refuse_flag(
                f.due_before.is_some() || f.due_after.is_some() || f.overdue,
                "--due-before/--due-after/--overdue",
            )?;
            refuse_flag(f.priority.is_some(), "--priority")?;
            refuse_flag(f.claimed_by.is_some(), "--claimed-by")?;
            refuse_flag(f.text.is_some(), "--text")?;
            refuse_flag(!matches!(f.sort, view::SortArg::Created), "--sort")?;
            let mut statuses = view::parse_statuses(&a.status)?;
            if statuses.is_empty() {
                statuses = vec![Status::Open, Status::InProgress];
            }
            let filter = tasks_pg::ops::Filter { statuses, project: a.project, limit: a.limit.limit };
            let items = tasks_pg::ops::list(&mut t.store, &filter)?;
            t.print(|| wire::task_list(&items, now), || render::tasks(&items, &t.style, "No tasks."));
        }
        Command::Show(a) => {
            let d = tasks_pg::ops::show(&mut t.store, &a.task)?;
            t.print(|| wire::task_detail(&d, now), || render::detail(&d, &t.style));
        }
        Command::Ready(a) => {
            let items = tasks_pg::ops::ready(&mut t.store, &t.ctx, None, a.limit.limit)?;
            t.print(|| wire::task_list(&items, now), || render::tasks(&items, &t.style, "Nothing is ready."));
        }
        Command::Check(a) => {
            let req = add::request(&t.ctx, &a.fields, tasks_core::ops::add::DupChoice::Check)?;
            let candidates = tasks_pg::dedup::check(&mut t.store, &t.ctx, &req, a.all)?;
            t.print(|| wire::check(&candidates, a.all), || duplicates::check_text(&candidates, a.all, &t.style));
        }
        Command::Claim(a) => {
            let task = tasks_pg::ops::claim(&mut t.store, &t.ctx, &a.task, claim::lease(a.lease.as_deref())?)?;
            let until = task.claimed_until.map(tasks_core::time::rfc3339).unwrap_or_default();
            t.print(
                || wire::task_only(&task, now),
                || format!("Claimed {} until {until}: {}\n", task.key, safe(&task.title)),
            );
        }
        Command::Release(a) => {
            let task = tasks_pg::ops::release(&mut t.store, &t.ctx, &a.task)?;
            t.print(|| wire::task_only(&task, now), || format!("Released {}\n", task.key));
        }
        Command::Next(a) => {
            refuse_flag(a.task_type.is_some(), "--type")?;
            refuse_flag(a.tag.is_some(), "--tag")?;
            let task = if a.claim {
                tasks_pg::ops::next(&mut t.store, &t.ctx, a.project.as_deref(), claim::lease(a.lease.as_deref())?)?
            } else {
                let describe = a.project.as_ref().map(|p| format!("project {p}")).unwrap_or_default();
                tasks_pg::ops::ready(&mut t.store, &t.ctx, a.project.as_deref(), Some(1))?
                    .into_iter()
                    .next()
                    .ok_or(tasks_core::Error::NothingReady { filter: describe })?
            };
            t.print(|| wire::next(&task, a.claim, now), || claim::next_text(&task, a.claim));
        }
        Command::Done(a) => status(t, &a.tasks, StatusVerb::Done, a.force, "Done")?,
        Command::Start(a) => status(t, &a.tasks, StatusVerb::Start, a.force, "Started")?,
        Command::Stop(a) => status(t, std::slice::from_ref(&a.task), StatusVerb::Stop, a.force, "Stopped")?,
        Command::Dismiss(a) => status(t, &a.tasks, StatusVerb::Dismiss(a.reason.as_deref()), a.force, "Dismissed")?,
        Command::Reopen(a) => status(t, std::slice::from_ref(&a.task), StatusVerb::Reopen, false, "Reopened")?,
        Command::Edit(a) => {
            let req = change::edit_request(&t.ctx, &a)?;
            if req.is_empty() {
                // The $EDITOR flow runs on a SQLite store only; field flags say it all.
                return Err(change::nothing_to_edit());
            }
            let before = tasks_pg::ops::show(&mut t.store, &a.task)?.task;
            let after = tasks_pg::ops::edit(&mut t.store, &t.ctx, &a.task, &req, !a.dry_run)?;
            let changes = change::changes(&before, &after, &t.style);
            t.print(
                || wire::edited(&after, &changes, a.dry_run, now),
                || change::edited_text(&after, &changes, a.dry_run),
            );
        }
        Command::Search(a) => {
            let items = tasks_pg::ops::search(&mut t.store, &view::search_query(&a))?;
            t.print(|| wire::task_list(&items, now), || render::tasks(&items, &t.style, view::no_match(a.all)));
        }
        Command::Tag(a) => tags(t, &a.args, true)?,
        Command::Untag(a) => tags(t, &a.args, false)?,
        Command::Note(a) => {
            let out = tasks_pg::ops::note(&mut t.store, &t.ctx, &a.task, &a.text.join(" "))?;
            t.print(|| wire::noted(&out, now), || format!("Noted on {}: {}\n", out.task.key, safe(&out.note.text)));
        }
        Command::History(a) => {
            let (task, events) = tasks_pg::ops::history(&mut t.store, &a.task)?;
            t.print(|| wire::history(&task, &events, now), || render::history(&task, &events, &t.style));
        }
        Command::Blocked(a) => {
            let items = tasks_pg::ops::blocked(&mut t.store, a.limit)?;
            t.print(|| wire::task_list(&items, now), || render::tasks(&items, &t.style, "Nothing is blocked."));
        }
        Command::Link(a) => {
            let kind: tasks_core::LinkKind = a.kind.parse()?;
            let out = tasks_pg::ops::link(&mut t.store, &t.ctx, &a.task, kind, &a.other)?;
            t.print(|| wire::linked(&out, now), || change::link_text(&out, true));
        }
        Command::Unlink(a) => {
            let kind: tasks_core::LinkKind = a.kind.parse()?;
            let out = tasks_pg::ops::unlink(&mut t.store, &t.ctx, &a.task, kind, &a.other)?;
            t.print(|| wire::linked(&out, now), || change::link_text(&out, false));
        }
        Command::Export(a) => {
            if a.format != transfer::ExportFormat::Tasks {
                return Err(CliError::config(
                    "only the lossless tasks format exports from a PostgreSQL store yet",
                    Some("hint: tasks export > team.jsonl, then import it into a SQLite store to convert"),
                ));
            }
            if t.json {
                return Err(CliError::validation(
                    "--json does not apply to the tasks format: it is JSON Lines already",
                    Some("hint: tasks export > backup.jsonl".into()),
                ));
            }
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            tasks_pg::dump::export(&mut t.store, &t.ctx, &mut out)?;
            out.flush().map_err(|e| CliError::other(e.to_string()))?;
        }
        Command::Import(a) => {
            refuse_flag(a.check_report.is_some(), "--check-report")?;
            refuse_flag(a.skip_bad, "--skip-bad")?;
            if a.from != transfer::From::Tasks {
                return Err(unsupported("import --from taskwarrior/beads"));
            }
            let file: Box<dyn std::io::Read> = if a.file.as_os_str() == "-" {
                Box::new(std::io::stdin())
            } else {
                Box::new(std::fs::File::open(&a.file).map_err(|e| {
                    let mut err = CliError::other(format!("{}: {e}", a.file.display()));
                    if e.kind() == std::io::ErrorKind::NotFound {
                        err.code = "not_found";
                    }
                    err
                })?)
            };
            let mut reader = BufReader::with_capacity(1 << 16, file);
            let mut first = String::new();
            reader.read_line(&mut first).map_err(|e| CliError::other(format!("{}: {e}", a.file.display())))?;
            if !tasks_core::ops::dump::is_dump_header(first.trim_end()) {
                return Err(CliError::config(
                    "a PostgreSQL store imports a tasks export (tasks export) only; task lines import into SQLite",
                    Some(
                        "hint: import the lines into a SQLite store, then tasks export | TASKS_DB=postgres://… tasks import -",
                    ),
                ));
            }
            let out = tasks_pg::dump::import(&mut t.store, first.trim_end(), &mut reader)?;
            t.print(|| wire::dump_imported(&out), || transfer::dump_text(&out));
        }
        Command::Daemon(a) => daemon(t, a.once, a.telegram)?,
        other => return Err(unsupported(&name_of(&other))),
    }
    Ok(())
}

/// Adds or removes tags on tasks, all or none, and prints as the SQLite commands do.
fn tags(t: &mut Team, args: &[String], add: bool) -> Result<(), CliError> {
    let (tasks, names) = change::split_tag_args(args)?;
    let refs: Vec<&str> = tasks.iter().map(String::as_str).collect();
    let results = tasks_pg::ops::tag(&mut t.store, &t.ctx, &refs, &names, add)?;
    let now = t.ctx.now_ms();
    t.print(|| change::tagged_value(&results, now), || change::tagged_text(&results));
    Ok(())
}

/// Runs a status verb on tasks, all or none, and prints as the SQLite commands do.
fn status(t: &mut Team, tasks: &[String], verb: StatusVerb<'_>, force: bool, said: &str) -> Result<(), CliError> {
    let refs: Vec<&str> = tasks.iter().map(String::as_str).collect();
    let outs = tasks_pg::ops::set_status(&mut t.store, &t.ctx, &refs, verb, force)?;
    let now = t.ctx.now_ms();
    t.print(|| change::statuses_value(&outs, now), || change::statuses_text(&outs, said));
    Ok(())
}

/// Longest sleep between two planning passes of the daemon.
const DAEMON_POLL: Duration = Duration::from_secs(30);

/// Runs the schedule daemon on the team store: any number of machines may run one; a
/// firing becomes one Job whichever daemon gets there first.
fn daemon(t: &mut Team, once: bool, telegram: bool) -> Result<(), CliError> {
    refuse_flag(telegram, "--telegram")?;
    let mut fired = Vec::new();
    loop {
        let ctx = env::context(None).map(|c| Context { actor: t.ctx.actor.clone(), ..c })?;
        let pass = tasks_pg::schedule::plan_due(&mut t.store, &ctx)?;
        if !once {
            for f in &pass {
                eprintln!("{} job #{} {} ({})", tasks_core::time::rfc3339(f.scheduled_for), f.job_id, f.task, f.state);
            }
        }
        fired.extend(pass);
        if once {
            break;
        }
        std::thread::sleep(DAEMON_POLL);
    }
    t.print(
        || {
            json!({ "jobs": fired.iter().map(|f| json!({
                "id": f.job_id,
                "key": f.key,
                "task": f.task,
                "scheduled_for": tasks_core::time::rfc3339(f.scheduled_for),
                "state": f.state.as_str(),
            })).collect::<Vec<_>>() })
        },
        || {
            if fired.is_empty() {
                return "Nothing was due.\n".into();
            }
            fired
                .iter()
                .map(|f| {
                    format!("Job #{} {} {} {}\n", f.job_id, f.task, tasks_core::time::rfc3339(f.scheduled_for), f.state)
                })
                .collect()
        },
    );
    Ok(())
}
