//! The duplicate check (SPEC §5, seed 000): before a task is created, find the live
//! tasks it may repeat, score each field by field with Fellegi–Sunter weights, and
//! refuse a probable duplicate instead of creating it. Never merges by itself.

pub mod compare;
pub mod embed;
pub mod entities;
pub mod eval;
pub mod levels;
pub mod profile;
pub mod source;
pub mod weights;

use rusqlite::Connection;

use crate::dedup::compare::{Compared, DocFreq};
use crate::dedup::levels::{
    AgeLevel, Agreement, AmountLevel, Comparison, ContextLevel, EntityLevel, Level, Levels, SourceLevel, TextLevel,
};
use crate::dedup::profile::{Profile, ProfileInput};
use crate::dedup::source::{CandidateQuery, CandidateRow, CheckSource};
use crate::dedup::weights::{TermFrequencies, Weights};
use crate::error::Result;
use crate::model::{Due, DueKind, Money};
use crate::store::Tx;
use crate::store::dedup as store_dedup;
use crate::time;

/// The band a candidate's score falls into (thresholds in `weights`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// Below the possible threshold: a different task.
    Different,
    /// Worth a look.
    Possible,
    /// Probably the same job.
    Likely,
}

impl Band {
    /// Returns the spelling used in JSON and the store.
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Different => "different",
            Band::Possible => "possible",
            Band::Likely => "likely",
        }
    }
}

/// What a person decided about a pair the check showed — every decision is a labelled
/// pair (SPEC §5.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The duplicate was merged into the other task.
    Merge,
    /// The two are not the same; never offered again.
    Reject,
    /// The new request was attached to the existing task instead of created.
    Attach,
    /// Created anyway (`--new`, or by a rule and queued).
    New,
    /// A merge was undone.
    Unmerge,
}

impl Decision {
    /// Every decision.
    pub const ALL: &'static [Decision] =
        &[Decision::Merge, Decision::Reject, Decision::Attach, Decision::New, Decision::Unmerge];

    /// Returns the spelling kept in `dup_decisions.decision`.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Merge => "merge",
            Decision::Reject => "reject",
            Decision::Attach => "attach",
            Decision::New => "new",
            Decision::Unmerge => "unmerge",
        }
    }

    /// Reads a stored spelling.
    pub fn parse(text: &str) -> Option<Decision> {
        Decision::ALL.iter().copied().find(|d| d.as_str() == text)
    }

    /// True when the decision labels the pair a duplicate (counted toward m).
    pub fn is_duplicate(self) -> bool {
        match self {
            Decision::Merge | Decision::Attach => true,
            Decision::Reject | Decision::New | Decision::Unmerge => false,
        }
    }
}

/// Returns the levels a decision about `candidate` keeps (`{}` without one), as both
/// engines store them in `dup_decisions.levels` — what `duplicates retrain` counts.
pub fn decision_levels(candidate: Option<&Candidate>) -> Result<String> {
    Ok(match candidate {
        Some(c) => serde_json::to_string(&c.levels.to_map())?,
        None => "{}".to_string(),
    })
}

/// A live task the new one may repeat, with its score and the reasons.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Row id.
    pub task_id: i64,
    /// Key.
    pub key: String,
    /// UUID.
    pub uuid: String,
    /// Title.
    pub title: String,
    /// The caller id it was imported with, if any.
    pub external_id: Option<String>,
    /// Sum of the level weights.
    pub score: f64,
    /// Band of the score.
    pub band: Band,
    /// Match probability given the prior (printed beside the score).
    pub probability: f64,
    /// Human reasons, strongest first ("same person", "3 of 4 stems shared").
    pub reasons: Vec<String>,
    /// The level chosen per comparison, for decisions and retraining.
    pub levels: Levels,
    /// Its status when the check ran (closed only if closed by then).
    pub status: crate::model::Status,
    /// When it was closed, if it was by then (epoch ms).
    pub closed_at: Option<i64>,
    /// When it was created (epoch ms).
    pub created_at: i64,
    /// The titles differ only in names or months (the same words for someone or some
    /// time else): at most `possible`, and shown without refusing (see
    /// [`Candidate::refuses`]).
    pub only_slots_differ: bool,
}

impl Candidate {
    /// Returns whether it was closed when the check ran.
    pub fn is_closed(&self) -> bool {
        self.closed_at.is_some()
    }

    /// Returns whether this candidate refuses a new task (issue 12):
    /// - a closed look-alike only when likely on more than its words — a repeated errand
    ///   ("Buy milk" again after last week's) is a new task, the same invoice to the same
    ///   person that was just paid is not;
    /// - an open one, for an agent (or a rule, an import), from the possible band up:
    ///   agents re-create work they cannot remember;
    /// - an open one, for a person typing their own list, when likely, or possible with
    ///   the very same title or on more than words: "review PR #43" after "Review PR
    ///   #42", or "write API docs" beside «написать тесты для API», are the next lines of
    ///   one list, and are shown as look-alikes instead of refused;
    /// - never when only the names or months differ ("Complete Q1 review: Chloe Lin"
    ///   beside "…: Samir Haddad", "June fee" beside "May fee"): the same words for
    ///   someone or some time else are other work, for a person and an agent alike.
    pub fn refuses(&self, by_person: bool) -> bool {
        if self.only_slots_differ {
            false
        } else if self.is_closed() {
            self.band == Band::Likely && self.levels.beyond_words()
        } else if by_person {
            let same_title = self.levels.text == levels::TextLevel::Exact;
            self.band == Band::Likely || (self.band == Band::Possible && (same_title || self.levels.beyond_words()))
        } else {
            self.band >= Band::Possible
        }
    }
}

/// What the check compares: the new task as it would be created.
#[derive(Debug, Clone, Default)]
pub struct Probe<'a> {
    /// Title.
    pub title: &'a str,
    /// Description.
    pub description: &'a str,
    /// Person row id.
    pub person_id: Option<i64>,
    /// Money.
    pub amount: Option<&'a Money>,
    /// Due date.
    pub due: Option<Due>,
    /// Category.
    pub category: Option<&'a str>,
    /// Chat of the source message.
    pub chat: Option<&'a str>,
    /// Task whose message this one replies to.
    pub reply_to_id: Option<i64>,
    /// The moment the check runs as of (epoch ms): "now", or an import line's created_at.
    pub at_ms: i64,
}

