#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-44 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks shapes, keys and
classes, and recomputes every date answer from a small reference of the house
date rules written for this set only (not the parser's code). Prints counts;
exits 1 on any problem.
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2039, 12, 30, 16, 45, tzinfo=dt.timezone.utc)
ZONE = "Asia/Ho_Chi_Minh"
try:
    from zoneinfo import ZoneInfo
    LOCAL = NOW_UTC.astimezone(ZoneInfo(ZONE))
except Exception:  # no tzdata on this machine: Vietnam has been UTC+7 without DST
    LOCAL = NOW_UTC.astimezone(dt.timezone(dt.timedelta(hours=7)))
TODAY = LOCAL.date()

problems = []
def bad(msg):
    problems.append(msg)

def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{i}: empty line"); continue
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                bad(f"{name}:{i}: bad JSON: {e}")
    return rows

# ------------------------------------------------------------------ house date rules
D = dt.timedelta
def sunday_of(d):
    return d + D(days=6 - d.weekday())
def last_of_month(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - D(days=1)
def weekday_plain(wd):           # strictly after today
    n = (wd - TODAY.weekday()) % 7
    return TODAY + D(days=n or 7)
def weekday_next(wd):            # that weekday in the next Mon-Sun week
    next_monday = TODAY - D(days=TODAY.weekday()) + D(days=7)
    return next_monday + D(days=wd)
def day_month(day, month):       # this year's unless > 30 days in the past
    try:
        d = dt.date(TODAY.year, month, day)
    except ValueError:
        return None
    if (TODAY - d).days > 30:
        d = dt.date(TODAY.year + 1, month, day)
    return d
def day_of_month(day):           # next such day on or after today; short month -> its last day
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        last = last_of_month(y, m)
        cand = dt.date(y, m, min(day, last.day))
        if cand >= TODAY:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None

WD_EN = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
         "sunday": 6, "sun": 6}
WD_RU_STEM = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3), ("пятниц", 4),
              ("суббот", 5), ("воскресень", 6)]
WD_RU_SHORT = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
MONTHS = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6, "июля": 7,
          "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12,
          "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4,
          "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
          "sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11,
          "november": 11, "dec": 12, "december": 12}

def ru_weekday(word):
    for stem, n in WD_RU_STEM:
        if word.startswith(stem):
            return n
    return None

MON_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
RULES = [
    (r"\bday after tomorrow\b|\bпослезавтра\b", lambda m: ("day", TODAY + D(days=2))),
    (r"\b(?:tomorrow|tmrw|tmr|завтра|ngày mai|ngay mai|mañana|manana)\b", lambda m: ("day", TODAY + D(days=1))),
    (r"\b(?:today|eod|сегодня|hôm nay|hom nay)\b", lambda m: ("day", TODAY)),
    (r"\b(?:end of (?:the )?week|this week|до конца недели|к концу недели|на этой неделе)\b",
     lambda m: ("week", sunday_of(TODAY))),
    (r"\b(?:next week|на следующей неделе|на следующую неделю)\b",
     lambda m: ("week", sunday_of(TODAY) + D(days=7))),
    (r"\b(?:end of (?:the )?month|конец месяца|до конца месяца|к концу месяца)\b",
     lambda m: ("day", last_of_month(TODAY.year, TODAY.month))),
    (r"\b(?:next month|в следующем месяце|на следующий месяц)\b",
     lambda m: ("day", last_of_month(*((TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1))))),
    (r"\b(?:end of (?:the )?year|до конца года|конец года)\b", lambda m: ("day", dt.date(TODAY.year, 12, 31))),
    (r"\b(?:the )?weekend\b|\b(?:на |к |до )?выходн(?:ые|ых|ым)\b",
     lambda m: ("day", TODAY + D(days=(5 - TODAY.weekday()) % 7))),
    (r"\b(?:in a week|через неделю)\b", lambda m: ("day", TODAY + D(days=7))),
    (r"\b(?:in|через) (\d+) (?:weeks?|недел[июь])\b", lambda m: ("day", TODAY + D(days=7 * int(m.group(1))))),
    (r"\b(?:in|через) (\d+) (?:days?|дн(?:я|ей)|день)\b", lambda m: ("day", TODAY + D(days=int(m.group(1))))),
    (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: ("day", dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1))))),
    (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: ("day", dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))),
    (r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
    (r"\b(\d{1,2})/(\d{1,2})\b", lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))) if int(m.group(1)) > 12 else None)),
    (r"\b(\d{1,2}) (" + MON_RE + r")\b", lambda m: ("day", day_month(int(m.group(1)), MONTHS[m.group(2)]))),
    (r"\b(" + MON_RE + r") (\d{1,2})(?:st|nd|rd|th)?\b", lambda m: ("day", day_month(int(m.group(2)), MONTHS[m.group(1)]))),
    (r"\b(\d{1,2}) числа\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\bnext (" + "|".join(WD_EN) + r")\b", lambda m: ("day", weekday_next(WD_EN[m.group(1)]))),
    (r"\b(?:в |на |к |до )?следующ(?:ий|ую|ее|ей|ему) ([а-я]+)\b",
     lambda m: ("day", weekday_next(ru_weekday(m.group(1)))) if ru_weekday(m.group(1)) is not None else None),
    (r"\b(?:this )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
     lambda m: ("day", weekday_plain(WD_EN[m.group(1)]))),
    (r"\b(?:on|by|to|till|until|this) (mon|tue|tues|wed|thu|thurs|fri|sat|sun)\b",
     lambda m: ("day", weekday_plain(WD_EN[m.group(1)]))),
    (r"\b(?:в|во|на|к|до|по) (понедельник\w*|вторник\w*|сред[ауеы]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*)",
     lambda m: ("day", weekday_plain(ru_weekday(m.group(1))))),
    (r"\b(?:в|во|на|к|до|по) (пн|вт|ср|чт|пт|сб|вс)\b", lambda m: ("day", weekday_plain(WD_RU_SHORT[m.group(1)]))),
]
RULES = [(re.compile(p), f) for p, f in RULES]

