#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-59 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl next to this file, checks their
shapes and cross-references, recomputes every date in an `expect` from a small
reference of the house date rules written for this set only, prints the counts and
exits 1 on any problem.

    python3 data/chat-phrases-holdout-59/validate.py           # check + counts
    python3 data/chat-phrases-holdout-59/validate.py --table   # also the date table
"""
import datetime as dt
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2043, 3, 8, 7, 30, tzinfo=dt.timezone.utc)
ZONE = "America/Halifax"

problems = []


def bad(msg):
    problems.append(msg)


# ---------------------------------------------------------------- the clock
def halifax_offset(t_utc):
    """UTC offset of America/Halifax by the current North American rule:
    AST (UTC-4); ADT (UTC-3) from the second Sunday of March 02:00 local standard
    time (06:00 UTC) to the first Sunday of November 02:00 local daylight time
    (05:00 UTC)."""
    y = t_utc.year
    mar1 = dt.date(y, 3, 1)
    second_sun = mar1 + dt.timedelta(days=(6 - mar1.weekday()) % 7 + 7)
    nov1 = dt.date(y, 11, 1)
    first_sun = nov1 + dt.timedelta(days=(6 - nov1.weekday()) % 7)
    start = dt.datetime(second_sun.year, 3, second_sun.day, 6, 0, tzinfo=dt.timezone.utc)
    end = dt.datetime(first_sun.year, 11, first_sun.day, 5, 0, tzinfo=dt.timezone.utc)
    return dt.timedelta(hours=-3) if start <= t_utc < end else dt.timedelta(hours=-4)


OFFSET = halifax_offset(NOW_UTC)
LOCAL_NOW = (NOW_UTC + OFFSET).replace(tzinfo=None)
TODAY = LOCAL_NOW.date()
if (TODAY, LOCAL_NOW.hour, LOCAL_NOW.minute, OFFSET) != (dt.date(2043, 3, 8), 4, 30, dt.timedelta(hours=-3)):
    bad(f"clock: local now {LOCAL_NOW} offset {OFFSET}, expected 2043-03-08 04:30 UTC-3")
# the jump happened this very night: one hour before the switch is still UTC-4
if halifax_offset(dt.datetime(2043, 3, 8, 5, 59, tzinfo=dt.timezone.utc)) != dt.timedelta(hours=-4):
    bad("clock: 05:59 UTC on 2043-03-08 should still be AST (UTC-4)")
try:  # cross-check with the system tz database when it is there
    from zoneinfo import ZoneInfo
    z = NOW_UTC.astimezone(ZoneInfo(ZONE))
    if z.utcoffset() != OFFSET or z.date() != TODAY:
        bad(f"clock: zoneinfo says {z}, reference says {LOCAL_NOW} {OFFSET}")
except Exception:
    pass

# ---------------------------------------------------------------- date reference
D = dt.timedelta
WD = {  # weekday words -> Monday=0
    0: "monday lundi понедельник понедельника понедельнику",
    1: "tuesday mardi вторник вторника вторнику",
    2: "wednesday mercredi среда среду среды среде",
    3: "thursday jeudi четверг четверга четвергу",
    4: "friday vendredi пятница пятницу пятницы пятнице",
    5: "saturday samedi суббота субботу субботы субботе",
    6: "sunday dimanche воскресенье воскресенья воскресенью",
}
WEEKDAY = {w: n for n, ws in WD.items() for w in ws.split()}
MONTHS_EN = "january february march april may june july august september october november december".split()
MONTHS_RU = "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split()
MONTH = {m: i + 1 for i, m in enumerate(MONTHS_EN)}
MONTH.update({m: i + 1 for i, m in enumerate(MONTHS_RU)})
SINGLE = {  # word -> (kind, days from today)
    "today": 0, "eod": 0, "сегодня": 0,
    "tomorrow": 1, "tmrw": 1, "tmr": 1, "завтра": 1, "demain": 1,
    "послезавтра": 2, "après-demain": 2, "apres-demain": 2,
}
NEXT = {"next", "следующий", "следующую", "следующей", "следующая", "следующем"}
WEEKW = {"week", "неделю", "неделе", "недели", "semaine"}
MONTHW = {"month", "месяца", "месяц", "месяце"}
WEEKEND = {"weekend", "выходные", "выходных", "выходным"}
# vocabulary the one-letter-off reading may correct to
VOCAB = set(WEEKDAY) | set(MONTH) | set(SINGLE) | NEXT | WEEKW | MONTHW | WEEKEND | {
    "end", "конец", "конца", "prochaine", "this", "этой", "days", "дней", "дня", "weeks", "недели", "недель"}


def norm(s):
    s = unicodedata.normalize("NFC", s).lower().replace("ё", "е")
    return s


def tokens(s):
    return re.findall(r"\d{1,2}\.\d{1,2}(?:\.\d{4})?|[\w\-]+", norm(s).replace("'", ""))


def dl1(a, b):
    """True when a and b are one edit apart (insert, delete, substitute, swap)."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    if la > lb:
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