/// How far back a closed task still counts as live: 14 days (SPEC §5.3).
pub const RECENT_CLOSED_MS: i64 = 14 * 86_400_000;
/// Candidates taken from the bm25 search over stems (SPEC §5.3: limit 20).
pub const BM25_LIMIT: usize = 20;
/// Candidates taken from each side query (same person, category, thread).
pub const SIDE_LIMIT: usize = 8;
/// Most candidates scored per check ("about 40", SPEC §5.3).
pub const MAX_CANDIDATES: usize = 40;

/// Document frequencies read from the store, each stem at most once per check: the
/// query terms and every candidate's shared stems ask for the same few stems again.
struct StoreDocFreq<'a> {
    source: &'a dyn CheckSource,
    total: i64,
    seen: std::cell::RefCell<std::collections::HashMap<String, i64>>,
}

impl StoreDocFreq<'_> {
    /// Reads the frequencies of the terms not seen yet in one call to the source.
    fn prefetch(&self, terms: &[String]) -> Result<()> {
        let missing: Vec<&str> = {
            let seen = self.seen.borrow();
            terms.iter().map(String::as_str).filter(|t| !seen.contains_key(*t)).collect()
        };
        if missing.is_empty() {
            return Ok(());
        }
        // A term the index splits is counted by its tokens: ask for those instead.
        let asked: std::collections::BTreeSet<String> =
            missing.iter().flat_map(|t| split_term(t).unwrap_or_else(|| vec![(*t).to_string()])).collect();
        let asked: Vec<&str> =
            asked.iter().map(String::as_str).filter(|t| !self.seen.borrow().contains_key(*t)).collect();
        if !asked.is_empty() {
            let counts = self.source.doc_freqs(&asked)?;
            let mut seen = self.seen.borrow_mut();
            for (t, n) in asked.into_iter().zip(counts) {
                seen.insert(t.to_string(), n);
            }
        }
        for t in missing {
            self.lookup(t)?;
        }
        Ok(())
    }

    fn lookup(&self, stem: &str) -> Result<i64> {
        if let Some(n) = self.seen.borrow().get(stem) {
            return Ok(*n);
        }
        let n = match split_term(stem) {
            Some(tokens) => {
                tokens.iter().map(|t| self.lookup(t)).collect::<Result<Vec<i64>>>()?.into_iter().min().unwrap_or(0)
            }
            None => self.source.doc_freq(stem)?,
        };
        self.seen.borrow_mut().insert(stem.to_string(), n);
        Ok(n)
    }
}

/// The index tokens of a term that FTS5 splits into several — a version "2.0", a time
/// "16:00", a range "8-10", a date "2026-12-01", kept whole by the normalizer so they
/// compare whole — or `None` for a term that is one token as indexed.
///
/// Such a term has no document frequency of its own (`term_docs` counts tokens as FTS5
/// splits them), and read as 0 it was the rarest term there is: "2.0" outranked every
/// real word in the bm25 search (its phrase matches every "x.2.0" version) and counted
/// as a shared rare word (GitBugs Hadoop, issue 16). It is counted as its rarest token
/// instead: a phrase is in no more tasks than any of its tokens, so this is an upper
/// bound, exact when a token occurs only inside the phrase (a CVE number's "1471").
pub fn split_term(term: &str) -> Option<Vec<String>> {
    let tokens = index_tokens(term);
    (tokens.len() != 1 || tokens[0] != term).then_some(tokens)
}

impl DocFreq for StoreDocFreq<'_> {
    fn doc_freq(&self, stem: &str) -> Result<i64> {
        self.lookup(stem)
    }
    fn total(&self) -> i64 {
        self.total
    }
}

/// The SQLite store as the check's [`CheckSource`].
pub(crate) struct SqliteSource<'a> {
    conn: &'a Connection,
    embed_model: Option<String>,
    /// The read transaction of a source made outside a write (see
    /// [`SqliteSource::snapshot`]), ended when the source is dropped.
    _read: Option<rusqlite::Transaction<'a>>,
}

