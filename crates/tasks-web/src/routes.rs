//! The routes: the guard every request passes, the pages (GET, never a write), the
//! actions (POST forms that redirect back with a notice), and the JSON the modal's
//! script uses (preview, create, edit, the change stamp).

use std::collections::HashMap;

use axum::Router;
use axum::body::{Body, Bytes, to_bytes};
use axum::extract::{Form, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Json, Redirect, Response};
use axum::routing::{get, post};
use maud::Markup;
use serde::{Deserialize, Serialize};
use tasks_chat::turn::{self, Route, Turn};
use tasks_core::Error;
use tasks_core::claims;
use tasks_core::model::schedule::{JobKind, When};
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::ops::conversation::ConversationRef;
use tasks_core::ops::query::{self, AgendaView};
use tasks_core::ops::schedule::center::{self, CenterRow};
use tasks_core::ops::schedule::{manage, queue};
use tasks_core::ops::status;
use tasks_core::port::Engine;
use tasks_schedule::Firing;

use crate::access::{CSRF_FIELD, CSRF_HEADER, Proof};
use crate::form::{FieldError, ScheduleForm};
use crate::pages::{self, Chrome, Nav};
use crate::{AppState, WebError, assets, graph};

/// The most a form or JSON body may carry (a requirement is at most a few KB).
const BODY_LIMIT: usize = 256 * 1024;

/// Firings the modal previews.
const PREVIEW_COUNT: usize = 5;

/// Messages a conversation view shows (the newest).
const MESSAGES_SHOWN: usize = 200;

/// Ready tasks Today shows.
const READY_SHOWN: usize = 20;

/// Builds the router with the guard around every route.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(|| async { Redirect::to("/center") }))
        .route("/center", get(center_page))
        .route("/center/{key}", get(detail_page))
        .route("/conversations", get(conversations_page))
        .route("/conversations/{id}", get(conversation_page))
        .route("/today", get(today_page))
        .route("/assets/{name}", get(asset))
        .route("/api/stamp", get(stamp))
        .route("/api/preview", get(preview))
        .route("/api/schedules", post(create))
        .route("/api/schedules/{key}", post(edit))
        .route("/tasks/{key}/run-now", post(run_now))
        .route("/tasks/{key}/pause", post(pause))
        .route("/tasks/{key}/resume", post(resume))
        .route("/tasks/{key}/done", post(done))
        .route("/tasks/{key}/claim", post(claim))
        .route("/jobs/{id}/approve", post(approve))
        .route("/jobs/{id}/reject", post(reject))
        .route("/queue/{id}/remove", post(queue_remove))
        .route("/queue/{id}/promote", post(queue_promote))
        .route("/conversations/{id}/send", post(send))
        .route("/today/add", post(quick_add))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

fn plain(status: StatusCode, text: &str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], format!("{text}\n")).into_response()
}

