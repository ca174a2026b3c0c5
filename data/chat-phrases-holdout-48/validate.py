#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-48 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and the
keys they name, recomputes every date answer from a small reference of the house
date rules written for this set only (not taken from the parser), prints the
counts and exits 1 on any problem.

    python3 data/chat-phrases-holdout-48/validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))

NOW_UTC = "2040-12-31T19:00:00Z"
ZONE = "Asia/Kolkata"
ZONE_OFFSET = dt.timedelta(hours=5, minutes=30)  # Asia/Kolkata: no DST since 1945

problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


# --------------------------------------------------------------------- today
def local_now():
    utc = dt.datetime.strptime(NOW_UTC, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
    local = utc.astimezone(dt.timezone(ZONE_OFFSET))
    try:  # cross-check with the tz database when it is installed
        from zoneinfo import ZoneInfo
        z = utc.astimezone(ZoneInfo(ZONE))
        if z.replace(tzinfo=None) != local.replace(tzinfo=None):
            bad(f"zone offset mismatch: {z} vs {local}")
    except Exception:
        pass
    return local


NOW = local_now()
TODAY = NOW.date()
if TODAY != dt.date(2041, 1, 1) or TODAY.weekday() != 1 or (NOW.hour, NOW.minute) != (0, 30):
    bad(f"TODAY is not Tuesday 2041-01-01 00:30 local: {NOW}")


# ------------------------------------------------- reference of house rules
def add_days(n):
    return TODAY + dt.timedelta(days=n)


def this_sunday():
    return TODAY + dt.timedelta(days=6 - TODAY.weekday())


def next_sunday():
    return this_sunday() + dt.timedelta(days=7)


def last_day(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def weekday_plain(wd):  # strictly after today
    d = (wd - TODAY.weekday()) % 7
    return add_days(d or 7)


def weekday_next(wd):  # that weekday in the next Monday-Sunday week
    monday_next = TODAY + dt.timedelta(days=7 - TODAY.weekday())
    return monday_next + dt.timedelta(days=wd)


def day_month(d, m, y=None):
    if y is not None:
        return dt.date(y, m, d)
    cand = dt.date(TODAY.year, m, d)
    if (TODAY - cand).days > 30:
        cand = dt.date(TODAY.year + 1, m, d)
    return cand


def day_of_month(d):
    y, m = TODAY.year, TODAY.month
    while True:
        cand = dt.date(y, m, min(d, last_day(y, m).day))
        if cand >= TODAY:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)


WD = {}
for i, forms in enumerate([
    "понедельник понедельника понедельнику monday",
    "вторник вторника вторнику tuesday",
    "среда среду среды среде wednesday",
    "четверг четверга четвергу thursday",
    "пятница пятницу пятницы пятнице friday",
    "суббота субботу субботы субботе saturday",
    "воскресенье воскресенья воскресенью sunday",
]):
    for w in forms.split():
        WD[w] = i
WD_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6,
           "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
           "fri": 4, "sat": 5, "sun": 6}
MONTHS = {}
for i, forms in enumerate([
    "января january jan", "февраля february feb", "марта march mar", "апреля april apr",
    "мая may", "июня june jun", "июля july jul", "августа august aug",
    "сентября september sep sept", "октября october oct", "ноября november nov",
    "декабря december dec",
], 1):
    for w in forms.split():
        MONTHS[w] = i

# canonical date words a one-letter slip is read back to (length >= 5 only)
FUZZY = {w: ("wd", i) for w, i in WD.items()}
FUZZY.update({w: ("m", i) for w, i in MONTHS.items() if len(w) >= 5})
for w in "сегодня today tonight".split():
    FUZZY[w] = ("rel", 0)
FUZZY["завтра"] = ("rel", 1)
FUZZY["tomorrow"] = ("rel", 1)
FUZZY["послезавтра"] = ("rel", 2)
for w in "weekend выходные выходных выходным".split():
    FUZZY[w] = ("weekend", 0)
for w in "неделю недели неделе".split():
    FUZZY[w] = ("week", 0)
for w in "месяца месяце".split():
    FUZZY[w] = ("month", 0)