impl<'a> SqliteSource<'a> {
    /// Wraps a connection (with the embedder attached to it, if any).
    pub(crate) fn new(conn: &'a Connection) -> Result<SqliteSource<'a>> {
        Ok(SqliteSource { conn, embed_model: embed::attached_model(conn)?, _read: None })
    }

    /// Like [`SqliteSource::new`]; outside a write, the check's statements (up to 400
    /// liveness lookups, the candidate rows, the ranking's posting lists) also share one
    /// read transaction while the source lives: one WAL read lock instead of one per
    /// statement, and one snapshot for all of them.
    pub(crate) fn snapshot(conn: &'a Connection) -> Result<SqliteSource<'a>> {
        let read = if conn.is_autocommit() { Some(conn.unchecked_transaction()?) } else { None };
        Ok(SqliteSource { conn, embed_model: embed::attached_model(conn)?, _read: read })
    }
}

impl CheckSource for SqliteSource<'_> {
    fn totals(&self) -> Result<(i64, i64, i64)> {
        store_dedup::totals(self.conn)
    }
    fn doc_freq(&self, term: &str) -> Result<i64> {
        store_dedup::doc_freq(self.conn, term)
    }
    fn doc_freqs(&self, terms: &[&str]) -> Result<Vec<i64>> {
        store_dedup::doc_freqs(self.conn, terms)
    }
    fn ranked_matches(&self, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>> {
        store_dedup::ranked_matches(self.conn, terms, pool)
    }
    fn candidate_ids(&self, q: &CandidateQuery<'_>) -> Result<Vec<i64>> {
        store_dedup::candidate_ids(self.conn, q)
    }
    fn candidate_row(&self, id: i64) -> Result<CandidateRow> {
        store_dedup::candidate_row(self.conn, id)
    }
    fn reply_parent(&self, id: i64) -> Result<Option<i64>> {
        store_dedup::reply_parent(self.conn, id)
    }
    fn squares(&self) -> Result<(f64, f64)> {
        Ok(match store_dedup::cached_squares(self.conn)? {
            Some(v) => v,
            None => (store_dedup::person_tf_squares(self.conn)?, store_dedup::amount_tf_squares(self.conn)?),
        })
    }
    fn person_count(&self, person_id: i64) -> Result<i64> {
        store_dedup::person_count(self.conn, person_id)
    }
    fn amount_count(&self, minor: i64, currency: Option<&str>) -> Result<i64> {
        store_dedup::amount_count(self.conn, minor, currency)
    }
    fn learned_weights(&self) -> Result<Vec<(Level, f64, f64)>> {
        store_dedup::learned_weights(self.conn)
    }
    fn embed_pair(&self, new: &mut Profile, new_title: &str, cand: &mut Profile, row: &CandidateRow) -> Result<bool> {
        let Some(model) = &self.embed_model else { return Ok(false) };
        if new.embedding.is_none() {
            new.embedding = Some(embed::embed_text(self.conn, new_title)?);
        }
        cand.embedding = Some(embed::task_vector(self.conn, row.id, &row.title, model)?);
        Ok(true)
    }
}

/// A query term found in more than this share of the store's tasks is left out of the
/// bm25 search (it still counts in the comparison): such a term adds almost nothing to
/// bm25's ranking but makes FTS5 score every task that has it — at 100k tasks, common
/// stems and concepts matched tens of thousands of rows and cost ~50 ms per check.
pub const MAX_QUERY_TERM_SHARE: f64 = 0.02;
/// The rarest terms always kept, however common, so a title of common words still
/// searches.
pub const MIN_QUERY_TERMS: usize = 3;

/// Returns the query terms worth searching — the rare ones, and at least the
/// [`MIN_QUERY_TERMS`] rarest — each with its bm25 inverse document frequency,
/// ln(1 + (N − n + 0.5) / (n + 0.5)).
fn selective_terms(df: &StoreDocFreq<'_>, terms: Vec<String>) -> Result<Vec<(String, f64)>> {
    df.prefetch(&terms)?;
    let limit = (df.total as f64 * MAX_QUERY_TERM_SHARE).max(50.0) as i64;
    let mut with_df: Vec<(i64, String)> = terms.into_iter().map(|t| Ok((df.lookup(&t)?, t))).collect::<Result<_>>()?;
    with_df.sort();
    let total = df.total.max(1) as f64;
    Ok(with_df
        .into_iter()
        .enumerate()
        .filter(|(i, (n, _))| *i < MIN_QUERY_TERMS || *n <= limit)
        .map(|(_, (n, t))| {
            let n = (n as f64).min(total);
            (t, (1.0 + (total - n + 0.5) / (n + 0.5)).ln())
        })
        .collect())
}

/// Like the SQLite search's terms, on any engine: a free text's stems and concepts with
/// their idf, the rare ones and at least the [`MIN_QUERY_TERMS`] rarest.
pub fn search_terms_on(source: &dyn CheckSource, text: &str) -> Result<Vec<(String, f64)>> {
    let profile = Profile::of(&ProfileInput { title: text, ..ProfileInput::default() });
    let (total, _, _) = source.totals()?;
    let df = StoreDocFreq { source, total, seen: Default::default() };
    selective_terms(&df, profile.query_terms())
}

/// Returns the index terms of a free text (stems and concepts, as a task's title gives
/// them), for the notes index.
pub fn text_terms(text: &str) -> String {
    Profile::of(&ProfileInput { title: text, ..ProfileInput::default() }).index_terms()
}

/// Returns the FTS5 query matching one term as a word: quoted, so `"`, `*`, `NEAR`,
/// `OR` in a title are words, never syntax; `None` for a blank term.
pub fn match_term(term: &str) -> Option<String> {
    (!term.trim().is_empty()).then(|| format!("\"{}\"", term.replace('"', "\"\"")))
}

fn probe_profile(probe: &Probe<'_>) -> Profile {
    Profile::of(&ProfileInput {
        id: 0,
        title: probe.title,
        description: probe.description,
        person_id: probe.person_id,
        amount: probe.amount.cloned(),
        due: probe.due,
        category: probe.category,
        chat: probe.chat,
        reply_to_id: probe.reply_to_id,
        created_at: probe.at_ms,
        closed_at: None,
        today: time::from_ms(probe.at_ms).to_zoned_datetime(jiff::tz::TimeZone::UTC).date().into(),
    })
}

/// Builds the probe of a stored task, as the check would have seen it at creation.
pub fn probe_of_row(row: &CandidateRow) -> Probe<'_> {
    Probe {
        title: &row.title,
        description: &row.description,
        person_id: row.person_id,
        amount: row.amount.as_ref(),
        due: row.due_at.and_then(|ms| {
            let kind = row.due_kind.parse::<DueKind>().ok()?;
            Some(Due { date: time::floating_date_from_ms(ms)?, kind, at: None })
        }),
        category: row.category.as_deref(),
        chat: row.chat.as_deref(),
        reply_to_id: row.reply_to_id,
        at_ms: row.created_at,
    }
}

/// Candidate text, in bytes, above which their profiles are built on several threads.
///
/// A bug tracker's check profiles up to 40 candidates with descriptions of thousands of
/// characters (about a third of a long-report check, issue 16); a household's titles
/// and short messages (a few KB in all, well under a millisecond of work) stay on the
/// caller's thread, so an everyday check is unchanged.
pub const PARALLEL_PROFILE_BYTES: usize = 32 * 1024;

/// Returns the profiles of candidate rows, in their order: on the caller's thread for
/// little text, else on rayon's pool. Its threads live as long as the process, so their
/// per-thread word memos stay warm from one check to the next in an import or a server
/// (scoped threads started per check began each one cold). The core stays
/// synchronous: the call returns when every profile is built.
///
/// `stem_descriptions` false leaves the candidates' description stems out
/// ([`Profile::of_candidate_without_description_stems`]) when the new task has none.
fn row_profiles(rows: &[CandidateRow], stem_descriptions: bool) -> Vec<Profile> {
    let profile = |row: &CandidateRow| {
        if stem_descriptions {
            row_profile(row)
        } else {
            Profile::of_candidate_without_description_stems(&row_profile_input(row))
        }
    };
    let bytes: usize = rows.iter().map(|r| r.title.len() + r.description.len()).sum();
    if bytes < PARALLEL_PROFILE_BYTES {
        return rows.iter().map(profile).collect();
    }
    use rayon::prelude::*;
    rows.par_iter().map(profile).collect()
}

fn row_profile(row: &CandidateRow) -> Profile {
    Profile::of(&row_profile_input(row))
}

fn row_profile_input(row: &CandidateRow) -> ProfileInput<'_> {
    let due = row.due_at.and_then(|ms| {
        let kind = row.due_kind.parse::<DueKind>().ok()?;
        Some(Due { date: time::floating_date_from_ms(ms)?, kind, at: None })
    });
    ProfileInput {
        id: row.id,
        title: &row.title,
        description: &row.description,
        person_id: row.person_id,
        amount: row.amount.clone(),
        due,
        category: row.category.as_deref(),
        chat: row.chat.as_deref(),
        reply_to_id: row.reply_to_id,
        created_at: row.created_at,
        closed_at: row.closed_at,
        today: time::from_ms(row.created_at).to_zoned_datetime(jiff::tz::TimeZone::UTC).date().into(),
    }
}

