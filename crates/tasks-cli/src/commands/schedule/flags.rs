//! Reading the trigger and action flags of `tasks schedule add` and `preview` into the
//! core's request values: which trigger flag was given, the zone default, the missed
//! policy, and the action with its frozen budgets.
//!
//! Parsing of times, weekdays, days and cron is `tasks_schedule`'s (its errors name the
//! field); this module only picks the flag and fills defaults from the core's consts.
//! It reads the environment for one thing: the current directory, which a `command`
//! action freezes as its working dir when `--workdir` is not given.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use tasks_core::input::{parse_bytes, parse_duration};
use tasks_core::ops::schedule::limits::{DEFAULT_COMMAND_TIMEOUT, DEFAULT_EVENT_DEDUPE, DEFAULT_OUTPUT_BUDGET};
use tasks_core::ops::schedule::{
    Action, CommandAction, EventFilter, EventKind, EventTrigger, PromptAction, PromptMode, When,
};
use tasks_schedule::limits::{CATCH_UP_MAX_AGE_DAYS, CATCH_UP_MAX_RUNS};
use tasks_schedule::{MissedPolicy, Trigger, parse_cron, parse_month_day, parse_once, parse_time, parse_weekdays};

use crate::env;
use crate::error::CliError;

/// The wall-clock trigger flags; at most one may be given.
#[derive(Debug, Args)]
#[group(id = "trigger", multiple = false)]
pub struct TriggerArgs {
    /// Fire every day at a local time: --daily 09:00
    #[arg(long, value_name = "HH:MM")]
    pub daily: Option<String>,
    /// Fire on weekdays at a local time: --weekly mon,fri 17:00
    #[arg(long, num_args = 2, value_names = ["DAYS", "HH:MM"])]
    pub weekly: Option<Vec<String>>,
    /// Fire Monday to Friday at a local time: --workdays 09:00
    #[arg(long, value_name = "HH:MM")]
    pub workdays: Option<String>,
    /// Fire on a day of every month (1-31 or last) at a local time: --monthly last 10:00
    #[arg(long, num_args = 2, value_names = ["DAY", "HH:MM"])]
    pub monthly: Option<Vec<String>>,
    /// Fire once at a local date-time: --once 2026-12-01T09:00
    #[arg(long, value_name = "YYYY-MM-DDTHH:MM")]
    pub once: Option<String>,
    /// Fire by a five-field cron pattern (no seconds, names, L, W, #; >= 15 min apart)
    #[arg(long, value_name = "PATTERN")]
    pub cron: Option<String>,
}

impl TriggerArgs {
    /// Returns true when any trigger flag was given.
    pub fn given(&self) -> bool {
        self.daily.is_some()
            || self.weekly.is_some()
            || self.workdays.is_some()
            || self.monthly.is_some()
            || self.once.is_some()
            || self.cron.is_some()
    }

    /// Returns the trigger of the given flag, parsed (errors name the field).
    pub fn trigger(&self) -> Result<Option<Trigger>, CliError> {
        let schedule_err = |e: tasks_schedule::ScheduleError| CliError::from(tasks_core::Error::from(e));
        let pair = |v: &Vec<String>| (v.first().cloned().unwrap_or_default(), v.get(1).cloned().unwrap_or_default());
        let trigger = if let Some(t) = &self.daily {
            Trigger::Daily { time: parse_time(t).map_err(schedule_err)? }
        } else if let Some(v) = &self.weekly {
            let (days, time) = pair(v);
            Trigger::Weekly {
                weekdays: parse_weekdays(&days).map_err(schedule_err)?,
                time: parse_time(&time).map_err(schedule_err)?,
            }
        } else if let Some(t) = &self.workdays {
            Trigger::workdays(parse_time(t).map_err(schedule_err)?)
        } else if let Some(v) = &self.monthly {
            let (day, time) = pair(v);
            Trigger::Monthly {
                day: parse_month_day(&day).map_err(schedule_err)?,
                time: parse_time(&time).map_err(schedule_err)?,
            }
        } else if let Some(t) = &self.once {
            Trigger::Once { at: parse_once(t).map_err(schedule_err)? }
        } else if let Some(c) = &self.cron {
            // Parsed here too so a bad pattern is refused before the store is touched.
            let pattern = parse_cron(c).map_err(schedule_err)?;
            Trigger::Cron { expression: pattern.as_str().to_string() }
        } else {
            return Ok(None);
        };
        Ok(Some(trigger))
    }
}

