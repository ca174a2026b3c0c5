#!/usr/bin/env python3
"""PostgreSQL beside SQLite through one long-lived `tasks mcp` process per engine, plus
whole processes on both and the team daemon's tick on PostgreSQL.

    bench/mcp_pg.py --bin PATH [--size 100000] [--calls 200] [--warmup 10] [--block 10]
                    [--proc-runs 15] [--daemon-runs 15] [--json-out FILE] [--keep]

1. The stores: `tasks workload N > work.jsonl`, `tasks import work.jsonl` into a fresh
   SQLite file, `tasks export > dump.jsonl` right after (lossless), a throwaway
   PostgreSQL cluster (bench/run's PgCluster: initdb -A trust, 127.0.0.1, a free port,
   fsync and the rest at PostgreSQL's defaults; as root through `runuser -u postgres`),
   CREATE DATABASE bench, `tasks import dump.jsonl` with TASKS_DB=postgres://…, a count
   of its tasks, then VACUUM (ANALYZE) and CHECKPOINT (untimed, as bench/run does).
2. MCP: one `tasks mcp` process per engine (TASKS_DB the SQLite file or the URL;
   TASKS_NOW=2026-11-29T12:00:00Z, TASKS_ACTOR=bench, TASKS_TZ=UTC), each given the
   initialize handshake and notifications/initialized. Then per tool (task_list {},
   task_ready {}, task_create {"subject": <unique title of invented words>}, task_next
   {}), in that order: --warmup untimed calls on each engine, then --calls timed calls on
   each, in blocks of --block calls alternating engines ABBA (block 0 SQLite then PG,
   block 1 PG then SQLite, …). A call's time is its round trip: from writing the request
   line to reading the line answering its id. An answer with `error` or with
   result.isError true stops the run (printed).
3. Whole processes, alternated run by run (ABBA) between the engines: `ready`, `list`,
   `add "<unique title>"` (--proc-runs timed runs each after one untimed pair).
4. `tasks daemon --once` on the PostgreSQL store (no schedules): --daemon-runs timed runs
   after one untimed.

The server is stopped and the temp dirs removed at the end, also on a failure. Python
3.11, standard library only; reuses bench/run's process runner and PgCluster.
"""

from __future__ import annotations

import argparse
import contextlib
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
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_bench_run():
    loader = importlib.machinery.SourceFileLoader("bench_run", str(HERE / "run"))
    spec = importlib.util.spec_from_loader("bench_run", loader)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = mod
    loader.exec_module(mod)
    return mod


br = load_bench_run()
log = br.log
BenchError = br.BenchError

MCP_ENV = {
    "TASKS_NOW": "2026-11-29T12:00:00Z",
    "TASKS_ACTOR": "bench",
    "TASKS_TZ": "UTC",
    "NO_COLOR": "1",
}
SYL = ["ka", "ro", "vin", "tel", "mu", "zor", "pa", "quel", "dri", "son", "bax",
       "le", "nu", "gor", "fi", "wen", "sta", "plo", "yur", "hex", "mib", "tra"]
SPACE = len(SYL) ** 4  # 234 256 four-syllable words


def invented_title(seed: int, i: int) -> str:
    """Three invented four-syllable words, none used by any other title of the same seed
    (k -> k * 7919 + salt mod 22^4 is a bijection: 7919 is prime and divides no power of
    22), plus a counter."""
    words = []
    for w in range(3):
        k = (seed * 100_003 + i * 3 + w) % SPACE
        n = (k * 7919 + 12345) % SPACE
        parts = []
        for _ in range(4):
            parts.append(SYL[n % len(SYL)])
            n //= len(SYL)
        words.append("".join(parts))
    return f"{words[0].capitalize()} {words[1]} {words[2]} z{seed}n{i}"