/// Longest reply chain walked to find a thread's root. Chats nest replies a few levels
/// deep; a longer chain (or a cycle in imported data) stops here and its 16th ancestor
/// stands for the root, so a check's cost stays bounded whatever the data.
pub const THREAD_DEPTH_LIMIT: usize = 16;

/// Returns the root of a task's reply chain, walking at most [`THREAD_DEPTH_LIMIT`]
/// parents. A failed lookup is an error, not the end of the chain.
fn thread_root(source: &dyn CheckSource, id: i64) -> Result<i64> {
    let mut current = id;
    for _ in 0..THREAD_DEPTH_LIMIT {
        match source.reply_parent(current)? {
            Some(parent) => current = parent,
            None => break,
        }
    }
    Ok(current)
}

/// Scores a comparison: the sum of level weights, with term frequencies.
pub fn score(weights: &Weights, levels: &Levels, tf: &TermFrequencies) -> f64 {
    levels.all().iter().map(|l| weights.weight(*l, tf)).sum()
}

/// Returns the reason a level gives, or `None` for a level that says nothing worth
/// printing (no information, or the middle of a scale).
fn reason(level: Level, c: &Compared) -> Option<String> {
    let text = |what: &str| Some(what.to_string());
    match level {
        Level::Source(s) => match s {
            SourceLevel::SamePerson => text("same person"),
            // Counted, this level weighs against: repeats in one chat come as replies.
            SourceLevel::SamePersonSameChat => text("same person in the same chat, not a reply"),
            SourceLevel::SamePersonOtherChat => text("same person, another chat"),
            SourceLevel::Reply => text("replies to it"),
            SourceLevel::SameThread => text("same reply thread"),
            SourceLevel::SameChat => text("same chat, not a reply"),
            SourceLevel::SameChatOtherPerson => text("another person in the same chat"),
            SourceLevel::Different => text("different person"),
            SourceLevel::Unknown | SourceLevel::OtherChat => None,
        },
        Level::Amount(a) => match a {
            AmountLevel::Same => text("same amount"),
            AmountLevel::Close => text("same amount, rounded"),
            AmountLevel::Different => text("different amount"),
            AmountLevel::Unknown => None,
        },
        Level::Text(t) => match t {
            TextLevel::Exact => text("same title"),
            TextLevel::Most | TextLevel::Half | TextLevel::Common => {
                Some(format!("{} of {} stems shared", c.text.shared, c.text.of))
            }
            TextLevel::UnitsMost | TextLevel::UnitsHalf | TextLevel::UnitsTwo => Some(format!(
                "{} of {} words match{}",
                c.text.units_shared,
                c.text.of,
                if c.text.cross_language { " across languages" } else { " in meaning" }
            )),
            TextLevel::EmbedClose => Some(format!(
                "close in meaning{} (embedding {:.2})",
                if c.text.cross_language { " across languages" } else { "" },
                c.text.cosine.unwrap_or_default()
            )),
            TextLevel::Trigram => Some(format!("similar spelling ({:.0}% of trigrams)", c.text.trigram * 100.0)),
            TextLevel::Rare => Some(format!("shares the rare word \"{}\"", c.text.rare.clone().unwrap_or_default())),
            TextLevel::Concept | TextLevel::ConceptCross => Some(format!(
                "same meaning{}: {}",
                if c.text.cross_language { " across languages" } else { "" },
                c.text.concepts.join(", ")
            )),
            TextLevel::None => None,
        },
        Level::Context(x) => match x {
            ContextLevel::High | ContextLevel::Mid => text("descriptions agree"),
            ContextLevel::Low => text("descriptions differ"),
            ContextLevel::Empty => None,
        },
        Level::Due(a) => match a {
            Agreement::Same => text("same due date"),
            Agreement::Different => text("different due date"),
            Agreement::Unknown => None,
        },
        Level::Category(a) => match a {
            Agreement::Same => text("same category"),
            Agreement::Different => text("different category"),
            Agreement::Unknown => None,
        },
        Level::Age(a) => match a {
            AgeLevel::Day => text("created within a day"),
            AgeLevel::Older => text("a week or more apart"),
            AgeLevel::Closed => text("the earlier one was done before this one came"),
            AgeLevel::Days3 | AgeLevel::Week => None,
        },
        Level::Entity(e) => match e {
            // The band rule of `weights::band_of` keeps such a pair out of `likely`.
            _ if c.only_slots_differ => {
                text("only the names or months differ: the same words for someone or some time else")
            }
            EntityLevel::Relative | EntityLevel::Month | EntityLevel::Name => Some(format!(
                "names a different {}",
                c.conflicts.iter().map(|l| l.as_str()).collect::<Vec<_>>().join(" and ")
            )),
            EntityLevel::NoConflict => None,
        },
    }
}

/// Returns human reasons for a comparison, in the fixed comparison order (person,
/// amount, text, …), agreeing evidence first, then what speaks against.
pub fn reasons(weights: &Weights, c: &Compared, tf: &TermFrequencies) -> Vec<String> {
    let mut pro = Vec::new();
    let mut con = Vec::new();
    debug_assert_eq!(c.levels.all().map(Level::comparison).to_vec(), Comparison::ALL.to_vec());
    for level in c.levels.all() {
        let w = weights.weight(level, tf);
        let Some(text) = reason(level, c) else { continue };
        if w >= 0.5 {
            pro.push(text);
        } else if w <= -0.5 {
            con.push(text);
        }
    }
    pro.extend(con);
    pro
}

/// Loads the weights a store uses: those kept by `duplicates retrain --apply`, else the
/// built-in counted table.
pub fn weights_of(source: &dyn CheckSource) -> Result<Weights> {
    Ok(with_learned(source.learned_weights()?))
}

