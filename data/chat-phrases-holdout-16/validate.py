#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-16 (stdlib only).

Checks the store (project keys, per-project task numbering, dates), every phrase's
fields and expected answer (keys exist, kinds agree with tools, clarify options),
and recomputes every relative date in the phrases with a small reference of the
house date rules written for this set only. Prints counts; exits 1 on a problem.

    python3 data/chat-phrases-holdout-16/validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2032, 3, 17)  # Wednesday, 12:50 Asia/Baku
KINDS = {"plain", "ambiguous", "unknown"}
LANGS = {"ru", "en"}
CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
TOOLS = {"close_task", "cancel_task", "update_task", "create_task", "list_tasks",
         "clarify", "none"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{i}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad JSON: {e}")
    return rows


def pdate(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- house date rules
def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def month_end(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def weekday_plain(wd, today=TODAY):
    """Next such weekday strictly after today."""
    delta = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=delta or 7)


def weekday_next(wd, today=TODAY):
    """That weekday in the next Monday-Sunday week."""
    next_monday = today + dt.timedelta(days=7 - today.weekday())
    return next_monday + dt.timedelta(days=wd)


def day_month(day, month, today=TODAY):
    """Day + month without year: this year's unless more than 30 days past."""
    try:
        d = dt.date(today.year, month, day)
    except ValueError:
        return None
    if (today - d).days > 30:
        try:
            d = dt.date(today.year + 1, month, day)
        except ValueError:
            return None
    return d


def day_of_month(day, today=TODAY):
    """Day of month alone: next such day on or after today (clamped to month end)."""
    y, m = today.year, today.month
    for _ in range(3):
        last = month_end(y, m).day
        d = dt.date(y, m, min(day, last))
        if d >= today:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


RU_WD = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
         ("пятниц", 4), ("суббот", 5), ("воскресень", 6)]
EN_WD = [("monday", 0), ("tuesday", 1), ("wednesday", 2), ("thursday", 3),
         ("friday", 4), ("saturday", 5), ("sunday", 6)]
RU_MON = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
          "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11,
          "декабря": 12}
EN_MON = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august",
     "september", "october", "november", "december"], 1)}
# Slips in date words that a careful reader still reads (never weekdays: a misspelt
# weekday is an error under the house rules, and this set contains none).
TYPOS = {"завта": "завтра", "послезавтро": "послезавтра", "tomorow": "tomorrow",
         "nxt": "next"}

ru_wd_re = "|".join(w for w, _ in RU_WD)
en_wd_re = "|".join(w for w, _ in EN_WD)


def wd_index(word, table):
    for stem, i in table:
        if word.startswith(stem):
            return i
    return None


