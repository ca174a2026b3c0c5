//! Plain types of the task model (SPEC §2): statuses, types, link kinds, due kinds,
//! sources, and the `Task` and `Project` values read from the store.
//!
//! Nothing here touches SQLite or formats output; `store` maps rows to these types and
//! `wire` maps these types to the JSON contract. Every enum has one spelling, used
//! alike in the database, the CLI and JSON (`as_str` / `FromStr`).

/// Declares a string-backed enum whose spelling is shared by the store, CLI and JSON.
macro_rules! spelled_enum {
    ($(#[$meta:meta])* $name:ident, $what:literal { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// Returns the one spelling used in the store, the CLI and JSON.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }

        impl std::str::FromStr for $name {
            type Err = crate::Error;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let lower = s.trim().to_ascii_lowercase();
                $(if lower == $text { return Ok($name::$variant); })+
                Err(crate::Error::Invalid {
                    field: $what,
                    value: s.to_string(),
                    reason: format!(
                        "expected one of: {}",
                        [$($text),+].join(", ")
                    ),
                })
            }
        }
    };
}

pub mod conversation;
pub mod schedule;

spelled_enum!(
    /// The stored status of a task. `blocked` is derived from links, never stored.
    Status, "status" {
        /// Not started.
        Open = "open",
        /// Someone is working on it.
        InProgress = "in_progress",
        /// Finished.
        Done = "done",
        /// Closed without doing it; `close_reason` says why (duplicate, cancelled, …).
        Dismissed = "dismissed",
    }
);

impl Status {
    /// Returns true for `done` and `dismissed`.
    pub fn is_closed(self) -> bool {
        matches!(self, Status::Done | Status::Dismissed)
    }
}

spelled_enum!(
    /// What kind of thing a task is; message types get typed keys (SPEC §3).
    TaskType, "type" {
        /// A plain task.
        Task = "task",
        /// A defect.
        Bug = "bug",
        /// New functionality.
        Feature = "feature",
        /// Maintenance work.
        Chore = "chore",
        /// Someone asks for an answer (`Q-` keys).
        Question = "question",
        /// Someone asks the owner to do something (`REQ-` keys).
        Request = "request",
        /// The owner is pointed at something (`M-` keys).
        Mention = "mention",
        /// The owner promised something (`PR-` keys).
        Promise = "promise",
    }
);

impl TaskType {
    /// Returns the typed key prefix of a message type, or `None` for the others.
    pub fn typed_prefix(self) -> Option<&'static str> {
        match self {
            TaskType::Question => Some("Q"),
            TaskType::Request => Some("REQ"),
            TaskType::Mention => Some("M"),
            TaskType::Promise => Some("PR"),
            _ => None,
        }
    }
}

spelled_enum!(
    /// A relation between two tasks, or between a task and a message.
    LinkKind, "link kind" {
        /// The task cannot start until the target is closed.
        BlockedBy = "blocked-by",
        /// The task continues the target.
        FollowUpOf = "follow-up-of",
        /// Loosely related.
        RelatedTo = "related-to",
        /// The task is a duplicate of the target (set by `merge`).
        DuplicateOf = "duplicate-of",
        /// The task was found while working on the target.
        DiscoveredFrom = "discovered-from",
        /// Task → message: the message is evidence for the task.
        Evidence = "evidence",
        /// Task → message: the task was created from the message.
        CreatedFrom = "created-from",
    }
);

impl LinkKind {
    /// Returns true for the kinds whose graph must stay acyclic (SPEC §4).
    pub fn must_be_acyclic(self) -> bool {
        matches!(self, LinkKind::BlockedBy | LinkKind::FollowUpOf)
    }

    /// Returns true for kinds that may join two tasks (the message kinds may not).
    pub fn joins_tasks(self) -> bool {
        !matches!(self, LinkKind::Evidence | LinkKind::CreatedFrom)
    }
}

spelled_enum!(
    /// How precise a due date is (seed 001: none / day / week).
    DueKind, "due kind" {
        /// No due date.
        None = "none",
        /// Due on that day.
        Day = "day",
        /// Due within the week that ends on that day.
        Week = "week",
        /// Due at a moment: a time of day in the person's zone (issue 12).
        Time = "time",
    }
);

