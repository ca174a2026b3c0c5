//! `tasks-chat`: the conversation of `tasks` (SPEC §7) — free text and slash commands
//! turned into the same operations the CLI runs.
//!
//! Start at [`turn::run`]: one message in, actions run, a reply out, the conversation's
//! state written back. Free text goes to the model ([`llm`], with [`prompt`]) and its
//! calls ([`calls`]) through the ambiguity [`guard`], or to the [`offline`] parser; both
//! judge targets with [`matching`]. [`dispatch`] runs a call through `tasks_core::ops`.
//!
//! What it deliberately does not do: decide anything about tasks the core decides
//! (duplicates, keys, statuses), keep a network connection between turns, or send the
//! model anything but one request per turn.

pub mod answer;
pub mod approval;
pub mod calls;
pub mod dispatch;
pub mod guard;
pub mod llm;
pub mod matching;
pub mod offline;
pub mod phrase;
pub mod prompt;
pub mod prompt_run;
pub mod quoted;
pub mod reply;
pub mod situation;
pub mod slash;
pub mod state;
pub mod turn;
pub mod typos;
pub mod wire;