def find_dates(text):
    """All date expressions found in text -> list of (kind, date)."""
    s = text.lower().replace("ё", "е")
    s = re.sub(r"[\w']+", lambda m: TYPOS.get(m.group(0), m.group(0)), s)
    found = []
    rules = [
        # weeks
        (r"\b(на|к) следующ\w* недел\w*|\bnext week\b",
         lambda m: ("week", sunday_of(TODAY) + dt.timedelta(days=7))),
        (r"\bна этой неделе\b|\b(до|к) конц\w* недели\b|\bthis week\b|\bend of (the )?week\b",
         lambda m: ("week", sunday_of(TODAY))),
        # months
        (r"\b(до|к|в) конц\w* месяца\b|\bконец месяца\b|\bend of (the )?month\b",
         lambda m: ("day", month_end(TODAY.year, TODAY.month))),
        (r"\bв следующем месяце\b|\bnext month\b",
         lambda m: ("day", month_end(TODAY.year + (TODAY.month == 12),
                                     TODAY.month % 12 + 1))),
        # next weekday
        (r"\b(?:в|к|на|до)?\s*следующ\w* (" + ru_wd_re + r")\w*",
         lambda m: ("day", weekday_next(wd_index(m.group(1), RU_WD)))),
        (r"\bnext (" + en_wd_re + r")\b",
         lambda m: ("day", weekday_next(wd_index(m.group(1), EN_WD)))),
        # relative days
        (r"\bday after tomorrow\b|\bпослезавтра\b", lambda m: ("day", TODAY + dt.timedelta(2))),
        (r"\btomorrow\b|\bзавтра\b", lambda m: ("day", TODAY + dt.timedelta(1))),
        (r"\btoday\b|\beod\b|\bсегодня\b", lambda m: ("day", TODAY)),
        (r"\bin (\d+) days?\b|\bчерез (\d+) дн\w*",
         lambda m: ("day", TODAY + dt.timedelta(int(m.group(1) or m.group(2))))),
        (r"\bin 2 weeks\b|\bin two weeks\b|\bчерез (две|2) недели\b",
         lambda m: ("day", TODAY + dt.timedelta(14))),
        (r"\bin a week\b|\bчерез неделю\b", lambda m: ("day", TODAY + dt.timedelta(7))),
        # weekend = the coming Saturday
        (r"\b(the )?weekend\b|\b(на|к) выходн\w*",
         lambda m: ("day", TODAY if TODAY.weekday() == 5 else weekday_plain(5))),
        # day + month
        (r"\b(\d{1,2}) (" + "|".join(RU_MON) + r")\b",
         lambda m: ("day", day_month(int(m.group(1)), RU_MON[m.group(2)]))),
        (r"\b(" + "|".join(EN_MON) + r") (\d{1,2})\b",
         lambda m: ("day", day_month(int(m.group(2)), EN_MON[m.group(1)]))),
        (r"\b(\d{1,2}) (" + "|".join(EN_MON) + r")\b",
         lambda m: ("day", day_month(int(m.group(1)), EN_MON[m.group(2)]))),
        # day of month alone
        (r"\b(\d{1,2}) числ\w*", lambda m: ("day", day_of_month(int(m.group(1))))),
        (r"\bthe (\d{1,2})(st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m.group(1))))),
        # plain weekdays (this <weekday> = plain)
        (r"\b(" + ru_wd_re + r")\w*", lambda m: ("day", weekday_plain(wd_index(m.group(1), RU_WD)))),
        (r"\b(" + en_wd_re + r")\b", lambda m: ("day", weekday_plain(wd_index(m.group(1), EN_WD)))),
    ]
    for pat, fn in rules:
        while True:
            m = re.search(pat, s)
            if not m:
                break
            found.append(fn(m))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return found


# ---------------------------------------------------------------- self-test of the rules
def _selftest():
    cases = [("завтра", ("day", "2032-03-18")), ("в пятницу", ("day", "2032-03-19")),
             ("wednesday", ("day", "2032-03-24")), ("next friday", ("day", "2032-03-26")),
             ("к следующей среде", ("day", "2032-03-24")), ("next week", ("week", "2032-03-28")),
             ("до конца недели", ("week", "2032-03-21")), ("end of month", ("day", "2032-03-31")),
             ("next month", ("day", "2032-04-30")), ("на выходных", ("day", "2032-03-20")),
             ("through 12 февраля", ("day", "2033-02-12")), ("20 февраля", ("day", "2032-02-20")),
             ("до 5 числа", ("day", "2032-04-05")), ("к 17 числу", ("day", "2032-03-17")),
             ("in 2 weeks", ("day", "2032-03-31")), ("через неделю", ("day", "2032-03-24")),
             ("послезавтра", ("day", "2032-03-19")), ("nxt week", ("week", "2032-03-28"))]
    for text, (k, d) in cases:
        got = find_dates(text)
        if got != [(k, dt.date.fromisoformat(d))]:
            bad(f"date reference self-test: {text!r} -> {got}, want {k} {d}")


_selftest()

# ---------------------------------------------------------------- store
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = [p.get("key") for p in projects]
if len(set(pkeys)) != len(pkeys):
    bad("duplicate project keys")
for p in projects:
    if set(p) != {"key", "name", "description"} or not all(p.values()):
        bad(f"project fields: {p}")
if "INBOX" in pkeys:
    bad("INBOX must not be listed as a project")
if not 4 <= len(projects) <= 5:
    bad(f"{len(projects)} projects, want 4-5")

task_by_key = {}
counters = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task fields: {t}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"{t['key']}: unknown project {proj}")
    counters[proj] += 1
    want = f"{proj}-{counters[proj]}"
    if t["key"] != want:
        bad(f"task key {t['key']} does not reproduce numbering (want {want})")
    if t["key"] in task_by_key:
        bad(f"duplicate task key {t['key']}")
    task_by_key[t["key"]] = t
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        d = pdate(t["due"])
        if d is None:
            bad(f"{t['key']}: bad due {t['due']}")
        elif t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"{t['key']}: week due {d} is not a Sunday")
    else:
        bad(f"{t['key']}: bad due_kind {t['due_kind']}")
