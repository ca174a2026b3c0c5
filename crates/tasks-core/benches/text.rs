//! The text pipeline under the write lock (issue 10), for a description of 10,000
//! characters, 100,000 and the limit (32,768): normalization of the whole text (the
//! FTS index reads all of it) must stay linear — compare the throughput of the sizes;
//! the duplicate check's profile reads at most `DESCRIPTION_CHECKED_CHARS`, so its cost
//! stops growing there; a whole `add` (rolled back) with such a description; and the
//! profiles of 20 bug reports, as a check against a tracker's store builds them.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tasks_core::dedup::profile::{Profile, ProfileInput};
use tasks_core::limits::DESCRIPTION_MAX_CHARS;
use tasks_core::ops::add::{self, AddRequest, DupChoice};
use tasks_core::{Context, Store};

/// A many-word description in both scripts, with amounts and dates sprinkled in.
fn description(chars: usize) -> String {
    let words = [
        "send",
        "the",
        "invoice",
        "for",
        "15 000 ₽",
        "by",
        "friday",
        "отправить",
        "счёт",
        "до",
        "пятницы",
        "Brightlane",
        "deck",
        "Марии",
        "20 мая",
        "call",
        "back",
        "tomorrow",
        "€1,200.50",
        "review",
        "PR",
        "#42",
    ];
    let mut out = String::new();
    let mut i = 0;
    while out.chars().count() < chars {
        out.push_str(words[i % words.len()]);
        out.push(' ');
        i += 1;
    }
    out.chars().take(chars).collect()
}

fn normalization(c: &mut Criterion) {
    let mut group = c.benchmark_group("normalize_description");
    group.sample_size(10);
    for chars in [10_000, DESCRIPTION_MAX_CHARS, 100_000] {
        let text = description(chars);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(chars), &text, |b, text| {
            b.iter(|| tasks_text::normalize(text))
        });
    }
    group.finish();
}

fn adds(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = Store::open(&dir.path().join("bench.db")).expect("store");
    let ctx = Context::new("2026-11-30T09:00:00Z".parse().expect("time"), "bench", jiff::tz::TimeZone::UTC);
    // Five earlier tasks with long descriptions, so the check profiles long candidates.
    for i in 0..5 {
        let mut req = AddRequest::titled(format!("Read the long brief number {i}"));
        req.description = description(DESCRIPTION_MAX_CHARS);
        req.dup_choice = DupChoice::New;
        add::add(&mut store, &ctx, &req).expect("seed");
    }
    let mut group = c.benchmark_group("add_with_description");
    group.sample_size(10);
    for chars in [10_000, DESCRIPTION_MAX_CHARS] {
        let mut req = AddRequest::titled("Read the long brief again");
        req.description = description(chars);
        req.dup_choice = DupChoice::New;
        group.bench_with_input(BenchmarkId::from_parameter(chars), &req, |b, req| {
            b.iter(|| add::rehearse(&mut store, &ctx, req).expect("add"))
        });
    }
    group.finish();
}

fn profiles(c: &mut Criterion) {
    let mut group = c.benchmark_group("profile_of_description");
    group.sample_size(10);
    for chars in [10_000, DESCRIPTION_MAX_CHARS, 100_000] {
        let text = description(chars);
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(chars), &text, |b, text| {
            b.iter(|| {
                Profile::of(&ProfileInput { id: 1, title: "Send the invoice", description: text, ..Default::default() })
            })
        });
    }
    group.finish();
}

/// Profiles of 20 generated bug reports (`tasks workload N --reports`: descriptions of
/// a few hundred to a few thousand characters): what a check against a tracker's store
/// does for its up to 20 bm25 candidates.
fn report_profiles(c: &mut Criterion) {
    let reports = tasks_core::workload::report_texts(20, 7, 1_780_000_000_000);
    c.bench_function("profile_of_20_reports", |b| {
        b.iter(|| {
            for r in &reports {
                Profile::of(&ProfileInput {
                    id: 1,
                    title: &r.title,
                    description: &r.description,
                    ..Default::default()
                });
            }
        })
    });
}

criterion_group!(benches, normalization, profiles, report_profiles, adds);
criterion_main!(benches);