# real words one letter away from a date word; never read as dates
STOP = {"завтрак", "завтраку", "среди", "недель", "месяц", "sundays", "weekends", "months"}


def osa(a, b):
    """optimal string alignment distance (one adjacent swap counts as 1)"""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            c = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + c)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def correct(tok):
    if tok in FUZZY or tok in STOP or len(tok) < 5 or not tok.isalpha():
        return tok
    near = [w for w in FUZZY if abs(len(w) - len(tok)) <= 1 and osa(w, tok) == 1]
    meanings = {FUZZY[w] for w in near}
    if len(meanings) == 1:
        return sorted(near)[0]
    return tok


TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}(?:[./]\d{4})?|[a-zа-я0-9]+")


def norm(s):
    return " ".join(s.lower().replace("ё", "е").split())


WDRX = "|".join(sorted(list(WD) + list(WD_ABBR), key=len, reverse=True))
MRX = "|".join(sorted(MONTHS, key=len, reverse=True))


def wdnum(w):
    return WD[w] if w in WD else WD_ABBR[w]


RULES = [
    (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))),
    (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: ("day", dt.date(int(m[3]), int(m[2]), int(m[1])))),
    (r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: ("day", day_month(int(m[1]), int(m[2])))),
    (r"\b(\d{1,2})/(\d{1,2})\b", lambda m: ("day", day_month(int(m[1]), int(m[2]))) if int(m[1]) > 12 else ("error", None)),
    (rf"\b(\d{{1,2}}) ({MRX})\b", lambda m: ("day", day_month(int(m[1]), MONTHS[m[2]]))),
    (rf"\b({MRX}) (\d{{1,2}})\b", lambda m: ("day", day_month(int(m[2]), MONTHS[m[1]]))),
    (r"\b(\d{1,2}) числа\b", lambda m: ("day", day_of_month(int(m[1])))),
    (r"\b(\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m[1])))),
    (r"\bчерез (\d+) (?:день|дня|дней)\b", lambda m: ("day", add_days(int(m[1])))),
    (r"\bin (\d+) days?\b", lambda m: ("day", add_days(int(m[1])))),
    (r"\b(?:через неделю|in a week|in 1 week)\b", lambda m: ("day", add_days(7))),
    (r"\b(?:через (\d+) недели|in (\d+) weeks)\b", lambda m: ("day", add_days(7 * int(m[1] or m[2])))),
    (r"\b(?:послезавтра|day after tomorrow)\b", lambda m: ("day", add_days(2))),
    (r"\b(?:завтра|tomorrow|tmrw|tmr)\b", lambda m: ("day", add_days(1))),
    (r"\b(?:сегодня|today|tonight|eod)\b", lambda m: ("day", TODAY)),
    (r"\b(?:next week|следующей неделе|следующую неделю|следующей недели)\b", lambda m: ("week", next_sunday())),
    (r"\b(?:this week|end of (?:the )?week|этой неделе|конца недели|концу недели|конец недели)\b", lambda m: ("week", this_sunday())),
    (r"\b(?:end of (?:the )?month|конца месяца|конец месяца|концу месяца)\b", lambda m: ("day", last_day(TODAY.year, TODAY.month))),
    (r"\b(?:next month|следующем месяце)\b", lambda m: ("day", last_day(TODAY.year + (TODAY.month == 12), TODAY.month % 12 + 1))),
    (r"\b(?:end of (?:the )?year|конца года|конец года)\b", lambda m: ("day", dt.date(TODAY.year, 12, 31))),
    (r"\b(?:weekend|выходные|выходных|выходным)\b", lambda m: ("day", TODAY + dt.timedelta(days=(5 - TODAY.weekday()) % 7))),
    (rf"\b(?:next|следующ[а-я]*) ({WDRX})\b", lambda m: ("day", weekday_next(wdnum(m[1])))),
    (rf"\b(?:this )?({WDRX})\b", lambda m: ("day", weekday_plain(wdnum(m[1])))),
]


