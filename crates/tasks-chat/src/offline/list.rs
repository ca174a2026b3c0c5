//! The lists a message asks for: today, inbox, overdue, done, by project.

use super::*;

/// Words after a first "show" that ask for a list.
const SHOW_FOLLOWERS: &[&str] = &[
    "me",
    "us",
    "what",
    "whats",
    "what's",
    "the",
    "my",
    "all",
    "everything",
    "done",
    "finished",
    "completed",
    "closed",
    "tasks",
    "today",
    "todays",
    "today's",
    "this",
    "last",
    "inbox",
    "overdue",
    "late",
    "list",
    "projects",
    "project",
];

/// Returns the list a message asks for, if it asks for one.
pub(super) fn list_view(tokens: &[&str]) -> Option<Call> {
    let has = |list: &[&str]| tokens.iter().any(|t| list.contains(t));
    let starts = |prefix: &str| tokens.iter().any(|t| t.starts_with(prefix));
    let cue = has(&[
        "что",
        "какие",
        "покажи",
        "показать",
        "show",
        "what",
        "whats",
        "what's",
        "list",
        "задачи",
        "tasks",
        "plate",
        "план",
        "планы",
        "agenda",
        "anything",
        "any",
        "сводка",
        "см",
        "список",
        "everything",
        "чо",
        "че",
    ]) || tokens.len() <= 2;
    if tokens.len() > 7 || !cue {
        return None;
    }
    // "show notes done" names a task («Write show notes»): "show" asks for a list only
    // before the words of one ("show me", "show done", "show the overdue").
    let show_a_task = tokens.first() == Some(&"show") && tokens.get(1).is_some_and(|t| !SHOW_FOLLOWERS.contains(t));
    if show_a_task {
        return None;
    }
    // «задачи без проекта», "tasks with no project": the inbox, not the projects.
    let without = tokens.windows(2).any(|w| {
        matches!(w[0], "без" | "no" | "without") && (w[1].starts_with("проект") || w[1].starts_with("project"))
    }) || tokens.windows(3).any(|w| w[0] == "without" && w[1] == "a" && w[2].starts_with("project"));
    if without {
        return Some(Call::ListTasks { filter: ListView::Inbox, period: None });
    }
    if has(&["проектам", "проекту", "проекты", "project", "projects"]) {
        return Some(Call::ListTasks { filter: ListView::AllByProject, period: None });
    }
    if starts("просроч") || has(&["overdue", "late"]) {
        return Some(Call::ListTasks { filter: ListView::Overdue, period: None });
    }
    if starts("входящ") || starts("инбокс") || has(&["inbox"]) {
        return Some(Call::ListTasks { filter: ListView::Inbox, period: None });
    }
    let done_words = has(&[
        "сделала",
        "сделал",
        "сделано",
        "выполненные",
        "сделанные",
        "done",
        "finished",
        "finish",
        "completed",
        "закрытые",
        // «что я уже закрыл»: asked in the past, as «что сделала».
        "закрыл",
        "закрыла",
        "закрыли",
        "сделали",
        "выполнил",
        "выполнила",
        "closed",
    ]) || starts("выполненн")
        || starts("сделанн")
        || starts("закрыт")
        // "what did i close this week": the done list, asked with "did".
        || (has(&["did"]) && has(&["close", "finish", "complete", "do", "get"]));
    // ("done with the price list": "list" asks only first, "list done tasks".)
    let asks = has(&["что", "какие", "покажи", "show", "what", "whats", "what's", "список"])
        || tokens.first() == Some(&"list");
    if done_words && asks {
        let period = if has(&["сегодня", "today"]) {
            Some(Period::Today)
        } else if tokens.iter().any(|t| t.starts_with("недел") || *t == "week") {
            Some(Period::Week)
        } else {
            None
        };
        return Some(Call::ListTasks { filter: ListView::Done, period });
    }
    // "what's the yen rate today", "what day is it today", «какое сегодня число»: a
    // question about the day itself, not about its tasks.
    let about_the_day = has(NOT_THE_AGENDA) || tokens.windows(3).any(|w| w == ["day", "is", "it"]);
    // ("what's the plan for today": the plan is the list asked for, no verb.)
    let a_verb = |t: &&str| (is_task_verb(t) || is_past(t)) && !matches!(*t, "plan" | "plans");
    if has(&["сегодня", "today"]) && !about_the_day && !tokens.iter().any(a_verb) {
        return Some(Call::ListTasks { filter: ListView::Today, period: None });
    }
    None
}

/// Words of a question about today that is not about the list: the date, the time, a
/// rate, the weather, the news.
const NOT_THE_AGENDA: &[&str] = &[
    "rate",
    "rates",
    "weather",
    "temperature",
    "date",
    "time",
    "news",
    "score",
    "курс",
    "погода",
    "погоду",
    "температура",
    "число",
    "время",
    "новости",
];

/// «перенеси всё с сегодня на завтра», "move today's tasks to tomorrow".
pub(super) fn is_defer_today(tokens: &[&str]) -> bool {
    let has = |list: &[&str]| tokens.iter().any(|t| list.contains(t));
    has(MOVE_WORDS)
        && (has(&["сегодня", "today", "todays"]) || tokens.iter().any(|t| t.starts_with("сегодняшн")))
        && has(&["завтра", "tomorrow"])
}
