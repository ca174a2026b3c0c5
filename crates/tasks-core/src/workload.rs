//! A deterministic workload generator: realistic task streams in the import format
//! (JSON Lines) for benchmarks and load tests — Russian, English and Spanish titles
//! built from common task phrases, a long-tailed set of people, categories, amounts,
//! due dates, 30 % of tasks blocked by an earlier one, most older tasks closed.
//!
//! [`reports`] makes the other shape a store can have: a bug tracker's reports, each
//! with a long description (a few hundred to several thousand characters of prose,
//! configuration keys and a stack trace), which is where the duplicate check reads the
//! most per candidate (issue 16: the description cosine).
//!
//! Deterministic by seed (a SplitMix64 stream, no `rand` dependency), so a benchmark
//! store is the same on every machine. Not used by any normal command.

use serde_json::json;

/// Share of tasks blocked by an earlier task (issue 2: "30 % blocked").
pub const BLOCKED_SHARE: f64 = 0.30;
/// Share of tasks older than the last [`RECENT_TASKS`] that are closed.
pub const CLOSED_SHARE: f64 = 0.75;
/// The newest tasks stay open: a live working set like a real store's.
pub const RECENT_TASKS: usize = 5_000;
/// Most tasks one call makes: the lines are held in memory (about 300 bytes each), so
/// ten million is a few gigabytes — beyond that a caller asking is a typo, and is told so
/// instead of the process aborting.
pub const MAX_TASKS: usize = 10_000_000;

/// Distinct people (long-tailed: a few write most requests).
pub const PEOPLE: u64 = 400;

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() as f64 / u64::MAX as f64) < p
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const EN_VERBS: &[&str] = &[
    "Send",
    "Review",
    "Fix",
    "Call",
    "Pay",
    "Book",
    "Write",
    "Update",
    "Prepare",
    "Check",
    "Renew",
    "Order",
    "Print",
    "Sign",
    "Schedule",
    "Draft",
    "Finish",
    "Translate",
    "Upload",
    "Reply to",
];
const EN_OBJECTS: &[&str] = &[
    "the invoice",
    "the contract",
    "the pitch deck",
    "the quarterly report",
    "the menu",
    "the logo",
    "the banner",
    "the landing page",
    "the tax return",
    "the rent",
    "the flight",
    "the dentist",
    "the brand book",
    "the newsletter",
    "the onboarding flow",
    "the icons",
    "the podcast episode",
    "the insurance",
    "the visa form",
    "the guest post",
];
const RU_VERBS: &[&str] = &[
    "Отправить",
    "Проверить",
    "Позвонить",
    "Оплатить",
    "Забронировать",
    "Написать",
    "Обновить",
    "Подготовить",
    "Продлить",
    "Заказать",
    "Распечатать",
    "Подписать",
    "Сверстать",
    "Перевести",
    "Согласовать",
];
const RU_OBJECTS: &[&str] = &[
    "счёт",
    "договор",
    "презентацию",
    "отчёт",
    "меню",
    "логотип",
    "баннер",
    "лендинг",
    "декларацию",
    "аренду",
    "билеты",
    "визит к стоматологу",
    "брендбук",
    "рассылку",
    "иконки",
    "пост для канала",
    "страховку",
    "анкету",
];
const ES_VERBS: &[&str] =
    &["Enviar", "Revisar", "Llamar a", "Pagar", "Reservar", "Escribir", "Actualizar", "Preparar", "Firmar", "Imprimir"];
const ES_OBJECTS: &[&str] = &[
    "la factura",
    "el contrato",
    "la presentación",
    "el informe",
    "la carta",
    "el logotipo",
    "el cartel",
    "la señalética",
    "el manual de marca",
    "el alquiler",
    "los billetes",
    "el seguro",
];
const CLIENTS: &[&str] =
    &["Brightlane", "Casa Olivar", "Лесная Кухня", "Northfold", "Acme", "Globex", "Initech", "Umbrella", "Hooli"];
const CATEGORIES: &[&str] = &["work", "money", "admin", "channel", "home", "family", "health", "learning", "travel"];
const CURRENCIES: &[&str] = &["RUB", "EUR", "USD"];

