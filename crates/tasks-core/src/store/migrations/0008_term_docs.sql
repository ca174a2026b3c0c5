-- 0008: document frequencies kept as a table (issue 16). The duplicate check asks how
-- many tasks hold each stem it weighs; FTS5's vocabulary table answers by walking the
-- stem's whole posting list, 14 ms for a stem in every task of a 100k store, and a
-- long description weighs a hundred stems (a check took 294 ms at 100k bug reports).
-- term_docs is kept by the same write that changes task_stems, token for token as FTS5
-- splits the indexed terms (PostgreSQL's store has had the same table from the start).
CREATE TABLE term_docs (
    term TEXT PRIMARY KEY,
    docs INTEGER NOT NULL CHECK (docs >= 0)
) WITHOUT ROWID;

INSERT INTO term_docs (term, docs) SELECT term, doc FROM task_stems_vocab;