/// Returns the built-in table with the learned rows in place of its own. Rows that read
/// as one level — a table kept before two levels became one (`other_person` is
/// `different` now) — add their m and u: the old levels never held the same pair, so
/// the sums are the merged level's shares.
fn with_learned(learned: Vec<(Level, f64, f64)>) -> Weights {
    let mut merged: std::collections::BTreeMap<Level, weights::LevelStat> = Default::default();
    for (level, m, u) in learned {
        let stat = merged.entry(level).or_insert(weights::LevelStat { m: 0.0, u: 0.0 });
        stat.m += m;
        stat.u += u;
    }
    let mut w = Weights::builtin();
    w.stats.extend(merged);
    w
}

/// Returns the scored candidates for a probe on any engine, with the store's weights,
/// excluding the task `self_id` (0 for none): [`check_on`] over the engine's
/// [`crate::port::Reads::check_source`].
pub(crate) fn check_in(reads: &dyn crate::port::Reads, probe: &Probe<'_>, self_id: i64) -> Result<Vec<Candidate>> {
    let source = reads.check_source()?;
    check_on(&*source, probe, &weights_of(&*source)?, self_id)
}

/// Like [`check`], with given weights, excluding the task `self_id` (0 for none).
pub(crate) fn check_with(
    conn: &Connection,
    probe: &Probe<'_>,
    weights: &Weights,
    self_id: i64,
) -> Result<Vec<Candidate>> {
    // Outside a write, the check's statements (up to 400 liveness lookups, the
    // candidate rows, the ranking's posting lists) share one read transaction: one
    // WAL read lock instead of one per statement, and one snapshot for all of them
    // (the weights, the person and the blockers are read just before).
    let _read = if conn.is_autocommit() { Some(conn.unchecked_transaction()?) } else { None };
    check_on(&SqliteSource::new(conn)?, probe, weights, self_id)
}

/// Checks a stored task as the check saw it when it was created: against the tasks live
/// then, itself excluded (a replay, and the test that both engines agree).
pub fn check_existing_on(source: &dyn CheckSource, id: i64, weights: &Weights) -> Result<Vec<Candidate>> {
    let row = source.candidate_row(id)?;
    check_on(source, &probe_of_row(&row), weights, id)
}

/// Checks a stored task as of its creation (see [`check_existing_on`]) on any engine,
/// with the store's weights: what the engines are compared on.
pub fn check_existing(store: &dyn crate::port::Engine, id: i64) -> Result<Vec<Candidate>> {
    let source = store.reader().check_source()?;
    check_existing_on(&*source, id, &weights_of(&*source)?)
}

/// Returns the scored candidates for a probe on any engine, best first (every band).
///
/// Candidates are the union of bm25 over stems and concepts, same person, same
/// category and same reply thread, live as of `probe.at_ms`; a shared chat alone never
/// makes a candidate (seed 000). `self_id` (0 for none) is never a candidate.
pub fn check_on(
    source: &dyn CheckSource,
    probe: &Probe<'_>,
    weights: &Weights,
    self_id: i64,
) -> Result<Vec<Candidate>> {
    let mut new = probe_profile(probe);
    let (total, with_person, with_amount) = source.totals()?;
    let df = StoreDocFreq { source, total, seen: Default::default() };
    let terms = selective_terms(&df, new.query_terms())?;
    let thread_ids: Vec<i64> = match probe.reply_to_id {
        Some(r) => vec![r, thread_root(source, r)?],
        None => Vec::new(),
    };
    let category = new.category.clone();
    let ids = source.candidate_ids(&CandidateQuery {
        terms: &terms,
        bm25_limit: BM25_LIMIT,
        person_id: probe.person_id,
        category: category.as_deref(),
        thread_ids: &thread_ids,
        side_limit: SIDE_LIMIT,
        at: probe.at_ms,
        since: probe.at_ms - RECENT_CLOSED_MS,
        self_id,
    })?;
    let root = |id: i64| thread_root(source, id);
    // Σ tf² per field, computed once per check and only when a candidate agrees.
    let mut cached: Option<(f64, f64)> = None;
    let mut squares = || -> Result<(f64, f64)> {
        if let Some(v) = cached {
            return Ok(v);
        }
        Ok(*cached.insert(source.squares()?))
    };
    let mut person_avg: Option<f64> = None;
    let mut amount_avg: Option<f64> = None;
    let mut out = Vec::new();
    let ids: Vec<i64> = ids.into_iter().take(MAX_CANDIDATES).collect();
    let rows = source.candidate_rows(&ids)?;
    let profiles = row_profiles(&rows, !new.description_stems.is_empty());
    if total >= compare::RARE_MIN_STORE {
        df.prefetch(&weighed_stems(&new, &profiles))?;
    }
    for (row, mut cand) in rows.iter().zip(profiles) {
        let mut c = compare::compare(&new, &cand, &df, &root)?;
        // The embedder, if the store has one, is consulted only when the lexical text
        // levels are weak; the probe's vector is computed once, on first need.
        if compare::EMBED_CONSULTED.contains(&c.levels.text)
            && source.embed_pair(&mut new, probe.title, &mut cand, row)?
        {
            c = compare::compare(&new, &cand, &df, &root)?;
        }
        let mut tf = TermFrequencies::default();
        if let (true, Some(pid)) = (c.levels.source.is_same_person(), cand.person_id)
            && with_person >= weights::TF_MIN_TASKS
        {
            let avg = match person_avg {
                Some(a) => a,
                None => *person_avg.insert(squares()?.0 / (with_person as f64).powi(2)),
            };
            tf.person = Some((source.person_count(pid)? as f64 / with_person as f64, avg));
        }
        if let (AmountLevel::Same, Some(m)) = (c.levels.amount, &cand.amount)
            && with_amount >= weights::TF_MIN_TASKS
        {
            let avg = match amount_avg {
                Some(a) => a,
                None => *amount_avg.insert(squares()?.1 / (with_amount as f64).powi(2)),
            };
            // Two amounts are `same` in different currencies only when one is unstated:
            // then the number is what agrees, in whatever currency it was written.
            let currency = new.amount.as_ref().filter(|n| n.currency == m.currency).map(|_| m.currency.as_str());
            tf.amount = Some((source.amount_count(m.minor, currency)? as f64 / with_amount as f64, avg));
        }
        let s = score(weights, &c.levels, &tf);
        out.push(Candidate {
            task_id: row.id,
            key: row.key.clone(),
            uuid: row.uuid.clone(),
            title: row.title.clone(),
            external_id: row.external_id.clone(),
            score: s,
            band: weights::band_of(s, &c.levels, row.closed_at.is_none_or(|at| at > probe.at_ms), c.only_slots_differ),
            probability: weights.probability(s),
            reasons: reasons(weights, &c, &tf),
            levels: c.levels,
            // As of the probe: a task closed later (an import replay) was open then.
            status: if row.closed_at.is_some_and(|at| at <= probe.at_ms) {
                row.status
            } else {
                crate::model::Status::Open
            },
            closed_at: row.closed_at.filter(|at| *at <= probe.at_ms),
            created_at: row.created_at,
            only_slots_differ: c.only_slots_differ,
        });
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.task_id.cmp(&b.task_id)));
    Ok(out)
}

