#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-14 (stdlib only).

Checks: file shapes; task keys unique and reproduced by per-project numbering in
file order (INBOX = no project); every key named in an expectation exists; kind
agrees with the expected tool; dates are valid; every relative date in a move,
create or ambiguous move resolves (by the small reference of the house rules
below, written for this set only) to the expected date under TODAY; a move's
date differs from the current due of every candidate; no misspelt weekday.
Prints counts by kind / lang / tool / class; exits 1 on any problem.

Run: python3 data/chat-phrases-holdout-14/validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2031, 6, 11)  # Wednesday, 18:25 Asia/Tashkent
LANGS = {"ru", "en"}
KINDS = {"plain", "ambiguous", "unknown"}
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
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


def parse_iso(s, where):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        bad(f"{where}: invalid date {s!r}")
        return None


# ---------------------------------------------------------------- house rules
def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def next_weekday(wd):
    """The next such weekday strictly after TODAY."""
    k = (wd - TODAY.weekday()) % 7
    return TODAY + dt.timedelta(days=k or 7)


def next_week_weekday(wd):
    """That weekday in the next Monday-Sunday week."""
    monday_next = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday_next + dt.timedelta(days=wd)


def last_day(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def day_month(d, m):
    """Day + month without a year: this year's unless > 30 days past."""
    try:
        cand = dt.date(TODAY.year, m, d)
    except ValueError:
        return None
    if (TODAY - cand).days > 30:
        cand = dt.date(TODAY.year + 1, m, d)
    return cand


def day_of_month(d):
    """Day of month alone: next such day on or after TODAY (clamped to month end)."""
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        cand = dt.date(y, m, min(d, last_day(y, m).day))
        if cand >= TODAY:
            return cand
        y, m = (y + (m == 12), m % 12 + 1)
    return None


WD_RU = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
         ("пятниц", 4), ("суббот", 5), ("воскресень", 6)]
WD_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MON_RU = ["январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август",
          "сентябр", "октябр", "ноябр", "декабр"]
MON_EN = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]

RU_WD_RE = r"(понедельник\w*|вторник\w*|сред[аыуе]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*)"
EN_WD_RE = r"(" + "|".join(WD_EN) + r")"
RU_MON_RE = r"(январ[яь]|феврал[яь]|марта?|апрел[яь]|ма[яй]|июн[яь]|июл[яь]|августа?|сентябр[яь]|октябр[яь]|ноябр[яь]|декабр[яь])"
EN_MON_RE = r"(" + "|".join(MON_EN) + r")"


def ru_wd(word):
    for stem, n in WD_RU:
        if word.startswith(stem):
            return n
    raise ValueError(word)


def ru_mon(word):
    for i, stem in enumerate(MON_RU):
        if word.startswith(stem):
            return i + 1
    raise ValueError(word)


# One-letter typos of date words that a careful reader takes at face value.
# (Weekday misspellings are errors under the house rules and are not used.)
TYPO_ALIASES = {"завра": "завтра", "tomorow": "tomorrow", "tomorrrow": "tomorrow",
                "mnth": "month"}