if not 50 <= len(tasks) <= 60:
    bad(f"{len(tasks)} tasks, want 50-60")


def due_of(key):
    t = task_by_key[key]
    return pdate(t["due"]) if t["due"] else None


overdue = [k for k, t in task_by_key.items() if t["due"] and pdate(t["due"]) < TODAY]
due_today = [k for k, t in task_by_key.items()
             if t["due_kind"] == "day" and pdate(t["due"]) == TODAY]
week_due = [k for k, t in task_by_key.items() if t["due_kind"] == "week"]
if not overdue or not due_today or not week_due:
    bad("need overdue, due-today and week-due tasks")

# ---------------------------------------------------------------- phrases
texts = Counter(p.get("text") for p in phrases)
for t, n in texts.items():
    if n > 1:
        bad(f"duplicate phrase text {t!r}")

MOVE_WORDS = re.compile(r"перенес|сдвин|move|push|due|надо|нужн|must|has to|have to|need|"
                        r"успеть|дёрн|дерн|срок|schedule|wait|подожд")

for i, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{i} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
        continue
    if p["lang"] not in LANGS:
        bad(f"{where}: lang")
    if p["kind"] not in KINDS:
        bad(f"{where}: kind")
    if p["class"] not in CLASSES:
        bad(f"{where}: class {p['class']}")
    e = p["expect"]
    tool = e.get("tool")
    if tool not in TOOLS:
        bad(f"{where}: tool {tool}")
        continue
    # kind <-> tool
    if (p["kind"] == "ambiguous") != (tool == "clarify"):
        bad(f"{where}: kind {p['kind']} vs tool {tool}")
    if (p["kind"] == "unknown") != (tool == "none"):
        bad(f"{where}: kind {p['kind']} vs tool {tool}")
    if p["class"] in ("offtopic", "unknown_other") and tool != "none":
        bad(f"{where}: class {p['class']} must expect none")
    if p["class"] == "deadline_not_close" and tool not in ("update_task", "clarify", "none"):
        bad(f"{where}: deadline_not_close must move or clarify, never {tool}")
    if p["class"] == "project_leadin" and not (tool == "create_task" and "project" in e):
        bad(f"{where}: project_leadin must create with a project")
    if p["class"] == "negated_cancel" and tool not in ("cancel_task", "clarify", "none"):
        bad(f"{where}: negated_cancel must cancel or clarify")

    found = find_dates(p["text"])
    if tool in ("close_task", "cancel_task", "update_task"):
        if e.get("id") not in task_by_key:
            bad(f"{where}: unknown id {e.get('id')}")
            continue
    if tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"}:
            bad(f"{where}: update fields")
        d = pdate(e.get("deadline"))
        if d is None or e.get("deadline_kind") not in ("day", "week"):
            bad(f"{where}: bad deadline")
            continue
        if e["deadline_kind"] == "week" and d.weekday() != 6:
            bad(f"{where}: week deadline not a Sunday")
        if due_of(e["id"]) == d:
            bad(f"{where}: move to the task's current due {d}")
        if found != [(e["deadline_kind"], d)]:
            bad(f"{where}: reference dates {found}, expect {e['deadline_kind']} {d}")
    elif tool == "create_task":
        if not isinstance(e.get("text"), str) or not e["text"].strip():
            bad(f"{where}: create without text")
        if "project" in e and e["project"] not in pkeys:
            bad(f"{where}: unknown project {e['project']}")
        k = e.get("deadline_kind")
        if k == "none":
            if "deadline" in e:
                bad(f"{where}: kind none with a deadline")
            if found:
                bad(f"{where}: date found {found} but kind none")
        elif k in ("day", "week"):
            d = pdate(e.get("deadline"))
            if d is None:
                bad(f"{where}: bad deadline")
            elif found != [(k, d)]:
                bad(f"{where}: reference dates {found}, expect {k} {d}")
        else:
            bad(f"{where}: bad deadline_kind {k}")
    elif tool == "list_tasks":
        if e.get("filter") not in FILTERS:
            bad(f"{where}: filter {e.get('filter')}")
    elif tool == "clarify":
        opts = e.get("options") or []
        if len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify needs 2+ distinct options")
        for k in opts:
            if k not in task_by_key:
                bad(f"{where}: unknown option {k}")
        if found and MOVE_WORDS.search(p["text"].lower()):
            if len(found) != 1:
                bad(f"{where}: several dates {found}")
            else:
                d = found[0][1]
                for k in opts:
                    if k in task_by_key and due_of(k) == d:
                        bad(f"{where}: move date {d} equals current due of option {k}")

