//! Generates the lexicon's lookup index (`$OUT_DIR/lexicon_index.rs`) from
//! `src/lexicon/table.rs`: every surface word normalized and stemmed once, here,
//! instead of in every process that checks for duplicates (3,000 words, when measured,
//! cost about a third of a small `tasks check`; there are about 7,300 now). The build compiles the crate's own `normalize.rs`
//! and `stems.rs` (and `memo.rs`, which `stems.rs` uses), so the keys are exactly what the running code computes; a unit test
//! in `lexicon.rs` rebuilds the index at run time and compares.
#![allow(dead_code)]

#[path = "src/memo.rs"]
mod memo;
#[path = "src/normalize.rs"]
mod normalize;
#[path = "src/stems.rs"]
mod stems;
#[path = "src/lexicon/table.rs"]
mod table;

use std::fmt::Write as _;

fn main() {
    for file in ["src/memo.rs", "src/normalize.rs", "src/stems.rs", "src/lexicon/table.rs", "build.rs"] {
        println!("cargo::rerun-if-changed={file}");
    }
    let (keys, surface) = table::index_maps();
    let mut out = String::from("/// (language code, stem, concepts), sorted by (language code, stem).\n");
    out.push_str("static KEYS: &[(u8, &str, &[&str])] = &[\n");
    for ((code, stem), ids) in &keys {
        let _ = writeln!(out, "    ({code}, {stem:?}, &{ids:?}),");
    }
    out.push_str("];\n/// (normalized Latin surface word, language bit mask), sorted by word.\n");
    out.push_str("static SURFACE: &[(&str, u8)] = &[\n");
    for (word, mask) in &surface {
        let _ = writeln!(out, "    ({word:?}, {mask}),");
    }
    out.push_str("];\n");
    let path = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lexicon_index.rs");
    std::fs::write(&path, out).expect("write the generated lexicon index");
}