def meaning(w):
    if w in WEEKDAY:
        return ("wd", WEEKDAY[w])
    if w in MONTH:
        return ("m", MONTH[w])
    if w in SINGLE:
        return ("s", SINGLE[w])
    for group, tag in ((NEXT, "next"), (WEEKW, "week"), (MONTHW, "month"), (WEEKEND, "weekend")):
        if w in group:
            return (tag,)
    return ("w", w)


def correct(w):
    """A word one letter off from date words that all mean the same thing is read as that word."""
    if w in VOCAB or len(w) < 3 or w.isdigit():
        return w
    hits = [v for v in VOCAB if dl1(w, v)]
    means = {meaning(v) for v in hits}
    if len(means) == 1:
        return hits[0]
    return w


def sunday_of(d):
    return d + D(days=6 - d.weekday())


def last_day(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - D(days=1)


def day_month(day, month, today):
    try:
        cand = dt.date(today.year, month, day)
    except ValueError:
        return None
    if (today - cand).days > 30:
        cand = dt.date(today.year + 1, month, day)
    return cand


def day_of_month(n, today):
    y, m = today.year, today.month
    for _ in range(2):
        last = last_day(y, m)
        cand = dt.date(y, m, min(n, last.day))
        if cand >= today:
            return cand
        y, m = (y + (m == 12), m % 12 + 1)
    return None


def find_date(text, today=TODAY):
    """First date phrase in text -> (kind, date) or None."""
    ws = [correct(w) for w in tokens(text)]
    n = len(ws)
    for i, w in enumerate(ws):
        nx = ws[i + 1] if i + 1 < n else ""
        pv = ws[i - 1] if i > 0 else ""
        # ISO and dd.mm
        m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", w)
        if m:
            return ("day", dt.date(*map(int, m.groups())))
        m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?", w)
        if m:
            d_, mo, y = m.groups()
            if y:
                return ("day", dt.date(int(y), int(mo), int(d_)))
            return ("day", day_month(int(d_), int(mo), today))
        # in N days / weeks, через N дней / недели
        if w in ("in", "через") and nx.isdigit() and i + 2 < n:
            k, unit = int(nx), ws[i + 2]
            if unit in ("days", "day", "дня", "дней", "день"):
                return ("day", today + D(days=k))
            if unit in ("weeks", "week", "недели", "недель", "неделю"):
                return ("day", today + D(days=7 * k))
        if w == "через" and nx == "неделю":
            return ("day", today + D(days=7))
        if w in ("in", "a") and nx == "fortnight":
            return ("day", today + D(days=14))
        # day + month / month + day
        if w.isdigit() and nx in MONTH:
            return ("day", day_month(int(w), MONTH[nx], today))
        if w in MONTH and nx.isdigit() and pv not in ("this", "этой"):
            return ("day", day_month(int(nx), MONTH[w], today))
        # the 20th / 20 числа
        m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)", w)
        if m:
            return ("day", day_of_month(int(m.group(1)), today))
        if w.isdigit() and nx == "числа":
            return ("day", day_of_month(int(w), today))
        # single words
        if w in SINGLE:
            return ("day", today + D(days=SINGLE[w]))
        if w == "day" and nx == "after" and i + 2 < n and ws[i + 2] == "tomorrow":
            return ("day", today + D(days=2))
        # weeks
        if w in NEXT and nx in WEEKW:
            return ("week", sunday_of(today) + D(days=7))
        if w in WEEKW and nx == "prochaine":
            return ("week", sunday_of(today) + D(days=7))
        if (w in ("end", "конец", "конца") and nx in ("of",) and i + 2 < n and ws[i + 2] in WEEKW) or \
           (w in ("конец", "конца") and nx in WEEKW) or (w in ("this", "этой") and nx in WEEKW):
            return ("week", sunday_of(today))
        # months
        if (w in ("end", "конец", "конца") and (nx in MONTHW or (nx == "of" and i + 2 < n and ws[i + 2] in MONTHW))):
            return ("day", last_day(today.year, today.month))
        if w in NEXT and nx in MONTHW:
            y, mo = today.year + (today.month == 12), today.month % 12 + 1
            return ("day", last_day(y, mo))
        # weekend
        if w in WEEKEND:
            return ("day", today + D(days=(5 - today.weekday()) % 7))
        # weekdays
        if w in WEEKDAY:
            wd = WEEKDAY[w]
            if pv in NEXT:
                return ("day", sunday_of(today) + D(days=1 + wd))
            ahead = (wd - today.weekday()) % 7 or 7
            return ("day", today + D(days=ahead))
    return None


