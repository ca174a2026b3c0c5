//! The create modal's fields, read into the core's request (and back, for edit), with
//! every error naming the field the page shows it beside.
//!
//! Parsing of times, weekdays, days, dates and cron is `tasks_schedule`'s; this module
//! only picks the fields the chosen frequency uses.

use serde::{Deserialize, Serialize};
use tasks_core::model::schedule::{Action, PromptAction, PromptMode, When};
use tasks_core::ops::schedule::Schedule;
use tasks_core::ops::schedule::center::{ConversationChoice, CreateRequest};
use tasks_schedule::{
    MissedPolicy, MonthDay, ScheduleError, Trigger, format_time, parse_cron, parse_month_day, parse_once, parse_time,
    parse_weekdays, weekday_name,
};

/// The modal's fields as the page sends them (JSON body, or the preview's query).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct ScheduleForm {
    /// Task name.
    pub name: String,
    /// What it should do each time.
    pub requirement: String,
    /// `new`, or an existing conversation's id.
    pub conversation: String,
    /// The new conversation's title (the name when empty).
    pub conversation_title: String,
    /// `execute` (default), `ask`, or `remind` (a due action).
    pub mode: String,
    /// `once`, `daily`, `weekly`, `monthly`, `workdays`, `cron`.
    pub frequency: String,
    /// The first run's date (`once`).
    pub date: String,
    /// The local time, HH:MM.
    pub time: String,
    /// Weekly: `mon,fri`.
    pub weekdays: String,
    /// Monthly: 1–31 or `last`.
    pub day: String,
    /// Cron: five fields.
    pub cron: String,
    /// IANA zone.
    pub zone: String,
}

/// An error the page shows beside one field (or in the modal when `field` is `form`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// The field's name, as in [`ScheduleForm`].
    pub field: String,
    /// What was wrong and what to do.
    pub message: String,
}

impl FieldError {
    fn new(field: &str, message: impl Into<String>) -> FieldError {
        FieldError { field: field.to_string(), message: message.into() }
    }

    /// Reads a core error: its field when it names one the form has, else the form.
    pub fn of(e: &tasks_core::Error) -> FieldError {
        let message = e.to_string();
        match e {
            tasks_core::Error::Invalid { field, .. } => {
                let f = match *field {
                    "title" => "name",
                    "prompt" => "requirement",
                    "once" => "date",
                    f => f,
                };
                let known = [
                    "name",
                    "requirement",
                    "conversation",
                    "conversation_title",
                    "mode",
                    "date",
                    "time",
                    "weekdays",
                    "day",
                    "cron",
                    "zone",
                ];
                FieldError::new(if known.contains(&f) { f } else { "form" }, message)
            }
            tasks_core::Error::Schedule(s) => FieldError::new(schedule_field(s), message),
            tasks_core::Error::NotFound { what: "conversation", .. } => FieldError::new("conversation", message),
            _ => FieldError::new("form", message),
        }
    }
}

/// Which field a schedule error belongs to.
fn schedule_field(e: &ScheduleError) -> &'static str {
    match e {
        ScheduleError::UnknownZone { .. } => "zone",
        ScheduleError::CronField { .. }
        | ScheduleError::CronShape { .. }
        | ScheduleError::CronTooFrequent { .. }
        | ScheduleError::CronNeverFires { .. } => "cron",
        ScheduleError::Weekdays { .. } => "weekdays",
        ScheduleError::MonthDay { .. } => "day",
        ScheduleError::DateTime { .. } => "date",
        _ => "time",
    }
}

fn field<T>(name: &str, r: Result<T, ScheduleError>) -> Result<T, FieldError> {
    r.map_err(|e| {
        let hint = e.hint().map(|h| format!(" ({h})")).unwrap_or_default();
        FieldError::new(name, format!("{e}{hint}"))
    })
}

impl ScheduleForm {
    /// The trigger the frequency and its fields describe.
    pub fn trigger(&self) -> Result<Trigger, FieldError> {
        let time = || field("time", parse_time(&self.time));
        Ok(match self.frequency.as_str() {
            "once" => {
                let date = self.date.trim();
                if date.is_empty() {
                    return Err(FieldError::new("date", "date: give the day of the run, e.g. 2026-12-04"));
                }
                let at = field("date", parse_once(&format!("{date}T{}", self.time.trim())))?;
                Trigger::Once { at }
            }
            "daily" => Trigger::Daily { time: time()? },
            "weekly" => {
                let weekdays = field("weekdays", parse_weekdays(&self.weekdays))?;
                Trigger::Weekly { weekdays, time: time()? }
            }
            "workdays" => {
                Trigger::Weekly { weekdays: field("weekdays", parse_weekdays("mon,tue,wed,thu,fri"))?, time: time()? }
            }
            "monthly" => Trigger::Monthly { day: field("day", parse_month_day(&self.day))?, time: time()? },
            "cron" => {
                let pattern = field("cron", parse_cron(&self.cron))?;
                Trigger::Cron { expression: pattern.to_string() }
            }
            other => {
                return Err(FieldError::new(
                    "frequency",
                    format!("frequency: \"{other}\" is not one of once, daily, weekly, monthly, workdays, cron"),
                ));
            }
        })
    }

    /// The action the mode describes.
    pub fn action(&self) -> Result<Action, FieldError> {
        let mode = match self.mode.as_str() {
            "" | "execute" => PromptMode::Execute,
            "ask" => PromptMode::Ask,
            "remind" => return Ok(Action::Due),
            other => {
                return Err(FieldError::new("mode", format!("mode: \"{other}\" is not execute, ask or remind")));
            }
        };
        Ok(Action::Prompt(PromptAction::new(self.requirement.trim(), mode)))
    }

