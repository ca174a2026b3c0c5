//! `tasks schedule …`, `tasks jobs`, `tasks daemon` operations (issue 5). Being written.