# ---------------------------------------------------------------- load
def load(name, fields):
    rows = []
    path = os.path.join(HERE, name)
    with open(path, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{ln}: empty line")
                continue
            try:
                r = json.loads(line)
            except Exception as e:
                bad(f"{name}:{ln}: bad json {e}")
                continue
            if not isinstance(r, dict) or list(r.keys()) != fields:
                bad(f"{name}:{ln}: fields {list(r) if isinstance(r, dict) else r} != {fields}")
            rows.append(r)
    return rows


projects = load("projects.jsonl", ["key", "name", "description"])
tasks = load("tasks.jsonl", ["key", "title", "project", "due", "due_kind"])
phrases = load("phrases.jsonl", ["text", "lang", "kind", "expect", "class"])

# ---------------------------------------------------------------- projects
pkeys = [p["key"] for p in projects]
if len(projects) != 5:
    bad(f"projects: {len(projects)} lines, want 5")
if len(set(pkeys)) != len(pkeys) or "INBOX" in pkeys:
    bad("projects: duplicate keys or INBOX listed")
for p in projects:
    if not re.fullmatch(r"[A-Z]{2,10}", p["key"]) or not p["name"] or len(p["description"]) < 40:
        bad(f"projects: bad row {p}")

# ---------------------------------------------------------------- tasks
counter = {}
task_by_key = {}
for t in tasks:
    proj = t["project"] or "INBOX"
    if t["project"] is not None and t["project"] not in pkeys:
        bad(f"tasks: {t['key']} unknown project {t['project']}")
    counter[proj] = counter.get(proj, 0) + 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        bad(f"tasks: key {t['key']} but loading in file order gives {want}")
    if t["key"] in task_by_key:
        bad(f"tasks: duplicate {t['key']}")
    task_by_key[t["key"]] = t
    if not t["title"].strip():
        bad(f"tasks: {t['key']} empty title")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"tasks: {t['key']} due without kind")
    elif t["due_kind"] in ("day", "week"):
        try:
            d = dt.date.fromisoformat(t["due"])
        except Exception:
            bad(f"tasks: {t['key']} bad due {t['due']}")
            continue
        if t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"tasks: {t['key']} week due {d} is not a Sunday")
    else:
        bad(f"tasks: {t['key']} bad due_kind {t['due_kind']}")

titles = {norm(t["title"]): t["key"] for t in tasks}
if len(titles) != len(tasks):
    bad("tasks: two tasks share a title")


def due_of(k):
    t = task_by_key[k]
    return dt.date.fromisoformat(t["due"]) if t["due"] else None


dues = {"overdue": [], "today": [], "this week (week kind)": [], "later": [], "undated": []}
for t in tasks:
    d = due_of(t["key"])
    if d is None:
        dues["undated"].append(t["key"])
    elif t["due_kind"] == "week" and d == sunday_of(TODAY):
        dues["this week (week kind)"].append(t["key"])
    elif d < TODAY:
        dues["overdue"].append(t["key"])
    elif d == TODAY:
        dues["today"].append(t["key"])
    else:
        dues["later"].append(t["key"])

# ---------------------------------------------------------------- phrases
CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
              "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
              "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
KEY_RE = re.compile(r"\b([a-z]{2,10})[- ](\d{1,3})\b", re.I)
MOVE_WORDS = ("move", "push", "перенеси")