class Mcp:
    """One `tasks mcp` process on stdio."""

    def __init__(self, tasks: str, env: dict, cwd: Path, name: str):
        self.name = name
        self.err = open(cwd / f"mcp-{name}.stderr", "wb")
        self.p = subprocess.Popen([tasks, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.err, env=env, cwd=cwd, bufsize=0)
        self.next_id = 1
        self.extra_lines = 0

    def send(self, obj: dict) -> None:
        self.p.stdin.write((json.dumps(obj) + "\n").encode())
        self.p.stdin.flush()

    def read_answer(self, want_id) -> dict:
        while True:
            line = self.p.stdout.readline()
            if not line:
                self.err.flush()
                raise BenchError(f"mcp ({self.name}) closed its stdout; stderr:\n"
                                 + br.indent(Path(self.err.name).read_text(errors="replace")))
            msg = json.loads(line)
            if msg.get("id") == want_id:
                return msg
            self.extra_lines += 1

    def handshake(self) -> dict:
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "bench", "version": "0"}}})
        ans = self.read_answer(1)
        if "error" in ans:
            raise BenchError(f"mcp ({self.name}) initialize: {ans}")
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.next_id = 2
        return ans

    def call(self, tool: str, arguments: dict) -> tuple[float, dict]:
        i = self.next_id
        self.next_id += 1
        line = (json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                            "params": {"name": tool, "arguments": arguments}}) + "\n").encode()
        t0 = time.perf_counter_ns()
        self.p.stdin.write(line)
        self.p.stdin.flush()
        ans = self.read_answer(i)
        t1 = time.perf_counter_ns()
        if "error" in ans or ans.get("result", {}).get("isError"):
            print(json.dumps(ans, indent=1), file=sys.stderr)
            raise BenchError(f"mcp ({self.name}) {tool} {json.dumps(arguments)}: an error answer "
                             "(printed above)")
        return (t1 - t0) / 1e9, ans

    def close(self) -> None:
        try:
            self.p.stdin.close()
            self.p.wait(timeout=20)
        except Exception:
            self.p.kill()
            self.p.wait()
        self.err.close()