spelled_enum!(
    /// Who created a task.
    Source, "source" {
        /// The person at the keyboard.
        Owner = "owner",
        /// An agent (MCP or `--source` from an agent).
        Agent = "agent",
        /// A rule on a message.
        Rule = "rule",
        /// `tasks import`.
        Import = "import",
    }
);

spelled_enum!(
    /// Whether a project is one you made or an inbox for untriaged tasks.
    ProjectKind, "project kind" {
        /// A project you made.
        Project = "project",
        /// An inbox: `INBOX`, or one per messaging account.
        Inbox = "inbox",
    }
);

/// A due date: a calendar day (floating, no zone) and how precise it is — or, for
/// [`DueKind::Time`], a moment.
///
/// The day is stored as epoch milliseconds of its 00:00 UTC — a floating date, so it
/// never shifts when the machine's zone changes; comparisons use the local "today". A
/// time due keeps that floating local day too (so every day view treats it as a task of
/// that day) and the instant itself, so it is overdue by the minute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Due {
    /// The day the task is due (for `Week`, the last day of that week; for `Time`, the
    /// local day of the moment).
    pub date: jiff::civil::Date,
    /// Day, week or time precision.
    pub kind: DueKind,
    /// For `Time`: the moment, epoch ms UTC.
    pub at: Option<i64>,
}

impl Due {
    /// A due day.
    pub fn day(date: jiff::civil::Date) -> Due {
        Due { date, kind: DueKind::Day, at: None }
    }

    /// A due week, ending on `sunday`.
    pub fn week(sunday: jiff::civil::Date) -> Due {
        Due { date: sunday, kind: DueKind::Week, at: None }
    }

    /// A due moment: epoch ms `at`, falling on the local day `date`.
    pub fn at(date: jiff::civil::Date, at: i64) -> Due {
        Due { date, kind: DueKind::Time, at: Some(at) }
    }

    /// Returns whether it is past at `now_ms` with local `today`: a day or week due is
    /// overdue the day after, a time due the minute after.
    pub fn is_overdue(&self, today: jiff::civil::Date, now_ms: i64) -> bool {
        match (self.kind, self.at) {
            (DueKind::Time, Some(at)) => at < now_ms,
            _ => self.date < today,
        }
    }
}

/// A note (annotation) on a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Row id.
    pub id: i64,
    /// When it was written, epoch ms.
    pub at: i64,
    /// Who wrote it.
    pub actor: String,
    /// Its text.
    pub text: String,
}

/// An amount of money in minor units (kopecks, cents) with its ISO currency code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Money {
    /// Minor units: 15 000 ₽ is 1 500 000.
    pub minor: i64,
    /// ISO 4217 code, uppercase (`RUB`, `EUR`).
    pub currency: String,
}

/// The most urgent priority (SPEC §2: 0–4, optional).
pub const PRIORITY_HIGHEST: u8 = 0;
/// The least urgent priority.
pub const PRIORITY_LOWEST: u8 = 4;
/// How to write a priority, said wherever one is refused.
pub const PRIORITY_HINT: &str = "use 0 (highest) to 4 (lowest)";

/// Checks a priority number (SPEC §2: 0 highest to 4 lowest) — the one place the range
/// is known; the CLI, MCP and import all ask here.
pub fn check_priority(priority: u64) -> crate::Result<u8> {
    u8::try_from(priority)
        .ok()
        .filter(|p| (PRIORITY_HIGHEST..=PRIORITY_LOWEST).contains(p))
        .ok_or_else(|| crate::Error::invalid("priority", priority.to_string(), PRIORITY_HINT))
}

/// Reads a priority from text (`"1"`, `" 3 "`).
pub fn parse_priority(text: &str) -> crate::Result<u8> {
    let n: u64 = text.trim().parse().map_err(|_| crate::Error::invalid("priority", text, PRIORITY_HINT))?;
    check_priority(n)
}

impl Money {
    /// Minor units per major unit. Every currency `tasks` reads has two decimals (₽,
    /// €, $, £ …); a currency without them would be a new rule here, not a new divisor
    /// somewhere else.
    pub const MINOR_PER_MAJOR: i64 = 100;

    /// Returns the amount in major units as text with two decimals and its sign:
    /// `-0.50 EUR`, `15000.00 RUB`. The one way an amount is written for people and in
    /// exports.
    pub fn to_major_text(&self) -> String {
        let sign = if self.minor < 0 { "-" } else { "" };
        let abs = self.minor.unsigned_abs();
        let per = Self::MINOR_PER_MAJOR.unsigned_abs();
        format!("{sign}{}.{:02} {}", abs / per, abs % per, self.currency)
    }