    /// The conversation choice.
    pub fn conversation(&self) -> Result<ConversationChoice, FieldError> {
        match self.conversation.trim() {
            "" | "new" => {
                let title = if self.conversation_title.trim().is_empty() {
                    self.name.trim().to_string()
                } else {
                    self.conversation_title.trim().to_string()
                };
                Ok(ConversationChoice::New { title })
            }
            id => id
                .parse()
                .map(ConversationChoice::Existing)
                .map_err(|_| FieldError::new("conversation", format!("conversation: \"{id}\" is not one listed"))),
        }
    }

    /// The whole request. The zone is checked by the core (its errors name `zone`).
    pub fn request(&self) -> Result<CreateRequest, FieldError> {
        if self.zone.trim().is_empty() {
            return Err(FieldError::new("zone", "zone: give an IANA zone such as Europe/Berlin"));
        }
        Ok(CreateRequest {
            name: self.name.clone(),
            requirement: self.requirement.clone(),
            conversation: self.conversation()?,
            action: self.action()?,
            trigger: self.trigger()?,
            zone: self.zone.trim().to_string(),
            missed: MissedPolicy::RunOnce,
        })
    }

    /// The form that edits a schedule: its fields as they are now.
    pub fn of_schedule(s: &Schedule, requirement: &str) -> ScheduleForm {
        let mut f = ScheduleForm {
            name: s.task_title.clone(),
            requirement: requirement.to_string(),
            conversation: s.conversation_id.to_string(),
            zone: s.zone.clone(),
            ..ScheduleForm::default()
        };
        f.mode = match &s.action {
            Action::Prompt(p) if p.mode == PromptMode::Ask => "ask".into(),
            Action::Prompt(_) => "execute".into(),
            _ => "remind".into(),
        };
        if let Action::Prompt(p) = &s.action {
            f.requirement = p.text.clone();
        }
        match &s.when {
            When::Time(Trigger::Once { at }) => {
                f.frequency = "once".into();
                f.date = at.date().to_string();
                f.time = format_time(at.time());
            }
            When::Time(Trigger::Daily { time }) => {
                f.frequency = "daily".into();
                f.time = format_time(*time);
            }
            When::Time(Trigger::Weekly { weekdays, time }) => {
                let names: Vec<&str> = weekdays.iter().map(|d| weekday_name(*d)).collect();
                f.frequency = if names == ["mon", "tue", "wed", "thu", "fri"] { "workdays" } else { "weekly" }.into();
                f.weekdays = names.join(",");
                f.time = format_time(*time);
            }
            When::Time(Trigger::Monthly { day, time }) => {
                f.frequency = "monthly".into();
                f.day = match day {
                    MonthDay::Day(d) => d.to_string(),
                    MonthDay::Last => "last".into(),
                };
                f.time = format_time(*time);
            }
            When::Time(Trigger::Cron { expression }) => {
                f.frequency = "cron".into();
                f.cron = expression.clone();
            }
            When::Event(_) => f.frequency = "event".into(),
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(frequency: &str) -> ScheduleForm {
        ScheduleForm {
            name: "Weekly summary".into(),
            requirement: "Sum up the week".into(),
            frequency: frequency.into(),
            time: "17:00".into(),
            weekdays: "fri".into(),
            day: "last".into(),
            cron: "*/30 9-18 * * 1-5".into(),
            date: "2026-12-04".into(),
            zone: "Europe/Berlin".into(),
            ..ScheduleForm::default()
        }
    }

    #[test]
    fn each_frequency_reads_only_its_own_fields() {
        assert!(matches!(form("weekly").trigger(), Ok(Trigger::Weekly { ref weekdays, .. }) if weekdays.len() == 1));
        assert!(matches!(form("workdays").trigger(), Ok(Trigger::Weekly { ref weekdays, .. }) if weekdays.len() == 5));
        assert!(matches!(form("monthly").trigger(), Ok(Trigger::Monthly { day: MonthDay::Last, .. })));
        assert!(matches!(form("once").trigger(), Ok(Trigger::Once { .. })));
        assert!(matches!(form("cron").trigger(), Ok(Trigger::Cron { .. })));
        assert!(matches!(form("daily").trigger(), Ok(Trigger::Daily { .. })));
    }

    #[test]
    fn a_bad_field_is_named() {
        let mut f = form("weekly");
        f.weekdays = "funday".into();
        assert_eq!(f.trigger().expect_err("bad").field, "weekdays");
        let mut f = form("daily");
        f.time = "25:00".into();
        assert_eq!(f.trigger().expect_err("bad").field, "time");
        let mut f = form("cron");
        f.cron = "* * * * *".into();
        assert_eq!(f.trigger().expect_err("bad").field, "cron");
        let mut f = form("once");
        f.date = String::new();
        assert_eq!(f.trigger().expect_err("bad").field, "date");
        assert_eq!(form("hourly").trigger().expect_err("bad").field, "frequency");
        let mut f = form("daily");
        f.mode = "yolo".into();
        assert_eq!(f.action().expect_err("bad").field, "mode");
    }

    #[test]
    fn execute_is_the_default_mode_and_remind_is_a_due_action() {
        let f = form("daily");
        assert!(matches!(f.action(), Ok(Action::Prompt(ref p)) if p.mode == PromptMode::Execute));
        let mut f = form("daily");
        f.mode = "remind".into();
        assert_eq!(f.action(), Ok(Action::Due));
    }

    #[test]
    fn a_new_conversation_is_titled_by_the_name_unless_given() {
        let f = form("daily");
        assert_eq!(f.conversation(), Ok(ConversationChoice::New { title: "Weekly summary".into() }));
        let mut f = form("daily");
        f.conversation = "3".into();
        assert_eq!(f.conversation(), Ok(ConversationChoice::Existing(3)));
    }
}