/// Returns one task line of the stream (`i` counts from 0).
fn line(rng: &mut SplitMix, i: usize, n: usize, start_ms: i64, span_ms: i64) -> String {
    let lang = rng.below(100);
    let mut title = if lang < 45 {
        format!("{} {}", rng.pick(RU_VERBS), rng.pick(RU_OBJECTS))
    } else if lang < 85 {
        format!("{} {}", rng.pick(EN_VERBS), rng.pick(EN_OBJECTS))
    } else {
        format!("{} {}", rng.pick(ES_VERBS), rng.pick(ES_OBJECTS))
    };
    match rng.below(6) {
        0 => title.push_str(&format!(" — {}", rng.pick(CLIENTS))),
        1 => title.push_str(&format!(", {} {}", (rng.below(200) + 1) * 500, rng.pick(CURRENCIES))),
        2 => title.push_str(&format!(" #{}", rng.below(10_000))),
        _ => {}
    }
    let created = start_ms + (span_ms as f64 * i as f64 / n.max(1) as f64) as i64;
    // Long tail: person k is picked with weight ~ 1/k.
    let person = ((PEOPLE as f64).powf(rng.below(10_000) as f64 / 10_000.0)) as u64;
    let recent = i + RECENT_TASKS >= n;
    let closed = !recent && rng.chance(CLOSED_SHARE);
    let mut v = json!({
        "id": format!("w{i}"),
        "title": title,
        "type": if rng.chance(0.4) { "request" } else { "task" },
        "person": if rng.chance(0.7) { Some(format!("p{person}")) } else { None },
        "category": rng.pick(CATEGORIES),
        "priority": if rng.chance(0.5) { Some(rng.below(5)) } else { None },
        "created_at": crate::time::rfc3339(created),
        "status": if closed { "done" } else { "open" },
    });
    if closed {
        v["closed_at"] = json!(crate::time::rfc3339(created + 3_600_000 * (1 + rng.below(72) as i64)));
    }
    if i > 0 && rng.chance(BLOCKED_SHARE) {
        let back = 1 + rng.below(200.min(i as u64));
        v["blocked_by"] = json!([format!("w{}", i - back as usize)]);
    }
    if rng.chance(0.2) {
        v["due"] = json!(
            crate::time::floating_date_from_ms(created + 86_400_000 * (1 + rng.below(30) as i64))
                .map(|d| d.to_string())
        );
    }
    v.to_string()
}

/// Returns `n` task lines in the import format, created evenly over the two years
/// before `end_ms`, deterministic for a seed.
pub fn lines(n: usize, seed: u64, end_ms: i64) -> Vec<String> {
    let span = 2 * 365 * 86_400_000_i64;
    let mut rng = SplitMix(seed);
    (0..n).map(|i| line(&mut rng, i, n, end_ms - span, span)).collect()
}

const MODULES: &[&str] = &[
    "storage",
    "scheduler",
    "gateway",
    "ingest",
    "billing",
    "auth",
    "search",
    "metrics",
    "replica",
    "codec",
    "shuffle",
    "catalog",
    "webui",
    "rpc",
    "journal",
    "quota",
];
const CLASS_HEADS: &[&str] = &[
    "Block", "Data", "Name", "Token", "Cache", "Stream", "Lease", "Shard", "Path", "Mount", "Audit", "Snapshot",
    "Ledger", "Bucket", "Session", "Queue", "Index", "Segment", "Tenant", "Replica",
];
const CLASS_MIDS: &[&str] = &[
    "", "Async", "Remote", "Local", "Batch", "Delta", "Cold", "Hot", "Shared", "Direct", "Chunk", "Retry", "Proxy",
    "Vector", "Meta", "Write", "Read", "Merge", "Split", "Ticket",
];
const CLASS_TAILS: &[&str] = &[
    "Manager", "Reader", "Writer", "Service", "Handler", "Pool", "Client", "Server", "Store", "Policy", "Tracker",
    "Scanner", "Codec", "Resolver", "Monitor",
];
const SYMPTOMS: &[&str] = &[
    "fails with NullPointerException",
    "times out under load",
    "leaks file handles",
    "returns stale results",
    "deadlocks on shutdown",
    "ignores the configured retry limit",
    "logs the password in clear text",
    "crashes after upgrade",
    "is flaky on slow disks",
    "double-counts bytes read",
    "cannot parse a trailing slash",
    "hangs when the peer resets the connection",
];
const PROSE: &[&str] = &[
    "we",
    "see",
    "this",
    "when",
    "the",
    "cluster",
    "is",
    "under",
    "load",
    "and",
    "a",
    "client",
    "retries",
    "after",
    "timeout",
    "it",
    "looks",
    "like",
    "request",
    "never",
    "reaches",
    "server",
    "because",
    "connection",
    "pool",
    "exhausted",
    "steps",
    "to",
    "reproduce",
    "start",
    "two",
    "nodes",
    "then",
    "kill",
    "one",
    "of",
    "them",
    "while",
    "writing",
    "expected",
    "behaviour",
    "actual",
    "error",
    "in",
    "logs",
    "only",
    "happens",
    "on",
    "version",
    "with",
    "default",
    "settings",
    "patch",
    "attached",
    "reverts",
    "change",
    "that",
    "introduced",
    "regression",
    "test",
    "case",
    "added",
    "for",
    "missing",
    "directory",
    "marker",
    "configuration",
    "key",
    "property",
    "value",
];

