//! The two engines the scenario tests run on, from one source: a SQLite file in a temp
//! dir, and a fresh database of the throwaway PostgreSQL cluster (`tasks_testkit::pg`;
//! skipped with a logged reason where PostgreSQL cannot be had). A scenario is written
//! once against `&mut dyn Engine`; [`on_both_engines!`] makes a `sqlite::NAME` and a
//! `postgres::NAME` test of it.

use std::sync::atomic::{AtomicU32, Ordering};

use tasks_core::Store;
use tasks_pg::PgStore;

/// A fresh SQLite store in a temp dir (kept while the dir lives).
pub fn sqlite() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Store::open(&dir.path().join("t.db")).expect("open");
    (dir, store)
}

/// A fresh, empty PostgreSQL store, or `None` (the skip logged).
pub fn postgres(test: &str) -> Option<PgStore> {
    Some(PgStore::connect(&postgres_url(test)?).expect("connect to the fresh database"))
}

/// The URL of a fresh, empty PostgreSQL database, or `None` (the skip logged).
pub fn postgres_url(test: &str) -> Option<String> {
    static DB: AtomicU32 = AtomicU32::new(0);
    let server = tasks_testkit::pg::shared(test)?;
    let name = format!("core_{}_{}", test.replace(['-', ' ', ':'], "_"), DB.fetch_add(1, Ordering::SeqCst));
    Some(server.create_database(&name))
}

/// Makes two tests of each scenario: `sqlite::NAME` and `postgres::NAME`, each with a
/// fresh store bound to the given name as `&mut dyn Engine`.
macro_rules! on_both_engines {
    ($($(#[doc = $doc:literal])* fn $name:ident($store:ident) $body:block)*) => {
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            $(
                $(#[doc = $doc])*
                #[test]
                fn $name() {
                    let (_dir, mut fresh) = crate::engines::sqlite();
                    let $store: &mut dyn tasks_core::port::Engine = &mut fresh;
                    $body
                }
            )*
        }
        mod postgres {
            #[allow(unused_imports)]
            use super::*;
            $(
                $(#[doc = $doc])*
                #[test]
                fn $name() {
                    let Some(mut fresh) = crate::engines::postgres(concat!(module_path!(), "::", stringify!($name)))
                    else {
                        return;
                    };
                    let $store: &mut dyn tasks_core::port::Engine = &mut fresh;
                    $body
                }
            )*
        }
    };
}
