//! The reply of a turn (SPEC §7): every action on its own line with the task's text,
//! project and due, so a task filed in the wrong project or on the wrong day is seen at
//! once and fixed with one phrase. Written in the language of the person's message.
//!
//! Every piece of text that came from a person or a model (titles, reasons, questions)
//! goes through [`tasks_text::printable()`]: a reply is printed on a terminal and sent
//! to Telegram, and neither may receive an escape sequence someone typed.

use jiff::civil::{Date, Weekday};
use tasks_core::model::{Due, DueKind, Task};

use crate::calls::{ListView, Period};
use crate::dispatch::Outcome;
use crate::offline::{Lang, NotUnderstood, Question};

/// Most tasks a reply lists one per line; the rest are counted.
pub const REPLY_LIST_MAX: usize = 30;

/// How a reply is written.
#[derive(Debug, Clone)]
pub struct Voice {
    /// Its language.
    pub lang: Lang,
    /// Today, for relative dates.
    pub today: Date,
    /// The person's zone, for times of day.
    pub zone: jiff::tz::TimeZone,
    /// Now (epoch ms), for times due already past.
    pub now_ms: i64,
}

fn safe(text: &str) -> String {
    tasks_text::printable(text).into_owned()
}

impl Voice {
    fn ru(&self) -> bool {
        self.lang == Lang::Ru
    }

    /// Returns the text of one outcome.
    pub fn outcome(&self, o: &Outcome) -> String {
        let ru = self.ru();
        match o {
            Outcome::Created(t) => format!("{} {}", if ru { "✅ Создана:" } else { "✅ Created:" }, self.task(t)),
            Outcome::HeldBack { title, candidates } => {
                let mut s = if ru {
                    format!("⚠️ «{}» похоже на то, что уже есть:", safe(title))
                } else {
                    format!("⚠️ \"{}\" looks like a task you already have:", safe(title))
                };
                for c in candidates.iter().take(3) {
                    s.push_str(&format!("\n  • {} {}", c.key, safe(&c.title)));
                }
                s.push_str(if ru {
                    "\nСоздать всё равно? (да / нет)"
                } else {
                    "\nCreate it anyway? (yes / no)"
                });
                s
            }
            Outcome::Closed(t) => format!("{} {}", if ru { "☑️ Сделано:" } else { "☑️ Done:" }, self.task(t)),
            Outcome::Cancelled(t) => format!("{} {}", if ru { "🗑 Отменена:" } else { "🗑 Cancelled:" }, self.task(t)),
            Outcome::Updated { before, after } => {
                let mut s = format!("{} {}", if ru { "✏️ Изменена:" } else { "✏️ Changed:" }, self.task(after));
                let mut was = Vec::new();
                if before.title != after.title {
                    was.push(format!("«{}»", safe(&before.title)));
                }
                if before.project != after.project {
                    was.push(before.project.clone());
                }
                if before.due != after.due {
                    was.push(self.due(before.due.as_ref()));
                }
                if !was.is_empty() {
                    s.push_str(&format!(" ({} {})", if ru { "было:" } else { "was:" }, was.join(", ")));
                }
                s
            }
            Outcome::Listed { view, period, tasks } => self.list(*view, *period, tasks),
            Outcome::Deferred(tasks) if tasks.is_empty() => (if ru {
                "На сегодня сроков не было — переносить нечего."
            } else {
                "Nothing was due today; nothing moved."
            })
            .to_string(),
            Outcome::Deferred(tasks) => {
                let mut s = if ru {
                    format!("➡️ Перенесено на завтра: {}", tasks.len())
                } else {
                    format!("➡️ Moved to tomorrow: {}", tasks.len())
                };
                s.push_str(&self.numbered(tasks));
                s
            }
            Outcome::Undone(u) => {
                let mut s = (if ru { "↩️ Отменено:" } else { "↩️ Undone:" }).to_string();
                for r in &u.reverted {
                    s.push_str(&format!("\n  {}: {}", r.key, safe(&r.what)));
                }
                for t in &u.tasks {
                    s.push_str(&format!("\n{}", self.task(t)));
                }
                s
            }
            Outcome::Said(text) => text.clone(),
            Outcome::Asked(q) => self.question(q),
            Outcome::Rejected(reason) => format!("🤷 {}", safe(reason)),
            Outcome::Skipped { call, reason } => {
                let what =
                    call.target().map(|k| format!("{} {k}", call.tool())).unwrap_or_else(|| call.tool().to_string());
                if ru {
                    format!("⚠️ Пропущено ({what}): {}", safe(reason))
                } else {
                    format!("⚠️ Skipped ({what}): {}", safe(reason))
                }
            }
        }
    }

    /// Returns a question with its numbered options.
    pub fn question(&self, q: &Question) -> String {
        let mut s = format!("❓ {}", safe(&q.question));
        for (i, (key, title)) in q.options.iter().enumerate() {
            if key.is_empty() {
                s.push_str(&format!("\n{}. {}", i + 1, safe(title)));
            } else {
                s.push_str(&format!("\n{}. {key} {}", i + 1, safe(title)));
            }
        }
        if q.options.len() > 1 {
            s.push_str(if self.ru() {
                "\nОтветьте номером: «2», «вторую»."
            } else {
                "\nAnswer with a number: \"2\", \"the second\"."
            });
        }
        s
    }

