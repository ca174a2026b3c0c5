//! Slash commands (SPEC §7, seed 001): the conversation's commands that need no model —
//! `/today /inbox /overdue /done [today|week|all] /del /text /proj /date /undo /help`.
//! `N` is a position in the last numbered list shown in the conversation; a task key
//! works too. A pure function: it reads the command, the last list and today.

use jiff::civil::Date;

use crate::calls::{Call, Deadline, DeadlineKind, ListView, Period};
use crate::offline::Lang;

/// What a slash command asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Slash {
    /// Run this call.
    Run(Call),
    /// Undo the last change made in this conversation's name.
    Undo,
    /// Show the conversation's queue.
    Queue,
    /// Remove a pending item of the queue.
    CancelItem(i64),
    /// Interrupt the running item and put this one next.
    Now(i64),
    /// Approve what a prompt Job proposed.
    Approve(i64),
    /// Reject what a prompt Job proposed.
    Reject(i64),
    /// Show the help.
    Help,
    /// The command could not be read: what to say.
    Usage(String),
}

/// The help text of the slash commands.
pub fn help(lang: Lang) -> String {
    match lang {
        Lang::Ru => "Команды: /today — на сегодня, /inbox — входящие, /overdue — просроченные, \
                     /done [today|week|all] — сделанные, /del N — удалить, /text N ТЕКСТ — переименовать, \
                     /proj N ПРОЕКТ — в другой проект, /date N КОГДА — новый срок (none — без срока), \
                     /undo — отменить последнее изменение, /queue, /cancel N, /now N — очередь, \
                     /approve N, /reject N — решить по заданию расписания, /help. \
                     N — номер в последнем списке или ключ задачи."
            .to_string(),
        Lang::En => "Commands: /today, /inbox, /overdue, /done [today|week|all], /del N, /text N TEXT, \
                     /proj N PROJECT, /date N WHEN (none clears it), /undo, /queue, /cancel N, /now N (the \
                     queue), /approve N, /reject N (a schedule's Job), /help. N is a number in the last list \
                     shown, or a task key."
            .to_string(),
    }
}

/// Reads a slash command against the last list shown (`shown`, keys in order).
pub fn parse(text: &str, shown: &[String], today: Date, lang: Lang) -> Slash {
    let mut parts = text.trim().splitn(3, char::is_whitespace);
    let command = parts.next().unwrap_or("").trim_start_matches('/').to_lowercase();
    // `/today@my_bot` in Telegram groups.
    let command = command.split('@').next().unwrap_or("").to_string();
    let first = parts.next().map(str::trim).filter(|s| !s.is_empty());
    let rest = parts.next().map(str::trim).filter(|s| !s.is_empty());
    let usage = |what: &str| Slash::Usage(format!("{what}\n{}", help(lang)));
    let target = |arg: Option<&str>| -> Result<String, Slash> {
        let Some(arg) = arg else { return Err(usage(missing_number(lang))) };
        resolve_target(arg, shown).ok_or_else(|| usage(&unknown_number(arg, shown.len(), lang)))
    };
    let list = |filter| Slash::Run(Call::ListTasks { filter, period: None });
    match command.as_str() {
        "today" => list(ListView::Today),
        "inbox" => list(ListView::Inbox),
        "overdue" => list(ListView::Overdue),
        "done" => match first.map(Period::parse) {
            None => Slash::Run(Call::ListTasks { filter: ListView::Done, period: None }),
            Some(Some(p)) => Slash::Run(Call::ListTasks { filter: ListView::Done, period: Some(p) }),
            Some(None) => usage(&format!("/done: {}", first.unwrap_or(""))),
        },
        "all" | "projects" => list(ListView::AllByProject),
        "del" | "delete" | "remove" => match target(first) {
            Ok(id) => Slash::Run(Call::CancelTask { id }),
            Err(e) => e,
        },
        "close" | "ok" | "check" => match target(first) {
            Ok(id) => Slash::Run(Call::CloseTask { id }),
            Err(e) => e,
        },
        "text" | "rename" => match (target(first), rest) {
            (Ok(id), Some(text)) => {
                Slash::Run(Call::UpdateTask { id, text: Some(text.to_string()), project: None, deadline: None })
            }
            (Err(e), _) => e,
            (Ok(_), None) => usage("/text N TEXT"),
        },
        "proj" | "project" => match (target(first), rest) {
            (Ok(id), Some(project)) => {
                Slash::Run(Call::UpdateTask { id, text: None, project: Some(project.to_string()), deadline: None })
            }
            (Err(e), _) => e,
            (Ok(_), None) => usage("/proj N PROJECT"),
        },
        "date" | "due" => match (target(first), rest) {
            (Ok(id), Some(when)) if matches!(when.to_lowercase().as_str(), "none" | "нет" | "без срока" | "-") =>
            {
                let deadline = Some(Deadline { kind: DeadlineKind::None, date: None });
                Slash::Run(Call::UpdateTask { id, text: None, project: None, deadline })
            }
            (Ok(id), Some(when)) => match tasks_text::parse_due(when, today) {
                Ok(due) => {
                    let kind = match due.kind {
                        tasks_text::DueKind::Day => DeadlineKind::Day,
                        tasks_text::DueKind::Week => DeadlineKind::Week,
                    };
                    let deadline = Some(Deadline { kind, date: Some(due.date) });
                    Slash::Run(Call::UpdateTask { id, text: None, project: None, deadline })
                }
                Err(e) => usage(&format!("/date: {e}; {}", e.hint())),
            },
            (Err(e), _) => e,
            (Ok(_), None) => usage("/date N WHEN"),
        },
        "undo" => Slash::Undo,
        "queue" => Slash::Queue,
        "cancel" | "now" => match first.and_then(|n| n.trim_start_matches('#').parse::<i64>().ok()) {
            Some(n) if command == "cancel" => Slash::CancelItem(n),
            Some(n) => Slash::Now(n),
            None => usage(&format!("/{command} N: N is the number /queue shows")),
        },
        "approve" | "reject" => match first.and_then(|n| n.trim_start_matches('#').parse::<i64>().ok()) {
            Some(job) if command == "approve" => Slash::Approve(job),
            Some(job) => Slash::Reject(job),
            None => usage(&format!("/{command} N: N is the Job's number")),
        },
        "help" | "start" | "?" => Slash::Help,
        other => usage(&match lang {
            Lang::Ru => format!("Нет команды /{other}."),
            Lang::En => format!("There is no command /{other}."),
        }),
    }
}

