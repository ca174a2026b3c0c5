#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-35 (stdlib only).

Checks the JSON shapes of projects.jsonl, tasks.jsonl and phrases.jsonl, that every
referenced key exists, that the task keys are reproduced by creation order, the
class/kind consistency, the counts per class and language, and recomputes every
expected date (updates, dated creates, dates in ambiguous moves) from the phrase
text with a small, independent reference of the house date rules written for this
set only. Prints counts; exits 1 on any problem.

    python3 validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))

# --- TODAY ---------------------------------------------------------------------------
# now = 2038-05-08T21:10:00Z, zone Europe/Riga; in May Riga is on EEST = UTC+3, so the
# local wall clock is Sunday 2038-05-09 00:10. Every relative date uses the LOCAL date.
NOW_UTC = dt.datetime(2038, 5, 8, 21, 10, tzinfo=dt.timezone.utc)
RIGA_EEST = dt.timezone(dt.timedelta(hours=3))
NOW_LOCAL = NOW_UTC.astimezone(RIGA_EEST)
TODAY = NOW_LOCAL.date()

CLASS_KIND = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain", "project_leadin": "plain",
    "offtopic": "unknown", "plain_other": "plain", "ambiguous": "ambiguous",
    "unknown_other": "unknown",
}
CLASS_TARGET = OrderedDict([
    ("typo", 30), ("report", 33), ("negated_cancel", 23), ("explicit_form", 28),
    ("deadline_not_close", 26), ("project_leadin", 24), ("offtopic", 22),
    ("plain_other", 54), ("ambiguous", 52), ("unknown_other", 24),
])
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def problem(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                problem(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                problem(f"{name}:{n}: bad JSON: {e}")
    return rows


def iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# --- the house date rules (reference for this set only) -------------------------------

def add_days(n):
    return TODAY + dt.timedelta(days=n)


def this_sunday():
    return TODAY + dt.timedelta(days=6 - TODAY.weekday())  # today, if Sunday


def next_week_sunday():
    return this_sunday() + dt.timedelta(days=7)


def month_end(year, month):
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def end_of_month():
    return month_end(TODAY.year, TODAY.month)


def end_of_next_month():
    y, m = (TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)
    return month_end(y, m)


def coming_saturday():
    return TODAY + dt.timedelta(days=(5 - TODAY.weekday()) % 7)  # today, if Saturday


def weekday_plain(wd):
    """the next such day strictly after today"""
    d = (wd - TODAY.weekday()) % 7
    return add_days(d or 7)


def weekday_next(wd):
    """that weekday in the next Monday-Sunday week"""
    next_monday = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return next_monday + dt.timedelta(days=wd)


def day_month(day, month):
    """day + month without a year: this year's unless > 30 days in the past"""
    try:
        d = dt.date(TODAY.year, month, day)
    except ValueError:
        return None
    if (TODAY - d).days > 30:
        try:
            d = dt.date(TODAY.year + 1, month, day)
        except ValueError:
            return None
    return d


def day_of_month(day):
    """the next such day on or after today; a month without it gives its last day"""
    if not 1 <= day <= 31:
        return None
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        last = month_end(y, m)
        cand = dt.date(y, m, min(day, last.day))
        if cand >= TODAY:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


RU_MONTHS = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
             "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11,
             "декабря": 12}
EN_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august",
     "september", "october", "november", "december"], 1)}
RU_WD = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
         ("пятниц", 4), ("суббот", 5), ("воскресень", 6)]
EN_WD = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2,
         "wed": 2, "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4,
         "saturday": 5, "sat": 5, "sunday": 6, "sun": 6}


def ru_wd(word):
    for stem, n in RU_WD:
        if word.startswith(stem):
            return n
    return None