def norm(s):
    s = s.lower().replace("ё", "е")
    return re.sub(r"[^\w\s./-]", " ", s)

def find_dates_exact(text):
    s = norm(text)
    found = []
    for rx, f in RULES:
        while True:
            m = rx.search(s)
            if not m:
                break
            r = f(m)
            if r is not None and r[1] is not None:
                found.append((r, m.group(0)))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return found

FUZZY_WORDS = ["tomorrow", "today", "monday", "tuesday", "wednesday", "thursday", "friday",
               "saturday", "sunday", "weekend", "завтра", "послезавтра", "сегодня",
               "понедельник", "понедельника", "понедельнику", "вторник", "вторника", "вторнику",
               "среду", "среды", "среде", "четверг", "четверга", "четвергу", "пятницу", "пятницы",
               "пятнице", "субботу", "субботы", "субботе", "воскресенье", "воскресенья",
               "неделе", "неделю", "выходные", "выходных"]

def osa(a, b):
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1): d[i][0] = i
    for j in range(len(b) + 1): d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            c = a[i - 1] != b[j - 1]
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + c)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]

def find_dates(text):
    """Exact reading first; if none, a date word one letter off is read as the word it is
    closest to (conversation rule), when exactly one date word is that close."""
    found = find_dates_exact(text)
    if found:
        return found, False
    toks = norm(text).split()
    for i, t in enumerate(toks):
        if len(t) < 5 or t in FUZZY_WORDS:
            continue
        near = {w for w in FUZZY_WORDS if osa(t, w) == 1}
        if near:
            cands = set()
            for w in near:
                cands |= {r for r, _ in find_dates_exact(" ".join(toks[:i] + [w] + toks[i + 1:]))}
            if len(cands) == 1:
                return [(cands.pop(), t)], True
    return [], False

# ------------------------------------------------------------------ load
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project shape: {p}")
    if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p["key"] == "INBOX":
        bad(f"project key: {p.get('key')}")
    if p["key"] in pkeys:
        bad(f"duplicate project {p['key']}")
    pkeys.add(p["key"])
if len(projects) != 5:
    bad(f"expected 5 projects, got {len(projects)}")