seen = set()
date_checked = 0
for ln, p in enumerate(phrases, 1):
    where = f"phrases:{ln} {p.get('text')!r}"
    text, e = p["text"], p["expect"]
    if not isinstance(text, str) or not text.strip():
        bad(f"{where}: empty text")
        continue
    if norm(text) in seen:
        bad(f"{where}: duplicate text")
    seen.add(norm(text))
    if p["lang"] not in ("ru", "en"):
        bad(f"{where}: lang")
    if p["class"] not in CLASS_KIND:
        bad(f"{where}: class {p['class']}")
        continue
    if p["kind"] != CLASS_KIND[p["class"]]:
        bad(f"{where}: kind {p['kind']} for class {p['class']}")
    # the frame language: Cyrillic letters decide ru unless the frame is English
    has_cyr = bool(re.search(r"[а-яё]", text.lower()))
    if p["lang"] == "en" and has_cyr:
        bad(f"{where}: en line with Cyrillic")
    tool = e.get("tool")
    shape = {
        "close_task": ["tool", "id"], "cancel_task": ["tool", "id"],
        "update_task": ["tool", "id", "deadline_kind", "deadline"],
        "list_tasks": ["tool", "filter"], "clarify": ["tool", "options"], "none": ["tool"],
    }
    if tool == "create_task":
        ks = list(e)
        ok = ks[:3] == ["tool", "text", "deadline_kind"] and set(ks) <= {"tool", "text", "deadline_kind", "deadline", "project"}
        if not ok or (e["deadline_kind"] == "none") == ("deadline" in e) or e["deadline_kind"] not in ("none", "day", "week"):
            bad(f"{where}: create shape {e}")
        if "project" in e and e["project"] not in pkeys:
            bad(f"{where}: create into unknown project {e['project']}")
    elif tool in shape:
        if list(e) != shape[tool]:
            bad(f"{where}: {tool} shape {list(e)}")
    else:
        bad(f"{where}: unknown tool {tool}")
        continue
    # kind <-> tool
    if p["kind"] == "ambiguous" and tool != "clarify":
        bad(f"{where}: ambiguous must be clarify")
    if p["kind"] == "unknown" and tool != "none":
        bad(f"{where}: unknown must be none")
    if p["kind"] == "plain" and tool in ("clarify", "none"):
        bad(f"{where}: plain cannot be {tool}")
    # ids
    if tool in ("close_task", "cancel_task", "update_task") and e["id"] not in task_by_key:
        bad(f"{where}: id {e['id']} does not exist")
    if tool == "clarify":
        o = e["options"]
        if len(o) < 2 or len(set(o)) != len(o) or any(k not in task_by_key for k in o):
            bad(f"{where}: clarify options {o}")
    if tool == "list_tasks" and e["filter"] not in FILTERS:
        bad(f"{where}: filter {e['filter']}")
    # class-specific checks
    keys_in_text = [f"{a.upper()}-{b}" for a, b in KEY_RE.findall(text)
                    if a.upper() in pkeys + ["INBOX"]]
    if p["class"] == "explicit_form":
        title_hit = [k for t_, k in titles.items() if t_ in norm(text)]
        if e.get("id") not in keys_in_text and e.get("id") not in title_hit:
            bad(f"{where}: explicit form names neither key nor exact title of {e.get('id')}")
    if p["class"] == "unknown_other":
        for k in keys_in_text:
            if k in task_by_key:
                bad(f"{where}: unknown_other names existing key {k}")
    if p["class"] == "report" and tool != "close_task":
        bad(f"{where}: report must close")
    if p["class"] == "negated_cancel" and tool != "cancel_task":
        bad(f"{where}: negated_cancel must cancel")
    if p["class"] == "deadline_not_close" and not (tool == "update_task" or (tool == "create_task" and e["deadline_kind"] != "none")):
        bad(f"{where}: deadline_not_close must move or create with a date")
    if p["class"] == "project_leadin" and not (tool == "create_task" and "project" in e):
        bad(f"{where}: project_leadin must create with a project")
    if tool == "create_task":
        if norm(e["text"]) not in norm(text).replace("'", ""):
            bad(f"{where}: create text {e['text']!r} is not part of the phrase")
        if find_date(e["text"]):
            bad(f"{where}: create text still holds a date {find_date(e['text'])}")
    # dates: recompute every expected date
    if tool in ("update_task", "create_task") and e.get("deadline_kind", "none") != "none":
        got = find_date(text)
        date_checked += 1
        if got is None:
            bad(f"{where}: reference finds no date")
        elif got != (e["deadline_kind"], dt.date.fromisoformat(e["deadline"])):
            bad(f"{where}: expect {e['deadline_kind']} {e['deadline']}, reference gives {got[0]} {got[1]}")
        if tool == "update_task" and due_of(e["id"]) == dt.date.fromisoformat(e["deadline"]) \
                and task_by_key[e["id"]]["due_kind"] == e["deadline_kind"]:
            bad(f"{where}: move to the date the task already has")
    if tool == "create_task" and e["deadline_kind"] == "none" and find_date(text):
        bad(f"{where}: undated create but the phrase holds {find_date(text)}")
    if tool == "clarify" and norm(text).split()[0] in MOVE_WORDS:
        got = find_date(text)
        date_checked += 1
        if got is None:
            bad(f"{where}: ambiguous move without a date")
        else:
            for k in e["options"]:
                if due_of(k) == got[1]:
                    bad(f"{where}: move date {got[1]} equals the due of {k}; the tie could be broken")