PATTERNS = [
    # (regex, resolver(match) -> (kind, date))
    (r"послезавтра|day after tomorrow", lambda m: ("day", TODAY + dt.timedelta(2))),
    (r"\bзавтра\b|\btomorrow\b|\btmrw?\b", lambda m: ("day", TODAY + dt.timedelta(1))),
    (r"\bсегодня\b|\btoday\b", lambda m: ("day", TODAY)),
    (r"(?:на|до) конца недели|к концу недели|на этой неделе|\bthis week\b|\bend of (?:the )?week\b",
     lambda m: ("week", sunday_of(TODAY))),
    (r"на следующ\w+ недел\w+|\bnext week\b",
     lambda m: ("week", sunday_of(TODAY) + dt.timedelta(7))),
    (r"(?:до|к) конц[ау] месяца|\bend of (?:the )?month\b",
     lambda m: ("day", last_day(TODAY.year, TODAY.month))),
    (r"в следующем месяце|\bnext month\b",
     lambda m: ("day", last_day(TODAY.year + (TODAY.month == 12), TODAY.month % 12 + 1))),
    (r"через неделю|\bin a week\b", lambda m: ("day", TODAY + dt.timedelta(7))),
    (r"\bin 2 weeks\b|через 2 недели", lambda m: ("day", TODAY + dt.timedelta(14))),
    (r"через (\d+) д(?:ня|ней|ень)|\bin (\d+) days\b",
     lambda m: ("day", TODAY + dt.timedelta(int(m.group(1) or m.group(2))))),
    (r"выходны\w+|\bweekend\b",
     lambda m: ("day", TODAY + dt.timedelta((5 - TODAY.weekday()) % 7))),
    (r"следующ\w+ " + RU_WD_RE, lambda m: ("day", next_week_weekday(ru_wd(m.group(1))))),
    (r"\bnext " + EN_WD_RE + r"\b", lambda m: ("day", next_week_weekday(WD_EN.index(m.group(1))))),
    (RU_WD_RE, lambda m: ("day", next_weekday(ru_wd(m.group(1))))),
    (r"\b" + EN_WD_RE + r"\b", lambda m: ("day", next_weekday(WD_EN.index(m.group(1))))),
    (r"\b(\d{1,2}) " + RU_MON_RE, lambda m: ("day", day_month(int(m.group(1)), ru_mon(m.group(2))))),
    (r"\b" + EN_MON_RE + r" (\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(2)), MON_EN.index(m.group(1)) + 1))),
    (r"\b(\d{1,2}) " + EN_MON_RE + r"\b",
     lambda m: ("day", day_month(int(m.group(1)), MON_EN.index(m.group(2)) + 1))),
    (r"\b(\d{1,2}) числа", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\b(\d{4})-(\d{2})-(\d{2})\b",
     lambda m: ("day", dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))),
]


def normalise(text):
    t = text.lower().replace("ё", "е")
    words = re.split(r"(\W+)", t)
    return "".join(TYPO_ALIASES.get(w, w) for w in words)


def find_dates(text):
    """All date expressions in text, left to right, without overlaps."""
    t = normalise(text)
    taken = [False] * len(t)
    found = []
    for rx, fn in PATTERNS:
        for m in re.finditer(rx, t):
            if any(taken[m.start():m.end()]):
                continue
            for i in range(m.start(), m.end()):
                taken[i] = True
            found.append((m.start(), m.group(0), fn(m)))
    found.sort()
    return [(s, r) for _, s, r in found]


# self-test of the reference on fixed points of TODAY (a Wednesday)
SELF = {
    "завтра": ("day", "2031-06-12"), "послезавтра": ("day", "2031-06-13"),
    "в пятницу": ("day", "2031-06-13"), "на среду": ("day", "2031-06-18"),
    "wednesday": ("day", "2031-06-18"), "thursday": ("day", "2031-06-12"),
    "next friday": ("day", "2031-06-20"), "next thursday": ("day", "2031-06-19"),
    "до конца недели": ("week", "2031-06-15"), "next week": ("week", "2031-06-22"),
    "end of month": ("day", "2031-06-30"), "next month": ("day", "2031-07-31"),
    "weekend": ("day", "2031-06-14"), "через неделю": ("day", "2031-06-18"),
    "in 3 days": ("day", "2031-06-14"), "до 15 числа": ("day", "2031-06-15"),
    "the 11th": ("day", "2031-06-11"), "the 5th": ("day", "2031-07-05"),
    "1 июня": ("day", "2031-06-01"), "10 мая": ("day", "2032-05-10"),
    "july 1": ("day", "2031-07-01"),
}
if TODAY.weekday() != 2:
    bad("TODAY is not a Wednesday")
for expr, (k, d) in SELF.items():
    got = find_dates(expr)
    if len(got) != 1 or got[0][1] != (k, dt.date.fromisoformat(d)):
        bad(f"reference self-test: {expr!r} -> {got}, want {k} {d}")

# ---------------------------------------------------------------- weekday typos
WEEKDAY_FORMS = set(WD_EN) | {w + "s" for w in WD_EN} | {
    "понедельник", "понедельника", "понедельнику", "понедельники", "вторник", "вторника",
    "вторнику", "среда", "среду", "среды", "среде", "четверг", "четверга", "четвергу",
    "пятница", "пятницу", "пятницы", "пятнице", "суббота", "субботу", "субботы", "субботе",
    "воскресенье", "воскресенья", "воскресенью"}