    /// Returns one task as a reply line: `KEY «title» — PROJECT, due`.
    pub fn task(&self, t: &Task) -> String {
        let project = if t.project == "INBOX" {
            if self.ru() { "Входящие".to_string() } else { "Inbox".to_string() }
        } else {
            t.project.clone()
        };
        let title = if self.ru() { format!("«{}»", safe(&t.title)) } else { format!("\"{}\"", safe(&t.title)) };
        format!("{} {title} — {project}, {}", t.key, self.due(t.due.as_ref()))
    }

    /// Returns a due date in words: «срок: завтра (2026-03-12)», "due Friday (2026-03-13)".
    pub fn due(&self, due: Option<&Due>) -> String {
        let ru = self.ru();
        let Some(d) = due else { return (if ru { "без срока" } else { "no due date" }).to_string() };
        let days = self.today.until(d.date).map(|s| s.get_days() as i64).unwrap_or(0);
        let word = match (days, ru) {
            (0, true) => "сегодня".to_string(),
            (1, true) => "завтра".to_string(),
            (-1, true) => "вчера".to_string(),
            (0, false) => "today".to_string(),
            (1, false) => "tomorrow".to_string(),
            (-1, false) => "yesterday".to_string(),
            (2..=6, _) => weekday(d.date.weekday(), self.lang).to_string(),
            _ => String::new(),
        };
        let mut when = if word.is_empty() { d.date.to_string() } else { format!("{word} ({})", d.date) };
        if let (DueKind::Time, Some(at)) = (d.kind, d.at) {
            let local = self.zone.to_datetime(tasks_core::time::from_ms(at));
            when = format!("{when} {}", local.strftime("%H:%M"));
        }
        match (d.kind, ru) {
            (DueKind::Week, true) => format!("до конца недели: {when}"),
            (DueKind::Week, false) => format!("by the end of the week: {when}"),
            (_, true) if d.is_overdue(self.today, self.now_ms) => format!("срок: {when}, просрочено"),
            (_, false) if d.is_overdue(self.today, self.now_ms) => format!("due {when}, overdue"),
            (_, true) => format!("срок: {when}"),
            (_, false) => format!("due {when}"),
        }
    }

    fn list(&self, view: ListView, period: Option<Period>, tasks: &[Task]) -> String {
        let ru = self.ru();
        let head = match (view, ru) {
            (ListView::Today, true) => "📅 На сегодня".to_string(),
            (ListView::Today, false) => "📅 Today".to_string(),
            (ListView::Inbox, true) => "📥 Входящие".to_string(),
            (ListView::Inbox, false) => "📥 Inbox".to_string(),
            (ListView::Overdue, true) => "⏰ Просрочено".to_string(),
            (ListView::Overdue, false) => "⏰ Overdue".to_string(),
            (ListView::AllByProject, true) => "🗂 Все открытые задачи".to_string(),
            (ListView::AllByProject, false) => "🗂 All open tasks".to_string(),
            (ListView::Done, _) => match (period.unwrap_or(Period::Today), ru) {
                (Period::Today, true) => "☑️ Сделано сегодня".to_string(),
                (Period::Today, false) => "☑️ Done today".to_string(),
                (Period::Week, true) => "☑️ Сделано за неделю".to_string(),
                (Period::Week, false) => "☑️ Done this week".to_string(),
                (Period::All, true) => "☑️ Сделано".to_string(),
                (Period::All, false) => "☑️ Done".to_string(),
            },
        };
        if tasks.is_empty() {
            return format!("{head}: {}", if ru { "пусто." } else { "nothing." });
        }
        format!("{head} ({}):{}", tasks.len(), self.numbered(tasks))
    }

    fn numbered(&self, tasks: &[Task]) -> String {
        let mut s = String::new();
        for (i, t) in tasks.iter().take(REPLY_LIST_MAX).enumerate() {
            s.push_str(&format!("\n{}. {}", i + 1, self.task(t)));
        }
        if tasks.len() > REPLY_LIST_MAX {
            let more = tasks.len() - REPLY_LIST_MAX;
            s.push_str(&if self.ru() { format!("\n… и ещё {more}") } else { format!("\n… and {more} more") });
        }
        s
    }