/// Returns the description stems whose document frequencies the context cosine of
/// `new` with `candidates` weighs, where both sides have a description, so they are
/// read in one call: on PostgreSQL one round trip instead of one per stem (a long
/// description has hundreds). The titles' shared stems (the rare word) are all stems
/// of the new title, already read with the query terms.
fn weighed_stems(new: &Profile, candidates: &[Profile]) -> Vec<String> {
    if new.description_stems.is_empty() {
        return Vec::new();
    }
    let mut stems: std::collections::BTreeSet<&String> = std::collections::BTreeSet::new();
    for c in candidates {
        stems.extend(&c.description_stems);
    }
    if !stems.is_empty() {
        stems.extend(&new.description_stems);
    }
    stems.into_iter().cloned().collect()
}

/// Writes a task's rows in the FTS5 indexes, its signature and, when an embedder is
/// attached, its title embedding (same transaction as the task write).
pub(crate) fn index(tx: &Tx<'_>, task_id: i64) -> Result<()> {
    write_index_rows(tx, task_id)?;
    store_dedup::refresh_stats(tx)
}

/// Replaces a task's FTS5 rows, signature and embedding (no statistics refresh).
fn write_index_rows(tx: &Tx<'_>, task_id: i64) -> Result<()> {
    let row = store_dedup::candidate_row(tx, task_id)?;
    let p = row_profile(&row);
    let words = format!("{} {}", tasks_text::normalize(&row.title), tasks_text::normalize(&row.description));
    store_dedup::index_task(tx, task_id, &words, &p.index_terms())?;
    store_dedup::upsert_signature(tx, task_id, p.amount.as_ref(), p.due.map(|d| time::floating_date_to_ms(d.date)))?;
    embed::index(tx, task_id, &row.title)
}

/// Rewrites the index rows and signatures of these stored tasks as this version reads
/// text (`tasks duplicates reindex`, and a writing open of a store an older version
/// indexed), then recounts the cached statistics: a store written by an older version
/// keeps what that version read — «65к» as rubles, "86 лари" as no amount — until its
/// tasks are written again. Calls `progress(done, total)` after each task. Unlike
/// [`reindex`], which inserts the rows a restore left absent in one batch, this
/// replaces rows that exist, task by task.
///
/// Marks the store's index as this version's ([`INDEX_VERSION`]).
pub(crate) fn reindex_stored(tx: &Tx<'_>, ids: &[i64], progress: &mut dyn FnMut(usize, usize)) -> Result<()> {
    for (done, id) in ids.iter().enumerate() {
        write_index_rows(tx, *id)?;
        progress(done + 1, ids.len());
    }
    store_dedup::forget_stats(tx)?;
    store_dedup::refresh_stats(tx)?;
    store_dedup::set_index_version(tx, INDEX_VERSION)
}

/// The version of what the check's index holds for a task: the terms in `task_stems`
/// and `term_docs`, the signature's amount and due day. A store whose index is older is
/// rewritten once, when a version of `tasks` that writes opens it ([`crate::Store::open`];
/// a PostgreSQL team store when it connects, its version on the index table's comment),
/// so an upgrade does not leave old tasks read the old way in retrieval and frequencies
/// while new ones are read the new way. (Embeddings, SQLite only, are rewritten only when
/// an embedder is attached at that moment, which the CLI does after opening.)
///
/// Bump it with any change to what those rows hold for the same text — the stemmer,
/// the lexicon's concepts, the amount or date reader, the tokenizer — and say why
/// here. Changes to comparisons that read text at check time (the name keys, the
/// levels, the weights) need no bump.
///
/// - 0: every store written before the index had a version.
/// - 1: Spanish `mil` alone and a country's adjective («белорусских рублей») read as
///   amounts; a numeric date with a far year ("4.1.86", a version) no longer a due date
///   (issue 16).
/// - 2: a camel-case word of a title is indexed with its parts' stems too
///   ("BouncyCastle" → bounci, castl; issue 16).
pub const INDEX_VERSION: i32 = 2;

/// What the check's index holds for a stored task, for an engine that keeps it in its
/// own tables (PostgreSQL's posting table): the index terms as SQLite's `task_stems`
/// receives them (stems and concept terms, space-separated, in index order) and the
/// signature (amount, due day).
#[derive(Debug, Clone, PartialEq)]
pub struct IndexEntry {
    /// The indexed text: terms separated by single spaces.
    pub terms: String,
    /// The signature's amount (the field, else one read from the text).
    pub amount: Option<Money>,
    /// The signature's due day, epoch ms.
    pub due_ms: Option<i64>,
}

/// Returns the index entry of a stored task (the same profile [`index`] writes from).
pub fn index_entry(row: &CandidateRow) -> IndexEntry {
    let p = row_profile(row);
    IndexEntry { terms: p.index_terms(), due_ms: p.due.map(|d| time::floating_date_to_ms(d.date)), amount: p.amount }
}

/// What the duplicate check's indexes hold for a new task, computed without the store —
/// so a bulk import computes it on another thread while the writer inserts.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRows {
    /// The normalized words (`task_words`).
    pub words: String,
    /// Stems and concept terms (`task_stems`).
    pub terms: String,
    /// The signature's amount (the field, else one read from the text).
    pub amount: Option<Money>,
    /// The signature's due day, epoch ms (the field, else one read from the text).
    pub due_ms: Option<i64>,
}

/// The fields of a task the index rows are computed from.
pub(crate) struct IndexInput<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub amount: Option<&'a Money>,
    pub due: Option<Due>,
    pub category: Option<&'a str>,
    pub chat: Option<&'a str>,
    pub created_at: i64,
}