NOT_WEEKDAYS = {"среди", "средь", "сред", "sundae"}


def lev1(a, b):
    if a == b:
        return False
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    s, l = (a, b) if len(a) < len(b) else (b, a)
    return any(l[:i] + l[i + 1:] == s for i in range(len(l)))


def weekday_typos(text):
    out = []
    for w in re.findall(r"\w+", text.lower().replace("ё", "е")):
        if len(w) < 5 or w in WEEKDAY_FORMS or w in NOT_WEEKDAYS:
            continue
        if any(lev1(w, f) for f in WEEKDAY_FORMS):
            out.append(w)
    return out


# ---------------------------------------------------------------- projects, tasks
projects = load("projects.jsonl")
pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields: {p}")
    if p.get("key") in pkeys:
        bad(f"duplicate project {p.get('key')}")
    pkeys.add(p.get("key"))
if "INBOX" in pkeys:
    bad("INBOX must not be listed as a project")
if not 4 <= len(projects) <= 5:
    bad(f"{len(projects)} projects, want 4-5")

tasks = load("tasks.jsonl")
task = {}
counter = Counter()
for i, t in enumerate(tasks, 1):
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks:{i}: fields {sorted(t)}")
        continue
    p = t["project"]
    if p != "INBOX" and p not in pkeys:
        bad(f"tasks:{i}: unknown project {p}")
    counter[p] += 1
    want = f"{p}-{counter[p]}"
    if t["key"] != want:
        bad(f"tasks:{i}: key {t['key']} but numbering gives {want}")
    if t["key"] in task:
        bad(f"duplicate task key {t['key']}")
    task[t["key"]] = t
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due with kind none")
    elif t["due_kind"] in ("day", "week"):
        d = parse_iso(t["due"], t["key"])
        if d and t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"{t['key']}: week due is not a Sunday")
    else:
        bad(f"{t['key']}: due_kind {t['due_kind']!r}")
if not 50 <= len(tasks) <= 60:
    bad(f"{len(tasks)} tasks, want 50-60")


def due_of(k):
    t = task[k]
    return None if t["due"] is None else dt.date.fromisoformat(t["due"])


dues = [due_of(k) for k in task]
n_over = sum(1 for d in dues if d and d < TODAY)
n_today = sum(1 for k in task if due_of(k) == TODAY and task[k]["due_kind"] == "day")
n_week = sum(1 for k in task if task[k]["due_kind"] == "week")
if not (n_over and n_today and n_week):
    bad("need overdue, due-today and week-due tasks")

