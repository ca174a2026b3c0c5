//! Schedule, Job, Run, conversation and queue rows (issue 5). Being written.
