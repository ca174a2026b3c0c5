//! Keys and references (SPEC §3): project keys, typed keys, message locators, and the
//! resolution of a task reference (`task:<…>`, a key, a legacy key, a UUID or a unique
//! UUID prefix of 8+ hex digits) to a row.
//!
//! Why counters and not hashes: one store per computer with one writer at a time, so a
//! counter taken in the inserting transaction gives short keys a person can read and
//! say aloud (seed 000, "Почему не хеш-идентификаторы").

use std::fmt;

use crate::error::{Error, Result};
use crate::port::Reads;

/// The key of the default inbox project, made on first use.
pub const INBOX_KEY: &str = "INBOX";

/// Longest project key; keys are typed and read aloud, so they stay short.
pub const MAX_PROJECT_KEY_LEN: usize = 16;

/// Shortest UUID prefix accepted as a reference: 8 hex digits, as SPEC §3 says.
pub const MIN_UUID_PREFIX: usize = 8;

/// Prefixes reserved for typed keys; a project may not take them.
pub const TYPED_PREFIXES: &[&str] = &["Q", "REQ", "M", "PR"];

/// The provider of person identities typed by hand or by agents (`@lena`).
pub const LOCAL_PROVIDER: &str = "local";

/// Reads a person reference `person:<n>` as the person's row id `n` (what `show` prints
/// for a person with no handle); `None` for a handle.
pub fn numeric_person(handle: &str) -> Option<i64> {
    handle.strip_prefix("person:").and_then(|n| n.parse::<i64>().ok()).filter(|n| *n > 0)
}

/// Checks and uppercases a project key: a letter, then letters or digits.
pub fn parse_project_key(input: &str) -> Result<String> {
    let key = input.trim().to_ascii_uppercase();
    let bad = |reason: &str| Error::invalid("project key", input, reason);
    if key.is_empty() {
        return Err(bad("a key needs at least one letter"));
    }
    if key.len() > MAX_PROJECT_KEY_LEN {
        return Err(bad(&format!("at most {MAX_PROJECT_KEY_LEN} characters")));
    }
    let mut chars = key.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_uppercase()) {
        return Err(bad("a key starts with a Latin letter"));
    }
    if !chars.all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) {
        return Err(bad("use Latin letters and digits only (the key prefixes task keys like HRB-12)"));
    }
    if TYPED_PREFIXES.contains(&key.as_str()) {
        return Err(bad("Q, REQ, M and PR are reserved for typed keys of messages"));
    }
    Ok(key)
}

/// Returns the inbox project key of a messaging account: `IN` + 8 hex digits.
///
/// The hex is FNV-1a of `provider/account`: stable across machines and versions, so a
/// legacy key `IN1A2B3C4D-17` quoted in a chat keeps meaning the same inbox.
pub fn account_inbox_key(account_id: &str) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for b in account_id.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("IN{hash:08X}")
}

/// A message address: `msg:<provider>/<account>/<chat>/<id>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageLocator {
    /// `telegram`, `mail` …
    pub provider: String,
    /// The account on that provider.
    pub account: String,
    /// The chat.
    pub chat: String,
    /// The message id in the chat.
    pub id: String,
}

impl MessageLocator {
    /// Parses `msg:<provider>/<account>/<chat>/<id>`.
    pub fn parse(input: &str) -> Result<MessageLocator> {
        let bad = || {
            Error::invalid(
                "source",
                input,
                "expected msg:<provider>/<account>/<chat>/<id>, e.g. msg:telegram/me/c42/1001",
            )
        };
        let rest = input.trim().strip_prefix("msg:").ok_or_else(bad)?;
        let parts: Vec<&str> = rest.split('/').collect();
        if parts.len() != 4 || parts.iter().any(|p| p.trim().is_empty()) {
            return Err(bad());
        }
        Ok(MessageLocator {
            provider: parts[0].to_string(),
            account: parts[1].to_string(),
            chat: parts[2].to_string(),
            id: parts[3].to_string(),
        })
    }

    /// Returns `provider/account`, the id of the account's inbox.
    pub fn account_id(&self) -> String {
        format!("{}/{}", self.provider, self.account)
    }
}

impl fmt::Display for MessageLocator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "msg:{}/{}/{}/{}", self.provider, self.account, self.chat, self.id)
    }
}

