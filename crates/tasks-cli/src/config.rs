//! The configuration file (SPEC §8): `$TASKS_CONFIG`, else
//! `$XDG_CONFIG_HOME/tasks/config.toml` (`~/.config/tasks/config.toml`). Flags win over
//! environment variables, which win over the file; a missing file is no file.
//!
//! ```toml
//! db = "/home/me/tasks.db"     # TASKS_DB
//! actor = "me"                 # TASKS_ACTOR
//! tz = "Europe/Berlin"         # TASKS_TZ
//! conversational = true        # TASKS_CONVERSATIONAL
//! [llm]
//! base_url = "https://openrouter.ai/api/v1"   # TASKS_LLM_BASE_URL
//! model = "…"                                 # TASKS_LLM_MODEL
//! api_key = "…"                               # TASKS_LLM_API_KEY
//! timeout = "30s"                             # TASKS_LLM_TIMEOUT
//! [telegram]
//! bot_token = "…"                             # TELEGRAM_BOT_TOKEN
//! chats = [123456789]                         # TASKS_TELEGRAM_CHATS
//! api_url = "https://api.telegram.org"        # TASKS_TELEGRAM_API_URL
//! ```
//!
//! Every key is checked: an unknown key or a value of the wrong type is a configuration
//! error (exit 3) naming the file, the line and the key — a misspelt `acter` must not be
//! silently ignored. The LLM keys are read by `tasks chat`; the Telegram keys are
//! read and checked now, and the bot (a later issue) is their user.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use toml_edit::{Item, Table};

use crate::error::CliError;

/// What the file says; `None` where it is silent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    /// The store (`db`).
    pub db: Option<PathBuf>,
    /// The actor (`actor`).
    pub actor: Option<String>,
    /// The zone for "today" (`tz`).
    pub tz: Option<String>,
    /// Whether free text goes to the LLM (`conversational`).
    pub conversational: Option<bool>,
    /// `[llm] base_url`.
    pub llm_base_url: Option<String>,
    /// `[llm] model`.
    pub llm_model: Option<String>,
    /// `[llm] api_key`.
    pub llm_api_key: Option<String>,
    /// `[llm] timeout` (`30s`, `2m`).
    pub llm_timeout: Option<String>,
    /// `[telegram] bot_token`.
    pub telegram_bot_token: Option<String>,
    /// `[telegram] chats`.
    pub telegram_chats: Option<Vec<i64>>,
    /// `[telegram] api_url`.
    pub telegram_api_url: Option<String>,
}

const HINT: &str = "hint: keys are db, actor, tz, conversational, [llm] base_url/model/api_key/timeout, [telegram] bot_token/chats/api_url";

/// Returns the path of the configuration file, whether or not it exists.
pub fn path() -> Option<PathBuf> {
    let env = crate::vars::capture();
    if let Some(p) = env.path("TASKS_CONFIG") {
        return Some(p);
    }
    let base = env.path("XDG_CONFIG_HOME").or_else(|| env.path("HOME").map(|h| h.join(".config")))?;
    Some(base.join("tasks").join("config.toml"))
}

/// Returns the configuration, read once per process.
pub fn get() -> Result<&'static Config, CliError> {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    if let Some(c) = CONFIG.get() {
        return Ok(c);
    }
    let config = match path() {
        Some(p) => load(&p)?,
        None => Config::default(),
    };
    Ok(CONFIG.get_or_init(|| config))
}

/// Reads the file at `path` (a missing file is an empty configuration).
pub fn load(path: &Path) -> Result<Config, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
        Err(e) => return Err(CliError::config(format!("{}: {e}", path.display()), None)),
    };
    parse(&text).map_err(|message| CliError::config(format!("{}: {message}", path.display()), Some(HINT)))
}