RULES = [
    # Russian
    (r"\bпослезав(?:тра|ра)\b", lambda m: ("day", add_days(2))),
    # judgement call: one-letter slips of «завтра» still read as tomorrow
    (r"\bзав(?:тра|тар|тро|ра)\b", lambda m: ("day", add_days(1))),
    (r"\bсегодня\b", lambda m: ("day", TODAY)),
    (r"\b(?:до|к) конц[ау] недели\b|\bна этой неделе\b", lambda m: ("week", this_sunday())),
    (r"\b(?:на|к) следующ\w+ недел\w+", lambda m: ("week", next_week_sunday())),
    (r"\bчерез неделю\b", lambda m: ("day", add_days(7))),
    (r"\bчерез (\d+) (?:день|дня|дней)\b", lambda m: ("day", add_days(int(m.group(1))))),
    (r"\bчерез (\d+) недел\w*", lambda m: ("day", add_days(7 * int(m.group(1))))),
    (r"\bкон(?:ец|ца|цу) месяца\b", lambda m: ("day", end_of_month())),
    (r"\bв следующем месяце\b", lambda m: ("day", end_of_next_month())),
    (r"\bвыходн\w+", lambda m: ("day", coming_saturday())),
    (r"\b(\d{1,2}) (" + "|".join(RU_MONTHS) + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), RU_MONTHS[m.group(2)]))),
    (r"\b(\d{1,2}) (?:числа|числу|число)\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\b(?:(следующ\w+) )?(понедельник\w*|вторник\w*|сред[аеуы]|четверг\w*|пятниц[аеуы]"
     r"|суббот[аеуы]|воскресень[еяю])\b",
     lambda m: ("day", (weekday_next if m.group(1) else weekday_plain)(ru_wd(m.group(2))))),
    # English
    (r"\bday after tomorrow\b", lambda m: ("day", add_days(2))),
    # judgement call: tmrw / tmr and one-letter slips of "tomorrow" read as tomorrow
    (r"\b(?:tomorrow|tomorow|tommorow|tmrw|tmr)\b", lambda m: ("day", add_days(1))),
    (r"\b(?:today|eod)\b", lambda m: ("day", TODAY)),
    (r"\bthis week\b|\bend of (?:the )?week\b", lambda m: ("week", this_sunday())),
    (r"\bnext week\b", lambda m: ("week", next_week_sunday())),
    (r"\bin a week\b", lambda m: ("day", add_days(7))),
    (r"\bin (\d+) days?\b", lambda m: ("day", add_days(int(m.group(1))))),
    (r"\bin (\d+) weeks?\b", lambda m: ("day", add_days(7 * int(m.group(1))))),
    (r"\bend of (?:the )?month\b", lambda m: ("day", end_of_month())),
    (r"\bnext month\b", lambda m: ("day", end_of_next_month())),
    (r"\bweekend\b", lambda m: ("day", coming_saturday())),
    (r"\b(" + "|".join(EN_MONTHS) + r") (\d{1,2})(?:st|nd|rd|th)?\b",
     lambda m: ("day", day_month(int(m.group(2)), EN_MONTHS[m.group(1)]))),
    (r"\b(\d{1,2})(?:st|nd|rd|th)? (" + "|".join(EN_MONTHS) + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), EN_MONTHS[m.group(2)]))),
    (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\b(?:(next|this) )?(" + "|".join(sorted(EN_WD, key=len, reverse=True)) + r")\b",
     lambda m: ("day", (weekday_next if m.group(1) == "next" else weekday_plain)(
         EN_WD[m.group(2)]))),
]
RULES = [(re.compile(rx), fn) for rx, fn in RULES]


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def find_dates(text):
    """every date phrase in the text -> [(kind, date, matched text)]"""
    s = norm(text)
    found = []
    for rx, fn in RULES:
        while True:
            m = rx.search(s)
            if not m:
                break
            kind, d = fn(m)
            found.append((kind, d, m.group(0)))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return found


# --- projects and tasks ---------------------------------------------------------------

projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

if NOW_LOCAL.strftime("%Y-%m-%d %H:%M %A") != "2038-05-09 00:10 Sunday":
    problem(f"TODAY is wrong: {NOW_LOCAL}")

pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"} or not all(
            isinstance(p.get(k), str) and p.get(k) for k in ("key", "name", "description")):
        problem(f"project shape: {p}")
        continue
    if p["key"] in pkeys or p["key"] == "INBOX":
        problem(f"project key duplicated or INBOX listed: {p['key']}")
    pkeys.add(p["key"])
if len(projects) != 5:
    problem(f"expected 5 projects, got {len(projects)}")