/// Reads a task key (`HRB-12`, `req-22`, `IN1A2B3C4D-17`) into its canonical uppercase
/// form, or `None` when the text is not key-shaped.
pub fn canonical_key(input: &str) -> Option<String> {
    let (prefix, number) = input.rsplit_once('-')?;
    let prefix_ok = prefix.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && prefix.chars().all(|c| c.is_ascii_alphanumeric());
    let number_ok = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) && !number.starts_with('0');
    (prefix_ok && number_ok).then(|| format!("{}-{}", prefix.to_ascii_uppercase(), number))
}

/// Resolves a task reference to its row id (SPEC §3).
///
/// Order: key or legacy key, then full UUID, then a UUID prefix of at least
/// [`MIN_UUID_PREFIX`] hex digits, which must match exactly one task. With the `task:`
/// prefix, the id another tool gave the task (a beads `bd-a1b2`, kept as its external
/// id by an import) is tried last.
pub(crate) fn resolve(conn: &dyn Reads, reference: &str) -> Result<i64> {
    let trimmed = reference.trim();
    if let Some(text) = trimmed.strip_prefix("task:") {
        return match resolve_own(conn, reference, text) {
            Err(Error::NotFound { .. }) => {
                conn.task_id_by_external_id(text.trim())?.ok_or_else(|| Error::task_not_found(reference))
            }
            other => other,
        };
    }
    resolve_own(conn, reference, trimmed)
}

fn resolve_own(conn: &dyn Reads, reference: &str, text: &str) -> Result<i64> {
    if text.is_empty() {
        return Err(Error::invalid("task", reference, "empty reference; give a key like HRB-12 or a UUID"));
    }
    if let Some(key) = canonical_key(text)
        && let Some(id) = conn.task_id_by_key(&key)?
    {
        return Ok(id);
    }
    let lower = text.to_ascii_lowercase();
    let hex_digits = lower.chars().filter(|c| c.is_ascii_hexdigit()).count();
    let uuid_shaped = lower.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    if uuid_shaped && hex_digits >= MIN_UUID_PREFIX {
        let matches = conn.task_ids_by_uuid_prefix(&lower, 6)?;
        return match matches.as_slice() {
            [] => Err(Error::task_not_found(reference)),
            [(id, _)] => Ok(*id),
            many => Err(Error::Ambiguous {
                value: reference.to_string(),
                matches: many.iter().map(|(_, k)| k.clone()).collect(),
            }),
        };
    }
    Err(Error::task_not_found(reference))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_key(input: &str, expected: Option<&str>) {
        assert_eq!(canonical_key(input).as_deref(), expected, "{input}");
    }

    #[test]
    fn task_keys() {
        check_key("HRB-12", Some("HRB-12"));
        check_key("hrb-12", Some("HRB-12"));
        check_key("REQ-22", Some("REQ-22"));
        check_key("IN1A2B3C4D-17", Some("IN1A2B3C4D-17"));
        check_key("HRB-012", None);
        check_key("HRB-", None);
        check_key("-12", None);
        check_key("12-12", None);
        check_key("HRB12", None);
        check_key("H R-1", None);
    }

    fn check_project(input: &str, expected: Result<&str, ()>) {
        assert_eq!(parse_project_key(input).map_err(|_| ()), expected.map(str::to_string), "{input}");
    }

    #[test]
    fn project_keys() {
        check_project("hrb", Ok("HRB"));
        check_project(" Web2 ", Ok("WEB2"));
        check_project("", Err(()));
        check_project("2WEB", Err(()));
        check_project("WEB-X", Err(()));
        check_project("REQ", Err(()));
        check_project("ПРОЕКТ", Err(()));
        check_project("ABCDEFGHIJKLMNOPQ", Err(()));
    }

    #[test]
    fn locators() {
        let loc = MessageLocator::parse("msg:telegram/me/c42/1001").expect("valid locator");
        assert_eq!(loc.account_id(), "telegram/me");
        assert_eq!(loc.to_string(), "msg:telegram/me/c42/1001");
        assert!(MessageLocator::parse("telegram/me/c42/1001").is_err());
        assert!(MessageLocator::parse("msg:telegram/me/c42").is_err());
        assert!(MessageLocator::parse("msg:telegram//c42/1").is_err());
    }

    #[test]
    fn account_inbox_keys_are_stable() {
        assert_eq!(account_inbox_key("telegram/me"), account_inbox_key("telegram/me"));
        assert_ne!(account_inbox_key("telegram/me"), account_inbox_key("telegram/you"));
        let key = account_inbox_key("telegram/me");
        assert!(key.starts_with("IN") && key.len() == 10, "{key}");
        assert!(parse_project_key(&key).is_ok());
    }
}