    /// Returns why a message was not understood, with what to try instead.
    pub fn not_understood(&self, why: NotUnderstood) -> String {
        let ru = self.ru();
        match (why, ru) {
            (NotUnderstood::UnknownPhrase, true) => {
                "Не понял. Я понимаю: «сделала …», «удали …», «перенеси … на пятницу», «добавь … завтра», «что на сегодня»; или /help.".to_string()
            }
            (NotUnderstood::UnknownPhrase, false) => {
                "I didn't understand. I understand \"done …\", \"delete …\", \"move … to Friday\", \"add … tomorrow\", \"what's today\"; or /help.".to_string()
            }
            (NotUnderstood::NoTaskFits, true) => "Не нашёл открытой задачи, о которой речь. Напишите ключ (HOME-3) или /today.".to_string(),
            (NotUnderstood::NoTaskFits, false) => "No open task fits those words. Write its key (HOME-3), or /today.".to_string(),
            (NotUnderstood::UnknownKey, true) => "Нет открытой задачи с таким ключом.".to_string(),
            (NotUnderstood::UnknownKey, false) => "There is no open task with that key.".to_string(),
            (NotUnderstood::NoDate, true) => "На какой день перенести? Например: «перенеси … на пятницу».".to_string(),
            (NotUnderstood::NoDate, false) => "Move it to when? For example \"move … to Friday\".".to_string(),
            (NotUnderstood::Batch, true) => "Со многими задачами сразу я не работаю — назовите каждую или используйте /del N.".to_string(),
            (NotUnderstood::Negated, true) => "Понял, что это ещё не сделано — ничего не меняю.".to_string(),
            (NotUnderstood::Negated, false) => "Understood that it is not done yet — nothing changed.".to_string(),
            (NotUnderstood::Question, true) => "На вопросы я не действую: скажите, что сделать, или /today.".to_string(),
            (NotUnderstood::Question, false) => "I don't act on questions: say what to do, or /today.".to_string(),
            (NotUnderstood::Batch, false) => "I don't act on many tasks at once — name each one, or use /del N.".to_string(),
        }
    }

    /// Returns the words for a button whose question is gone.
    pub fn stale_button(&self) -> String {
        (if self.ru() {
            "Этот вопрос уже закрыт — ничего не меняю."
        } else {
            "That question is closed already; nothing changed."
        })
        .to_string()
    }

    /// Returns what `/approve N` would do (dry run).
    pub fn would_approve(&self, job: i64, yes: bool) -> String {
        match (yes, self.ru()) {
            (true, true) => format!("Пробный прогон: разрешил бы задание #{job}."),
            (true, false) => format!("Dry run: would approve Job #{job}."),
            (false, true) => format!("Пробный прогон: отклонил бы задание #{job}."),
            (false, false) => format!("Dry run: would reject Job #{job}."),
        }
    }

    /// Returns the reply to an approval.
    pub fn approved(&self, job: i64, reply: &str) -> String {
        if self.ru() {
            format!("✅ Задание #{job} разрешено:\n{reply}")
        } else {
            format!("✅ Job #{job} approved:\n{reply}")
        }
    }

    /// Returns the reply to a rejection.
    pub fn rejected(&self, job: i64) -> String {
        if self.ru() {
            format!("🚫 Задание #{job} отклонено: ничего не сделано.")
        } else {
            format!("🚫 Job #{job} rejected: nothing of it was done.")
        }
    }

    /// Returns the words for a dropped question.
    pub fn dropped(&self) -> String {
        (if self.ru() { "Хорошо, ничего не меняю." } else { "OK, nothing changed." }).to_string()
    }

    /// Returns the note that says which mistyped words were read as which: "read
    /// «завтро» as «завтра»".
    pub fn read_as(&self, corrections: &[crate::typos::Correction]) -> Option<String> {
        if corrections.is_empty() {
            return None;
        }
        let pairs: Vec<String> = corrections
            .iter()
            .map(|c| {
                if self.ru() {
                    format!("«{}» как «{}»", safe(&c.wrote), safe(&c.meant))
                } else {
                    format!("\"{}\" as \"{}\"", safe(&c.wrote), safe(&c.meant))
                }
            })
            .collect();
        Some(if self.ru() {
            format!("(прочитал {})", pairs.join(", "))
        } else {
            format!("(read {})", pairs.join(", "))
        })
    }

    /// Returns the note added when the model could not be reached and the offline
    /// parser answered instead.
    pub fn offline_note(&self, reason: &str) -> String {
        if self.ru() {
            format!("(модель недоступна — {}; ответил офлайн-разбор)", safe(reason))
        } else {
            format!("(the model is unavailable — {}; the offline parser answered)", safe(reason))
        }
    }
}

fn weekday(w: Weekday, lang: Lang) -> &'static str {
    use Weekday::*;
    match (w, lang) {
        (Monday, Lang::Ru) => "понедельник",
        (Tuesday, Lang::Ru) => "вторник",
        (Wednesday, Lang::Ru) => "среда",
        (Thursday, Lang::Ru) => "четверг",
        (Friday, Lang::Ru) => "пятница",
        (Saturday, Lang::Ru) => "суббота",
        (Sunday, Lang::Ru) => "воскресенье",
        (Monday, Lang::En) => "Monday",
        (Tuesday, Lang::En) => "Tuesday",
        (Wednesday, Lang::En) => "Wednesday",
        (Thursday, Lang::En) => "Thursday",
        (Friday, Lang::En) => "Friday",
        (Saturday, Lang::En) => "Saturday",
        (Sunday, Lang::En) => "Sunday",
    }
}
