#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-20 (stdlib only).

    python3 data/chat-phrases-holdout-20/validate.py

Checks the shape of every line of projects.jsonl, tasks.jsonl and phrases.jsonl,
that keys reproduce when tasks.jsonl is loaded in order, that every task key an
expectation names exists, and recomputes every expected date from the house date
rules with a small reference written for this set only (it knows the date
wordings this set uses, including its deliberate slips «завтар», «послезавтро»,
"tomorow", "nxt week"). Prints counts; exits 1 on any problem.
"""
import calendar
import collections
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2033, 9, 30)          # local date in America/New_York at 2033-09-30T15:20Z
NOW_LOCAL = dt.datetime(2033, 9, 30, 11, 20)
assert TODAY.weekday() == 4, "TODAY must be a Friday"

CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
CLASS_KIND = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


def parse_iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- house date rules
def add_days(n):
    return TODAY + dt.timedelta(days=n)


def weekday_next(wd):          # strictly after today
    d = (wd - TODAY.weekday()) % 7
    return add_days(d if d else 7)


def this_sunday():
    return add_days(6 - TODAY.weekday())


def next_week_monday():
    return this_sunday() + dt.timedelta(days=1)


def weekday_in_next_week(wd):
    return next_week_monday() + dt.timedelta(days=wd)


def coming_saturday():
    return add_days((5 - TODAY.weekday()) % 7)


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def end_of_month():
    return month_end(TODAY.year, TODAY.month)


def end_of_next_month():
    y, m = (TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)
    return month_end(y, m)


def day_of_month(n):           # next such day on or after today; clamp to month end
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        last = calendar.monthrange(y, m)[1]
        cand = dt.date(y, m, min(n, last))
        if cand >= TODAY:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    raise ValueError(n)


def day_month(d, m):           # this year's unless more than 30 days in the past
    cand = dt.date(TODAY.year, m, d)
    if (TODAY - cand).days > 30:
        cand = dt.date(TODAY.year + 1, m, d)
    return cand


RU_WD = [
    ("понедельник", r"понедельник[ауе]?"), ("вторник", r"вторник[ауе]?"),
    ("среда", r"сред[аыуе]"), ("четверг", r"четверг[ауе]?"),
    ("пятница", r"пятниц[аыуе]"), ("суббота", r"суббот[аыуе]"),
    ("воскресенье", r"воскресень[еяю]"),
]
EN_WD = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
RU_MON = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
          "сентября", "октября", "ноября", "декабря"]
EN_MON = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
EN_MON_RE = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"


def find_dates(text):
    """Return a list of (kind, date) for every date phrase found in text."""
    t = text.lower().replace("ё", "е")
    out = []
    taken = []

    def hit(m, kind, d):
        a, b = m.span()
        if any(a < y and x < b for x, y in taken):
            return
        taken.append((a, b))
        out.append((kind, d))

    rules = []
    # multi-word phrases first, so their pieces are not read again
    rules += [
        (r"\bday after tomorrow\b", lambda m: ("day", add_days(2))),
        (r"\bпослезавтр[ао]\b", lambda m: ("day", add_days(2))),          # incl. slip «послезавтро»
        (r"\b(?:до|к) конц[уа] недели\b|\bна этой неделе\b", lambda m: ("week", this_sunday())),
        (r"\bна следующ(?:ей|ую) недел[еюи]\b", lambda m: ("week", this_sunday() + dt.timedelta(days=7))),
        (r"\b(?:до|к) конц[уа] месяца\b", lambda m: ("day", end_of_month())),
        (r"\bв следующем месяце\b", lambda m: ("day", end_of_next_month())),
        (r"\bend of (?:the )?month\b", lambda m: ("day", end_of_month())),
        (r"\bnext month\b", lambda m: ("day", end_of_next_month())),
        (r"\b(?:this week|end of (?:the )?week)\b", lambda m: ("week", this_sunday())),
        (r"\b(?:next|nxt) week\b", lambda m: ("week", this_sunday() + dt.timedelta(days=7))),
        (r"\bна выходных\b|\bна выходные\b|\b(?:this |the )?weekend\b", lambda m: ("day", coming_saturday())),
        (r"\bчерез (\d+) (?:дня|дней|день)\b", lambda m: ("day", add_days(int(m.group(1))))),
        (r"\bчерез неделю\b", lambda m: ("day", add_days(7))),
        (r"\bчерез (\d+) недел[иь]\b", lambda m: ("day", add_days(7 * int(m.group(1))))),
        (r"\bin (\d+) days?\b", lambda m: ("day", add_days(int(m.group(1))))),
        (r"\bin a week\b", lambda m: ("day", add_days(7))),
        (r"\bin (\d+) weeks?\b", lambda m: ("day", add_days(7 * int(m.group(1))))),
        (r"\b(\d{1,2}) (" + "|".join(RU_MON) + r")\b",
         lambda m: ("day", day_month(int(m.group(1)), RU_MON.index(m.group(2)) + 1))),
        (r"\b" + EN_MON_RE + r" (\d{1,2})(?:st|nd|rd|th)?\b",
         lambda m: ("day", day_month(int(m.group(2)), EN_MON.index(m.group(1)[:3]) + 1))),
        (r"\b(\d{1,2}) " + EN_MON_RE + r"\b",
         lambda m: ("day", day_month(int(m.group(1)), EN_MON.index(m.group(2)[:3]) + 1))),
        (r"\b(\d{1,2})\.(\d{1,2})\b(?!\.\d)", lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
        (r"\b(\d{1,2})/(\d{1,2})\b",
         lambda m: ("day", day_month(int(m.group(1)), int(m.group(2)))) if int(m.group(1)) > 12
         else ("error", None)),
        (r"\b(\d{1,2}) числ[уао]\b", lambda m: ("day", day_of_month(int(m.group(1))))),
        (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m.group(1))))),
        (r"\bnext (" + "|".join(EN_WD) + r")\b",
         lambda m: ("day", weekday_in_next_week(EN_WD.index(m.group(1))))),
        (r"\bв следующ(?:ий|ую|ее|ей) (\w+)", None),   # checked below with RU_WD
    ]
    for pat, fn in rules:
        for m in re.finditer(pat, t):
            if fn is None:
                for i, (_, wre) in enumerate(RU_WD):
                    if re.fullmatch(wre, m.group(1)):
                        hit(m, "day", weekday_in_next_week(i))
                continue
            kind, d = fn(m)
            hit(m, kind, d)
    # single words
    for m in re.finditer(r"\b(?:today|eod|сегодня)\b", t):
        hit(m, "day", TODAY)
    for m in re.finditer(r"\b(?:tomorrow|tomorow|tmrw|tmr|завтра|завтар)\b", t):   # incl. slips
        hit(m, "day", add_days(1))
    for i, w in enumerate(EN_WD):
        for m in re.finditer(r"\b(?:this |on |by |to |for |till |until |before )?" + w + r"\b", t):
            hit(m, "day", weekday_next(i))
    for i, (_, wre) in enumerate(RU_WD):
        for m in re.finditer(r"\b(?:в|во|на|до|к|ко|по) " + wre + r"\b", t):
            hit(m, "day", weekday_next(i))
    return out


# self-test of the reference on the README's own examples shifted to this TODAY
_SELF = {
    "friday": ("day", "2033-10-07"), "next friday": ("day", "2033-10-07"),
    "saturday": ("day", "2033-10-01"), "next saturday": ("day", "2033-10-08"),
    "до конца месяца": ("day", "2033-09-30"), "next month": ("day", "2033-10-31"),
    "до 31 числа": ("day", "2033-09-30"), "by the 30th": ("day", "2033-09-30"),
    "before the 5th": ("day", "2033-10-05"), "на выходных": ("day", "2033-10-01"),
    "до конца недели": ("week", "2033-10-02"), "next week": ("week", "2033-10-09"),
    "послезавтра": ("day", "2033-10-02"), "через 3 дня": ("day", "2033-10-03"),
    "5 сентября": ("day", "2033-09-05"), "20 августа": ("day", "2034-08-20"),
    "on the 1st": ("day", "2033-10-01"), "15/10": ("day", "2033-10-15"),
    "в следующую среду": ("day", "2033-10-05"), "in 2 weeks": ("day", "2033-10-14"),
}
for _t, (_k, _d) in _SELF.items():
    _got = find_dates(_t)
    if _got != [(_k, dt.date.fromisoformat(_d))]:
        bad(f"date reference self-test: {_t!r} gave {_got}, want {_k} {_d}")
if find_dates("03/04") != [("error", None)]:
    bad("date reference self-test: 03/04 must be an error")
if find_dates("family board game night on fridays") != []:
    bad("date reference self-test: 'fridays' is not a date")


# ---------------------------------------------------------------- projects
projects = load("projects.jsonl")
pkeys = []
for n, p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"projects.jsonl:{n}: fields {sorted(p)}")
        continue
    if not re.fullmatch(r"[A-Z][A-Z0-9]{1,9}", p["key"] or ""):
        bad(f"projects.jsonl:{n}: bad key {p['key']!r}")
    if p["key"] == "INBOX":
        bad(f"projects.jsonl:{n}: INBOX is implicit and must not be listed")
    if not p["name"] or not p["description"]:
        bad(f"projects.jsonl:{n}: empty name/description")
    pkeys.append(p["key"])
if len(set(pkeys)) != len(pkeys):
    bad("projects.jsonl: duplicate keys")
if not 4 <= len(pkeys) <= 6:
    bad(f"projects.jsonl: {len(pkeys)} projects, want 4-6")

# ---------------------------------------------------------------- tasks
tasks = load("tasks.jsonl")
task = {}
counter = collections.Counter()
titles = set()
for n, t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks.jsonl:{n}: fields {sorted(t)}")
        continue
    p = t["project"]
    if p != "INBOX" and p not in pkeys:
        bad(f"tasks.jsonl:{n}: unknown project {p}")
    counter[p] += 1
    want = f"{p}-{counter[p]}"
    if t["key"] != want:
        bad(f"tasks.jsonl:{n}: key {t['key']} but loading in order gives {want}")
    if not t["title"] or t["title"].strip() != t["title"]:
        bad(f"tasks.jsonl:{n}: bad title")
    if t["title"].lower() in titles:
        bad(f"tasks.jsonl:{n}: duplicate title")
    titles.add(t["title"].lower())
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"tasks.jsonl:{n}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        d = parse_iso(t["due"])
        if d is None:
            bad(f"tasks.jsonl:{n}: bad due {t['due']!r}")
        elif t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"tasks.jsonl:{n}: week due {d} is not a Sunday")
    else:
        bad(f"tasks.jsonl:{n}: bad due_kind {t['due_kind']!r}")
    task[t["key"]] = t
if not 50 <= len(task) <= 65:
    bad(f"tasks.jsonl: {len(task)} tasks, want 50-65")
for p in pkeys:
    if counter[p] == 0:
        bad(f"tasks.jsonl: project {p} has no tasks")
langs_t = collections.Counter("ru" if re.search("[а-яё]", t["title"].lower()) else "en" for t in task.values())

# ---------------------------------------------------------------- phrases
phrases = load("phrases.jsonl")
by = collections.Counter()
by_class = collections.Counter()
by_kind = collections.Counter()
by_tool = collections.Counter()
texts = set()
dates_checked = 0


def need_task(n, k):
    if k not in task:
        bad(f"phrases.jsonl:{n}: unknown task {k}")
        return False
    return True


for n, ph in phrases:
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"phrases.jsonl:{n}: fields {sorted(ph)}")
        continue
    text, lang, kind, e, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    if not isinstance(text, str) or not text.strip():
        bad(f"phrases.jsonl:{n}: empty text")
        continue
    if text.lower() in texts:
        bad(f"phrases.jsonl:{n}: duplicate text {text!r}")
    texts.add(text.lower())
    if lang not in ("ru", "en"):
        bad(f"phrases.jsonl:{n}: lang {lang!r}")
    has_cyr = bool(re.search("[а-яё]", text.lower()))
    if (lang == "ru") != has_cyr:
        bad(f"phrases.jsonl:{n}: lang {lang} does not fit the text {text!r}")
    if cls not in CLASSES:
        bad(f"phrases.jsonl:{n}: class {cls!r}")
        continue
    if kind != CLASS_KIND.get(cls, "plain"):
        bad(f"phrases.jsonl:{n}: kind {kind} for class {cls}")
    by[(cls, lang)] += 1
    by_class[cls] += 1
    by_kind[(kind, lang)] += 1
    if not isinstance(e, dict) or "tool" not in e:
        bad(f"phrases.jsonl:{n}: bad expect")
        continue
    tool = e["tool"]
    by_tool[tool if tool != "list_tasks" else "list_tasks:" + str(e.get("filter"))] += 1
    found = find_dates(text)

    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"}:
            bad(f"phrases.jsonl:{n}: {tool} fields {sorted(e)}")
        need_task(n, e.get("id"))
        if kind != "plain":
            bad(f"phrases.jsonl:{n}: {tool} with kind {kind}")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"}:
            bad(f"phrases.jsonl:{n}: update fields {sorted(e)}")
            continue
        if not need_task(n, e["id"]):
            continue
        d = parse_iso(e["deadline"])
        if e["deadline_kind"] not in ("day", "week") or d is None:
            bad(f"phrases.jsonl:{n}: bad update deadline")
            continue
        if len(found) != 1:
            bad(f"phrases.jsonl:{n}: reference finds {len(found)} date phrases in {text!r}")
            continue
        if found[0] != (e["deadline_kind"], d):
            bad(f"phrases.jsonl:{n}: {text!r} expects {e['deadline_kind']} {d}, reference gives {found[0]}")
        cur = task[e["id"]]
        if cur["due"] == e["deadline"] and cur["due_kind"] == e["deadline_kind"]:
            bad(f"phrases.jsonl:{n}: update to the task's current due (a no-op)")
        dates_checked += 1
    elif tool == "create_task":
        if not set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"} or "text" not in e:
            bad(f"phrases.jsonl:{n}: create fields {sorted(e)}")
            continue
        ct = e["text"].lower().replace("ё", "е")
        if ct not in text.lower().replace("ё", "е"):
            bad(f"phrases.jsonl:{n}: create text not taken from the phrase")
        if "project" in e and e["project"] not in pkeys:
            bad(f"phrases.jsonl:{n}: unknown project {e['project']}")
        if cls == "project_leadin" and "project" not in e:
            bad(f"phrases.jsonl:{n}: project lead-in without a project")
        if find_dates(e["text"]):
            bad(f"phrases.jsonl:{n}: create text still holds a date phrase")
        dk = e.get("deadline_kind")
        if dk == "none":
            if "deadline" in e:
                bad(f"phrases.jsonl:{n}: kind none with a deadline")
            if found:
                bad(f"phrases.jsonl:{n}: reference finds a date {found} but expect has none")
        elif dk in ("day", "week"):
            d = parse_iso(e.get("deadline"))
            if d is None:
                bad(f"phrases.jsonl:{n}: bad create deadline")
            elif found != [(dk, d)]:
                bad(f"phrases.jsonl:{n}: {text!r} expects {dk} {d}, reference gives {found}")
            else:
                dates_checked += 1
        else:
            bad(f"phrases.jsonl:{n}: bad deadline_kind {dk!r}")
    elif tool == "list_tasks":
        if set(e) - {"tool", "filter", "period"} or e.get("filter") not in LIST_FILTERS:
            bad(f"phrases.jsonl:{n}: bad list_tasks {e}")
    elif tool == "clarify":
        opts = e.get("options")
        if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                or len(set(opts)) != len(opts):
            bad(f"phrases.jsonl:{n}: bad clarify {e}")
            continue
        for k in opts:
            need_task(n, k)
        if kind != "ambiguous":
            bad(f"phrases.jsonl:{n}: clarify with kind {kind}")
        # an ambiguous move must name a date no candidate already has
        if found:
            if len(found) != 1 or found[0][0] == "error":
                bad(f"phrases.jsonl:{n}: ambiguous move with unreadable date {found}")
            else:
                for k in opts:
                    if k in task and task[k]["due"] == found[0][1].isoformat():
                        bad(f"phrases.jsonl:{n}: move date equals the due of candidate {k}")
                dates_checked += 1
    elif tool == "none":
        if set(e) != {"tool"}:
            bad(f"phrases.jsonl:{n}: none with extra fields")
        if kind != "unknown":
            bad(f"phrases.jsonl:{n}: none with kind {kind}")
    else:
        bad(f"phrases.jsonl:{n}: unknown tool {tool!r}")
    if kind == "ambiguous" and tool != "clarify":
        bad(f"phrases.jsonl:{n}: ambiguous kind must expect clarify")
    if kind == "unknown" and tool != "none":
        bad(f"phrases.jsonl:{n}: unknown kind must expect none")

# ---------------------------------------------------------------- coverage
total = sum(by_class.values())
if total < 290:
    bad(f"phrases: {total}, want at least 290")
for c in CLASSES:
    for lg in ("ru", "en"):
        if by[(c, lg)] == 0:
            bad(f"class {c} has no {lg} phrase")
    if by_class[c] < 20:
        bad(f"class {c}: {by_class[c]} phrases, want at least 20")
if by_class["ambiguous"] < 40:
    bad("ambiguous: want at least 40")
if by_class["offtopic"] + by_class["unknown_other"] < 40:
    bad("unknown (offtopic + unknown_other): want at least 40")
ru = sum(v for (c, lg), v in by.items() if lg == "ru")
en = sum(v for (c, lg), v in by.items() if lg == "en")
if abs(ru - en) > 0.1 * total:
    bad(f"languages unbalanced: ru {ru}, en {en}")

# ---------------------------------------------------------------- report
print(f"TODAY {TODAY} ({TODAY:%A}), local now {NOW_LOCAL:%H:%M} America/New_York")
print(f"projects {len(pkeys)}: {', '.join(pkeys)} (+ implicit INBOX)")
print(f"tasks {len(task)}: " + ", ".join(f"{p} {counter[p]}" for p in pkeys + ['INBOX'])
      + f"; titles ru {langs_t['ru']}, en {langs_t['en']}")
dues = collections.defaultdict(list)
for k, t in task.items():
    if t["due"] is None:
        dues["undated"].append(k)
        continue
    d = dt.date.fromisoformat(t["due"])
    if t["due_kind"] == "week":
        dues["week " + t["due"]].append(k)
    elif d < TODAY:
        dues["overdue"].append(k)
    elif d == TODAY:
        dues["today"].append(k)
    elif d == TODAY + dt.timedelta(days=1):
        dues["tomorrow"].append(k)
    else:
        dues["later (day)"].append(k)
for g in sorted(dues):
    print(f"  {g}: {len(dues[g])} {' '.join(dues[g])}")
print(f"phrases {total}: ru {ru}, en {en}")
print(f"  {'class':20} {'ru':>4} {'en':>4} {'all':>4}")
for c in CLASSES:
    print(f"  {c:20} {by[(c, 'ru')]:4} {by[(c, 'en')]:4} {by_class[c]:4}")
print("  by kind: " + ", ".join(f"{k} ru {by_kind[(k, 'ru')]} / en {by_kind[(k, 'en')]}"
                                for k in ("plain", "ambiguous", "unknown")))
print("  by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
print(f"  dates recomputed by the reference: {dates_checked}")
if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems:
        print("  " + p)
    sys.exit(1)
print("OK")
