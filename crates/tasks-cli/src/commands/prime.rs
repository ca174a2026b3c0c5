//! `tasks prime`: a short workflow text for an agent's context window — what to run,
//! in which order, and how to react to a refusal. Kept short on purpose: every line
//! costs tokens in every session that loads it.

/// The guide printed by `tasks prime`.
pub const GUIDE: &str = "\
# Working with `tasks` (local task store shared with a person and other agents)

Every command takes --json (one JSON value on stdout; errors are one JSON object on
stderr with a code) and --as NAME (or TASKS_ACTOR) to say who you are.

Loop:
1. `tasks ready --json`            what can be worked on now (open, unblocked, unclaimed)
2. `tasks next --claim --json`     take the best ready task atomically (30 min lease;
                                   exit 6 = nothing ready). Or `tasks claim KEY --for 1h`.
3. work; renew a long job with `tasks claim KEY` again before the lease ends
4. `tasks done KEY`                closing releases the claim and unblocks dependants
   (`tasks dismiss KEY --reason \"not needed\"` when it should not be done)

Found more work while doing it? Create it and link it:
   tasks add \"Fix flaky test\" --project KEY --agent
   tasks link NEW discovered-from KEY        (or: NEW blocked-by OTHER)

Duplicate check: `tasks add` exits 7 when a probable duplicate exists and lists the
candidates (key, score, reasons). Read them, then either
   tasks add \"…\" --attach KEY   (it is the same job: nothing new is created)
   tasks add \"…\" --new          (it is a different job)
Never loop on exit 7 without choosing.

A person may also talk to the same store: `tasks chat \"сделала позвонить Ане\"` (free
text or /commands). You do not need it — use the commands above, which are exact.

Exit codes: 2 bad input · 6 not found · 7 confirmation required · 15 conflict (the
task is claimed by someone else: the message names who and until when; pick another).
Keys look like HRB-12 or REQ-22; a UUID or 8+ hex digits of one also works.
";
