#!/usr/bin/env python3
"""A/B of every whole-process row of bench/run between two `tasks` binaries (SQLite).

    bench/ab.py --new PATH --old PATH [--size 100000] [--runs 21] [--warmup 1]
                [--op-runs add=101,done=101,next=101] [--ops ready,list,...]
                [--json-out FILE] [--keep]

The store is built once, by --new (`tasks workload N > work.jsonl`, `tasks import
work.jsonl`), in a fresh temp dir with bench/run's environment (TASKS_NOW, TASKS_TZ,
TASKS_ACTOR, NO_COLOR, config and data dirs in the temp dir). --old must read it
(`tasks ready` is tried first); when it does not, a second store is imported by --old
from the same work.jsonl and each binary runs on its own store (the output says so).

Then, for each row of bench/run (ready, list, show KEY, search WORD, check TITLE, export,
add TITLE, done KEY, next --claim), in that order (reads first, on the store as
imported, then the writes): --warmup untimed pairs, then --runs timed pairs, each pair
one run of each binary back to back, the order alternating pair by pair (ABBA: new old,
old new, new old, …; A = --new). Reads: both runs of a pair get the same arguments.
Writes change the store, so every run gets its own argument: `add` a title of invented
words no other run uses (bench/run's nonsense_title), `done` another key from the end of
the ready list, `next --claim` claims whichever task is next.

Before the timings the read rows run once untimed on each binary and their stdout is
compared (equal / differs), so a speed difference is not a difference of work.

Prints a Markdown table (op, new median/min, old median/min, new/old median ratio, pairs
in which new was faster, runs each) and the load average and foreign compiler processes
seen around each row. With --json-out, every sample is written there too.

Reuses bench/run's process runner (wait4 wall time, stdout to /dev/null). Python 3.11,
standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_bench_run():
    loader = importlib.machinery.SourceFileLoader("bench_run", str(HERE / "run"))
    spec = importlib.util.spec_from_loader("bench_run", loader)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = mod  # dataclasses look the module up
    loader.exec_module(mod)
    return mod


br = load_bench_run()
log = br.log
BenchError = br.BenchError

READ_OPS = ["ready", "list", "show", "search", "check", "export"]
WRITE_OPS = ["add", "done", "next"]
LABEL = {
    "ready": "`ready`",
    "list": "`list`",
    "show": "`show KEY`",
    "search": "`search WORD`",
    "check": "`check \"<title like an existing one>\"`",
    "export": "`export > /dev/null`",
    "add": "`add \"<unique title>\"` (duplicate check on)",
    "done": "`done KEY` (another key each run)",
    "next": "`next --claim`",
}
COMPILERS = {"rustc", "cargo", "cc", "cc1", "cc1plus", "ld", "ld.lld", "lld", "clang", "gcc",
             "c++", "mold", "collect2"}


def foreign_compilers() -> list[str]:
    """Compiler processes running now (any owner): `comm (pid)`."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            comm = (d / "comm").read_text().strip()
        except OSError:
            continue
        if comm in COMPILERS:
            out.append(f"{comm}({d.name})")
    return sorted(out)


