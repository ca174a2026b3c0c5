//! The conversation of `tasks` (SPEC §7, issue 11).

pub mod answer;
pub mod calls;
pub mod dispatch;
pub mod guard;
pub mod llm;
pub mod matching;
pub mod offline;
pub mod phrase;
pub mod prompt;
pub mod reply;
pub mod situation;
pub mod slash;
pub mod state;
pub mod turn;
pub mod wire;
