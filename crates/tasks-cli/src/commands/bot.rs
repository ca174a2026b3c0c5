//! `tasks bot telegram [--once]`: the Telegram bot (issue 13). Everything it does lives
//! in `tasks-bot`; this module reads the settings, refuses to start without an
//! allow-list, and runs the poller and the worker until SIGTERM (or, with `--once`,
//! until what one getUpdates returned is answered).

use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand};
use tasks_bot::runner::{Runner, RunnerError, Settings, Telegram};
use tasks_bot::telegram::{BotApi, BotError};
use tokio::signal::unix::{SignalKind, signal};

use super::App;
use crate::env;
use crate::error::CliError;

/// How long one getUpdates waits for an update (Telegram's long polling).
pub const LONG_POLL: Duration = Duration::from_secs(25);

/// How often the worker looks at the queues when nothing woke it (scheduled firings
/// land there from the daemon).
pub const WORK_INTERVAL: Duration = Duration::from_secs(2);

#[derive(Debug, Subcommand)]
pub enum BotCommand {
    /// Run the Telegram bot: answers the allowed chats, in order, one item at a time
    Telegram(TelegramArgs),
}

#[derive(Debug, Args)]
pub struct TelegramArgs {
    /// Handle what one getUpdates returns, answer it, and exit
    #[arg(long)]
    pub once: bool,
}

pub fn run(app: &mut App, command: BotCommand) -> Result<(), CliError> {
    match command {
        BotCommand::Telegram(a) => telegram(app, a),
    }
}

/// Builds the runner of this process: the conversation settings, and the bot when
/// `with_telegram`.
pub fn runner(app: &App, with_telegram: bool) -> Result<Runner, CliError> {
    let settings = runner_settings(app)?;
    let telegram = if with_telegram {
        let t = env::telegram()?;
        Some(Telegram { api: BotApi::new(&t.api_url, &t.token), chats: t.chats })
    } else {
        None
    };
    Ok(Runner::new(settings, telegram))
}

/// The conversation settings of this process (store, actor, zone, clock, model), as
/// the bot and the web page's worker take them.
pub fn runner_settings(app: &App) -> Result<Settings, CliError> {
    // The team store: each step takes a pooled connection (the runner works on the
    // blocking pool; a connection per step would cost a handshake each).
    let (store_path, open) = match &app.store {
        super::Backend::Sqlite(store) => (store.path().to_path_buf(), None),
        super::Backend::Postgres(store) => {
            let pool = std::sync::Arc::new(store.pool());
            let open = tasks_bot::runner::Opener(std::sync::Arc::new(move || {
                Ok(Box::new(pool.take()?) as Box<dyn tasks_core::port::Engine + Send>)
            }));
            (std::path::PathBuf::from(store.target()), Some(open))
        }
    };
    Ok(Settings {
        store_path,
        open,
        actor: app.ctx.actor.clone(),
        zone: app.ctx.zone.clone(),
        fixed_now: env::fixed_now()?,
        conversational: env::conversational()?,
        llm: env::llm()?,
    })
}

fn telegram(app: &mut App, a: TelegramArgs) -> Result<(), CliError> {
    crate::vars::protect_memory();
    let runner = runner(app, true)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::other(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(async move {
        runner.recover().await.map_err(runner_error)?;
        if a.once {
            let seen = runner.poll(Duration::ZERO).await.map_err(runner_error)?;
            let answered = runner.work().await.map_err(runner_error)?;
            eprintln!("tasks bot: {seen} update(s), {answered} item(s) answered");
            return Ok(());
        }
        eprintln!("tasks bot: started");
        serve(Arc::new(runner)).await
    })
}

/// Runs the poller and the worker until SIGTERM or SIGINT.
pub async fn serve(runner: Arc<Runner>) -> Result<(), CliError> {
    let signal_err = |e: std::io::Error| CliError::other(format!("cannot listen for signals: {e}"));
    let mut term = signal(SignalKind::terminate()).map_err(signal_err)?;
    let mut int = signal(SignalKind::interrupt()).map_err(signal_err)?;
    tokio::select! {
        _ = loops(runner) => {}
        _ = term.recv() => eprintln!("tasks bot: SIGTERM: stopping"),
        _ = int.recv() => eprintln!("tasks bot: SIGINT: stopping"),
    }
    Ok(())
}

/// The poller and the worker, for ever: a poll that fails waits and tries again.
pub async fn loops(runner: Arc<Runner>) {
    let runner_has_telegram = runner.has_telegram();
    let runner_answers = runner.answers_anything();
    let wake = Arc::new(tokio::sync::Notify::new());
    let poller = {
        let (runner, wake) = (runner.clone(), wake.clone());
        async move {
            loop {
                match runner.poll(LONG_POLL).await {
                    Ok(_) => wake.notify_one(),
                    Err(e) => {
                        eprintln!("tasks bot: {e}");
                        tokio::time::sleep(Duration::from_secs(5)).await;
                    }
                }
            }
        }
    };
    let worker = async move {
        loop {
            if let Err(e) = runner.work().await {
                eprintln!("tasks bot: {e}");
            }
            tokio::select! {
                _ = wake.notified() => {}
                _ = tokio::time::sleep(WORK_INTERVAL) => {}
            }
        }
    };
    if !runner_has_telegram {
        // Nothing to fetch: the worker alone (a daemon answering local prompt firings),
        // or nothing at all.
        if runner_answers {
            worker.await;
        } else {
            std::future::pending::<()>().await;
        }
        return;
    }
    tokio::join!(poller, worker);
}

/// Maps a runner failure to the CLI's error (exit codes of SPEC §9).
pub fn runner_error(e: RunnerError) -> CliError {
    match e {
        RunnerError::Store(e) => e.into(),
        RunnerError::Bot(BotError::Network(..)) => CliError { code: "network", ..CliError::other(e.to_string()) },
        RunnerError::Bot(BotError::Refused { ref description, .. }) if description.contains("Unauthorized") => {
            CliError { code: "authentication", ..CliError::other(format!("{e}; check TELEGRAM_BOT_TOKEN")) }
        }
        RunnerError::Bot(_) => CliError { code: "provider_error", ..CliError::other(e.to_string()) },
        RunnerError::Join(_) => CliError::other(e.to_string()),
    }
}
