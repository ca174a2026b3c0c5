#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-27 (stdlib only).

Checks JSON shapes, keys, creation order, class/kind consistency, counts per class
and language, and recomputes every expected date from the phrase text with a small
reference of the house date rules written for this set only.
Prints counts; exits 1 on any problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
# now = 2036-05-10T23:30:00Z, zone Africa/Cairo (EEST, UTC+3) -> local Sunday 2036-05-11 02:30
NOW_UTC = dt.datetime(2036, 5, 10, 23, 30, tzinfo=dt.timezone.utc)
OFFSET = dt.timedelta(hours=3)
TODAY = (NOW_UTC + OFFSET).date()

CLASSES = {  # class: (kind, aimed count)
    "typo": ("plain", 30), "report": ("plain", 33), "negated_cancel": ("plain", 23),
    "explicit_form": ("plain", 28), "deadline_not_close": ("plain", 26),
    "project_leadin": ("plain", 24), "offtopic": ("unknown", 22),
    "plain_other": ("plain", 54), "ambiguous": ("ambiguous", 52),
    "unknown_other": ("unknown", 24),
}
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
                rows.append((i, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad JSON: {e}")
    return rows


# ---------------------------------------------------------------- date reference
def norm(s):
    return s.lower().replace("ё", "е")


def add_days(n):
    return TODAY + dt.timedelta(days=n)


def this_sunday():
    return TODAY + dt.timedelta(days=6 - TODAY.weekday())  # today if Sunday


def next_week_monday():
    return TODAY + dt.timedelta(days=7 - TODAY.weekday())


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def day_month(d, m):
    try:
        cand = dt.date(TODAY.year, m, d)
    except ValueError:
        return "error"
    if (TODAY - cand).days > 30:
        try:
            cand = dt.date(TODAY.year + 1, m, d)
        except ValueError:
            return "error"
    return cand


def day_of_month(d):
    if not 1 <= d <= 31:
        return "error"
    y, m = TODAY.year, TODAY.month
    if d >= TODAY.day:
        return dt.date(y, m, min(d, calendar.monthrange(y, m)[1]))
    m += 1
    if m == 13:
        y, m = y + 1, 1
    return dt.date(y, m, min(d, calendar.monthrange(y, m)[1]))


WD_RU = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
         ("пятниц", 4), ("суббот", 5), ("воскресен", 6)]
WD_EN = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
         "sunday": 6, "sun": 6}
MON_RU = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
          "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
MON_EN = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
MON_EN.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})


def weekday(idx, nxt):
    if nxt:
        return next_week_monday() + dt.timedelta(days=idx)
    delta = (idx - TODAY.weekday()) % 7 or 7  # strictly after today
    return add_days(delta)


def wd_ru(word):
    for stem, i in WD_RU:
        if word.startswith(stem):
            return i
    return None


RU_WD_RE = r"(понедельник[а-я]*|вторник[а-я]*|сред[аеуы]|четверг[а-я]*|пятниц[аеуы]|суббот[аеуы]|воскресень[еяю])"
EN_WD_RE = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday|fri)"
MON_EN_RE = "(" + "|".join(sorted(MON_EN, key=len, reverse=True)) + ")"
MON_RU_RE = "(" + "|".join(MON_RU) + ")"