    /// Returns the amount in major units as a number: whole units as an integer
    /// (`15000`), others as a decimal (`-0.5`).
    pub fn to_major_number(&self) -> serde_json::Value {
        if self.minor % Self::MINOR_PER_MAJOR == 0 {
            serde_json::Value::from(self.minor / Self::MINOR_PER_MAJOR)
        } else {
            serde_json::Value::from(self.minor as f64 / Self::MINOR_PER_MAJOR as f64)
        }
    }
}

/// A project as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Row id.
    pub id: i64,
    /// Uppercase key, the prefix of its task keys.
    pub key: String,
    /// Human name.
    pub name: String,
    /// Free text used to classify incoming text into projects.
    pub description: String,
    /// Project or inbox.
    pub kind: ProjectKind,
    /// For an account inbox: `provider/account`.
    pub account_id: Option<String>,
    /// The last task number given in this project.
    pub tasks_count: i64,
    /// Creation time, epoch ms.
    pub created_at: i64,
}

/// A task as stored, with the few derived values every view needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// Row id (joins only; never shown).
    pub id: i64,
    /// UUID v7, never changes.
    pub uuid: String,
    /// Readable key (`HRB-12`, `REQ-22`).
    pub key: String,
    /// Key kept from an import (`IN1A2B3C4D-17`).
    pub legacy_key: Option<String>,
    /// The caller's id from an import line.
    pub external_id: Option<String>,
    /// Key of the project it belongs to.
    pub project: String,
    /// Type.
    pub task_type: TaskType,
    /// Title, byte for byte as given.
    pub title: String,
    /// Description, possibly empty.
    pub description: String,
    /// Stored status.
    pub status: Status,
    /// Why it was closed.
    pub close_reason: Option<String>,
    /// 0 (highest) to 4, optional.
    pub priority: Option<u8>,
    /// Due date, if any.
    pub due: Option<Due>,
    /// Category (a field, never part of the key).
    pub category: Option<String>,
    /// Person handle the task is about / came from.
    pub person: Option<String>,
    /// Money mentioned by the task.
    pub amount: Option<Money>,
    /// Chat the source message came from.
    pub chat: Option<String>,
    /// The task whose message this task's message replies to.
    pub reply_to: Option<String>,
    /// Current lease holder (may be expired: compare `claimed_until` with now).
    pub claimed_by: Option<String>,
    /// Lease end, epoch ms.
    pub claimed_until: Option<i64>,
    /// Creation time, epoch ms.
    pub created_at: i64,
    /// Last change, epoch ms.
    pub updated_at: i64,
    /// Close time, epoch ms.
    pub closed_at: Option<i64>,
    /// Who created it.
    pub source: Source,
    /// Tag names, sorted.
    pub tags: Vec<String>,
    /// Keys of live `blocked-by` targets (open or closed).
    pub blocked_by: Vec<String>,
    /// Keys of live `blocked-by` targets that are still open or in progress.
    pub open_blockers: Vec<String>,
}

impl Task {
    /// Returns true while any `blocked-by` target is open or in progress (SPEC §2).
    pub fn is_blocked(&self) -> bool {
        !self.open_blockers.is_empty()
    }

    /// Returns the live lease holder at `now_ms`, if any.
    pub fn live_claim(&self, now_ms: i64) -> Option<(&str, i64)> {
        match (&self.claimed_by, self.claimed_until) {
            (Some(who), Some(until)) if until >= now_ms => Some((who.as_str(), until)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_keeps_its_sign_in_every_notation() {
        let m = |minor: i64| Money { minor, currency: "EUR".into() };
        assert_eq!(m(-50).to_major_text(), "-0.50 EUR");
        assert_eq!(m(-150).to_major_text(), "-1.50 EUR");
        assert_eq!(m(1_500_000).to_major_text(), "15000.00 EUR");
        assert_eq!(m(5).to_major_text(), "0.05 EUR");
        assert_eq!(m(-50).to_major_number(), serde_json::json!(-0.5));
        assert_eq!(m(-200).to_major_number(), serde_json::json!(-2));
        assert_eq!(m(120_050).to_major_number(), serde_json::json!(1200.5));
    }
}