/// Every request: the Host, then the token, then (for a write) the CSRF token.
async fn guard(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let access = state.access();
    if !access.host_allowed(req.headers()) {
        return plain(StatusCode::FORBIDDEN, "forbidden: this server answers only to its own address (Host header)");
    }
    let query_token = req.uri().query().and_then(|q| form_value(q, "token"));
    let Some(proof) = access.proof(req.headers(), query_token.as_deref()) else {
        return plain(
            StatusCode::UNAUTHORIZED,
            "unauthorized: open the link `tasks serve` printed (it carries the token), or send Authorization: Bearer <token>",
        );
    };
    let method = req.method().clone();
    if proof == Proof::Query && method == Method::GET {
        // Trade the token in the URL for the cookie, and drop it from the address bar.
        let path = req.uri().path().to_string();
        let rest: Vec<String> = req
            .uri()
            .query()
            .unwrap_or("")
            .split('&')
            .filter(|p| !p.is_empty() && !p.starts_with("token="))
            .map(str::to_string)
            .collect();
        let location = if rest.is_empty() { path } else { format!("{path}?{}", rest.join("&")) };
        let mut resp = Redirect::to(&location).into_response();
        if let Ok(v) = HeaderValue::from_str(&access.session_cookie()) {
            resp.headers_mut().insert(header::SET_COOKIE, v);
        }
        return secure(resp);
    }
    let req = match method {
        Method::GET | Method::HEAD => req,
        Method::POST if proof == Proof::Bearer => req,
        Method::POST => match csrf_checked(&state, req).await {
            Ok(req) => req,
            Err(resp) => return secure(resp),
        },
        _ => return secure(plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed: writes are POST")),
    };
    secure(next.run(req).await)
}

/// Checks the CSRF token of a browser's POST: the header (scripts), or the form field
/// (forms; the body is read and handed on).
async fn csrf_checked(state: &AppState, req: Request) -> Result<Request, Response> {
    let refused = || plain(StatusCode::FORBIDDEN, "forbidden: this write carries no valid CSRF token; reload the page");
    let header_token = req.headers().get(CSRF_HEADER).and_then(|v| v.to_str().ok()).map(str::to_string);
    if let Some(t) = header_token {
        return if state.access().csrf_ok(Some(&t)) { Ok(req) } else { Err(refused()) };
    }
    let is_form = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if !is_form {
        return Err(refused());
    }
    let (parts, body) = req.into_parts();
    let bytes: Bytes = to_bytes(body, BODY_LIMIT)
        .await
        .map_err(|_| plain(StatusCode::PAYLOAD_TOO_LARGE, "the form is larger than this server takes"))?;
    let text = String::from_utf8_lossy(&bytes);
    let token = form_value(&text, CSRF_FIELD);
    if !state.access().csrf_ok(token.as_deref()) {
        return Err(refused());
    }
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// Headers every answer carries: no framing, scripts and styles only from here, no
/// referrer (the token link never leaks), no caching of pages with a CSRF token.
fn secure(mut resp: Response) -> Response {
    let h = resp.headers_mut();
    let set = |h: &mut HeaderMap, k: header::HeaderName, v: &'static str| {
        h.insert(k, HeaderValue::from_static(v));
    };
    set(
        h,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    set(h, header::X_FRAME_OPTIONS, "DENY");
    set(h, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(h, header::REFERRER_POLICY, "no-referrer");
    if !h.contains_key(header::CACHE_CONTROL) {
        set(h, header::CACHE_CONTROL, "no-store");
    }
    resp
}

/// Reads one field of an urlencoded text.
fn form_value(text: &str, name: &str) -> Option<String> {
    text.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (percent_decode(k) == name).then(|| percent_decode(v))
    })
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"), 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

// ---- pages ------------------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PageQuery {
    notice: Option<String>,
    graph: Option<String>,
}

fn html_page(state: &AppState, title: &str, nav: Nav, notice: Option<&str>, body: Markup) -> Response {
    let csrf = state.access().csrf().to_string();
    let stamp = state.stamp().unwrap_or(0);
    let chrome = Chrome { title, nav, csrf: &csrf, stamp, notice };
    Html(pages::page(&chrome, body).into_string()).into_response()
}

fn error_page(state: &AppState, e: &WebError) -> Response {
    let status = match e {
        WebError::Store(Error::NotFound { .. }) => StatusCode::NOT_FOUND,
        WebError::Store(Error::Invalid { .. }) => StatusCode::BAD_REQUEST,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    let body = maud::html! { h1 { "Cannot show this" } p.form-error { (pages::clean(&e.to_string())) } p { a href="/center" { "Task Center" } } };
    let mut resp = html_page(state, "Error", Nav::Center, None, body);
    *resp.status_mut() = status;
    resp
}

/// A fresh prefix for the run-now keys of one render.
fn key_prefix() -> String {
    crate::random_token()
        .map(|t| t[..16].to_string())
        .unwrap_or_else(|_| jiff::Timestamp::now().as_nanosecond().to_string())
}

async fn center_page(State(state): State<AppState>, Query(q): Query<PageQuery>) -> Response {
    let result = state.step(|s, _| Ok((center::rows(s)?, center::conversations(s)?))).await;
    match result {
        Ok((rows, convs)) => {
            let body = pages::center::list(&rows, &convs, state.access().csrf(), &key_prefix());
            html_page(&state, "Task Center", Nav::Center, q.notice.as_deref(), body)
        }
        Err(e) => error_page(&state, &e),
    }
}

async fn detail_page(State(state): State<AppState>, Path(key): Path<String>, Query(q): Query<PageQuery>) -> Response {
    let k = key.clone();
    let result = state
        .step(move |s, _| {
            let d = center::detail(s, &k)?;
            let task = query::get(s, &k)?;
            Ok((d, center::conversations(s)?, task.description))
        })
        .await;
    match result {
        Ok((d, convs, requirement)) => {
            let body = pages::center::detail(&d, &convs, state.access().csrf(), &key_prefix(), &requirement);
            html_page(&state, &key, Nav::Center, q.notice.as_deref(), body)
        }
        Err(e) => error_page(&state, &e),
    }
}

async fn conversations_page(State(state): State<AppState>, Query(q): Query<PageQuery>) -> Response {
    match state.step(|s, _| Ok(center::conversations(s)?)).await {
        Ok(convs) => html_page(
            &state,
            "Conversations",
            Nav::Conversation,
            q.notice.as_deref(),
            pages::conversation::index(&convs),
        ),
        Err(e) => error_page(&state, &e),
    }
}

async fn conversation_page(State(state): State<AppState>, Path(id): Path<i64>, Query(q): Query<PageQuery>) -> Response {
    let result = state
        .step(move |s, _| {
            let conv = tasks_core::ops::conversation::get(s, id)?;
            let rows: Vec<CenterRow> = center::rows(s)?.into_iter().filter(|r| r.conversation.id == id).collect();
            let messages = queue::messages(s, Some(id), MESSAGES_SHOWN)?;
            let items = queue::list(s, Some(id))?;
            let mut titles: HashMap<String, String> = HashMap::new();
            let mut job_kinds: HashMap<i64, JobKind> = HashMap::new();
            for m in &messages {
                if let Some(k) = &m.task_key
                    && !titles.contains_key(k)
                    && let Ok(t) = query::get(s, k)
                {
                    titles.insert(k.clone(), t.title);
                }
                if let Some(j) = m.job_id
                    && !job_kinds.contains_key(&j)
                    && let Ok(d) = manage::job(s, j)
                {
                    job_kinds.insert(j, d.job.kind);
                }
            }
            Ok((conv, rows, messages, items, pages::conversation::Labels { titles, job_kinds }))
        })
        .await;
    match result {
        Ok((conv, rows, messages, items, labels)) => {
            let zone = state.settings().zone.iana_name().unwrap_or("UTC").to_string();
            let tasks: Vec<&CenterRow> = rows.iter().collect();
            let body = pages::conversation::view(
                &conv,
                &tasks,
                &messages,
                &items,
                &labels,
                &zone,
                state.access().csrf(),
                state.answers_queue(),
            );
            let title = pages::clean(&conv.title);
            html_page(&state, &title, Nav::Conversation, q.notice.as_deref(), body)
        }
        Err(e) => error_page(&state, &e),
    }
}

struct TodayData {
    overdue: Vec<tasks_core::model::Task>,
    today: Vec<tasks_core::model::Task>,
    ready: Vec<tasks_core::model::Task>,
    hidden: (usize, usize),
    graph: Option<tasks_core::graph::Neighbourhood>,
}

fn today_data(s: &mut dyn Engine, ctx: &tasks_core::Context, graph: Option<&str>) -> Result<TodayData, WebError> {
    let overdue = query::agenda_view(s, ctx, AgendaView::Overdue, false, None)?;
    let today = query::agenda_view(s, ctx, AgendaView::Today, false, None)?;
    let overdue_keys: Vec<&str> = overdue.tasks.iter().map(|t| t.key.as_str()).collect();
    let today_only: Vec<_> = today.tasks.iter().filter(|t| !overdue_keys.contains(&t.key.as_str())).cloned().collect();
    let ready = query::ready(s, ctx, Some(READY_SHOWN))?;
    let graph = match graph {
        Some(k) => Some(query::neighbourhood(s, k)?),
        None => None,
    };
    Ok(TodayData {
        hidden: (overdue.hidden.len(), today.hidden.len().saturating_sub(overdue.hidden.len())),
        overdue: overdue.tasks,
        today: today_only,
        ready,
        graph,
    })
}

fn today_response(state: &AppState, data: &TodayData, added: &pages::today::Added, notice: Option<&str>) -> Response {
    let sections = [
        pages::today::Section { heading: "Overdue", tasks: &data.overdue, hidden: data.hidden.0 },
        pages::today::Section { heading: "Today", tasks: &data.today, hidden: data.hidden.1 },
        pages::today::Section { heading: "Ready", tasks: &data.ready, hidden: 0 },
    ];
    let graph = data.graph.as_ref().map(|n| (n, graph::svg(n)));
    let body = pages::today::view(&sections, added, graph, state.access().csrf(), &state.settings().actor);
    html_page(state, "Today", Nav::Today, notice, body)
}

async fn today_page(State(state): State<AppState>, Query(q): Query<PageQuery>) -> Response {
    let graph = q.graph.clone();
    match state.step(move |s, c| today_data(s, c, graph.as_deref())).await {
        Ok(data) => today_response(&state, &data, &pages::today::Added::Nothing, q.notice.as_deref()),
        Err(e) => error_page(&state, &e),
    }
}

async fn asset(Path(name): Path<String>) -> Response {
    match assets::get(&name) {
        Some((mime, body)) => {
            ([(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, "no-cache")], body).into_response()
        }
        None => plain(StatusCode::NOT_FOUND, "no such asset"),
    }
}

// ---- JSON -------------------------------------------------------------------------

#[derive(Serialize)]
struct StampOut {
    stamp: i64,
}

async fn stamp(State(state): State<AppState>) -> Response {
    match state.stamp() {
        Ok(stamp) => Json(StampOut { stamp }).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

#[derive(Serialize)]
struct FiringOut {
    /// RFC 3339 UTC.
    at: String,
    /// Local in the schedule's zone, with the zone's abbreviation.
    local: String,
}

#[derive(Serialize)]
struct PreviewOut {
    zone: String,
    firings: Vec<FiringOut>,
    summary: Vec<String>,
}

#[derive(Serialize)]
struct ErrorOut {
    error: FieldError,
}

fn field_error(e: FieldError) -> Response {
    (StatusCode::UNPROCESSABLE_ENTITY, Json(ErrorOut { error: e })).into_response()
}

fn web_field_error(e: &WebError) -> Response {
    match e {
        WebError::Store(e) => field_error(FieldError::of(e)),
        other => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(ErrorOut { error: FieldError { field: "form".into(), message: other.to_string() } }),
        )
            .into_response(),
    }
}

fn firing_out(f: &Firing) -> FiringOut {
    FiringOut { at: f.at.to_string(), local: f.local.strftime("%a %Y-%m-%d %H:%M %Z").to_string() }
}

async fn preview(State(state): State<AppState>, Query(form): Query<ScheduleForm>) -> Response {
    let req = match form.request() {
        Ok(r) => r,
        Err(e) => return field_error(e),
    };
    match state.step(move |s, c| Ok(center::preview(s, c, &req, PREVIEW_COUNT)?)).await {
        Ok(p) => {
            Json(PreviewOut { zone: p.zone, firings: p.firings.iter().map(firing_out).collect(), summary: p.summary })
                .into_response()
        }
        Err(e) => web_field_error(&e),
    }
}

#[derive(Serialize)]
struct CreatedOut {
    task: String,
    schedule: i64,
    conversation: i64,
    new_conversation: bool,
    url: String,
}

async fn create(State(state): State<AppState>, Json(form): Json<ScheduleForm>) -> Response {
    let req = match form.request() {
        Ok(r) => r,
        Err(e) => return field_error(e),
    };
    match state.step(move |s, c| Ok(center::create(s, c, &req)?)).await {
        Ok(out) => Json(CreatedOut {
            url: format!("/center/{}", out.task.key),
            task: out.task.key,
            schedule: out.schedule.id,
            conversation: out.conversation.id,
            new_conversation: out.new_conversation,
        })
        .into_response(),
        Err(e) => web_field_error(&e),
    }
}

/// Edits a schedule: the new trigger, zone, mode and requirement apply to later Jobs
/// (plan version + 1); Jobs already made keep theirs.
async fn edit(State(state): State<AppState>, Path(key): Path<String>, Json(form): Json<ScheduleForm>) -> Response {
    let parsed = form.trigger().and_then(|t| Ok((t, form.action()?)));
    let (trigger, action) = match parsed {
        Ok(v) => v,
        Err(e) => return field_error(e),
    };
    if matches!(action, tasks_core::model::schedule::Action::Prompt(ref p) if p.text.trim().is_empty()) {
        return field_error(FieldError {
            field: "requirement".into(),
            message: "requirement: say what the Task should do each time it runs".into(),
        });
    }
    let zone = form.zone.trim().to_string();
    let result = state
        .step(move |s, c| {
            let old = manage::for_task(s, &key)?;
            if matches!(old.action, tasks_core::model::schedule::Action::Command(_)) {
                return Err(Error::invalid("action", "command", "a command schedule is changed from the CLI").into());
            }
            let req = manage::AddRequest {
                task: key.clone(),
                when: When::Time(trigger),
                zone,
                missed: old.missed,
                action,
                max_active: old.max_active,
                conversation: None,
                replace: true,
            };
            Ok(manage::add(s, c, &req)?)
        })
        .await;
    match result {
        Ok(out) => Json(CreatedOut {
            url: format!("/center/{}", out.schedule.task_key),
            task: out.schedule.task_key,
            schedule: out.schedule.id,
            conversation: out.schedule.conversation_id,
            new_conversation: false,
        })
        .into_response(),
        Err(e) => web_field_error(&e),
    }
}

// ---- actions ----------------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ActionForm {
    back: String,
    key: String,
    text: String,
    title: String,
    choice: String,
}

/// Where to go after an action: a path on this server only.
fn back_to(back: &str, fallback: &str) -> String {
    let ok = back.starts_with('/') && !back.starts_with("//") && !back.contains('\\') && !back.contains(['\r', '\n']);
    if ok { back.split('?').next().unwrap_or(fallback).to_string() } else { fallback.to_string() }
}

fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn redirect_with(back: &str, notice: &str) -> Response {
    Redirect::to(&format!("{back}?notice={}", encode(notice))).into_response()
}

async fn act<F>(state: &AppState, form: &ActionForm, fallback: &str, wake: bool, f: F) -> Response
where
    F: FnOnce(&mut dyn Engine, &tasks_core::Context) -> Result<String, WebError> + Send + 'static,
{
    let back = back_to(&form.back, fallback);
    let result = state.step(f).await;
    if wake {
        state.wake();
    }
    match result {
        Ok(notice) => redirect_with(&back, &notice),
        Err(e) => {
            let text = match &e {
                WebError::Store(tasks_core::Error::Schedule(se)) => match se.hint() {
                    Some(h) => format!("{e} (hint: {h})"),
                    None => e.to_string(),
                },
                _ => e.to_string(),
            };
            redirect_with(&back, &text)
        }
    }
}

async fn run_now(State(state): State<AppState>, Path(key): Path<String>, Form(form): Form<ActionForm>) -> Response {
    let click = form.key.clone();
    act(&state, &form, "/center", true, move |s, c| {
        let out = manage::run_now(s, c, &key, &click)?;
        Ok(if out.created {
            format!("{key}: Job #{} made ({})", out.job.id, out.job.state)
        } else {
            format!("{key}: this click already made Job #{} ({})", out.job.id, out.job.state)
        })
    })
    .await
}

async fn pause(State(state): State<AppState>, Path(key): Path<String>, Form(form): Form<ActionForm>) -> Response {
    act(&state, &form, "/center", false, move |s, c| {
        let out = manage::pause(s, c, &key)?;
        Ok(if out.changed { format!("{key} paused") } else { format!("{key} was already paused") })
    })
    .await
}

async fn resume(State(state): State<AppState>, Path(key): Path<String>, Form(form): Form<ActionForm>) -> Response {
    act(&state, &form, "/center", false, move |s, c| {
        let out = manage::resume(s, c, &key)?;
        Ok(if out.changed { format!("{key} resumed") } else { format!("{key} was not paused") })
    })
    .await
}

async fn done(State(state): State<AppState>, Path(key): Path<String>, Form(form): Form<ActionForm>) -> Response {
    act(&state, &form, "/today", false, move |s, c| {
        status::done(s, c, &key)?;
        Ok(format!("{key} done"))
    })
    .await
}

async fn claim(State(state): State<AppState>, Path(key): Path<String>, Form(form): Form<ActionForm>) -> Response {
    act(&state, &form, "/today", false, move |s, c| {
        let t = claims::claim(s, c, &key, claims::DEFAULT_LEASE)?;
        Ok(format!("{} claimed for {} min", t.key, claims::DEFAULT_LEASE.as_secs() / 60))
    })
    .await
}

async fn approve(State(state): State<AppState>, Path(id): Path<i64>, Form(form): Form<ActionForm>) -> Response {
    act(&state, &form, "/center", true, move |s, c| {
        let out = tasks_chat::approval::approve(s, c, id)?;
        Ok(format!("Job #{id} approved: {}", out.reply))
    })
    .await
}

async fn reject(State(state): State<AppState>, Path(id): Path<i64>, Form(form): Form<ActionForm>) -> Response {
    act(&state, &form, "/center", true, move |s, c| {
        let job = tasks_chat::approval::reject(s, c, id)?;
        Ok(format!("Job #{} rejected ({})", job.id, job.state))
    })
    .await
}

async fn queue_remove(State(state): State<AppState>, Path(id): Path<i64>, Form(form): Form<ActionForm>) -> Response {
    act(&state, &form, "/conversations", true, move |s, c| {
        let item = queue::remove(s, c, id)?;
        Ok(format!("Queue item #{} removed", item.id))
    })
    .await
}

async fn queue_promote(State(state): State<AppState>, Path(id): Path<i64>, Form(form): Form<ActionForm>) -> Response {
    act(&state, &form, "/conversations", true, move |s, c| {
        let p = queue::promote(s, c, id)?;
        let stopped: Vec<String> = p.interrupted.iter().map(|i| format!("#{}", i.id)).collect();
        Ok(if stopped.is_empty() {
            format!("#{} is next", p.item.id)
        } else {
            format!("#{} is next; interrupted {}", p.item.id, stopped.join(", "))
        })
    })
    .await
}

/// The composer: with a model, the message joins the queue and the worker answers it in
/// turn; without one, a message to an idle conversation is answered at once by slash
/// commands and the offline parser (and otherwise waits in the queue).
async fn send(State(state): State<AppState>, Path(id): Path<i64>, Form(mut form): Form<ActionForm>) -> Response {
    form.back = format!("/conversations/{id}");
    let text = form.text.clone();
    let queued = state.answers_queue();
    let settings = state.settings().clone();
    act(&state, &form, "/conversations", true, move |s, c| {
        if text.trim().is_empty() {
            return Err(Error::invalid("text", "", "write a message").into());
        }
        let idle = queue::list(s, Some(id))?.is_empty();
        if queued || !idle {
            let item = queue::push_message(s, c, Some(id), &text)?;
            return Ok(format!("Queued as #{}", item.id));
        }
        let conv = tasks_core::ops::conversation::get(s, id)?;
        let cref = ConversationRef {
            kind: conv.kind,
            external_id: conv.external_id.clone().unwrap_or_else(|| conv.title.clone()),
        };
        let t = Turn {
            text: &text,
            quoted: None,
            conversation: &cref,
            dry_run: false,
            conversational: settings.conversational,
            route: Route::Offline,
            button: None,
        };
        let out = turn::run(s, c, &t)?;
        Ok(format!("Answered: {}", out.reply.lines().next().unwrap_or("")))
    })
    .await
}

async fn quick_add(State(state): State<AppState>, Form(form): Form<ActionForm>) -> Response {
    let title = form.title.clone();
    let choice = form.choice.clone();
    let result = state
        .step(move |s, c| {
            let mut req = AddRequest::titled(title.clone());
            req.dup_choice = match choice.as_str() {
                "new" => DupChoice::New,
                other => match other.strip_prefix("attach:") {
                    Some(k) => DupChoice::Attach(k.to_string()),
                    None => DupChoice::Check,
                },
            };
            // First the check alone (rolled back): look-alikes are offered before
            // anything is written, whoever the check would refuse.
            if req.dup_choice == DupChoice::Check {
                match add::rehearse(s, c, &req) {
                    Ok(out) if !out.candidates.is_empty() && out.attached_to.is_none() => {
                        let added = pages::today::Added::Refused { title, candidates: out.candidates };
                        return Ok((today_data(s, c, None)?, (added, None)));
                    }
                    Err(Error::ProbableDuplicate { title, candidates }) => {
                        let added = pages::today::Added::Refused { title, candidates };
                        return Ok((today_data(s, c, None)?, (added, None)));
                    }
                    _ => {}
                }
            }
            let added = match add::add(s, c, &req) {
                Ok(out) if out.attached_to.is_some() => {
                    let notice = format!("Attached to {}", out.task.key);
                    (pages::today::Added::Nothing, Some(notice))
                }
                Ok(out) => (pages::today::Added::Created { key: out.task.key, candidates: out.candidates }, None),
                Err(Error::ProbableDuplicate { title, candidates }) => {
                    (pages::today::Added::Refused { title, candidates }, None)
                }
                Err(e) => return Err(e.into()),
            };
            Ok((today_data(s, c, None)?, added))
        })
        .await;
    match result {
        Ok((data, (added, notice))) => today_response(&state, &data, &added, notice.as_deref()),
        Err(e) => redirect_with("/today", &e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_values_are_decoded() {
        assert_eq!(form_value("a=1&_csrf=ab%2Bc&b=x+y", "_csrf").as_deref(), Some("ab+c"));
        assert_eq!(form_value("b=x+y", "b").as_deref(), Some("x y"));
        assert_eq!(form_value("b=%E2%9C%93", "b").as_deref(), Some("✓"));
        assert_eq!(form_value("b=%zz%", "b").as_deref(), Some("%zz%"));
        assert_eq!(form_value("a=1", "_csrf"), None);
    }

    #[test]
    fn back_goes_only_to_this_server() {
        assert_eq!(back_to("/center/HRB-1", "/center"), "/center/HRB-1");
        assert_eq!(back_to("//evil.example/x", "/center"), "/center");
        assert_eq!(back_to("https://evil.example", "/center"), "/center");
        assert_eq!(back_to("/today?notice=x", "/center"), "/today");
        assert_eq!(back_to("/a\r\nSet-Cookie: x", "/center"), "/center");
    }

    #[test]
    fn a_notice_is_encoded_into_the_address() {
        assert_eq!(encode("a b&c"), "a%20b%26c");
    }
}
