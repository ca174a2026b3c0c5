#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-13 (stdlib only).

    python3 data/chat-phrases-holdout-13/validate.py

Checks: task keys unique and reproducing per-project numbering in file order; every
key named in an expectation exists; dates valid; relative-date answers equal a small
independent reference of the house rules under TODAY (2031-01-22, Wed); moves never
land on a candidate's current due; kind/tool/class consistency; coverage floors.
Prints counts; exits 1 on any problem.
"""
import calendar
import collections
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2031, 1, 22)  # Wednesday, 09:40 Europe/Chisinau
assert TODAY.weekday() == 2

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


def iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- house date rules
def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def last_of_month(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def next_weekday(wd):  # strictly after today
    delta = (wd - TODAY.weekday()) % 7
    return TODAY + dt.timedelta(days=delta or 7)


def next_week_weekday(wd):  # that weekday in the next Monday-Sunday week
    monday_next = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday_next + dt.timedelta(days=wd)


def day_month(day, month):
    d = dt.date(TODAY.year, month, day)
    if (TODAY - d).days > 30:
        d = dt.date(TODAY.year + 1, month, day)
    return d


def day_of_month(day):  # next such day on or after today; short month -> its last day
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        last = calendar.monthrange(y, m)[1]
        d = dt.date(y, m, min(day, last))
        if d >= TODAY:
            return d
        m += 1
        if m == 13:
            y, m = y + 1, 1
    raise ValueError


EN_WD = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
RU_WD = [r"понедельник\w*", r"вторник\w*", r"сред[аыуе]", r"четверг\w*", r"пятниц\w*",
         r"суббот\w*", r"воскресень\w*"]
EN_MON = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
RU_MON = ["январ", "феврал", "март", "апрел", "ма[йя]", "июн", "июл", "август", "сентябр",
          "октябр", "ноябр", "декабр"]


def wd_of(word):
    w = word.lower()
    for i, n in enumerate(EN_WD):
        if w == n:
            return i
    for i, pat in enumerate(RU_WD):
        if re.fullmatch(pat, w):
            return i
    raise ValueError(word)


def mon_of(word):
    w = word.lower()
    for i, n in enumerate(EN_MON):
        if w.startswith(n):
            return i + 1
    for i, pat in enumerate(RU_MON):
        if re.match(pat, w):
            return i + 1
    raise ValueError(word)


WDS = "|".join(EN_WD + RU_WD)
ENM = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
RUM = r"(?:" + "|".join(RU_MON) + r")\w*"
D = lambda days: ("day", TODAY + dt.timedelta(days=days))

# (regex, resolver) — tried in order; a match blanks its span so shorter patterns
# cannot re-read it. Typo aliases for "tomorrow" are the ones used in class `typo`
# (house rules make only misspelt weekdays an error; none is used here).
RULES = [
    (r"\b(?:the )?day after tomorrow\b|\bпослезавтра\b", lambda m: D(2)),
    (r"\b(?:tomorrow|tomorow|tmorrow)\b|\b(?:завтра|завтар|звтра)\b", lambda m: D(1)),
    (r"\btoday\b|\bсегодня\b", lambda m: D(0)),
    (r"\bend of (?:the )?month\b|\b(?:конец|конца|концу) месяца\b",
     lambda m: ("day", last_of_month(TODAY.year, TODAY.month))),
    (r"\bnext month\b|\bследующем месяце\b",
     lambda m: ("day", last_of_month(TODAY.year + (TODAY.month == 12), TODAY.month % 12 + 1))),
    (r"\bend of (?:the )?week\b|\bthis week\b|\b(?:конца|концу|конец) недели\b|\bэтой неделе\b",
     lambda m: ("week", sunday_of(TODAY))),
    (r"\bnext week\b|\bследующей неделе\b|\bследующую неделю\b|\bслед неделю\b",
     lambda m: ("week", sunday_of(TODAY) + dt.timedelta(days=7))),
    (r"\b(?:the )?weekend\b|\bвыходн(?:ые|ых)\b",
     lambda m: ("day", TODAY + dt.timedelta(days=(5 - TODAY.weekday()) % 7))),
    (r"\bin (\d+) days?\b|\bчерез (\d+) (?:день|дня|дней)\b",
     lambda m: D(int(m.group(1) or m.group(2)))),
    (r"\bin a week\b|\bчерез неделю\b", lambda m: D(7)),
    (r"\bin (\d+) weeks\b|\bчерез (\d+) недел[иь]\b",
     lambda m: D(7 * int(m.group(1) or m.group(2)))),
    (r"\bnext (" + "|".join(EN_WD) + r")\b|\bследующ\w* (" + "|".join(RU_WD) + r")\b",
     lambda m: ("day", next_week_weekday(wd_of(m.group(1) or m.group(2))))),
    (r"\b(" + WDS + r")\b", lambda m: ("day", next_weekday(wd_of(m.group(1))))),
    (r"\b(\d{1,2}) (" + RUM + r"|" + ENM + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), mon_of(m.group(2))))),
    (r"\b(" + ENM + r") (\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(2)), mon_of(m.group(1))))),
    (r"\b(\d{1,2}) числа\b|\bthe (\d{1,2})(?:st|nd|rd|th)\b",
     lambda m: ("day", day_of_month(int(m.group(1) or m.group(2))))),
]

# Phrases where a date word is part of the task text, not a deadline (traps on purpose).
NOT_A_DATE = {
    "family idea: a monday pancake breakfast",
    "идея для семьи: выходные в вадул-луй-водэ",
}


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def resolve(text):
    """All (kind, date, matched-text) found in text."""
    s = norm(text)
    found = []
    for pat, fn in RULES:
        while True:
            m = re.search(pat, s)
            if not m:
                break
            kind, d = fn(m)
            found.append((kind, d, m.group(0)))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return found


# ---------------------------------------------------------------- projects and tasks
projects = load("projects.jsonl")
pkeys = [p.get("key") for p in projects]
if len(set(pkeys)) != len(pkeys):
    bad("duplicate project keys")
for p in projects:
    for f in ("key", "name", "description"):
        if not isinstance(p.get(f), str) or not p.get(f):
            bad(f"project {p}: missing {f}")
    if p.get("key") == "INBOX":
        bad("INBOX must stay implicit")

tasks = load("tasks.jsonl")
by_key = {}
counter = collections.Counter()
due_buckets = collections.Counter()
for t in tasks:
    proj = t.get("project")
    if proj != "INBOX" and proj not in pkeys:
        bad(f"task {t.get('key')}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t.get("key") != want:
        bad(f"task key {t.get('key')} should be {want} (creation order)")
    if t.get("key") in by_key:
        bad(f"duplicate task key {t.get('key')}")
    by_key[t.get("key")] = t
    if not t.get("title"):
        bad(f"task {t.get('key')}: empty title")
    dk, due = t.get("due_kind"), t.get("due")
    if dk == "none":
        if due is not None:
            bad(f"task {t['key']}: due with kind none")
        due_buckets["undated"] += 1
    elif dk in ("day", "week"):
        d = iso(due)
        if d is None:
            bad(f"task {t['key']}: bad due {due}")
            continue
        if dk == "week" and d.weekday() != 6:
            bad(f"task {t['key']}: week due must be a Sunday")
        if d < TODAY:
            due_buckets["overdue"] += 1
        elif d == TODAY:
            due_buckets["today"] += 1
        elif dk == "week":
            due_buckets["week"] += 1
        else:
            due_buckets["later"] += 1
    else:
        bad(f"task {t.get('key')}: bad due_kind {dk}")

# ---------------------------------------------------------------- phrases
CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
TOOLS_BY_CLASS = {
    "typo": {"close_task", "cancel_task", "update_task", "clarify"},
    "report": {"close_task", "clarify", "none"},
    "negated_cancel": {"cancel_task", "clarify"},
    "explicit_form": {"close_task", "cancel_task", "update_task", "clarify", "none"},
    "deadline_not_close": {"update_task", "clarify"},
    "project_leadin": {"create_task"},
    "offtopic": {"none"},
    "plain_other": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
    "ambiguous": {"clarify"},
    "unknown_other": {"none"},
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

phrases = load("phrases.jsonl")
seen = set()
by_kind = collections.Counter()
by_kl = collections.Counter()
by_tool = collections.Counter()
by_filter = collections.Counter()
by_cl = collections.Counter()
for n, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{n} {p.get('text')!r}"
    text, lang, kind, exp, cls = (p.get(k) for k in ("text", "lang", "kind", "expect", "class"))
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
    if not isinstance(text, str) or not text.strip():
        bad(f"{where}: empty text")
        continue
    if norm(text) in seen:
        bad(f"{where}: duplicate text")
    seen.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if cls not in CLASSES:
        bad(f"{where}: class {cls}")
    if not isinstance(exp, dict):
        bad(f"{where}: expect not an object")
        continue
    tool = exp.get("tool")
    want_kind = {"clarify": "ambiguous", "none": "unknown"}.get(tool, "plain")
    if kind != want_kind:
        bad(f"{where}: kind {kind} but tool {tool}")
    if cls in TOOLS_BY_CLASS and tool not in TOOLS_BY_CLASS[cls]:
        bad(f"{where}: tool {tool} not allowed for class {cls}")
    by_kind[kind] += 1
    by_kl[(kind, lang)] += 1
    by_tool[tool] += 1
    by_cl[(cls, lang)] += 1
    dates = [] if norm(text) in NOT_A_DATE else resolve(text)

    if tool in ("close_task", "cancel_task"):
        if exp.get("id") not in by_key:
            bad(f"{where}: unknown id {exp.get('id')}")
        if set(exp) != {"tool", "id"}:
            bad(f"{where}: extra fields")
    elif tool == "update_task":
        k = exp.get("id")
        if k not in by_key:
            bad(f"{where}: unknown id {k}")
            continue
        dk, d = exp.get("deadline_kind"), iso(exp.get("deadline"))
        if dk not in ("day", "week") or d is None:
            bad(f"{where}: bad deadline {dk} {exp.get('deadline')}")
            continue
        if len(dates) != 1:
            bad(f"{where}: reference finds {len(dates)} date phrases: {dates}")
        elif (dates[0][0], dates[0][1]) != (dk, d):
            bad(f"{where}: expected {dk} {d}, reference says {dates[0][0]} {dates[0][1]}")
        if by_key[k]["due"] == exp.get("deadline"):
            bad(f"{where}: move to the task's current due")
    elif tool == "create_task":
        dk = exp.get("deadline_kind")
        t = exp.get("text")
        if not t or norm(t) not in norm(text):
            bad(f"{where}: create text is not part of the phrase")
        if dk == "none":
            if "deadline" in exp:
                bad(f"{where}: deadline with kind none")
            if dates:
                bad(f"{where}: reference finds a date {dates} but expect has none")
        elif dk in ("day", "week"):
            d = iso(exp.get("deadline"))
            if len(dates) != 1:
                bad(f"{where}: reference finds {len(dates)} date phrases: {dates}")
            elif (dates[0][0], dates[0][1]) != (dk, d):
                bad(f"{where}: expected {dk} {d}, reference says {dates[0][0]} {dates[0][1]}")
            elif norm(dates[0][2]) in norm(t):
                bad(f"{where}: date phrase left inside create text")
        else:
            bad(f"{where}: bad deadline_kind {dk}")
        proj = exp.get("project")
        if proj is not None and proj not in pkeys:
            bad(f"{where}: unknown project {proj}")
        if cls == "project_leadin" and proj is None:
            bad(f"{where}: project lead-in without project")
    elif tool == "list_tasks":
        if exp.get("filter") not in FILTERS:
            bad(f"{where}: bad filter")
        by_filter[exp.get("filter")] += 1
    elif tool == "clarify":
        opts = exp.get("options") or []
        if len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify needs 2+ distinct options")
        for k in opts:
            if k not in by_key:
                bad(f"{where}: unknown option {k}")
        for kind_, d, _ in dates:  # an ambiguous move: its date must differ from every candidate's due
            for k in opts:
                if k in by_key and by_key[k]["due"] == d.isoformat():
                    bad(f"{where}: move date {d} equals current due of {k}")
    elif tool == "none":
        if set(exp) != {"tool"}:
            bad(f"{where}: extra fields on none")
    else:
        bad(f"{where}: unknown tool {tool}")

# ---------------------------------------------------------------- coverage floors
total = len(phrases)
ru = sum(v for (k, l), v in by_kl.items() if l == "ru")
en = total - ru
if total < 270:
    bad(f"only {total} phrases")
if by_kind["ambiguous"] < 40:
    bad(f"only {by_kind['ambiguous']} ambiguous")
if by_kind["unknown"] < 45:
    bad(f"only {by_kind['unknown']} unknown")
if abs(ru - en) > 0.1 * total:
    bad(f"ru {ru} / en {en} not about equal")
for c in CLASSES:
    for l in ("ru", "en"):
        if by_cl[(c, l)] < 12:
            bad(f"class {c} {l}: only {by_cl[(c, l)]}")
if not (50 <= len(tasks) <= 60):
    bad(f"{len(tasks)} tasks")
if not (4 <= len(projects) <= 5):
    bad(f"{len(projects)} projects")

# ---------------------------------------------------------------- report
print(f"TODAY {TODAY} ({TODAY.strftime('%A')})")
print(f"projects {len(projects)}; tasks {len(tasks)}: " +
      ", ".join(f"{k} {v}" for k, v in sorted(counter.items())))
print("task dues: " + ", ".join(f"{k} {v}" for k, v in sorted(due_buckets.items())))
print(f"phrases {total}: ru {ru}, en {en}")
print("by kind:  " + ", ".join(
    f"{k} {by_kind[k]} (ru {by_kl[(k, 'ru')]}, en {by_kl[(k, 'en')]})"
    for k in ("plain", "ambiguous", "unknown")))
print("by tool:  " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
print("by class:")
for c in CLASSES:
    print(f"  {c:20s} ru {by_cl[(c, 'ru')]:3d}  en {by_cl[(c, 'en')]:3d}  all {by_cl[(c, 'ru')] + by_cl[(c, 'en')]:3d}")
if problems:
    print(f"\n{len(problems)} problem(s):")
    for m in problems:
        print("  - " + m)
    sys.exit(1)
print("\nOK")