def ref_date(text):
    """-> None, or (kind, date) read by the reference rules from the phrase."""
    toks = [correct(t) for t in TOKEN.findall(norm(text))]
    s = " " + " ".join(toks) + " "
    found = []
    for rx, fn in RULES:
        while True:
            m = re.search(rx, s)
            if not m:
                break
            found.append(fn(m))
            s = s[:m.start()] + " # " + s[m.end():]
    if not found:
        return None
    if len(set(found)) > 1:
        return ("conflict", tuple(found))
    return found[0]


# ----------------------------------------------------------------- checks
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields: {p}")
        continue
    if not re.fullmatch(r"[A-Z]{2,6}", p["key"]) or p["key"] == "INBOX":
        bad(f"project key: {p['key']}")
    if p["key"] in pkeys:
        bad(f"duplicate project {p['key']}")
    pkeys.add(p["key"])
    if not p["name"].strip() or len(p["description"]) < 30:
        bad(f"project {p['key']}: empty name or short description")
if len(projects) != 5:
    bad(f"{len(projects)} projects, expected 5")

tmap = {}
counter = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task fields: {t}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"{t['key']}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        bad(f"task key {t['key']} != {want} (creation order)")
    if t["key"] in tmap:
        bad(f"duplicate task {t['key']}")
    tmap[t["key"]] = t
    if not t["title"].strip():
        bad(f"{t['key']}: empty title")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due with kind none")
    elif t["due_kind"] in ("day", "week"):
        try:
            d = dt.date.fromisoformat(t["due"])
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"{t['key']}: week due {d} is not a Sunday")
        except (TypeError, ValueError):
            bad(f"{t['key']}: bad due {t['due']}")
    else:
        bad(f"{t['key']}: bad due_kind {t['due_kind']}")
titles = Counter(norm(t["title"]) for t in tasks)
for k, v in titles.items():
    if v > 1:
        bad(f"duplicate title {k}")

CLASS_KIND = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
    "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
    "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown",
}
CLASS_TOOLS = {
    "report": {"close_task"}, "negated_cancel": {"cancel_task"},
    "deadline_not_close": {"update_task", "create_task"}, "project_leadin": {"create_task"},
    "offtopic": {"none"}, "unknown_other": {"none"}, "ambiguous": {"clarify"},
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
CYR = re.compile(r"[а-яё]", re.I)

seen = set()
date_checked = 0
for n, ph in enumerate(phrases, 1):
    where = f"phrases:{n} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(ph)}")
        continue
    text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    if norm(text) in seen:
        bad(f"{where}: duplicate text")
    seen.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if lang == "ru" and not CYR.search(text):
        bad(f"{where}: ru phrase without Cyrillic")
    if lang == "en" and CYR.search(text):
        bad(f"{where}: en phrase with Cyrillic")
    if cls not in CLASS_KIND:
        bad(f"{where}: class {cls}")
        continue
    if CLASS_KIND[cls] != kind:
        bad(f"{where}: class {cls} needs kind {CLASS_KIND[cls]}, got {kind}")
    tool = exp.get("tool")
    if cls in CLASS_TOOLS and tool not in CLASS_TOOLS[cls]:
        bad(f"{where}: class {cls} with tool {tool}")
    if kind == "ambiguous" and tool != "clarify" or kind == "unknown" and tool != "none" \
            or kind == "plain" and tool in ("clarify", "none"):
        bad(f"{where}: kind {kind} with tool {tool}")
    if cls == "explicit_form" and not re.search(r"\b[a-z]{3,5}[- ]?\d+\b", text.lower()) \
            and not any(norm(t["title"]) in norm(text) for t in tasks):
        bad(f"{where}: explicit_form without a key or exact title")

    shape = {
        "close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
        "update_task": {"tool", "id", "deadline_kind", "deadline"},
        "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"},
    }
    if tool == "create_task":
        keys = set(exp)
        ok = {"tool", "text", "deadline_kind"} <= keys <= {"tool", "text", "deadline_kind", "deadline", "project"}
        if not ok:
            bad(f"{where}: create shape {sorted(keys)}")
    elif tool in shape:
        if set(exp) != shape[tool]:
            bad(f"{where}: {tool} shape {sorted(exp)}")
    else:
        bad(f"{where}: unknown tool {tool}")
        continue

    if tool in ("close_task", "cancel_task", "update_task") and exp.get("id") not in tmap:
        bad(f"{where}: no task {exp.get('id')}")
    if tool == "list_tasks" and exp.get("filter") not in FILTERS:
        bad(f"{where}: filter {exp.get('filter')}")
    if tool == "clarify":
        opts = exp.get("options", [])
        if len(opts) < 2 or len(set(opts)) != len(opts) or any(o not in tmap for o in opts):
            bad(f"{where}: clarify options {opts}")
    if tool == "create_task":
        if exp.get("project") is not None and exp["project"] not in pkeys:
            bad(f"{where}: create project {exp['project']}")
        if cls == "project_leadin" and not exp.get("project"):
            bad(f"{where}: lead-in without project")
        if norm(exp["text"]) not in norm(text):
            bad(f"{where}: create text not in the phrase")
        if ref_date(exp["text"]) is not None:
            bad(f"{where}: create text still holds a date phrase")

    # dates
    got = ref_date(text)
    if tool == "update_task" or tool == "create_task" and exp.get("deadline_kind") != "none":
        want = (exp.get("deadline_kind"), exp.get("deadline"))
        if want[0] not in ("day", "week"):
            bad(f"{where}: deadline_kind {want[0]}")
        have = None if got is None else (got[0], got[1].isoformat() if isinstance(got[1], dt.date) else got[1])
        if have != want:
            bad(f"{where}: date {want} but reference reads {have}")
        date_checked += 1
        if tool == "update_task":
            t = tmap.get(exp["id"])
            if t and (t["due_kind"], t["due"]) == want:
                bad(f"{where}: move to the date the task already has")
    elif tool == "create_task":
        if exp.get("deadline") is not None:
            bad(f"{where}: kind none with a deadline")
        if got is not None:
            bad(f"{where}: no deadline expected but reference reads {got}")
    elif tool in ("close_task", "cancel_task") and got is not None:
        bad(f"{where}: close/cancel phrase holds a date {got}")
    elif tool == "clarify" and got is not None:
        date_checked += 1
        if got[0] not in ("day", "week"):
            bad(f"{where}: reference reads {got}")
        else:
            for o in exp["options"]:
                if tmap[o]["due"] == got[1].isoformat():
                    bad(f"{where}: ambiguous move to {got[1]} = current due of {o}")