# (regex, function(match) -> (kind, date) | "error"); tried in this order, spans consumed
RULES = [
    (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))),
    (r"\b(послезавтра|послезавра|day after tomorrow|day after tomorow)\b", lambda m: ("day", add_days(2))),
    (r"\b(завтра|завтро|завтар|tomorrow|tomorow|tmrw|tmr)\b", lambda m: ("day", add_days(1))),
    (r"\b(сегодня|today|eod)\b", lambda m: ("day", TODAY)),
    (r"(на этой неделе|до конца недели|к концу недели|\bthis week\b|\bend of (the )?week\b)",
     lambda m: ("week", this_sunday())),
    (r"(на следующей неделе|на следующую неделю|\bnext week\b)",
     lambda m: ("week", this_sunday() + dt.timedelta(days=7))),
    (r"(через две недели|через 2 недели|\bin (2|two) weeks\b)", lambda m: ("day", add_days(14))),
    (r"(через неделю|\bin a week\b)", lambda m: ("day", add_days(7))),
    (r"(?:через (\d+) (?:день|дня|дней)|\bin (\d+) days?\b)",
     lambda m: ("day", add_days(int(m[1] or m[2])))),
    (r"(до конца месяца|к концу месяца|в конце месяца|\bend of (the )?month\b)",
     lambda m: ("day", month_end(TODAY.year, TODAY.month))),
    (r"(в следующем месяце|\bnext month\b)",
     lambda m: ("day", month_end(TODAY.year + TODAY.month // 12, TODAY.month % 12 + 1))),
    (r"(до конца года|к концу года|\bend of (the )?year\b)", lambda m: ("day", dt.date(TODAY.year, 12, 31))),
    (r"(на выходных|на выходные|\bвыходные\b|\bweekend\b)",
     lambda m: ("day", add_days((5 - TODAY.weekday()) % 7))),
    (r"\b(\d{1,2})\s+" + MON_RU_RE + r"\b", lambda m: ("day", day_month(int(m[1]), MON_RU[m[2]]))),
    (r"\b" + MON_EN_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b", lambda m: ("day", day_month(int(m[2]), MON_EN[m[1]]))),
    (r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MON_EN_RE + r"\b", lambda m: ("day", day_month(int(m[1]), MON_EN[m[2]]))),
    (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: ("day", dt.date(int(m[3]), int(m[2]), int(m[1])))),
    (r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: ("day", day_month(int(m[1]), int(m[2])))),
    (r"\b(\d{1,2})/(\d{1,2})\b",
     lambda m: ("day", day_month(int(m[1]), int(m[2]))) if int(m[1]) > 12 else "error"),
    (r"\b(\d{1,2}) числа\b", lambda m: ("day", day_of_month(int(m[1])))),
    (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m[1])))),
    (r"(?:\b(следующ[а-я]*|эт[а-я]*)\s+)?\b" + RU_WD_RE + r"\b",
     lambda m: ("day", weekday(wd_ru(m[2]), bool(m[1] and m[1].startswith("следующ"))))),
    (r"(?:\b(next|this)\s+)?\b" + EN_WD_RE + r"\b",
     lambda m: ("day", weekday(WD_EN[m[2]], m[1] == "next"))),
]


def parse_dates(text):
    """All date expressions found in text, as a list of (kind, date) or 'error'."""
    s = norm(text)
    found = []
    for rx, fn in RULES:
        while True:
            m = re.search(rx, s)
            if not m:
                break
            try:
                r = fn(m)
            except ValueError:
                r = "error"
            if isinstance(r, tuple) and r[1] == "error":
                r = "error"
            found.append(r)
            s = s[:m.start()] + " # " + s[m.end():]
    return found


def one_date(text, where):
    found = parse_dates(text)
    if not found:
        return None
    if any(f == "error" for f in found) or len(set(found)) > 1:
        bad(f"{where}: date reference finds {found} in {text!r}")
        return "bad"
    return found[0]


# the reference checked on the house rules at TODAY (Sunday 2036-05-11)
REF_CASES = [
    ("today", ("day", "2036-05-11")), ("сегодня", ("day", "2036-05-11")),
    ("tomorrow", ("day", "2036-05-12")), ("послезавтра", ("day", "2036-05-13")),
    ("monday", ("day", "2036-05-12")), ("next monday", ("day", "2036-05-12")),
    ("friday", ("day", "2036-05-16")), ("next friday", ("day", "2036-05-16")),
    ("в следующую пятницу", ("day", "2036-05-16")), ("sunday", ("day", "2036-05-18")),
    ("к воскресенью", ("day", "2036-05-18")), ("this week", ("week", "2036-05-11")),
    ("до конца недели", ("week", "2036-05-11")), ("next week", ("week", "2036-05-18")),
    ("на следующей неделе", ("week", "2036-05-18")), ("weekend", ("day", "2036-05-17")),
    ("на выходных", ("day", "2036-05-17")), ("end of month", ("day", "2036-05-31")),
    ("next month", ("day", "2036-06-30")), ("через неделю", ("day", "2036-05-18")),
    ("in 2 weeks", ("day", "2036-05-25")), ("in 3 days", ("day", "2036-05-14")),
    ("20 мая", ("day", "2036-05-20")), ("10.04", ("day", "2037-04-10")),
    ("11.04", ("day", "2036-04-11")), ("20/05", ("day", "2036-05-20")),
    ("до 10 числа", ("day", "2036-06-10")), ("the 15th", ("day", "2036-05-15")),
    ("june 5", ("day", "2036-06-05")), ("03/04", "error"),
]
for _txt, _want in REF_CASES:
    _got = parse_dates(_txt)
    _got = [g if g == "error" else (g[0], g[1].isoformat()) for g in _got]
    if _got != [_want]:
        bad(f"date reference self-test: {_txt!r} gives {_got}, house rule says {_want}")


# ---------------------------------------------------------------- projects & tasks
projects = load("projects.jsonl")
pkeys = set()
for i, p in projects:
    if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
        bad(f"projects.jsonl:{i}: bad shape {p}")
    if p.get("key") == "INBOX":
        bad("projects.jsonl: INBOX must stay implicit")
    if p.get("key") in pkeys:
        bad(f"projects.jsonl:{i}: duplicate key")
    pkeys.add(p.get("key"))