# ---------------------------------------------------------------- counts
def table(rows, key):
    c = Counter((key(p), p["lang"]) for p in rows)
    names = sorted({key(p) for p in rows}, key=lambda x: (CLASSES + sorted(KINDS | TOOLS)).index(x)
                   if x in CLASSES + sorted(KINDS | TOOLS) else 99)
    for n in names:
        print(f"  {n:20s} ru {c[(n, 'ru')]:3d}  en {c[(n, 'en')]:3d}  all {c[(n, 'ru')] + c[(n, 'en')]:3d}")


print(f"TODAY {TODAY} ({TODAY:%A}); projects {len(projects)}, tasks {len(tasks)} "
      f"({', '.join(f'{k} {v}' for k, v in counters.items())})")
print(f"overdue {len(overdue)}: {' '.join(overdue)}")
print(f"due today {len(due_today)}: {' '.join(due_today)}")
print(f"week due {len(week_due)}: {' '.join(week_due)}")
lang = Counter(p["lang"] for p in phrases)
print(f"phrases {len(phrases)}: ru {lang['ru']}, en {lang['en']}")
print("by kind:")
table(phrases, lambda p: p["kind"])
print("by expected tool:")
table(phrases, lambda p: p["expect"]["tool"])
lf = Counter(p["expect"]["filter"] for p in phrases if p["expect"]["tool"] == "list_tasks")
print("  list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(lf.items())))
print("by class:")
table(phrases, lambda p: p["class"])

kinds = Counter(p["kind"] for p in phrases)
if len(phrases) < 280:
    bad(f"only {len(phrases)} phrases")
if kinds["ambiguous"] < 40:
    bad(f"only {kinds['ambiguous']} ambiguous")
if kinds["unknown"] < 45:
    bad(f"only {kinds['unknown']} unknown")
cl = Counter((p["class"], p["lang"]) for p in phrases)
for c in CLASSES:
    for lg in LANGS:
        if cl[(c, lg)] == 0:
            bad(f"class {c} has no {lg} phrase")

if problems:
    print(f"\n{len(problems)} problem(s):")
    for m in problems:
        print("  " + m)
    sys.exit(1)
print("\nOK")