task_by_key = {}
counter = Counter()
titles = set()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task shape: {t}"); continue
    proj = t["project"] or "INBOX"
    if t["project"] is not None and t["project"] not in pkeys:
        bad(f"{t['key']}: unknown project {t['project']}")
    counter[proj] += 1
    if t["key"] != f"{proj}-{counter[proj]}":
        bad(f"{t['key']}: expected key {proj}-{counter[proj]} in creation order")
    if t["title"].lower() in titles:
        bad(f"duplicate title {t['title']}")
    titles.add(t["title"].lower())
    if t["due_kind"] == "none":
        if t["due"] is not None: bad(f"{t['key']}: due with kind none")
    elif t["due_kind"] in ("day", "week"):
        try:
            d = dt.date.fromisoformat(t["due"])
        except (TypeError, ValueError):
            bad(f"{t['key']}: bad due {t['due']}"); continue
        if t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"{t['key']}: week due not a Sunday")
    else:
        bad(f"{t['key']}: bad due_kind {t['due_kind']}")
    task_by_key[t["key"]] = t

def due_of(k):
    t = task_by_key[k]
    return (t["due_kind"], t["due"])

# ------------------------------------------------------------------ phrases
CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
              "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
              "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown"}
CLASS_TOOLS = {"typo": None, "report": {"close_task"}, "negated_cancel": {"cancel_task"},
               "explicit_form": {"close_task", "cancel_task", "update_task"},
               "deadline_not_close": {"update_task", "create_task"}, "project_leadin": {"create_task"},
               "offtopic": {"none"}, "plain_other": None, "ambiguous": {"clarify"}, "unknown_other": {"none"}}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
CYR = re.compile(r"[а-яё]", re.I)
seen = set()
by_class = Counter(); by_kind = Counter(); by_tool = Counter(); by_filter = Counter()
dates_checked = 0; fuzzy_read = 0

def check_date(i, text, kind, date, also_differs=None):
    global dates_checked, fuzzy_read
    found, fuzzy = find_dates(text)
    vals = {r for r, _ in found}
    if kind == "none":
        if vals:
            bad(f"phrases:{i}: {text!r}: no deadline expected but found {sorted(map(str, vals))}")
        return
    if len(vals) != 1:
        bad(f"phrases:{i}: {text!r}: expected one date, reference found {found}"); return
    got = vals.pop()
    if got != (kind, dt.date.fromisoformat(date)):
        bad(f"phrases:{i}: {text!r}: expect {kind} {date}, reference gives {got[0]} {got[1]}")
    dates_checked += 1
    fuzzy_read += fuzzy