/// The event trigger flags of `schedule add`.
#[derive(Debug, Args)]
pub struct EventArgs {
    /// Fire on an event instead of a time: task.completed or job.failed
    #[arg(long, value_name = "EVENT", conflicts_with = "trigger")]
    pub on: Option<String>,
    /// With --on: only tasks of this project
    #[arg(long, value_name = "KEY", requires = "on")]
    pub filter_project: Option<String>,
    /// With --on: only tasks with this tag
    #[arg(long, value_name = "TAG", requires = "on")]
    pub filter_tag: Option<String>,
    /// With --on: only tasks of this type
    #[arg(long, value_name = "TYPE", requires = "on")]
    pub filter_type: Option<String>,
    /// With --on: after a Job, ignore further events for this long [default: 0s]
    #[arg(long, value_name = "LENGTH", requires = "on")]
    pub cooldown: Option<String>,
    /// With --on: events about the same task within this window make one Job [default: 60s]
    #[arg(long, value_name = "LENGTH", requires = "on")]
    pub dedupe: Option<String>,
}

impl EventArgs {
    /// Returns the event trigger, when `--on` was given.
    pub fn trigger(&self) -> Result<Option<EventTrigger>, CliError> {
        let Some(on) = &self.on else { return Ok(None) };
        let event = EventKind::parse(on)?;
        let seconds = |field: &'static str, text: &Option<String>, default: u64| -> Result<u64, CliError> {
            Ok(match text {
                Some(t) => parse_duration(field, t)?.as_secs(),
                None => default,
            })
        };
        Ok(Some(EventTrigger {
            event,
            filter: EventFilter {
                project: self.filter_project.clone(),
                tag: self.filter_tag.clone(),
                task_type: self.filter_type.clone(),
            },
            dedupe_seconds: seconds("dedupe", &self.dedupe, DEFAULT_EVENT_DEDUPE.as_secs())?,
            cooldown_seconds: seconds("cooldown", &self.cooldown, 0)?,
        }))
    }
}

/// The missed-firing policies as the CLI spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MissedArg {
    /// Run none of the missed firings
    Skip,
    /// Run one Job for the most recent missed firing
    #[value(name = "run_once", alias = "run-once")]
    RunOnce,
    /// Run the most recent missed firings, at most --catch-up-runs within --catch-up-days
    #[value(name = "catch_up", alias = "catch-up", alias = "catch_up_bounded")]
    CatchUp,
}

/// The action kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ActionArg {
    /// Set the task's due to the firing's date and reopen it if done
    Due,
    /// Run a program (--command ARGV…)
    Command,
    /// Store a prompt for the conversation to run (--prompt TEXT)
    Prompt,
}

/// The prompt modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Read-only tools
    Ask,
    /// The task tools; writes need approval
    Execute,
}

/// The missed-policy and action flags of `schedule add`.
#[derive(Debug, Args)]
pub struct ActionArgs {
    /// What to do with firings missed while no daemon ran [default: run_once]
    #[arg(long, value_enum, value_name = "POLICY")]
    pub missed: Option<MissedArg>,
    /// With --missed catch_up: run at most this many missed firings [default: 3]
    #[arg(long, value_name = "N")]
    pub catch_up_runs: Option<u32>,
    /// With --missed catch_up: run none older than this many days [default: 7]
    #[arg(long, value_name = "DAYS")]
    pub catch_up_days: Option<u32>,
    /// What a firing does [default: command with --command, prompt with --prompt, else due]
    #[arg(long, value_enum)]
    pub action: Option<ActionArg>,
    /// Working directory of the command [default: the current directory, frozen now]
    #[arg(long, value_name = "DIR")]
    pub workdir: Option<PathBuf>,
    /// Pass this environment variable to the command (can be repeated; nothing else is passed)
    #[arg(long = "env-allow", value_name = "NAME", value_delimiter = ',')]
    pub env_allow: Vec<String>,
    /// Kill the command after this long [default: 10m]
    #[arg(long, value_name = "LENGTH")]
    pub timeout: Option<String>,
    /// Keep this much of the output (stdout and stderr together) [default: 64k]
    #[arg(long, value_name = "SIZE")]
    pub output_budget: Option<String>,
    /// The prompt of a prompt action
    #[arg(long, value_name = "TEXT")]
    pub prompt: Option<String>,
    /// Tools a prompt may use [default: ask]
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// The command and its arguments, run without a shell; put it last: --command rsync -a src dst
    #[arg(long = "command", num_args = 1.., allow_hyphen_values = true, value_name = "ARGV")]
    pub command: Vec<String>,
}

impl ActionArgs {
    /// Returns the missed policy.
    pub fn missed(&self) -> Result<MissedPolicy, CliError> {
        let policy = self.missed.unwrap_or(MissedArg::RunOnce);
        if policy != MissedArg::CatchUp && (self.catch_up_runs.is_some() || self.catch_up_days.is_some()) {
            return Err(CliError::validation(
                "--catch-up-runs and --catch-up-days go with --missed catch_up",
                Some("hint: add --missed catch_up".into()),
            ));
        }
        Ok(match policy {
            MissedArg::Skip => MissedPolicy::Skip,
            MissedArg::RunOnce => MissedPolicy::RunOnce,
            MissedArg::CatchUp => {
                let runs = self.catch_up_runs.unwrap_or(CATCH_UP_MAX_RUNS);
                let days = self.catch_up_days.map(i64::from).unwrap_or(CATCH_UP_MAX_AGE_DAYS);
                if runs == 0 || days == 0 {
                    return Err(CliError::validation(
                        "--catch-up-runs and --catch-up-days must be at least 1",
                        Some("hint: use --missed skip to run no missed firing".into()),
                    ));
                }
                MissedPolicy::CatchUp { max_runs: runs, max_age: jiff::SignedDuration::from_hours(days * 24) }
            }
        })
    }