/// Returns the key a command argument names: a task key, or a number in the last list.
fn resolve_target(arg: &str, shown: &[String]) -> Option<String> {
    let arg = arg.trim().trim_start_matches('#');
    if let Ok(n) = arg.parse::<usize>() {
        return n.checked_sub(1).and_then(|i| shown.get(i)).cloned();
    }
    let (letters, digits) = arg.split_once('-')?;
    (!letters.is_empty()
        && letters.chars().all(|c| c.is_ascii_alphabetic())
        && digits.chars().all(|c| c.is_ascii_digit()))
    .then(|| arg.to_ascii_uppercase())
}

fn missing_number(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Укажите номер из последнего списка или ключ задачи.",
        Lang::En => "Give a number from the last list, or a task key.",
    }
}

fn unknown_number(arg: &str, shown: usize, lang: Lang) -> String {
    match (lang, shown) {
        (Lang::Ru, 0) => format!("«{arg}»: список ещё не показан — сначала /today или /inbox."),
        (Lang::Ru, n) => format!("«{arg}»: в последнем списке {n} задач(и)."),
        (Lang::En, 0) => format!("\"{arg}\": no list was shown yet — try /today or /inbox first."),
        (Lang::En, n) => format!("\"{arg}\": the last list has {n} task(s)."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(text: &str, expected: &str) {
        let shown = vec!["HOME-3".to_string(), "WORK-1".to_string()];
        let got = match parse(text, &shown, jiff::civil::date(2026, 3, 11), Lang::En) {
            Slash::Run(c) => format!("{} {}", c.tool(), c.arguments()),
            Slash::Undo => "undo".into(),
            Slash::Approve(j) => format!("approve {j}"),
            Slash::Queue => "queue".into(),
            Slash::CancelItem(n) => format!("cancel item {n}"),
            Slash::Now(n) => format!("now {n}"),
            Slash::Reject(j) => format!("reject {j}"),
            Slash::Help => "help".into(),
            Slash::Usage(u) => format!("usage {}", u.lines().next().unwrap_or("")),
        };
        assert_eq!(got, expected, "{text}");
    }

    #[test]
    fn commands() {
        check("/today", r#"list_tasks {"filter":"today"}"#);
        check("/today@tasks_bot", r#"list_tasks {"filter":"today"}"#);
        check("/done week", r#"list_tasks {"filter":"done","period":"week"}"#);
        check("/done someday", "usage /done: someday");
        check("/del 2", r#"cancel_task {"id":"WORK-1"}"#);
        check("/del hrb-7", r#"cancel_task {"id":"HRB-7"}"#);
        check("/del 3", "usage \"3\": the last list has 2 task(s).");
        check("/del", "usage Give a number from the last list, or a task key.");
        check("/text 1 Fix the kitchen tap", r#"update_task {"id":"HOME-3","text":"Fix the kitchen tap"}"#);
        check("/proj 1 LIFE", r#"update_task {"id":"HOME-3","project":"LIFE"}"#);
        check("/date 1 friday", r#"update_task {"deadline":"2026-03-13","deadline_kind":"day","id":"HOME-3"}"#);
        check("/date 1 none", r#"update_task {"deadline_kind":"none","id":"HOME-3"}"#);
        check(
            "/date 1 fryday",
            "usage /date: cannot read \"fryday\" as a date; accepted: 2026-12-01, 10.04, 20 мая, May 20, today, tomorrow, friday, next friday, next week, in 3 days, end of week, end of month, end of April, eod; сегодня, завтра, послезавтра, в пятницу, через неделю, до конца недели, до конца месяца, до конца апреля, к 21-му; hoy, mañana, el lunes, la próxima semana, a finales de abril",
        );
        check("/undo", "undo");
        check("/approve 12", "approve 12");
        check("/queue", "queue");
        check("/cancel 3", "cancel item 3");
        check("/now #4", "now 4");
        check("/reject #12", "reject 12");
        check("/approve", "usage /approve N: N is the Job's number");
        check("/help", "help");
        check("/frobnicate", "usage There is no command /frobnicate.");
    }
}
