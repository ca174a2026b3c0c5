//! The checks every write path runs on the values it was given, before any lock is
//! taken for long: titles, descriptions, names, tags and priorities against
//! [`crate::limits`]. Their own module so that `add`, `edit`, `status` and `import` use
//! them without depending on each other (`add` re-exports them for the edges).

use crate::error::{Error, Result};
use crate::limits;

/// Checks a title: not empty, not only white space, within [`limits::TITLE_MAX_CHARS`],
/// no NUL.
pub fn check_title(title: &str) -> Result<()> {
    if title.trim().is_empty() {
        return Err(Error::invalid("title", title, "a task needs a title"));
    }
    limits::check_text("title", title, limits::TITLE_MAX_CHARS)
}

/// Checks a description: within [`limits::DESCRIPTION_MAX_CHARS`], no NUL.
pub fn check_description(description: &str) -> Result<()> {
    limits::check_text("description", description, limits::DESCRIPTION_MAX_CHARS)
}

/// Checks a short field (category, person, project, close reason): within
/// [`limits::NAME_MAX_CHARS`], no NUL.
pub fn check_name(field: &'static str, value: &str) -> Result<()> {
    limits::check_text(field, value, limits::NAME_MAX_CHARS)
}

/// Checks a list of tags given together: each one valid, at most [`limits::TAGS_MAX`].
pub fn check_tags(tags: &[String]) -> Result<()> {
    if tags.len() > limits::TAGS_MAX {
        return Err(Error::invalid(
            "tag",
            format!("{} tags", tags.len()),
            format!("a task holds at most {} tags", limits::TAGS_MAX),
        ));
    }
    tags.iter().try_for_each(|t| check_tag(t))
}

/// Checks an optional priority (see [`crate::model::check_priority`]).
pub fn check_priority(priority: Option<u8>) -> Result<()> {
    if let Some(p) = priority {
        crate::model::check_priority(u64::from(p))?;
    }
    Ok(())
}

/// Checks a tag name: no white space or commas, not empty, within
/// [`limits::TAG_MAX_CHARS`].
pub fn check_tag(tag: &str) -> Result<()> {
    if tag.is_empty() || tag.chars().any(|c| c.is_whitespace() || c == ',' || c.is_control()) {
        return Err(Error::invalid("tag", limits::preview(tag), "a tag is one word without spaces or commas"));
    }
    limits::check_text("tag", tag, limits::TAG_MAX_CHARS)
}