# ---------------------------------------------------------------- phrases
phrases = load("phrases.jsonl")
seen = set()
by = defaultdict(Counter)
tool_count = Counter()
list_count = Counter()
for i, ph in enumerate(phrases, 1):
    where = f"phrases:{i} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "class", "expect"}:
        bad(f"{where}: fields {sorted(ph)}")
        continue
    text, lang, kind, cls, e = ph["text"], ph["lang"], ph["kind"], ph["class"], ph["expect"]
    norm = " ".join(text.lower().split())
    if norm in seen:
        bad(f"{where}: duplicate text")
    seen.add(norm)
    if lang not in LANGS:
        bad(f"{where}: lang {lang}")
    if kind not in KINDS:
        bad(f"{where}: kind {kind}")
    if cls not in CLASSES:
        bad(f"{where}: class {cls}")
    tool = e.get("tool")
    if tool not in TOOLS:
        bad(f"{where}: tool {tool}")
        continue
    want_kind = {"clarify": "ambiguous", "none": "unknown"}.get(tool, "plain")
    if kind != want_kind:
        bad(f"{where}: kind {kind} but tool {tool}")
    for w in weekday_typos(text):
        bad(f"{where}: misspelt weekday {w!r}")
    by["kind"][(kind, lang)] += 1
    by["class"][(cls, lang)] += 1
    tool_count[tool] += 1

    found = find_dates(text)
    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"} or e["id"] not in task:
            bad(f"{where}: bad {tool} {e}")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task:
            bad(f"{where}: bad update {e}")
            continue
        d = parse_iso(e["deadline"], where)
        if len(found) != 1:
            bad(f"{where}: want exactly one date expression, found {found}")
        elif d and found[0][1] != (e["deadline_kind"], d):
            bad(f"{where}: {found[0][0]!r} resolves to {found[0][1]}, expect says "
                f"{e['deadline_kind']} {e['deadline']}")
        if d and d == due_of(e["id"]):
            bad(f"{where}: move to the task's current due")
    elif tool == "create_task":
        if not isinstance(e.get("text"), str) or not e["text"].strip():
            bad(f"{where}: create without text")
        if e.get("deadline_kind") not in ("none", "day", "week"):
            bad(f"{where}: deadline_kind {e.get('deadline_kind')}")
        if "project" in e and e["project"] != "INBOX" and e["project"] not in pkeys:
            bad(f"{where}: unknown project {e['project']}")
        if cls == "project_leadin" and "project" not in e:
            bad(f"{where}: project lead-in without project")
        if e.get("deadline_kind") == "none":
            if "deadline" in e:
                bad(f"{where}: deadline with kind none")
            if found:
                bad(f"{where}: create without deadline but text has {found}")
        else:
            d = parse_iso(e.get("deadline"), where)
            if len(found) != 1:
                bad(f"{where}: want exactly one date expression, found {found}")
            elif d and found[0][1] != (e["deadline_kind"], d):
                bad(f"{where}: {found[0][0]!r} resolves to {found[0][1]}, expect says "
                    f"{e['deadline_kind']} {e.get('deadline')}")
            if found and found[0][0] in normalise(e["text"]):
                bad(f"{where}: date phrase left in create text")
    elif tool == "list_tasks":
        if e.get("filter") not in FILTERS:
            bad(f"{where}: filter {e.get('filter')}")
        list_count[e.get("filter")] += 1
    elif tool == "clarify":
        opts = e.get("options", [])
        if len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify needs 2+ distinct options")
        for k in opts:
            if k not in task:
                bad(f"{where}: unknown option {k}")
        if len(found) > 1:
            bad(f"{where}: several dates {found}")
        if len(found) == 1 and all(k in task for k in opts):
            d = found[0][1][1]
            for k in opts:
                if due_of(k) == d:
                    bad(f"{where}: move date {d} equals current due of {k}")
    elif tool == "none":
        if set(e) != {"tool"}:
            bad(f"{where}: none with extra fields")

# ---------------------------------------------------------------- quotas
n = len(phrases)
n_ru = sum(1 for p in phrases if p.get("lang") == "ru")
n_en = n - n_ru
amb = sum(v for (k, _), v in by["kind"].items() if k == "ambiguous")
unk = sum(v for (k, _), v in by["kind"].items() if k == "unknown")
if n < 280:
    bad(f"only {n} phrases")
if abs(n_ru - n_en) > n * 0.1:
    bad(f"ru {n_ru} / en {n_en} not about equal")
if amb < 40:
    bad(f"ambiguous {amb} < 40")
if unk < 45:
    bad(f"unknown {unk} < 45")
for c in CLASSES:
    for lg in ("ru", "en"):
        if by["class"][(c, lg)] < 12:
            bad(f"class {c}/{lg}: {by['class'][(c, lg)]} < 12")

# ---------------------------------------------------------------- report
print(f"TODAY {TODAY} ({TODAY:%A}); projects {len(projects)}; tasks {len(tasks)} "
      f"({', '.join(f'{k} {v}' for k, v in counter.items())}); "
      f"overdue {n_over}, due today {n_today}, week due {n_week}")
print(f"phrases {n}: ru {n_ru}, en {n_en}")
print("by kind:      " + ", ".join(
    f"{k} {by['kind'][(k, 'ru')]}+{by['kind'][(k, 'en')]}" for k in sorted(KINDS)))
print("by tool:      " + ", ".join(f"{t} {tool_count[t]}" for t in sorted(tool_count)))
print("list filters: " + ", ".join(f"{f} {list_count[f]}" for f in sorted(list_count)))
print("by class (ru+en):")
for c in CLASSES:
    print(f"  {c:20s} {by['class'][(c, 'ru')]:3d} + {by['class'][(c, 'en')]:3d}")
if problems:
    print(f"\n{len(problems)} PROBLEM(S):")
    for p in problems:
        print("  - " + p)
    sys.exit(1)
print("\nOK")