def sha(argv, env, cwd) -> str:
    with tempfile.TemporaryFile() as out:
        br.run_ok(argv, env, cwd, f"{shlex.join(map(str, argv))} (output compare)",
                  br.IMPORT_TIMEOUT, stdout=out)
        out.seek(0)
        h = hashlib.sha256()
        for chunk in iter(lambda: out.read(1 << 20), b""):
            h.update(chunk)
        return h.hexdigest()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="bench/ab.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--new", required=True, help="binary A (builds the store)")
    ap.add_argument("--old", required=True, help="binary B")
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=21, help="timed runs per binary per row")
    ap.add_argument("--warmup", type=int, default=1, help="untimed pairs before the timed ones")
    ap.add_argument("--op-runs", default="",
                    help="per-row timed runs overriding --runs, e.g. add=101,done=101,next=101")
    ap.add_argument("--ops", default=",".join(READ_OPS + WRITE_OPS),
                    help="comma-separated subset of the rows (default all)")
    ap.add_argument("--json-out", help="write every sample there")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir")
    args = ap.parse_args(argv)
    new = br.check_against(args.new)
    old = br.check_against(args.old)
    ops = [o for o in args.ops.split(",") if o]
    for o in ops:
        if o not in LABEL:
            ap.error(f"unknown row {o!r}")
    runs_of = {o: args.runs for o in LABEL}
    for part in filter(None, args.op_runs.split(",")):
        o, _, n = part.partition("=")
        if o not in LABEL or not n.isdigit() or int(n) < 1:
            ap.error(f"--op-runs: {part!r}")
        runs_of[o] = int(n)

    base_env = {k: v for k, v in os.environ.items()
                if not k.startswith("TASKS_") and k not in ("TELEGRAM_BOT_TOKEN", "EDITOR", "VISUAL")}
    tmp = Path(tempfile.mkdtemp(prefix=f"tasks-ab-{args.size}-"))
    env = dict(base_env, **br.FIXED_ENV)
    env["TASKS_DB"] = str(tmp / "tasks.db")
    env["TASKS_CONFIG"] = str(tmp / "config.toml")
    env["XDG_CONFIG_HOME"] = str(tmp / "config")
    env["XDG_DATA_HOME"] = str(tmp / "data")
    envs = {"new": env, "old": env}
    bins = {"new": new, "old": old}
    notes: list[str] = []
    ok = False
    try:
        la = os.getloadavg()
        log(f"new: {new}\nold: {old}\nload average at the start: {la[0]:.2f} {la[1]:.2f} {la[2]:.2f} "
            f"({os.cpu_count()} cores); compilers running: {foreign_compilers() or 'none'}")
        floor = br.spawn_floor(15)
        work = tmp / "work.jsonl"
        with open(work, "wb") as f:
            br.run_ok([new, "workload", str(args.size)], env, tmp, "workload", br.IMPORT_TIMEOUT, stdout=f)
        res = br.run_ok([new, "import", str(work)], env, tmp, "import (new)", br.IMPORT_TIMEOUT)
        log(f"import of {args.size} by new: {res.wall * 1000:,.0f} ms")
        probe = br.execute([old, "ready"], env, tmp, br.CMD_TIMEOUT)
        probe2 = br.execute([old, "--json", "list", "--limit", "5"], env, tmp, br.CMD_TIMEOUT)
        if probe.rc != 0 or probe2.rc != 0:
            why = (probe.stderr or probe2.stderr).strip().splitlines()[-1:] or ["?"]
            notes.append(f"the old binary refused the store built by the new one ({why[0]}): "
                         "each binary imported its own store from the same work.jsonl")
            log(notes[-1])
            old_env = dict(env, TASKS_DB=str(tmp / "tasks-old.db"))
            res = br.run_ok([old, "import", str(work)], old_env, tmp, "import (old)", br.IMPORT_TIMEOUT)
            log(f"import of {args.size} by old: {res.wall * 1000:,.0f} ms")
            envs["old"] = old_env
        else:
            notes.append("one store, built by the new binary; the old binary read and wrote it "
                         "too (the old binary's `ready` on it exited 0)")

        total = args.warmup + args.runs
        st = br.read_setup(new, env, tmp, 1, args.size)
        # `done` takes keys from the end of the ready list, one per run of either binary;
        # `next --claim` takes tasks from its front: read enough that they never meet.
        need_done = 2 * (args.warmup + runs_of["done"])
        need_next = 2 * (args.warmup + runs_of["next"])
        limit = need_done + need_next + 2 * (args.warmup + runs_of["add"]) + 50
        ready = json.loads(br.capture([new, "--json", "ready", "--limit", str(limit)], env, tmp,
                                      "reading ready keys"))["items"]
        if len(ready) < limit:
            raise BenchError(f"only {len(ready)} ready tasks, {limit} needed")
        st.done_keys = [t["key"] for t in ready][-need_done:][::-1]
        log(f"inputs: show {st.show_key}, check {st.check_title!r}, search {st.search_word!r}, "
            f"{len(st.done_keys)} done keys")

        # Same work? stdout of each read row, once per binary, untimed.
        read_argv = {
            "ready": ["ready"], "list": ["list"], "show": ["show", st.show_key],
            "search": ["search", st.search_word], "check": ["check", st.check_title],
            "export": ["export"],
        }
        same = {}
        for op in READ_OPS:
            if op not in ops:
                continue
            a = sha([new, *read_argv[op]], envs["new"], tmp)
            b = sha([old, *read_argv[op]], envs["old"], tmp)
            same[op] = a == b
            log(f"output of {op}: {'equal' if a == b else 'DIFFERS'}")

        titles = iter(br.nonsense_title(args.size, i) for i in range(10 * (args.warmup + max(runs_of.values()))))
        dones = iter(st.done_keys)
        results = {}
        for op in ops:
            la0 = os.getloadavg()[0]
            comp0 = foreign_compilers()
            samples = {"new": [], "old": []}
            new_faster = 0
            runs = runs_of[op]
            for j in range(args.warmup + runs):
                timed = j >= args.warmup
                k = j - args.warmup if timed else j
                order = ("new", "old") if k % 2 == 0 else ("old", "new")
                shared = None
                if op in read_argv:
                    shared = read_argv[op]
                pair = {}
                for who in order:
                    if shared is not None:
                        rest = shared
                    elif op == "add":
                        rest = ["add", next(titles)]
                    elif op == "done":
                        rest = ["done", next(dones)]
                    else:
                        rest = ["next", "--claim"]
                    argv_ = [bins[who], *rest]
                    res = br.execute(argv_, envs[who], tmp, br.CMD_TIMEOUT)
                    what = f"{who}: {shlex.join(map(str, argv_))}"
                    if op == "add" and res.rc == 7:
                        raise BenchError(f"{what}: refused as a probable duplicate (exit 7)\n"
                                         + br.indent(res.stderr))
                    br.check_ok(res, what, br.CMD_TIMEOUT)
                    pair[who] = res.wall
                if timed:
                    samples["new"].append(pair["new"])
                    samples["old"].append(pair["old"])
                    new_faster += pair["new"] < pair["old"]
            la1 = os.getloadavg()[0]
            comp1 = foreign_compilers()
            mn = statistics.median(samples["new"]) * 1000
            mo = statistics.median(samples["old"]) * 1000
            results[op] = dict(runs=runs, new=samples["new"], old=samples["old"], new_median_ms=mn,
                               old_median_ms=mo, ratio=mn / mo, new_faster=new_faster,
                               load=(la0, la1), compilers=(comp0, comp1))
            log(f"{op:<6} new {mn:9.2f} ms  old {mo:9.2f} ms  new/old {mn / mo:.4f}  "
                f"new faster in {new_faster}/{runs}  load {la0:.2f}->{la1:.2f}  "
                f"compilers {len(comp0)}/{len(comp1)}")

        # Output.
        L = [f"A/B, alternated run by run (ABBA), {args.size:,} tasks, SQLite; timed runs "
             f"per binary per row as in the table (default {args.runs}) after {args.warmup} untimed pair(s); whole processes, stdout to "
             f"/dev/null; spawn floor {floor:.2f} ms.", ""]
        L.append(f"- new (A): {br.binary_note(new)}")
        L.append(f"- old (B): {br.binary_note(old)}")
        for n in notes:
            L.append(f"- {n}")
        L.append("")
        L.append("| command | old median ms | new median ms | new/old | runs each | old min ms | new min ms "
                 "| new faster in | output | load avg (1 min) | compilers seen |")
        L.append("|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|")
        for op in ops:
            r = results[op]
            out = ("equal" if same[op] else "**differs**") if op in same else "(write)"
            comp = max(len(r["compilers"][0]), len(r["compilers"][1]))
            L.append(f"| {LABEL[op]} | {r['old_median_ms']:.2f} | {r['new_median_ms']:.2f} | "
                     f"{r['ratio']:.2f} ({r['ratio']:.4f}) | {r['runs']} | {min(r['old']) * 1000:.2f} | "
                     f"{min(r['new']) * 1000:.2f} | {r['new_faster']}/{r['runs']} | {out} | "
                     f"{r['load'][0]:.2f}→{r['load'][1]:.2f} | {comp} |")
        print("\n".join(L))
        if args.json_out:
            Path(args.json_out).write_text(json.dumps(
                dict(size=args.size, runs=args.runs, warmup=args.warmup, new=new, old=old,
                     notes=notes, same_output=same, spawn_floor_ms=floor, results=results),
                indent=1))
            log(f"wrote {args.json_out}")
        ok = True
    finally:
        if ok and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            log(f"kept {tmp}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as e:
        print(f"bench/ab.py: {e}", file=sys.stderr)
        sys.exit(1)