for i, p in enumerate(phrases, 1):
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"phrases:{i}: shape {sorted(p)}"); continue
    text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if text in seen: bad(f"phrases:{i}: duplicate text {text!r}")
    seen.add(text)
    if lang not in ("ru", "en"): bad(f"phrases:{i}: lang {lang}")
    if lang == "ru" and not CYR.search(text): bad(f"phrases:{i}: ru line without Cyrillic")
    if lang == "en" and CYR.search(text): bad(f"phrases:{i}: en line with Cyrillic")
    if cls not in CLASS_KIND: bad(f"phrases:{i}: class {cls}"); continue
    if kind != CLASS_KIND[cls]: bad(f"phrases:{i}: kind {kind} for class {cls}")
    tool = e.get("tool")
    if CLASS_TOOLS[cls] is not None and tool not in CLASS_TOOLS[cls]:
        bad(f"phrases:{i}: tool {tool} not allowed for class {cls}")
    if kind == "plain" and tool in ("clarify", "none"):
        bad(f"phrases:{i}: plain with {tool}")
    by_class[(cls, lang)] += 1; by_kind[(kind, lang)] += 1; by_tool[tool] += 1
    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"} or e["id"] not in task_by_key:
            bad(f"phrases:{i}: bad {tool} {e}")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task_by_key:
            bad(f"phrases:{i}: bad update {e}"); continue
        if e["deadline_kind"] not in ("day", "week"): bad(f"phrases:{i}: update kind")
        if (e["deadline_kind"], e["deadline"]) == due_of(e["id"]):
            bad(f"phrases:{i}: move to the date {e['id']} already has")
        check_date(i, text, e["deadline_kind"], e["deadline"])
    elif tool == "create_task":
        keys = set(e) - {"tool", "text", "deadline_kind", "deadline", "project"}
        if keys or "text" not in e or "deadline_kind" not in e:
            bad(f"phrases:{i}: bad create {e}"); continue
        if e.get("project") is not None and e["project"] not in pkeys:
            bad(f"phrases:{i}: create into unknown project {e['project']}")
        if cls == "project_leadin" and not e.get("project"):
            bad(f"phrases:{i}: lead-in without project")
        if (e["deadline_kind"] == "none") != ("deadline" not in e):
            bad(f"phrases:{i}: create deadline/kind mismatch")
        if norm(e["text"]).split() and " ".join(norm(e["text"]).split()) not in " ".join(norm(text).split()):
            bad(f"phrases:{i}: create text {e['text']!r} is not a part of the phrase")
        if find_dates_exact(e["text"]):
            bad(f"phrases:{i}: create text still carries a date")
        check_date(i, text, e["deadline_kind"], e.get("deadline"))
    elif tool == "list_tasks":
        if set(e) - {"tool", "filter", "period"} or e.get("filter") not in FILTERS:
            bad(f"phrases:{i}: bad list {e}")
        by_filter[e.get("filter")] += 1
    elif tool == "clarify":
        opts = e.get("options", [])
        if set(e) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"phrases:{i}: bad clarify {e}")
        for k in opts:
            if k not in task_by_key: bad(f"phrases:{i}: clarify with unknown key {k}")
        found, _ = find_dates(text)
        for (dk, dd), _w in found:   # an ambiguous move must not be breakable by "the one already there"
            for k in opts:
                if k in task_by_key and due_of(k) == (dk, dd.isoformat()):
                    bad(f"phrases:{i}: move date equals current due of {k}")
    elif tool == "none":
        if set(e) != {"tool"}: bad(f"phrases:{i}: bad none {e}")
    else:
        bad(f"phrases:{i}: unknown tool {tool}")

# explicit keys that must not exist (the unknown_other ones) -- sanity: mentioned keys
for i, p in enumerate(phrases, 1):
    for m in re.finditer(r"\b([a-z]+)[- ](\d+)\b", p["text"].lower()):
        key = f"{m.group(1).upper()}-{m.group(2)}"
        if m.group(1).upper() in pkeys | {"INBOX"} and p["expect"]["tool"] in ("close_task", "cancel_task", "update_task"):
            if p["expect"]["id"] != key:
                bad(f"phrases:{i}: names {key} but expects {p['expect']['id']}")
        if m.group(1).upper() in pkeys | {"INBOX"} and key not in task_by_key and p["expect"]["tool"] != "none":
            bad(f"phrases:{i}: names missing key {key} but is not none")

# ------------------------------------------------------------------ report
print(f"now {NOW_UTC.isoformat()} = {LOCAL.isoformat()} local ({ZONE}); TODAY {TODAY} {TODAY:%A}")
print(f"projects {len(projects)}, tasks {len(tasks)}: " +
      ", ".join(f"{k} {v}" for k, v in counter.items()))
dues = Counter()
for t in tasks:
    if t["due_kind"] == "none": dues["undated"] += 1
    elif t["due_kind"] == "week": dues["week"] += 1
    else:
        d = dt.date.fromisoformat(t["due"])
        dues["overdue" if d < TODAY else "today" if d == TODAY else "later"] += 1
print("task dues:", dict(dues))
print(f"phrases {len(phrases)}; date answers recomputed {dates_checked} (read through a one-letter slip: {fuzzy_read})")
def table(title, rows, cnt):
    print(f"\n| {title} | ru | en | total |\n|---|---|---|---|")
    tr = te = 0
    for r in rows:
        a, b = cnt[(r, 'ru')], cnt[(r, 'en')]
        tr += a; te += b
        print(f"| {r} | {a} | {b} | {a + b} |")
    print(f"| **all** | {tr} | {te} | **{tr + te}** |")
table("class", list(CLASS_KIND), by_class)
table("kind", ["plain", "ambiguous", "unknown"], by_kind)
print("\nby tool:", ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items(), key=lambda x: -x[1])))
print("list filters:", dict(by_filter))
if problems:
    print(f"\n{len(problems)} PROBLEM(S):")
    for p in problems: print("  -", p)
    sys.exit(1)
print("\nOK")
