//! The process environment as `tasks` reads it: [`capture`] copies every variable it
//! knows ([`KNOWN`]) once, when `main` starts, and scrubs the secrets from the process's
//! environment block; everything after reads that copy. Its own module so that `config`
//! (which finds its file through `TASKS_CONFIG`, `XDG_CONFIG_HOME`, `HOME`) and `env`
//! (which resolves settings, falling back to the file) both read it without reading
//! each other.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;

use crate::error::CliError;

/// Every environment variable `tasks` reads.
pub const KNOWN: &[&str] = &[
    "TASKS_DB",
    "TASKS_NOW",
    "TASKS_ACTOR",
    "TASKS_TZ",
    "TASKS_CONFIG",
    "TASKS_BUSY_TIMEOUT",
    "TASKS_CONVERSATIONAL",
    "TASKS_LLM_BASE_URL",
    "TASKS_LLM_MODEL",
    "TASKS_LLM_API_KEY",
    "TASKS_LLM_TIMEOUT",
    "TELEGRAM_BOT_TOKEN",
    "TASKS_TELEGRAM_CHATS",
    "TASKS_TELEGRAM_API_URL",
    "TASKS_SERVE_TOKEN",
    "TASKS_E5_ENGINE",
    "TASKS_E5_MODEL",
    "XDG_DATA_HOME",
    "XDG_CONFIG_HOME",
    "HOME",
    "USER",
    "NO_COLOR",
    "COLUMNS",
    "VISUAL",
    "EDITOR",
];

/// The copy of the environment this run reads.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    vars: BTreeMap<&'static str, OsString>,
}

impl Snapshot {
    /// Returns a variable as it was set (possibly not UTF-8); `None` when unset.
    pub fn raw(&self, name: &str) -> Option<&OsString> {
        self.vars.get(name)
    }

    /// Returns a variable as text; unset or empty is `None`; not UTF-8 is an error
    /// naming the variable.
    pub fn text(&self, name: &str) -> Result<Option<String>, CliError> {
        match self.vars.get(name) {
            None => Ok(None),
            Some(v) if v.is_empty() => Ok(None),
            Some(v) => v.to_str().map(|s| Some(s.to_string())).ok_or_else(|| {
                CliError::config(
                    format!("{name} is not valid UTF-8: {}", v.to_string_lossy()),
                    Some(&format!("hint: set {name} to UTF-8 text, or unset it")),
                )
            }),
        }
    }

    /// Returns a path variable; unset or empty is `None` (paths may be any bytes).
    pub fn path(&self, name: &str) -> Option<PathBuf> {
        self.vars.get(name).filter(|v| !v.is_empty()).map(PathBuf::from)
    }
}

/// What each variable a person sets means (the man page's ENVIRONMENT section; the
/// README's table says the same, and a test keeps them in step).
pub const DESCRIBED: &[(&str, &str)] = &[
    ("TASKS_DB", "the store file (default $XDG_DATA_HOME/tasks/tasks.db)"),
    ("TASKS_ACTOR", "who acts (claims, history, undo); --as NAME wins; default the OS user"),
    ("TASKS_NOW", "a fixed clock, RFC 3339 (tests and evaluations)"),
    ("TASKS_TZ", "the zone that decides \"today\" and times of day (default: the machine's)"),
    ("TASKS_CONFIG", "the config file (default $XDG_CONFIG_HOME/tasks/config.toml)"),
    ("TASKS_BUSY_TIMEOUT", "how long a write waits for another process's write lock (default 30s)"),
    ("TASKS_LLM_BASE_URL", "the OpenAI-compatible API of the model for tasks chat"),
    ("TASKS_LLM_MODEL", "the model's name; none means the offline parser reads free text"),
    ("TASKS_LLM_API_KEY", "the model provider's key (never printed)"),
    ("TASKS_LLM_TIMEOUT", "how long to wait for the model (default 30s)"),
    ("TASKS_CONVERSATIONAL", "off refuses free text in tasks chat and the bot (slash commands still work)"),
    ("TELEGRAM_BOT_TOKEN", "the Telegram bot's token (never printed)"),
    ("TASKS_TELEGRAM_CHATS", "the chats the bot answers, comma-separated ids; without it the bot does not start"),
    ("TASKS_TELEGRAM_API_URL", "the Bot API's base URL (default https://api.telegram.org)"),
    ("TASKS_SERVE_TOKEN", "the Task Center's session token (default: a random one, printed at start)"),
    ("VISUAL, EDITOR", "the editor tasks edit opens when no field flags are given"),
    ("NO_COLOR", "no colour in human output"),
    ("COLUMNS", "the width tables are cut to (default: the terminal's)"),
];

/// The variables that hold secrets. After [`capture`] copies them, their values are
/// overwritten in the process's own environment block, so `/proc/<pid>/environ` of a
/// long-running `tasks` (the daemon, the bot, the web page) no longer shows them to the
/// commands it runs; nor are they ever passed to a command, allow-listed or not.
pub const SECRETS: &[&str] = &["TASKS_LLM_API_KEY", "TELEGRAM_BOT_TOKEN", "TASKS_SERVE_TOKEN"];

/// Copies the variables of [`KNOWN`] from the process environment, once; later calls
/// return the first copy. The first call (at the start of `main`, before any thread)
/// also scrubs the [`SECRETS`] from the environment block.
pub fn capture() -> &'static Snapshot {
    static SNAPSHOT: OnceLock<Snapshot> = OnceLock::new();
    SNAPSHOT.get_or_init(|| {
        let snapshot =
            Snapshot { vars: KNOWN.iter().filter_map(|name| std::env::var_os(name).map(|v| (*name, v))).collect() };
        scrub_secrets();
        snapshot
    })
}

/// Overwrites the values of [`SECRETS`] with `*` in place, in the environment block
/// the C runtime set up — the memory `/proc/<pid>/environ` shows. Removing a variable
/// would only unlink it from the array; its bytes would stay readable there.
fn scrub_secrets() {
    unsafe extern "C" {
        static environ: *const *mut std::ffi::c_char;
    }
    // SAFETY: runs once, from `main` before any other thread exists, so nothing reads
    // or changes the environment meanwhile. `environ` is the C runtime's
    // NULL-terminated array of NUL-terminated strings; each write stays inside one
    // string, before its NUL, and keeps its length.
    unsafe {
        let mut entry = environ;
        while !entry.is_null() && !(*entry).is_null() {
            let text = *entry;
            let bytes = std::ffi::CStr::from_ptr(text).to_bytes();
            for name in SECRETS {
                let prefix = name.len() + 1;
                if bytes.len() > prefix && bytes.starts_with(name.as_bytes()) && bytes[name.len()] == b'=' {
                    std::ptr::write_bytes(text.add(prefix), b'*', bytes.len() - prefix);
                }
            }
            entry = entry.add(1);
        }
    }
}

/// Keeps other processes of the same user from reading a long-lived process's memory and its
/// `/proc/<pid>/environ` — the commands it runs among them: the daemon, the bot and the web page may hold secrets
/// (an LLM key, a bot token) from its environment or config. A command's own `exec`
/// makes it dumpable again, so this never reaches the commands themselves.
pub fn protect_memory() {
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
}
