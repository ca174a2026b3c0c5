//! `tasks schedule …`, `tasks jobs`, `tasks daemon` (issue 5). Being written.
