//! `tasks chat`: one turn of a conversation (SPEC §7). All of it lives in
//! `tasks-chat`; this module reads the flags and the model's configuration, and renders.

use clap::Args;
use serde_json::{Map, Value};
use tasks_chat::llm::LlmClient;
use tasks_chat::turn::{self, ChatError, Route, Turn};
use tasks_core::model::conversation::ConversationKind;
use tasks_core::ops::conversation::ConversationRef;

use super::App;
use crate::env;
use crate::error::CliError;

#[derive(Debug, Args)]
pub struct ChatArgs {
    /// What you would say: «сделала позвонить Ане», "move the dentist to Friday", /today
    #[arg(required = true, num_args = 1.., value_name = "TEXT")]
    pub text: Vec<String>,
    /// The bot message you are answering (its list and question give the context)
    #[arg(long, value_name = "TEXT")]
    pub reply_to: Option<String>,
    /// The conversation this turn belongs to (each remembers its last list)
    #[arg(long, value_name = "NAME", default_value = "cli")]
    pub conversation: String,
    /// Use the offline parser, not the model
    #[arg(long)]
    pub offline: bool,
    /// Show the planned calls; change nothing
    #[arg(long)]
    pub dry_run: bool,
}

/// Runs one turn.
pub fn run(app: &mut App, a: ChatArgs) -> Result<(), CliError> {
    let text = a.text.join(" ");
    let conversational = env::conversational()?;
    let model = if a.offline { None } else { env::llm()? };
    let client = model.map(LlmClient::new);
    let conversation = ConversationRef { kind: ConversationKind::Local, external_id: a.conversation.clone() };
    let turn = Turn {
        text: &text,
        quoted: a.reply_to.as_deref(),
        conversation: &conversation,
        dry_run: a.dry_run,
        conversational,
        route: client.as_ref().map(Route::Model).unwrap_or(Route::Offline),
        button: None,
    };
    let out = turn::run(&mut app.store, &app.ctx, &turn).map_err(chat_error)?;
    let now = app.ctx.now_ms();
    app.print(|| tasks_chat::wire::turn(&out, now), || format!("{}\n", out.reply));
    Ok(())
}

/// Turns a conversation error into the CLI's (its code, message and hint).
fn chat_error(e: ChatError) -> CliError {
    match e {
        ChatError::Store(e) => e.into(),
        e => CliError {
            code: e.code(),
            message: e
                .to_string()
                .lines()
                .map(|l| tasks_text::printable(l).into_owned())
                .collect::<Vec<_>>()
                .join("\n"),
            details: Value::Object(Map::new()),
            hints: e.hint().map(|h| vec![h.to_string()]).unwrap_or_default(),
            candidates: Vec::new(),
        },
    }
}