by_key = {}
counter = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        problem(f"task shape: {t}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        problem(f"{t['key']}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        problem(f"key {t['key']} is not reproduced by creation order (would be {want})")
    if t["key"] in by_key:
        problem(f"duplicate task key {t['key']}")
    if not isinstance(t["title"], str) or not t["title"].strip():
        problem(f"{t['key']}: empty title")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            problem(f"{t['key']}: due_kind none but due {t['due']}")
    elif t["due_kind"] in ("day", "week"):
        d = iso(t["due"])
        if d is None:
            problem(f"{t['key']}: bad due {t['due']}")
        elif t["due_kind"] == "week" and d.weekday() != 6:
            problem(f"{t['key']}: week due {d} is not a Sunday")
    else:
        problem(f"{t['key']}: bad due_kind {t['due_kind']}")
    by_key[t["key"]] = t
if not 55 <= len(tasks) <= 65:
    problem(f"expected 55-65 tasks, got {len(tasks)}")


def due_of(k):
    t = by_key[k]
    return iso(t["due"]) if t["due"] else None


task_stats = Counter()
for t in tasks:
    d = iso(t["due"]) if t["due"] else None
    if d is None:
        task_stats["undated"] += 1
    elif t["due_kind"] == "week":
        task_stats["week due"] += 1
        if d == TODAY:
            task_stats["due today"] += 1
    elif d < TODAY:
        task_stats["overdue"] += 1
    elif d == TODAY:
        task_stats["due today"] += 1
    else:
        task_stats["later (day)"] += 1

# --- phrases --------------------------------------------------------------------------

KEY_RX = re.compile(r"\b([a-z]+)[- ](\d+)\b", re.I)
seen_text = set()
by_class_lang = Counter()
by_kind_lang = Counter()
by_tool = Counter()
by_filter = Counter()
dates_checked = Counter()


def need_key(k, where):
    if k not in by_key:
        problem(f"{where}: unknown task key {k}")
        return False
    return True


for i, ph in enumerate(phrases, 1):
    where = f"phrases.jsonl:{i} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        problem(f"{where}: fields {sorted(ph)}")
        continue
    text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    if not isinstance(text, str) or not text.strip():
        problem(f"{where}: empty text")
        continue
    if norm(text) in seen_text:
        problem(f"{where}: duplicate phrase")
    seen_text.add(norm(text))
    if lang not in ("ru", "en"):
        problem(f"{where}: lang {lang}")
    if cls not in CLASS_KIND:
        problem(f"{where}: class {cls}")
        continue
    if kind != CLASS_KIND[cls]:
        problem(f"{where}: kind {kind} does not follow class {cls}")
    by_class_lang[(cls, lang)] += 1
    by_kind_lang[(kind, lang)] += 1
    if not isinstance(exp, dict) or "tool" not in exp:
        problem(f"{where}: expect shape")
        continue
    tool = exp["tool"]
    by_tool[tool] += 1
    dates = find_dates(text)

    # kind <-> tool
    if kind == "ambiguous" and tool != "clarify":
        problem(f"{where}: ambiguous must expect clarify")
    if kind == "unknown" and tool != "none":
        problem(f"{where}: unknown must expect none")
    if kind == "plain" and tool in ("clarify", "none"):
        problem(f"{where}: plain must expect one clear action")

    if tool in ("close_task", "cancel_task"):
        if set(exp) != {"tool", "id"}:
            problem(f"{where}: shape {exp}")
        need_key(exp.get("id"), where)
        if dates:
            problem(f"{where}: a close/cancel phrase carries a date {dates}")
    elif tool == "update_task":
        if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or \
                exp.get("deadline_kind") not in ("day", "week"):
            problem(f"{where}: shape {exp}")
            continue
        if not need_key(exp["id"], where):
            continue
        d = iso(exp["deadline"])
        if len(dates) != 1:
            problem(f"{where}: reference finds {len(dates)} date phrases: {dates}")
        elif (dates[0][0], dates[0][1]) != (exp["deadline_kind"], d):
            problem(f"{where}: expected {exp['deadline_kind']} {d}, reference says "
                    f"{dates[0][0]} {dates[0][1]}")
        else:
            dates_checked["update_task"] += 1
        t = by_key[exp["id"]]
        if d == due_of(exp["id"]) and exp["deadline_kind"] == t["due_kind"]:
            problem(f"{where}: moves {exp['id']} to the date it already has")
        if exp["deadline_kind"] == "week" and d and d.weekday() != 6:
            problem(f"{where}: week deadline not a Sunday")
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(exp) <= allowed or not isinstance(exp.get("text"), str) or \
                exp.get("deadline_kind") not in ("none", "day", "week"):
            problem(f"{where}: shape {exp}")
            continue
        if "project" in exp and exp["project"] not in pkeys:
            problem(f"{where}: unknown project {exp['project']}")
        if cls == "project_leadin" and "project" not in exp:
            problem(f"{where}: project lead-in create without project")
        if norm(exp["text"]) not in norm(text):
            problem(f"{where}: create text {exp['text']!r} is not part of the phrase")
        if find_dates(exp["text"]):
            problem(f"{where}: create text still holds a date phrase")
        if exp["deadline_kind"] == "none":
            if "deadline" in exp:
                problem(f"{where}: kind none with a deadline")
            if dates:
                problem(f"{where}: undated create but the reference finds {dates}")
        else:
            d = iso(exp.get("deadline"))
            if len(dates) != 1:
                problem(f"{where}: reference finds {len(dates)} date phrases: {dates}")
            elif (dates[0][0], dates[0][1]) != (exp["deadline_kind"], d):
                problem(f"{where}: expected {exp['deadline_kind']} {d}, reference says "
                        f"{dates[0][0]} {dates[0][1]}")
            else:
                dates_checked["create_task"] += 1
    elif tool == "list_tasks":
        if set(exp) != {"tool", "filter"} or exp.get("filter") not in LIST_FILTERS:
            problem(f"{where}: shape {exp}")
        else:
            by_filter[exp["filter"]] += 1
    elif tool == "clarify":
        opts = exp.get("options")
        if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                or len(set(opts)) != len(opts):
            problem(f"{where}: shape {exp}")
            continue
        if not all(need_key(k, where) for k in opts):
            continue
        if len(dates) > 1:
            problem(f"{where}: several date phrases {dates}")
        elif dates:
            d = dates[0][1]
            if d is None:
                problem(f"{where}: the move's date does not resolve")
            for k in opts:
                if due_of(k) == d:
                    problem(f"{where}: the move's date {d} is already {k}'s due "
                            f"(would break the tie)")
            dates_checked["clarify move"] += 1
    elif tool == "none":
        if set(exp) != {"tool"}:
            problem(f"{where}: shape {exp}")
    else:
        problem(f"{where}: unknown tool {tool}")

    # explicit forms name an existing key; other plain classes name no key
    keys_in_text = [f"{a.upper()}-{b}" for a, b in KEY_RX.findall(text)
                    if a.upper() in pkeys | {"INBOX"}]
    if cls == "explicit_form":
        if tool in ("close_task", "cancel_task", "update_task"):
            if exp.get("id") not in keys_in_text:
                problem(f"{where}: explicit form does not name {exp.get('id')}")
    elif kind == "plain" and keys_in_text:
        problem(f"{where}: names a key but is not explicit_form")

# --- counts ---------------------------------------------------------------------------

total = len(phrases)
ru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
en = sum(v for (c, l), v in by_class_lang.items() if l == "en")
if total < 300:
    problem(f"only {total} phrases")
if abs(ru - en) > total * 0.05:
    problem(f"languages unbalanced: ru {ru}, en {en}")
for cls, want in CLASS_TARGET.items():
    r, e = by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]
    if r + e != want:
        problem(f"class {cls}: {r + e} phrases, target {want}")
    if abs(r - e) > 1:
        problem(f"class {cls}: ru {r} / en {e} unbalanced")