if len(projects) != 5:
    bad(f"projects.jsonl: {len(projects)} projects, want 5")

tasks = load("tasks.jsonl")
task = {}
counter = Counter()
for i, t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks.jsonl:{i}: bad shape {t}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"tasks.jsonl:{i}: unknown project {proj}")
    counter[proj] += 1
    if t["key"] != f"{proj}-{counter[proj]}":
        bad(f"tasks.jsonl:{i}: key {t['key']} not reproduced by creation order (want {proj}-{counter[proj]})")
    if t["key"] in task:
        bad(f"tasks.jsonl:{i}: duplicate key")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"tasks.jsonl:{i}: due given with kind none")
        t["_due"] = None
    elif t["due_kind"] in ("day", "week"):
        try:
            t["_due"] = dt.date.fromisoformat(t["due"])
        except (TypeError, ValueError):
            bad(f"tasks.jsonl:{i}: bad due {t['due']}")
            t["_due"] = None
        if t["due_kind"] == "week" and t["_due"] and t["_due"].weekday() != 6:
            bad(f"tasks.jsonl:{i}: week due is not a Sunday")
    else:
        bad(f"tasks.jsonl:{i}: bad due_kind")
    task[t["key"]] = t
if not 55 <= len(task) <= 65:
    bad(f"tasks.jsonl: {len(task)} tasks, want 55-65")

state = Counter()
for t in task.values():
    d = t.get("_due")
    if d is None:
        state["undated"] += 1
    elif d < TODAY:
        state["overdue"] += 1
    elif d == TODAY:
        state["today"] += 1
    elif t["due_kind"] == "week":
        state["week"] += 1
    else:
        state["later"] += 1

# ---------------------------------------------------------------- phrases
phrases = load("phrases.jsonl")
by_class = Counter()
by_class_lang = Counter()
by_kind_lang = Counter()
by_tool = Counter()
by_filter = Counter()
seen_text = set()


def word_set(s):
    return set(re.findall(r"[\w'-]+", norm(s)))