    /// Returns the action with its budgets frozen now.
    pub fn action(&self) -> Result<Action, CliError> {
        let kind = self.action.unwrap_or(if !self.command.is_empty() {
            ActionArg::Command
        } else if self.prompt.is_some() {
            ActionArg::Prompt
        } else {
            ActionArg::Due
        });
        let stray =
            |flag: &str, kind: &str| CliError::validation(format!("{flag} does not go with --action {kind}"), None);
        let command_flags =
            !self.command.is_empty() || self.workdir.is_some() || !self.env_allow.is_empty() || self.timeout.is_some();
        match kind {
            ActionArg::Due => {
                if command_flags {
                    return Err(stray("--command/--workdir/--env-allow/--timeout", "due"));
                }
                if self.prompt.is_some() || self.mode.is_some() {
                    return Err(stray("--prompt/--mode", "due"));
                }
                if self.output_budget.is_some() {
                    return Err(stray("--output-budget", "due"));
                }
                Ok(Action::Due)
            }
            ActionArg::Command => {
                if self.prompt.is_some() || self.mode.is_some() {
                    return Err(stray("--prompt/--mode", "command"));
                }
                if self.command.is_empty() {
                    return Err(CliError::validation(
                        "--action command needs the program: --command ARGV…",
                        Some("hint: put it last, e.g. --command rsync -a ~/notes /backup".into()),
                    ));
                }
                let workdir = match &self.workdir {
                    Some(d) if d.is_absolute() => d.clone(),
                    Some(d) => current_dir()?.join(d),
                    None => current_dir()?,
                };
                let timeout = match &self.timeout {
                    Some(t) => parse_duration("timeout", t)?,
                    None => DEFAULT_COMMAND_TIMEOUT,
                };
                Ok(Action::Command(CommandAction {
                    argv: self.command.clone(),
                    workdir: workdir.to_string_lossy().into_owned(),
                    env_allow: self.env_allow.clone(),
                    timeout_seconds: timeout.as_secs(),
                    output_budget_bytes: self.budget()?,
                }))
            }
            ActionArg::Prompt => {
                if command_flags {
                    return Err(stray("--command/--workdir/--env-allow/--timeout", "prompt"));
                }
                let Some(text) = &self.prompt else {
                    return Err(CliError::validation("--action prompt needs --prompt TEXT", None));
                };
                let mode = match self.mode.unwrap_or(ModeArg::Ask) {
                    ModeArg::Ask => PromptMode::Ask,
                    ModeArg::Execute => PromptMode::Execute,
                };
                let mut action = PromptAction::new(text.clone(), mode);
                action.output_budget_bytes = self.budget()?;
                Ok(Action::Prompt(action))
            }
        }
    }

    fn budget(&self) -> Result<u64, CliError> {
        Ok(match &self.output_budget {
            Some(b) => parse_bytes("output-budget", b)?,
            None => DEFAULT_OUTPUT_BUDGET,
        })
    }
}

fn current_dir() -> Result<PathBuf, CliError> {
    std::env::current_dir().map_err(|e| CliError::other(format!("cannot read the current directory: {e}")))
}

/// Returns the zone of a new schedule: `--tz`, else the machine's zone (`TASKS_TZ`,
/// else the system's) by IANA name, stored with the schedule from now on.
pub fn zone_name(flag: Option<&str>) -> Result<String, CliError> {
    if let Some(z) = flag {
        return Ok(z.to_string());
    }
    let zone = env::zone()?;
    zone.iana_name().map(str::to_string).ok_or_else(|| {
        CliError::config(
            "cannot tell the IANA name of this machine's time zone",
            Some("hint: pass --tz Europe/Berlin, or set TASKS_TZ"),
        )
    })
}

/// Returns the trigger of `add`: a time trigger or an event.
pub fn when(trigger: &TriggerArgs, event: &EventArgs) -> Result<When, CliError> {
    match (trigger.trigger()?, event.trigger()?) {
        (Some(t), None) => Ok(When::Time(t)),
        (None, Some(e)) => Ok(When::Event(e)),
        _ => Err(CliError::validation(
            "say when the schedule fires: --daily, --weekly, --workdays, --monthly, --once, --cron or --on",
            Some("hint: tasks schedule add TASK --daily 09:00".into()),
        )),
    }
}