print(f"TODAY: now {NOW_UTC:%Y-%m-%dT%H:%MZ} = local {NOW_LOCAL:%Y-%m-%d %H:%M} "
      f"{NOW_LOCAL:%A} (Europe/Riga, EEST UTC+3)")
print(f"projects: {len(projects)}   tasks: {len(tasks)}   phrases: {total}")
print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in counter.items()))
print("tasks by due: " + ", ".join(f"{k} {task_stats[k]}" for k in
                                   ("overdue", "due today", "week due", "later (day)",
                                    "undated")))
print()
print("| class | kind | ru | en | total |")
print("|---|---|---|---|---|")
for cls in CLASS_TARGET:
    r, e = by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]
    print(f"| {cls} | {CLASS_KIND[cls]} | {r} | {e} | {r + e} |")
print(f"| **all** | | {ru} | {en} | **{total}** |")
print()
print("| kind | ru | en | total |")
print("|---|---|---|---|")
for kind in ("plain", "ambiguous", "unknown"):
    r, e = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
    print(f"| {kind} | {r} | {e} | {r + e} |")
print()
print("by expected tool: " + ", ".join(f"{t} {by_tool[t]}" for t in
      ("close_task", "cancel_task", "update_task", "create_task", "list_tasks",
       "clarify", "none")))
print("list_tasks filters: " + ", ".join(f"{f} {by_filter[f]}" for f in
      ("today", "inbox", "overdue", "done", "all_by_project")))
print("dates recomputed: " + ", ".join(f"{k} {v}" for k, v in dates_checked.items()))
print()
if problems:
    print(f"{len(problems)} PROBLEM(S):")
    for p in problems:
        print("  - " + p)
    sys.exit(1)
print("OK")