/// Computes a new task's [`IndexRows`]: exactly what [`index`] writes for it (the
/// person and the reply thread do not enter the index rows).
pub(crate) fn index_rows(t: &IndexInput<'_>) -> IndexRows {
    // As `row_profile`: a due is read back as its day (a time due's moment is not kept).
    let due = t.due.map(|d| Due {
        date: d.date,
        kind: if d.kind == DueKind::Time { DueKind::Day } else { d.kind },
        at: None,
    });
    let p = Profile::for_index(&ProfileInput {
        id: 0,
        title: t.title,
        description: t.description,
        person_id: None,
        amount: t.amount.cloned(),
        due,
        category: t.category,
        chat: t.chat,
        reply_to_id: None,
        created_at: t.created_at,
        closed_at: None,
        today: time::from_ms(t.created_at).to_zoned_datetime(jiff::tz::TimeZone::UTC).date().into(),
    });
    IndexRows {
        words: p.words,
        terms: p.terms,
        due_ms: p.due.map(|d| time::floating_date_to_ms(d.date)),
        amount: p.amount,
    }
}

/// Writes the index rows of many new tasks at once, then refreshes the statistics once
/// (an import: FTS5 keeps the rows in memory and writes large segments, instead of a
/// segment per task).
pub(crate) fn index_many(tx: &Tx<'_>, rows: &[(i64, IndexRows, String)]) -> Result<()> {
    let mut counts = store_dedup::TermCounts::default();
    for (id, r, title) in rows {
        store_dedup::insert_index_rows(tx, *id, &r.words, &r.terms, &mut counts)?;
        store_dedup::upsert_signature(tx, *id, r.amount.as_ref(), r.due_ms)?;
        embed::index(tx, *id, title)?;
    }
    counts.write(tx)?;
    store_dedup::refresh_stats(tx)
}

/// Splits indexed text into tokens as SQLite's FTS5 `unicode61` tokenizer does with the
/// store's settings (`remove_diacritics 0`): letters and digits make tokens, every
/// other character separates them, tokens are lowercased. The index terms are already
/// lowercase, accent-free stems, so this is exact for them. Both engines count
/// document frequencies (`term_docs`) by these tokens.
pub fn index_tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).map(str::to_lowercase).collect()
}

