#!/usr/bin/env python3
"""Self-check for the chat-phrases-holdout set (stdlib only).

    python3 data/chat-phrases-holdout/validate.py

Checks the world (projects, tasks, keys per project in creation order, due dates),
the shape of every phrase and its expectation, and re-derives every expected date
from the words of the phrase with a small reference of the house date rules written
for this set only (TODAY = 2026-05-20, a Wednesday). Prints counts; exits 1 on a
problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2026, 5, 20)
assert TODAY.weekday() == 2, "TODAY must be a Wednesday"

problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


def iso(s):
    try:
        d = dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None
    return d if d.isoformat() == s else None


# ---------------------------------------------------------------- date reference
def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def next_weekday(wd):                      # strictly after today
    k = (wd - TODAY.weekday()) % 7 or 7
    return TODAY + dt.timedelta(days=k)


def weekday_next_week(wd):                 # that weekday in the next Mon-Sun week
    monday = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def day_month(day, month):                 # this year unless > 30 days past
    try:
        d = dt.date(TODAY.year, month, day)
    except ValueError:
        return None
    if (TODAY - d).days > 30:
        d = dt.date(TODAY.year + 1, month, day)
    return d


def day_of_month(day):                     # next such day on or after today
    y, m = TODAY.year, TODAY.month
    if day >= TODAY.day:
        return dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))
    y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))


WD = [
    r"(?:понедельник\w*|monday|mon|пн)",
    r"(?:вторник\w*|tuesday|tue|tues|вт)",
    r"(?:сред[аеуы]|wednesday|wed|ср)",
    r"(?:четверг\w*|thursday|thu|thurs|чт)",
    r"(?:пятниц\w*|friday|fri|пт)",
    r"(?:суббот\w*|saturday|sat|сб)",
    r"(?:воскресень\w*|sunday|sun|вс)",
]
MONTHS = {
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7,
    "август": 8, "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7,
    "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
RU_MONTH = r"(январ[яь]|феврал[яь]|марта?|апрел[яь]|ма[яй]|июн[яь]|июл[яь]|августа?|сентябр[яь]|октябр[яь]|ноябр[яь]|декабр[яь])"
EN_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
NUM = {"одну": 1, "один": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5,
       "a": 1, "one": 1, "two": 2, "three": 3}


def month_no(word):
    for stem in sorted(MONTHS, key=len, reverse=True):
        if word.startswith(stem):
            return MONTHS[stem]
    return None


def n_of(s):
    return int(s) if s.isdigit() else NUM[s]


B, E = r"(?<![\w.])", r"(?![\w])"
# (pattern, function(match) -> (kind, date)); tried in this order, a match's span is
# blanked before the next pattern, so "next friday" never also counts as "friday".
RULES = [
    (r"послезавтра|day after tomorrow", lambda m: ("day", TODAY + dt.timedelta(2))),
    (r"(?:до |к |на )?кон(?:ец|ца|цу) месяца|end of (?:the )?month|eom",
     lambda m: ("day", month_end(TODAY.year, TODAY.month))),
    (r"(?:в )?следующ\w* месяц\w*|next month",
     lambda m: ("day", month_end(*((TODAY.year + 1, 1) if TODAY.month == 12
                                   else (TODAY.year, TODAY.month + 1))))),
    (r"(?:до |к |на )?кон(?:ец|ца|цу) недели|(?:на )?этой неделе|this week|end of (?:the )?week",
     lambda m: ("week", sunday_of(TODAY))),
    (r"(?:на )?следующ\w* недел\w*|next week",
     lambda m: ("week", sunday_of(TODAY) + dt.timedelta(7))),
    (r"(?:на )?выходн\w*|(?:the |this )?weekend",
     lambda m: ("day", next_weekday(5))),
    (r"через (\d+|две|два|три|пять) (?:дня|дней|день)|in (\d+|two|three) days?",
     lambda m: ("day", TODAY + dt.timedelta(n_of(m.group(1) or m.group(2))))),
    (r"через (\d+|две|два|три) недел\w*|in (\d+|two|three) weeks",
     lambda m: ("day", TODAY + dt.timedelta(7 * n_of(m.group(1) or m.group(2))))),
    (r"через неделю|in a week",
     lambda m: ("day", TODAY + dt.timedelta(7))),
    (r"завтра|tomorrow|tmrw|tmr", lambda m: ("day", TODAY + dt.timedelta(1))),
    (r"сегодня|today|eod", lambda m: ("day", TODAY)),
]
for i, w in enumerate(WD):
    RULES.append((r"(?:next|следующ\w*|след\.?) (?:on )?" + w + E,
                  lambda m, i=i: ("day", weekday_next_week(i))))
    RULES.append((r"(?:(?:this|on|by|до|на|к|в|во) )?" + w + E,
                  lambda m, i=i: ("day", next_weekday(i))))
RULES += [
    (r"(\d{1,2}) " + RU_MONTH, lambda m: ("day", day_month(int(m.group(1)), month_no(m.group(2))))),
    (EN_MONTH + r" (\d{1,2})(?:st|nd|rd|th)?" + E,
     lambda m: ("day", day_month(int(m.group(2)), month_no(m.group(1))))),
    (r"(\d{1,2})\.(\d{1,2})(?![\w.])", lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
    (r"(?:до |к |на )?(\d{1,2}) числ\w*", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"(?:on |by )?the (\d{1,2})(?:st|nd|rd|th)", lambda m: ("day", day_of_month(int(m.group(1))))),
]
RULES = [(re.compile(B + p + E), f) for p, f in RULES]

def dates_in(text):
    """Every date phrase the reference recognises in text: [(kind, date), ...]."""
    s = text.lower().replace("ё", "е")
    found = []
    for rx, fn in RULES:
        while True:
            m = rx.search(s)
            if not m:
                break
            found.append(fn(m))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return found


# the reference checked against hand-worked answers (TODAY = Wed 2026-05-20)
for _text, _want in [
    ("friday", ("day", "2026-05-22")), ("в пятницу", ("day", "2026-05-22")),
    ("next friday", ("day", "2026-05-29")), ("в следующую пятницу", ("day", "2026-05-29")),
    ("wednesday", ("day", "2026-05-27")), ("next monday", ("day", "2026-05-25")),
    ("thursday", ("day", "2026-05-21")), ("next thursday", ("day", "2026-05-28")),
    ("завтра", ("day", "2026-05-21")), ("послезавтра", ("day", "2026-05-22")),
    ("до конца недели", ("week", "2026-05-24")), ("next week", ("week", "2026-05-31")),
    ("end of month", ("day", "2026-05-31")), ("в следующем месяце", ("day", "2026-06-30")),
    ("на выходных", ("day", "2026-05-23")), ("через 3 дня", ("day", "2026-05-23")),
    ("in 2 weeks", ("day", "2026-06-03")), ("через неделю", ("day", "2026-05-27")),
    ("до 5 числа", ("day", "2026-06-05")), ("on the 20th", ("day", "2026-05-20")),
    ("15.06", ("day", "2026-06-15")), ("1 июня", ("day", "2026-06-01")),
    ("june 10", ("day", "2026-06-10")), ("10 апреля", ("day", "2027-04-10")),
]:
    _got = dates_in(_text)
    assert [(k, d.isoformat()) for k, d in _got] == [_want], (_text, _got, _want)



# ------------------------------------------------------------------- the world
projects = {}
for n, p in load("projects.jsonl"):
    if set(p) != {"key", "name", "description"}:
        bad(f"projects.jsonl:{n}: fields {sorted(p)}")
    k = p.get("key", "")
    if not re.fullmatch(r"[A-Z]+", k) or k in projects or k == "INBOX":
        bad(f"projects.jsonl:{n}: bad or repeated key {k!r}")
    projects[k] = p
if not 4 <= len(projects) <= 5:
    bad(f"{len(projects)} projects, expected 4-5")

tasks = {}
counter = Counter()
buckets = Counter()
for n, t in load("tasks.jsonl"):
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks.jsonl:{n}: fields {sorted(t)}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in projects:
        bad(f"tasks.jsonl:{n}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        bad(f"tasks.jsonl:{n}: key {t['key']} but creation order gives {want}")
    if t["key"] in tasks:
        bad(f"tasks.jsonl:{n}: repeated key {t['key']}")
    kind, due = t["due_kind"], t["due"]
    if kind == "none":
        if due is not None:
            bad(f"tasks.jsonl:{n}: due_kind none with a due")
        buckets["undated"] += 1
    elif kind in ("day", "week"):
        d = iso(due)
        if d is None:
            bad(f"tasks.jsonl:{n}: bad due {due!r}")
            continue
        if kind == "week" and d.weekday() != 6:
            bad(f"tasks.jsonl:{n}: week due {due} is not a Sunday")
        if kind == "week":
            buckets["week"] += 1
        elif d < TODAY:
            buckets["overdue"] += 1
        elif d == TODAY:
            buckets["today"] += 1
        else:
            buckets["later"] += 1
    else:
        bad(f"tasks.jsonl:{n}: due_kind {kind!r}")
    tasks[t["key"]] = t
if not 45 <= len(tasks) <= 60:
    bad(f"{len(tasks)} tasks, expected 45-60")

# ----------------------------------------------------------------- the phrases
KIND_TOOLS = {
    "plain": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
    "ambiguous": {"clarify"},
    "unknown": {"none"},
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
KEY_RX = re.compile(r"\b([A-Za-z]+-\d+)\b")


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


seen = set()
by_kind_lang = Counter()
by_tool = Counter()
by_filter = Counter()
rows = load("phrases.jsonl")
for n, ph in rows:
    where = f"phrases.jsonl:{n} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "expect"}:
        bad(f"{where}: fields {sorted(ph)}")
        continue
    text, lang, kind, e = ph["text"], ph["lang"], ph["kind"], ph["expect"]
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang!r}")
    if kind not in KIND_TOOLS:
        bad(f"{where}: kind {kind!r}")
        continue
    if norm(text) in seen:
        bad(f"{where}: repeated text")
    seen.add(norm(text))
    tool = e.get("tool")
    if tool not in KIND_TOOLS[kind]:
        bad(f"{where}: kind {kind} with tool {tool}")
    by_kind_lang[(kind, lang)] += 1
    by_tool[tool] += 1
    found = dates_in(text)
    named_keys = [k.upper() for k in KEY_RX.findall(text)
                  if re.fullmatch(r"[A-Za-z]+-\d+", k) and k.split("-")[0].isalpha()
                  and k.split("-")[0].upper() in set(projects) | {"INBOX", "HOME", "WORK"}]

    if tool in ("close_task", "cancel_task", "update_task"):
        allowed = {"tool", "id"} | ({"deadline_kind", "deadline"} if tool == "update_task" else set())
        if set(e) != allowed:
            bad(f"{where}: fields {sorted(e)}")
        if e.get("id") not in tasks:
            bad(f"{where}: no task {e.get('id')}")
        if named_keys and named_keys != [e.get("id")]:
            bad(f"{where}: names {named_keys}, expects {e.get('id')}")
    if tool in ("update_task", "create_task"):
        dk = e.get("deadline_kind")
        if dk not in ("none", "day", "week") or (tool == "update_task" and dk == "none"):
            bad(f"{where}: deadline_kind {dk!r}")
        if dk == "none":
            if "deadline" in e:
                bad(f"{where}: deadline with kind none")
            if found:
                bad(f"{where}: kind none but the text has a date phrase {found}")
        else:
            d = iso(e.get("deadline"))
            if d is None:
                bad(f"{where}: bad deadline {e.get('deadline')!r}")
            elif dk == "week" and d.weekday() != 6:
                bad(f"{where}: week deadline {d} is not a Sunday")
            elif d < TODAY:
                bad(f"{where}: deadline {d} is in the past")
            distinct = set(found)
            if len(distinct) != 1:
                bad(f"{where}: reference finds {sorted(distinct)} date phrases, want exactly one")
            elif distinct != {(dk, d)}:
                bad(f"{where}: expects {dk} {d}, reference gives {found[0][0]} {found[0][1]}")
        if tool == "update_task" and e.get("id") in tasks:
            t = tasks[e["id"]]
            if (t["due_kind"], t["due"]) == (dk, e.get("deadline")):
                bad(f"{where}: moves {e['id']} to the date it already has")
    if tool == "create_task":
        if not set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"}:
            bad(f"{where}: fields {sorted(e)}")
        if "project" in e and e["project"] not in projects:
            bad(f"{where}: unknown project {e['project']}")
        t = e.get("text", "")
        if not t or norm(t) not in norm(text):
            bad(f"{where}: create text {t!r} is not a part of the phrase")
    if tool == "list_tasks":
        if set(e) != {"tool", "filter"} or e.get("filter") not in FILTERS:
            bad(f"{where}: bad list_tasks {e}")
        by_filter[e.get("filter")] += 1
    if tool == "clarify":
        opts = e.get("options", [])
        if set(e) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: bad clarify {e}")
        for k in opts:
            if k not in tasks:
                bad(f"{where}: option {k} is no task")
        for kd, d in set(found):          # an ambiguous move must not be tie-broken
            for k in opts:               # by "the one not already on that day"
                if k in tasks and tasks[k]["due"] == d.isoformat():
                    bad(f"{where}: date {d} equals the due of option {k}")
    if tool == "none":
        if set(e) != {"tool"}:
            bad(f"{where}: fields {sorted(e)}")
        for k in named_keys:
            if k in tasks:
                bad(f"{where}: unknown-kind phrase names an existing key {k}")

# --------------------------------------------------------------------- report
print(f"projects {len(projects)}: {', '.join(projects)} (+ INBOX)")
print(f"tasks {len(tasks)}: " + ", ".join(f"{p} {c}" for p, c in counter.items()))
print("  due: " + ", ".join(f"{k} {v}" for k, v in sorted(buckets.items())))
print(f"phrases {len(rows)}")
print(f"  {'kind':<10} {'ru':>4} {'en':>4} {'all':>5}")
for kind in KIND_TOOLS:
    ru, en = by_kind_lang[(kind, 'ru')], by_kind_lang[(kind, 'en')]
    print(f"  {kind:<10} {ru:>4} {en:>4} {ru + en:>5}")
ru = sum(v for (k, l), v in by_kind_lang.items() if l == "ru")
en = sum(v for (k, l), v in by_kind_lang.items() if l == "en")
print(f"  {'all':<10} {ru:>4} {en:>4} {ru + en:>5}")
print("  by tool: " + ", ".join(f"{k} {v}" for k, v in by_tool.most_common()))
print("  list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
mins = {"plain": 110, "ambiguous": 35, "unknown": 35}
for kind, m in mins.items():
    have = sum(v for (k, l), v in by_kind_lang.items() if k == kind)
    if have < m:
        bad(f"only {have} {kind} phrases, want >= {m}")
if len(rows) < 180:
    bad(f"only {len(rows)} phrases, want >= 180")
missing = FILTERS - set(by_filter)
if missing:
    bad(f"no list_tasks phrase for {sorted(missing)}")

if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems:
        print("  " + p)
    sys.exit(1)
print("\nOK")