/// Picks from `items` with a long tail: item k with weight about 1/(k+1).
fn zipf<'a>(rng: &mut SplitMix, items: &[&'a str]) -> &'a str {
    let n = items.len() as f64;
    let k = ((n + 1.0).powf(rng.below(10_000) as f64 / 10_000.0) - 1.0) as usize;
    items[k.min(items.len() - 1)]
}

/// A class name of three parts (6,000 of them, long-tailed), so that a class names a
/// few dozen reports of 100k, not thousands: a tracker's vocabulary is mostly rare.
fn class_name(rng: &mut SplitMix) -> String {
    format!("{}{}{}", zipf(rng, CLASS_HEADS), zipf(rng, CLASS_MIDS), zipf(rng, CLASS_TAILS))
}

/// Returns one report's description: paragraphs of prose naming classes and keys, and
/// often a stack trace. Median about two thousand characters, from a few hundred to
/// over five thousand.
fn report_description(rng: &mut SplitMix, module: &str, class: &str) -> String {
    let mut out = String::new();
    let paragraphs = 1 + ((8.0_f64).powf(rng.below(10_000) as f64 / 10_000.0) as u64);
    for _ in 0..paragraphs {
        let words = 20 + rng.below(60);
        for w in 0..words {
            if w > 0 {
                out.push(' ');
            }
            match rng.below(12) {
                0 => out.push_str(&class_name(rng)),
                1 => out.push_str(&format!("{module}.{}.{}", zipf(rng, PROSE), zipf(rng, PROSE))),
                _ => out.push_str(zipf(rng, PROSE)),
            }
        }
        out.push_str(".\n\n");
    }
    if rng.chance(0.6) {
        out.push_str(&format!("java.lang.IllegalStateException: {class} {}\n", rng.pick(SYMPTOMS)));
        for _ in 0..(5 + rng.below(25)) {
            let frame = class_name(rng);
            out.push_str(&format!(
                "\tat org.example.{module}.{frame}.{}({frame}.java:{})\n",
                zipf(rng, PROSE),
                1 + rng.below(900)
            ));
        }
    }
    out
}

/// One generated bug report: what [`reports`] writes as an import line.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// "module: ClassName symptom".
    pub title: String,
    /// Prose naming classes, often a stack trace (a few hundred to over five thousand
    /// characters).
    pub description: String,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
}

/// Returns `n` bug reports (title, long description, no person), created evenly over
/// the two years before `end_ms`, deterministic for a seed. Benchmarks read these
/// directly; [`reports`] writes them as import lines.
pub fn report_texts(n: usize, seed: u64, end_ms: i64) -> Vec<Report> {
    let span = 2 * 365 * 86_400_000_i64;
    let mut rng = SplitMix(seed);
    (0..n)
        .map(|i| {
            let module = zipf(&mut rng, MODULES);
            let class = class_name(&mut rng);
            let title = format!("{module}: {class} {}", rng.pick(SYMPTOMS));
            let description = report_description(&mut rng, module, &class);
            let created_ms = end_ms - span + (span as f64 * i as f64 / n.max(1) as f64) as i64;
            Report { title, description, created_ms }
        })
        .collect()
}

/// Returns `n` bug reports in the import format: [`report_texts`] as JSON lines.
pub fn reports(n: usize, seed: u64, end_ms: i64) -> Vec<String> {
    report_texts(n, seed, end_ms)
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "id": format!("r{i}"),
                "title": r.title,
                "description": r.description,
                "type": "task",
                "created_at": crate::time::rfc3339(r.created_ms),
            })
            .to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_about_thirty_percent_blocked() {
        let a = lines(2_000, 7, 1_800_000_000_000);
        assert_eq!(a, lines(2_000, 7, 1_800_000_000_000));
        let blocked = a.iter().filter(|l| l.contains("blocked_by")).count();
        assert!((500..700).contains(&blocked), "{blocked} of 2000");
        assert!(a.iter().any(|l| l.contains("Оплатить")) && a.iter().any(|l| l.contains("Pay")));
    }

    #[test]
    fn reports_are_deterministic_and_long_tailed() {
        let a = reports(1_000, 7, 1_800_000_000_000);
        assert_eq!(a, reports(1_000, 7, 1_800_000_000_000));
        let lengths: Vec<usize> = a
            .iter()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("json");
                v["description"].as_str().map_or(0, str::len)
            })
            .collect();
        let long = lengths.iter().filter(|n| **n > 3_000).count();
        let short = lengths.iter().filter(|n| **n < 1_000).count();
        assert!(long >= 50 && short >= 50, "{long} long, {short} short of 1000");
    }
}