for i, ph in phrases:
    w = f"phrases.jsonl:{i}"
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{w}: bad shape {sorted(ph)}")
        continue
    text, lang, kind, e, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    if not isinstance(text, str) or not text.strip():
        bad(f"{w}: empty text")
        continue
    if norm(text) in seen_text:
        bad(f"{w}: duplicate text {text!r}")
    seen_text.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"{w}: bad lang {lang}")
    if cls not in CLASSES:
        bad(f"{w}: bad class {cls}")
        continue
    if kind != CLASSES[cls][0]:
        bad(f"{w}: class {cls} needs kind {CLASSES[cls][0]}, got {kind}")
    by_class[cls] += 1
    by_class_lang[(cls, lang)] += 1
    by_kind_lang[(kind, lang)] += 1
    tool = e.get("tool") if isinstance(e, dict) else None
    by_tool[tool] += 1

    # kind / tool consistency
    if kind == "ambiguous" and tool != "clarify":
        bad(f"{w}: ambiguous must expect clarify")
    if kind == "unknown" and tool != "none":
        bad(f"{w}: unknown must expect none")
    if kind == "plain" and tool in ("clarify", "none"):
        bad(f"{w}: plain must expect an action")
    want_tool = {"report": {"close_task"}, "negated_cancel": {"cancel_task"},
                 "deadline_not_close": {"update_task", "create_task"}}.get(cls)
    if want_tool and tool not in want_tool:
        bad(f"{w}: class {cls} expects {want_tool}, got {tool}")
    if cls == "explicit_form" and not re.search(r"\b[a-z]+[- ]\d+\b|задача:|новая задача|добавь задачу|напомни|\badd:|\btodo:|new task:|remind me|\bmark\b|отметь", norm(text)):
        bad(f"{w}: explicit_form without a key or a command form")
    if cls == "project_leadin" and not re.search(r"(дайвинг|дом|документ|падел|trips|\bdive\b|\bhome\b|\bpadel\b|\bdocs\b)", norm(text)):
        bad(f"{w}: project_leadin names no project")

    # expect shapes
    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"} or e["id"] not in task:
            bad(f"{w}: bad {tool} {e}")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task \
                or e["deadline_kind"] not in ("day", "week"):
            bad(f"{w}: bad update_task {e}")
            continue
        got = one_date(text, w)
        if got is None:
            bad(f"{w}: update with no date in the text")
        elif got != "bad" and (got[0], got[1].isoformat()) != (e["deadline_kind"], e["deadline"]):
            bad(f"{w}: update expects {e['deadline_kind']} {e['deadline']}, reference gives {got[0]} {got[1]}")
        t = task[e["id"]]
        if t["due"] == e["deadline"] and t["due_kind"] == e["deadline_kind"]:
            bad(f"{w}: update to the date {e['id']} already has")
    elif tool == "create_task":
        keys = set(e) - {"tool", "text", "deadline_kind"}
        if not isinstance(e.get("text"), str) or not e["text"] or keys - {"deadline", "project"}:
            bad(f"{w}: bad create_task {e}")
            continue
        if "project" in e and e["project"] not in pkeys:
            bad(f"{w}: create into unknown project {e['project']}")
        if cls == "project_leadin" and "project" not in e:
            bad(f"{w}: project_leadin create without project")
        if cls != "project_leadin" and "project" in e:
            bad(f"{w}: project given though the phrase has no lead-in")
        missing = word_set(e["text"]) - word_set(text)
        if missing:
            bad(f"{w}: create text words not in phrase: {missing}")
        if parse_dates(e["text"]):
            bad(f"{w}: create text still holds a date phrase")
        got = one_date(text, w)
        if e["deadline_kind"] == "none":
            if "deadline" in e:
                bad(f"{w}: kind none with a deadline")
            if got is not None:
                bad(f"{w}: create kind none but the text has a date {got}")
        elif e["deadline_kind"] in ("day", "week"):
            if got is None:
                bad(f"{w}: dated create but no date in text")
            elif got != "bad" and (got[0], got[1].isoformat()) != (e["deadline_kind"], e.get("deadline")):
                bad(f"{w}: create expects {e['deadline_kind']} {e.get('deadline')}, reference gives {got[0]} {got[1]}")
        else:
            bad(f"{w}: bad deadline_kind")
    elif tool == "list_tasks":
        if set(e) != {"tool", "filter"} or e["filter"] not in FILTERS:
            bad(f"{w}: bad list_tasks {e}")
        else:
            by_filter[e["filter"]] += 1
    elif tool == "clarify":
        opts = e.get("options")
        if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                or len(set(opts)) != len(opts) or any(o not in task for o in opts):
            bad(f"{w}: bad clarify {e}")
            continue
        got = one_date(text, w)
        if got not in (None, "bad"):  # an ambiguous move: the date must not break the tie
            for o in opts:
                t = task[o]
                if t["due"] == got[1].isoformat():
                    bad(f"{w}: ambiguous move to {got[1]} equals the due of {o}")
    elif tool == "none":
        if set(e) != {"tool"}:
            bad(f"{w}: bad none {e}")
    else:
        bad(f"{w}: unknown tool {tool}")

# counts
for cls, (_, aim) in CLASSES.items():
    if abs(by_class[cls] - aim) > 4:
        bad(f"class {cls}: {by_class[cls]} phrases, aimed at about {aim}")
n_ru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
n_en = sum(v for (c, l), v in by_class_lang.items() if l == "en")
if len(phrases) < 300:
    bad(f"only {len(phrases)} phrases, want 300+")
if abs(n_ru - n_en) > 0.1 * len(phrases):
    bad(f"languages unbalanced: ru {n_ru}, en {n_en}")

# ---------------------------------------------------------------- report
print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local {(NOW_UTC + OFFSET).strftime('%H:%M')} Africa/Cairo; now {NOW_UTC.isoformat()}")
print(f"projects {len(projects)}; tasks {len(task)}: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(t['project'] for t in task.values()).items())))
print("task dues: " + ", ".join(f"{k} {state[k]}" for k in ("overdue", "today", "week", "later", "undated")))
print(f"phrases {len(phrases)}: ru {n_ru}, en {n_en}")
print(f"{'class':<20}{'kind':<11}{'ru':>4}{'en':>4}{'all':>5}")
for cls in CLASSES:
    print(f"{cls:<20}{CLASSES[cls][0]:<11}{by_class_lang[(cls, 'ru')]:>4}{by_class_lang[(cls, 'en')]:>4}{by_class[cls]:>5}")
print(f"{'kind':<20}{'':<11}{'ru':>4}{'en':>4}{'all':>5}")
for k in ("plain", "ambiguous", "unknown"):
    print(f"{k:<20}{'':<11}{by_kind_lang[(k, 'ru')]:>4}{by_kind_lang[(k, 'en')]:>4}{by_kind_lang[(k, 'ru')] + by_kind_lang[(k, 'en')]:>5}")
print("tools: " + ", ".join(f"{k} {by_tool[k]}" for k in ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")))
print("list filters: " + ", ".join(f"{k} {by_filter[k]}" for k in ("today", "inbox", "overdue", "done", "all_by_project")))
if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems:
        print("  " + p)
    sys.exit(1)
print("OK")