# ---------------------------------------------------------------- counts
def table(rows, colkey, rowkey, order):
    cols = ["ru", "en"]
    out = {r: {c: 0 for c in cols} for r in order}
    for p in rows:
        out[rowkey(p)][colkey(p)] += 1
    return out


CLASS_ORDER = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
               "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
KIND_ORDER = ["plain", "ambiguous", "unknown"]
ct = table(phrases, lambda p: p["lang"], lambda p: p["class"], CLASS_ORDER)
kt = table(phrases, lambda p: p["lang"], lambda p: p["kind"], KIND_ORDER)

if len(phrases) < 300:
    bad(f"phrases: {len(phrases)} < 300")
ru = sum(1 for p in phrases if p["lang"] == "ru")
en = len(phrases) - ru
if abs(ru - en) > len(phrases) * 0.1:
    bad(f"phrases: ru {ru} / en {en} not about equal")
for c in CLASS_ORDER:
    if abs(ct[c]["ru"] - ct[c]["en"]) > max(2, (ct[c]["ru"] + ct[c]["en"]) // 5):
        bad(f"class {c}: ru {ct[c]['ru']} en {ct[c]['en']} not about equal")


def md(title, tab, order):
    print(f"| {title} | ru | en | total |")
    print("|---|---|---|---|")
    for r in order:
        print(f"| {r} | {tab[r]['ru']} | {tab[r]['en']} | {tab[r]['ru'] + tab[r]['en']} |")
    print(f"| **all** | {ru} | {en} | **{len(phrases)}** |")


print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local now {LOCAL_NOW:%Y-%m-%d %H:%M} {ZONE} (UTC{int(OFFSET.total_seconds() // 3600):+d})")
print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}, dates recomputed {date_checked}")
print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in counter.items()))
for k, v in dues.items():
    print(f"  {k}: {len(v)}  {' '.join(v)}")
print()
md("class", ct, CLASS_ORDER)
print()
md("kind", kt, KIND_ORDER)
print()
tools = {}
for p in phrases:
    t = p["expect"]["tool"]
    tools[t] = tools.get(t, 0) + 1
print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(tools.items())))

if "--table" in sys.argv:
    print()
    print("| phrase | kind | date |")
    print("|---|---|---|")
    for s in ["today / сегодня", "tomorrow / tmrw / завтра / demain", "послезавтра / après-demain",
              "monday / в понедельник", "tuesday / во вторник", "wednesday / в среду", "thursday / к четвергу",
              "friday / в пятницу / vendredi", "saturday / в субботу", "sunday / в воскресенье",
              "next monday / в следующий понедельник", "next tuesday / в следующий вторник", "next friday",
              "this week / end of week / до конца недели", "next week / на следующей неделе / la semaine prochaine",
              "weekend / к выходным", "end of month / на конец месяца", "next month", "in 3 days / через 3 дня",
              "через неделю", "in 2 weeks / через 2 недели", "the 5th / до 5 числа", "the 8th", "the 20th",
              "12.03", "april 18 / 18 апреля", "6.02", "5.02"]:
        got = [find_date(v) for v in s.split(" / ")]
        if len(set(got)) != 1:
            bad(f"table: variants of {s!r} disagree: {got}")
        r = got[0]
        print(f"| {s} | {r[0] if r else '—'} | {r[1] if r else 'error'} {r[1].strftime('%a') if r else ''} |")

if problems:
    print(f"\n{len(problems)} PROBLEM(S):", file=sys.stderr)
    for m in problems:
        print("  " + m, file=sys.stderr)
    sys.exit(1)
print("\nOK")