/// Parses the text of a configuration file; the error names the line and the key.
pub fn parse(text: &str) -> Result<Config, String> {
    let doc = toml_edit::Document::parse(text).map_err(|e| e.to_string().trim_end().to_string())?;
    let line_of = |item: &Item| item.span().map(|s| text[..s.start].lines().count().max(1));
    let at = |item: &Item, key: &str| match line_of(item) {
        Some(n) => format!("line {n}: {key}"),
        None => key.to_string(),
    };
    let mut c = Config::default();
    let string = |item: &Item, key: &str| -> Result<String, String> {
        item.as_str().map(str::to_string).ok_or_else(|| format!("{} must be a string", at(item, key)))
    };
    let table = |item: &Item, key: &str| -> Result<Table, String> {
        item.as_table().cloned().ok_or_else(|| format!("{} must be a table ([{key}])", at(item, key)))
    };
    for (key, item) in doc.as_table().iter() {
        match key {
            "db" => c.db = Some(PathBuf::from(string(item, key)?)),
            "actor" => c.actor = Some(string(item, key)?),
            "tz" => c.tz = Some(string(item, key)?),
            "conversational" => {
                c.conversational =
                    Some(item.as_bool().ok_or_else(|| format!("{} must be true or false", at(item, key)))?)
            }
            "llm" => {
                for (k, v) in table(item, key)?.iter() {
                    let value = Some(string(v, &format!("llm.{k}"))?);
                    match k {
                        "base_url" => c.llm_base_url = value,
                        "model" => c.llm_model = value,
                        "api_key" => c.llm_api_key = value,
                        "timeout" => c.llm_timeout = value,
                        _ => return Err(format!("{}: unknown key", at(v, &format!("llm.{k}")))),
                    }
                }
            }
            "telegram" => {
                for (k, v) in table(item, key)?.iter() {
                    match k {
                        "bot_token" => c.telegram_bot_token = Some(string(v, "telegram.bot_token")?),
                        "api_url" => c.telegram_api_url = Some(string(v, "telegram.api_url")?),
                        "chats" => {
                            let wrong = || format!("{} must be a list of chat ids (integers)", at(v, "telegram.chats"));
                            let list = v.as_array().ok_or_else(wrong)?;
                            c.telegram_chats =
                                Some(list.iter().map(|x| x.as_integer().ok_or_else(wrong)).collect::<Result<_, _>>()?);
                        }
                        _ => return Err(format!("{}: unknown key", at(v, &format!("telegram.{k}")))),
                    }
                }
            }
            _ => return Err(format!("{}: unknown key", at(item, key))),
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_read() {
        let c = parse(
            "db = \"/tmp/t.db\"\nactor = \"me\"\ntz = \"Europe/Berlin\"\nconversational = false\n\n[llm]\nbase_url = \"http://127.0.0.1:9\"\nmodel = \"m\"\napi_key = \"k\"\ntimeout = \"5s\"\n\n[telegram]\nbot_token = \"t\"\nchats = [1, -100200]\n",
        )
        .expect("parse");
        assert_eq!(c.db, Some(PathBuf::from("/tmp/t.db")));
        assert_eq!(c.actor.as_deref(), Some("me"));
        assert_eq!(c.tz.as_deref(), Some("Europe/Berlin"));
        assert_eq!(c.conversational, Some(false));
        assert_eq!(c.llm_model.as_deref(), Some("m"));
        assert_eq!(c.llm_timeout.as_deref(), Some("5s"));
        assert_eq!(c.telegram_chats, Some(vec![1, -100200]));
        assert_eq!(parse("").expect("empty"), Config::default());
    }

    #[test]
    fn mistakes_name_the_line_and_the_key() {
        let cases = [
            ("actor = \"me\"\nacter = \"x\"\n", "line 2: acter: unknown key"),
            ("db = 5\n", "line 1: db must be a string"),
            ("conversational = \"yes\"\n", "line 1: conversational must be true or false"),
            ("[llm]\nmodel = \"m\"\nkey = \"k\"\n", "line 3: llm.key: unknown key"),
            ("[telegram]\nchats = [\"@me\"]\n", "line 2: telegram.chats must be a list of chat ids"),
            ("llm = \"x\"\n", "line 1: llm must be a table"),
        ];
        for (text, expected) in cases {
            let e = parse(text).expect_err(text);
            assert!(e.contains(expected), "{text:?}: {e}");
        }
        let broken = parse("actor = \"me\n").expect_err("unterminated string");
        assert!(broken.contains("line 1"), "{broken}");
    }
}