def med_ms(xs) -> float:
    return statistics.median(xs) * 1000


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="bench/mcp_pg.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--size", type=int, default=100_000)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--block", type=int, default=10)
    ap.add_argument("--proc-runs", type=int, default=15)
    ap.add_argument("--daemon-runs", type=int, default=15)
    ap.add_argument("--json-out")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir (not the cluster's)")
    args = ap.parse_args(argv)
    if args.calls % args.block:
        ap.error("--calls must be a multiple of --block")
    tasks = br.check_against(args.bin)
    pg_bin, why = br.find_pg_bin()
    if not pg_bin:
        raise BenchError(why)

    base_env = {k: v for k, v in os.environ.items()
                if not k.startswith("TASKS_") and k not in ("TELEGRAM_BOT_TOKEN", "EDITOR", "VISUAL")}
    tmp = Path(tempfile.mkdtemp(prefix=f"tasks-mcp-pg-{args.size}-"))
    env = dict(base_env, **MCP_ENV)
    env["TASKS_CONFIG"] = str(tmp / "config.toml")
    env["XDG_CONFIG_HOME"] = str(tmp / "config")
    env["XDG_DATA_HOME"] = str(tmp / "data")
    sq_env = dict(env, TASKS_DB=str(tmp / "tasks.db"))
    ok = False
    out: dict = {"size": args.size, "bin": tasks}
    try:
        with contextlib.ExitStack() as stack:
            la = os.getloadavg()
            log(f"binary {tasks}; load {la[0]:.2f} {la[1]:.2f} {la[2]:.2f}; {os.cpu_count()} cores")
            work = tmp / "work.jsonl"
            with open(work, "wb") as f:
                br.run_ok([tasks, "workload", str(args.size)], sq_env, tmp, "workload",
                          br.IMPORT_TIMEOUT, stdout=f)
            res = br.run_ok([tasks, "import", str(work)], sq_env, tmp, "import (SQLite)",
                            br.IMPORT_TIMEOUT)
            log(f"SQLite import: {res.wall * 1000:,.0f} ms")
            dump = tmp / "dump.jsonl"
            with open(dump, "wb") as f:
                br.run_ok([tasks, "export"], sq_env, tmp, "export", br.IMPORT_TIMEOUT, stdout=f)
            log(f"export: {dump.stat().st_size / 1e6:.1f} MB")

            pg = stack.enter_context(br.PgCluster(pg_bin))
            settings = pg.settings()
            out["pg_settings"] = settings
            log(f"PostgreSQL {settings['server_version']} on 127.0.0.1:{pg.port} in {pg.dir} "
                f"(fsync={settings['fsync']}, synchronous_commit={settings['synchronous_commit']}, "
                f"shared_buffers={settings['shared_buffers']})")
            pg.psql("postgres", "CREATE DATABASE bench", "CREATE DATABASE bench")
            pg_env = dict(env, TASKS_DB=pg.url("bench"))
            t0 = time.perf_counter()
            br.run_ok([tasks, "import", str(dump)], pg_env, tmp, "import dump.jsonl (PostgreSQL)",
                      br.PG_IMPORT_TIMEOUT)
            out["pg_restore_ms"] = (time.perf_counter() - t0) * 1000
            n = pg.psql("bench", "SELECT count(*) FROM tasks", "count").strip()
            log(f"PostgreSQL restore: {out['pg_restore_ms']:,.0f} ms, {n} tasks")
            if n != str(args.size):
                raise BenchError(f"PostgreSQL holds {n} tasks, not {args.size}")
            t0 = time.perf_counter()
            pg.psql("bench", "VACUUM (ANALYZE)", "VACUUM (ANALYZE)", 1800)
            pg.psql("bench", "CHECKPOINT", "CHECKPOINT")
            log(f"VACUUM (ANALYZE) + CHECKPOINT: {(time.perf_counter() - t0) * 1000:,.0f} ms")
            # Same rows on both? (untimed)
            for op in ("ready", "list"):
                a = br.capture([tasks, op], sq_env, tmp, f"{op} (SQLite)")
                b = br.capture([tasks, op], pg_env, tmp, f"{op} (PostgreSQL)")
                log(f"`{op}` output on both engines: {'equal' if a == b else 'DIFFERS'} "
                    f"({len(a.splitlines())} / {len(b.splitlines())} lines)")
                out[f"same_{op}"] = a == b

            # ---- MCP
            engines = {"sqlite": sq_env, "pg": pg_env}
            servers = {}
            for name, e in engines.items():
                m = Mcp(tasks, e, tmp, name)
                stack.callback(m.close)
                servers[name] = m
                t0 = time.perf_counter()
                m.handshake()
                log(f"mcp {name}: initialize answered in {(time.perf_counter() - t0) * 1000:.1f} ms")
            counters = {"sqlite": 0, "pg": 0}

            def args_for(tool: str, engine: str) -> dict:
                if tool != "task_create":
                    return {}
                counters[engine] += 1
                return {"subject": invented_title(7, counters[engine])}

            mcp_res = {}
            for tool in ("task_list", "task_ready", "task_create", "task_next"):
                la0 = os.getloadavg()[0]
                for k in range(args.warmup):
                    for name in (("sqlite", "pg") if k % 2 == 0 else ("pg", "sqlite")):
                        servers[name].call(tool, args_for(tool, name))
                samples = {"sqlite": [], "pg": []}
                sizes = {"sqlite": 0, "pg": 0}
                for b in range(args.calls // args.block):
                    for name in (("sqlite", "pg") if b % 2 == 0 else ("pg", "sqlite")):
                        for _ in range(args.block):
                            t, ans = servers[name].call(tool, args_for(tool, name))
                            samples[name].append(t)
                            sizes[name] = len(json.dumps(ans))
                s, p = med_ms(samples["sqlite"]), med_ms(samples["pg"])
                mcp_res[tool] = dict(sqlite=samples["sqlite"], pg=samples["pg"], sqlite_median_ms=s,
                                     pg_median_ms=p, ratio=p / s, answer_bytes=sizes,
                                     load=(la0, os.getloadavg()[0]))
                log(f"mcp {tool:<12} SQLite {s:8.3f} ms  PostgreSQL {p:8.3f} ms  pg/sqlite {p / s:.3f}  "
                    f"(answer {sizes['sqlite']} / {sizes['pg']} bytes)  load {la0:.2f}->{os.getloadavg()[0]:.2f}")
            out["mcp"] = mcp_res
            out["mcp_extra_lines"] = {k: m.extra_lines for k, m in servers.items()}
            for m in servers.values():
                m.close()

            # ---- whole processes, ABBA between the engines
            titles = {"sqlite": iter(invented_title(8, i) for i in range(1000)),
                      "pg": iter(invented_title(8, i) for i in range(1000))}
            proc = {}
            for op in ("ready", "list", "add"):
                samples = {"sqlite": [], "pg": []}
                for j in range(1 + args.proc_runs):
                    k = j - 1
                    for name in (("sqlite", "pg") if k % 2 == 0 else ("pg", "sqlite")):
                        argv_ = [tasks, op] if op != "add" else [tasks, "add", next(titles[name])]
                        res = br.execute(argv_, engines[name], tmp, br.CMD_TIMEOUT)
                        if op == "add" and res.rc == 7:
                            raise BenchError(f"{name}: add refused as a duplicate\n{br.indent(res.stderr)}")
                        br.check_ok(res, f"{name}: {shlex.join(argv_[1:])}", br.CMD_TIMEOUT)
                        if j >= 1:
                            samples[name].append(res.wall)
                s, p = med_ms(samples["sqlite"]), med_ms(samples["pg"])
                proc[op] = dict(sqlite=samples["sqlite"], pg=samples["pg"], sqlite_median_ms=s,
                                pg_median_ms=p, ratio=p / s)
                log(f"process {op:<6} SQLite {s:8.2f} ms  PostgreSQL {p:8.2f} ms  pg/sqlite {p / s:.3f}")
            out["process"] = proc

            # ---- daemon tick on PostgreSQL
            d = []
            first = br.capture([tasks, "daemon", "--once"], pg_env, tmp, "daemon --once (PostgreSQL)")
            for _ in range(args.daemon_runs):
                res = br.run_ok([tasks, "daemon", "--once"], pg_env, tmp, "daemon --once (PostgreSQL)")
                d.append(res.wall)
            out["daemon"] = dict(samples=d, median_ms=med_ms(d), min_ms=min(d) * 1000,
                                 output=first.strip())
            log(f"daemon --once on PostgreSQL: median {med_ms(d):.2f} ms, min {min(d) * 1000:.2f} ms "
                f"(prints {first.strip()!r})")

        # ---- report
        L = [f"`tasks mcp`, one long-lived process per engine, {args.size:,} tasks: {args.calls} timed "
             f"calls per tool per engine after {args.warmup} untimed, in blocks of {args.block} "
             "alternating engines ABBA; round trip of one request line to its answer line.", ""]
        L.append("| tool | SQLite median ms | PostgreSQL median ms | PG/SQLite | SQLite min ms | PG min ms |")
        L.append("|---|---:|---:|---:|---:|---:|")
        for tool, r in out["mcp"].items():
            L.append(f"| {tool} | {r['sqlite_median_ms']:.3f} | {r['pg_median_ms']:.3f} | "
                     f"{r['ratio']:.2f} ({r['ratio']:.4f}) | {min(r['sqlite']) * 1000:.3f} | "
                     f"{min(r['pg']) * 1000:.3f} |")
        L += ["", f"Whole processes, {args.proc_runs} timed runs per engine after one untimed pair, ABBA:", "",
              "| command | SQLite median ms | PostgreSQL median ms | PG/SQLite |", "|---|---:|---:|---:|"]
        for op, r in out["process"].items():
            L.append(f"| {op} | {r['sqlite_median_ms']:.2f} | {r['pg_median_ms']:.2f} | "
                     f"{r['ratio']:.2f} ({r['ratio']:.4f}) |")
        dd = out["daemon"]
        L += ["", f"`tasks daemon --once` on PostgreSQL ({args.daemon_runs} runs): median "
              f"{dd['median_ms']:.2f} ms, min {dd['min_ms']:.2f} ms; it printed {dd['output']!r}."]
        print("\n".join(L))
        if args.json_out:
            Path(args.json_out).write_text(json.dumps(out, indent=1))
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
        print(f"bench/mcp_pg.py: {e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("bench/mcp_pg.py: interrupted", file=sys.stderr)
        sys.exit(130)