if len(phrases) < 300:
    bad(f"only {len(phrases)} phrases")

# ----------------------------------------------------------------- report
langs = ["ru", "en"]


def table(title, field, order):
    c = Counter((p.get(field), p.get("lang")) for p in phrases)
    print(f"\n| {title} | ru | en | total |")
    print("|---|---|---|---|")
    for k in order:
        r, e = c[(k, "ru")], c[(k, "en")]
        print(f"| {k} | {r} | {e} | {r + e} |")
    r = sum(1 for p in phrases if p.get("lang") == "ru")
    e = sum(1 for p in phrases if p.get("lang") == "en")
    print(f"| **all** | {r} | {e} | **{r + e}** |")


print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local {NOW.strftime('%H:%M')} {ZONE}; now {NOW_UTC}")
print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}, date answers recomputed {date_checked}")
print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in counter.items()))
rel = Counter()
for t in tasks:
    if t["due"] is None:
        rel["undated"] += 1
    else:
        d = dt.date.fromisoformat(t["due"])
        key = "overdue" if d < TODAY else "today" if d == TODAY else "later"
        rel[key + (" (week)" if t["due_kind"] == "week" else "")] += 1
print("dues: " + ", ".join(f"{k} {v}" for k, v in sorted(rel.items())))
table("class", "class", list(CLASS_KIND))
table("kind", "kind", ["plain", "ambiguous", "unknown"])
tools = Counter(p["expect"].get("tool") for p in phrases)
lists = Counter(p["expect"].get("filter") for p in phrases if p["expect"].get("tool") == "list_tasks")
print("\nby tool: " + ", ".join(f"{k} {v}" for k, v in tools.most_common())
      + " (list: " + ", ".join(f"{k} {v}" for k, v in sorted(lists.items())) + ")")

if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems:
        print("  - " + p)
    sys.exit(1)
print("\nOK")