/// Rebuilds the duplicate check's index rows of these tasks from their stored fields
/// (after a restore wrote the rows themselves), with one statistics refresh.
pub(crate) fn reindex(tx: &Tx<'_>, ids: &[i64]) -> Result<()> {
    let mut rows = Vec::with_capacity(ids.len());
    for id in ids {
        let r = store_dedup::candidate_row(tx, *id)?;
        let due = r.due_at.and_then(|ms| {
            let kind = r.due_kind.parse::<DueKind>().ok()?;
            Some(Due { date: time::floating_date_from_ms(ms)?, kind, at: None })
        });
        let computed = index_rows(&IndexInput {
            title: &r.title,
            description: &r.description,
            amount: r.amount.as_ref(),
            due,
            category: r.category.as_deref(),
            chat: r.chat.as_deref(),
            created_at: r.created_at,
        });
        rows.push((*id, computed, r.title));
    }
    index_many(tx, &rows)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// The SQLite source, counting the document frequencies asked one term at a time.
    struct Counting<'a> {
        inner: SqliteSource<'a>,
        single: Cell<usize>,
        batches: Cell<usize>,
    }

    impl<'a> Counting<'a> {
        /// Counts the reads of a store's source.
        fn over(store: &'a crate::store::Store) -> Counting<'a> {
            Counting {
                inner: SqliteSource::new(store.conn()).expect("source"),
                single: Cell::new(0),
                batches: Cell::new(0),
            }
        }
    }

    /// An in-memory store holding these import lines.
    fn store_of(lines: &[String]) -> crate::store::Store {
        let mut store = crate::store::Store::open(std::path::Path::new(":memory:")).expect("store");
        let ctx = crate::Context::new(jiff::Timestamp::UNIX_EPOCH, "test", jiff::tz::TimeZone::UTC);
        let opts = crate::ops::import::ImportOptions::default();
        crate::ops::import::import_text(&mut store, &ctx, &lines.join("\n"), &opts, &mut |_| {}).expect("import");
        store
    }

    impl CheckSource for Counting<'_> {
        fn totals(&self) -> Result<(i64, i64, i64)> {
            self.inner.totals()
        }
        fn doc_freq(&self, term: &str) -> Result<i64> {
            self.single.set(self.single.get() + 1);
            self.inner.doc_freq(term)
        }
        fn doc_freqs(&self, terms: &[&str]) -> Result<Vec<i64>> {
            self.batches.set(self.batches.get() + 1);
            terms.iter().map(|t| self.inner.doc_freq(t)).collect()
        }
        fn ranked_matches(&self, terms: &[(String, f64)], pool: usize) -> Result<Vec<i64>> {
            self.inner.ranked_matches(terms, pool)
        }
        fn candidate_ids(&self, q: &CandidateQuery<'_>) -> Result<Vec<i64>> {
            self.inner.candidate_ids(q)
        }
        fn candidate_row(&self, id: i64) -> Result<CandidateRow> {
            self.inner.candidate_row(id)
        }
        fn reply_parent(&self, id: i64) -> Result<Option<i64>> {
            self.inner.reply_parent(id)
        }
        fn squares(&self) -> Result<(f64, f64)> {
            self.inner.squares()
        }
        fn person_count(&self, person_id: i64) -> Result<i64> {
            self.inner.person_count(person_id)
        }
        fn amount_count(&self, minor: i64, currency: Option<&str>) -> Result<i64> {
            self.inner.amount_count(minor, currency)
        }
        fn learned_weights(&self) -> Result<Vec<(Level, f64, f64)>> {
            self.inner.learned_weights()
        }
    }

    /// Every document frequency a check weighs — titles' stems for the rare word,
    /// descriptions' stems for the context cosine — is read in the batches before the
    /// comparisons, never one term at a time: on PostgreSQL a term at a time is a round
    /// trip each, hundreds for one long description.
    #[test]
    fn a_check_reads_its_document_frequencies_in_batches() {
        let words = ["gearbox", "scheduler", "parser", "renderer", "socket", "codec", "journal", "cache"];
        let lines: Vec<String> = (0..120)
            .map(|i| {
                let w = words[i % words.len()];
                serde_json::json!({
                    "title": format!("Fix the {w} crash number {i}"),
                    "description": format!("The {w} module fails with error E{i} when the queue {i} is drained \
                                            after a restart of node{} in region r{}", i % 7, i % 5),
                    "created_at": "2026-01-01T00:00:00Z",
                })
                .to_string()
            })
            .collect();
        let store = store_of(&lines);
        let source = Counting::over(&store);
        let probe = Probe {
            title: "The gearbox crash again",
            description: "The gearbox module fails with error E8 when the queue is drained after a restart of node1",
            at_ms: 1_800_000_000_000,
            ..Probe::default()
        };
        let found = check_on(&source, &probe, &Weights::builtin(), 0).expect("check");
        assert!(
            found.iter().any(|c| c.levels.context != ContextLevel::Empty),
            "the descriptions were compared: {found:?}"
        );
        assert_eq!(source.single.get(), 0, "document frequencies asked one at a time");
        assert!(source.batches.get() <= 2, "{} batches", source.batches.get());
    }

    /// A term the index splits ("2.0", "16:00") is counted by its rarest token, read in
    /// the same batch as the others: read as 0 it was the rarest term of the store, and
    /// a version number every report carries outranked the report's real words.
    #[test]
    fn a_term_the_index_splits_is_counted_by_its_rarest_token() {
        let mut lines: Vec<String> = (0..30)
            .map(|i| {
                serde_json::json!({"title": format!("Upgrade lib{i} to {i}.2.0"), "created_at": "2026-01-01T00:00:00Z"})
                    .to_string()
            })
            .collect();
        lines.push(
            serde_json::json!({"title": "Call at 16:00 about widget 7.41", "created_at": "2026-01-01T00:00:00Z"})
                .to_string(),
        );
        let store = store_of(&lines);
        let source = Counting::over(&store);
        let df = StoreDocFreq { source: &source, total: 31, seen: Default::default() };
        let terms: Vec<String> = ["2.0", "7.41", "16:00", "upgrad", "..."].map(String::from).to_vec();
        df.prefetch(&terms).expect("prefetch");
        assert_eq!(df.lookup("2.0").expect("df"), 30, "as common as \"2\" and \"0\", not 0");
        assert_eq!(df.lookup("7.41").expect("df"), 1, "\"41\" is in one task");
        assert_eq!(df.lookup("16:00").expect("df"), 1);
        assert_eq!(df.lookup("upgrad").expect("df"), 30, "a plain term is read as before");
        assert_eq!(df.lookup("...").expect("df"), 0, "no token: no count");
        assert_eq!(source.single.get(), 0, "the tokens were read in the batch");
        assert_eq!(source.batches.get(), 1);
    }

    /// A learned table kept before "another person, chat unknown" became "different"
    /// holds both rows; they add up to the merged level instead of one overwriting the
    /// other.
    #[test]
    fn learned_rows_of_one_level_add_up() {
        let other = Level::parse("source", "other_person").expect("the old spelling reads");
        let different = Level::Source(SourceLevel::Different);
        let w = with_learned(vec![
            (different, 0.15, 0.3),
            (other, 0.03, 0.14),
            (Level::Source(SourceLevel::Reply), 0.3, 0.003),
        ]);
        let merged = w.stat(different).expect("different");
        assert!((merged.m - 0.18).abs() < 1e-12 && (merged.u - 0.44).abs() < 1e-12, "{merged:?}");
        assert_eq!(w.stat(Level::Source(SourceLevel::Reply)), Some(weights::LevelStat { m: 0.3, u: 0.003 }));
        assert_eq!(with_learned(Vec::new()), Weights::builtin(), "no learned rows: the built-in table");
    }

    /// Candidate rows carrying long generated bug reports (the parallel path's input).
    fn report_rows() -> Vec<CandidateRow> {
        crate::workload::report_texts(23, 7, 1_780_000_000_000)
            .into_iter()
            .enumerate()
            .map(|(i, r)| CandidateRow {
                id: i as i64 + 1,
                uuid: format!("u{i}"),
                key: format!("R-{i}"),
                external_id: None,
                title: r.title,
                description: r.description,
                person_id: None,
                amount: None,
                due_at: None,
                due_kind: "on".into(),
                category: None,
                chat: None,
                reply_to_id: None,
                created_at: r.created_ms,
                status: crate::model::Status::Open,
                closed_at: None,
            })
            .collect()
    }

    /// Candidate profiles built on several threads are the profiles built on one, in
    /// the rows' order (the parallel path is taken: the rows carry long reports).
    #[test]
    fn profiles_on_several_threads_equal_profiles_on_one() {
        let rows = report_rows();
        let bytes: usize = rows.iter().map(|r| r.title.len() + r.description.len()).sum();
        assert!(bytes >= PARALLEL_PROFILE_BYTES, "the rows must take the parallel path: {bytes} bytes");
        let one: Vec<String> = rows.iter().map(|r| format!("{:?}", row_profile(r))).collect();
        // A pool of four whatever the machine has, so several threads really share the
        // rows (23 of them: the pieces are uneven).
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("a pool");
        let several: Vec<String> =
            pool.install(|| row_profiles(&rows, true)).iter().map(|p| format!("{p:?}")).collect();
        assert_eq!(one, several);
    }

    /// A new task without a description is compared with candidates whose description
    /// stems were never computed, and every comparison comes out as it does with them:
    /// only the description comparison reads those stems, and it needs both sides.
    #[test]
    fn a_check_without_a_description_needs_no_candidate_description_stems() {
        use compare::tests::Common;
        let rows = report_rows();
        let full = row_profiles(&rows, true);
        let lean = row_profiles(&rows, false);
        assert!(full.iter().all(|p| !p.description_stems.is_empty()), "the reports have descriptions");
        assert!(lean.iter().all(|p| p.description_stems.is_empty()), "left out when asked");
        let described = |title: &str, description: &str| {
            Profile::of(&ProfileInput { title, description, ..ProfileInput::default() })
        };
        for new in [described(&rows[3].title, ""), described("Upload fails with a timeout", "")] {
            for (f, l) in full.iter().zip(&lean) {
                let a = compare::compare(&new, f, &Common, &|id| Ok(id)).expect("compare");
                let b = compare::compare(&new, l, &Common, &|id| Ok(id)).expect("compare");
                assert_eq!(format!("{a:?}"), format!("{b:?}"));
            }
        }
        // With a description on the new side the stems count, so the lean profiles
        // would be wrong there: the check builds them only for a task without one.
        let new = described(&rows[3].title, &rows[3].description);
        let with = compare::compare(&new, &full[3], &Common, &|id| Ok(id)).expect("compare");
        let without = compare::compare(&new, &lean[3], &Common, &|id| Ok(id)).expect("compare");
        assert_ne!(with.levels.context, without.levels.context);
    }
}
