#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-26 (stdlib only).

Checks JSON shapes, keys and creation order, class/kind consistency, counts, and
recomputes every expected date from the phrase text with a small reference of the
house date rules written for this set only. Prints counts; exits 1 on any problem.

TODAY: now = 2035-12-31T20:00:00Z, zone Asia/Tokyo (UTC+9) -> local 2036-01-01 05:00,
a Tuesday. All relative dates are read from the LOCAL date.
"""
import calendar
import json
import os
import re
import sys
from collections import Counter
from datetime import date, datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = datetime(2035, 12, 31, 20, 0, tzinfo=timezone.utc)
ZONE = timezone(timedelta(hours=9))  # Asia/Tokyo, no DST
TODAY = NOW_UTC.astimezone(ZONE).date()

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
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON ({e})")
    return rows


# ---------------------------------------------------------------- date reference
def sunday_of(d):
    return d + timedelta(days=6 - d.weekday())


def last_day(y, m):
    return date(y, m, calendar.monthrange(y, m)[1])


def add_month(y, m, k):
    m0 = m - 1 + k
    return y + m0 // 12, m0 % 12 + 1


WEEKDAYS = [
    (0, r"понедельник(?:а|у)?|monday"),
    (1, r"вторник(?:а|у)?|tuesday|tues"),
    (2, r"сред(?:а|у|ы|е)|wednesday"),
    (3, r"четверг(?:а|у)?|thursday|thurs"),
    (4, r"пятниц(?:а|у|ы|е)|friday"),
    (5, r"суббот(?:а|у|ы|е)|saturday"),
    (6, r"воскресень(?:е|я|ю)|sunday"),
]
# short English forms only after a preposition / next / this
WD_SHORT = [(0, "mon"), (1, "tue"), (2, "wed"), (3, "thu"), (4, "fri"), (5, "sat"), (6, "sun")]

MONTHS = {
    1: r"января|янв|january|jan", 2: r"февраля|фев|february|feb", 3: r"марта|мар|march|mar",
    4: r"апреля|апр|april|apr", 5: r"мая|may", 6: r"июня|июн|june|jun",
    7: r"июля|июл|july|jul", 8: r"августа|авг|august|aug", 9: r"сентября|сен|september|sept|sep",
    10: r"октября|окт|october|oct", 11: r"ноября|ноя|november|nov", 12: r"декабря|дек|december|dec",
}

# spellings accepted on purpose (typos in date words used in this set)
TOMORROW = r"завтра|завтар|зватра|tomorrow|tomorow|tommorow|tmrw|tmr"
AFTER_TOMORROW = r"послезавтра|послезавтар|day after tomorrow"
WEEK_WORD = r"week|wek|недел[юие]"


def day_month(d, m):
    """Day + month without a year: this year's unless > 30 days in the past."""
    try:
        cand = date(TODAY.year, m, d)
    except ValueError:
        return None
    if (TODAY - cand).days > 30:
        try:
            cand = date(TODAY.year + 1, m, d)
        except ValueError:
            return None
    return cand


def day_of_month(d):
    """Day of month alone: the next such day on or after today (short month -> its last day)."""
    y, m = TODAY.year, TODAY.month
    for k in range(0, 13):
        yy, mm = add_month(y, m, k)
        cand = date(yy, mm, min(d, calendar.monthrange(yy, mm)[1]))
        if cand >= TODAY:
            return cand
    return None


def ref_date(text):
    """Return (kind, date, matched_span_text) or None."""
    t = text.lower().replace("ё", "е")

    def f(p):
        return re.search(p, t)

    # ISO / numeric
    m = f(r"\b(\d{4})[-/](\d{2})[-/](\d{2})\b")
    if m:
        return "day", date(int(m[1]), int(m[2]), int(m[3])), m[0]
    m = f(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
    if m:
        return "day", date(int(m[3]), int(m[2]), int(m[1])), m[0]
    m = f(r"\b(\d{1,2})\.(\d{1,2})\b")
    if m:
        return "day", day_month(int(m[1]), int(m[2])), m[0]
    m = f(r"\b(\d{1,2})/(\d{1,2})\b")
    if m and int(m[1]) > 12:
        return "day", day_month(int(m[1]), int(m[2])), m[0]
    # day + month name
    for num, pat in MONTHS.items():
        m = f(rf"\b(\d{{1,2}})(?:st|nd|rd|th|-?го)?\s+(?:{pat})\b")
        if m:
            return "day", day_month(int(m[1]), num), m[0]
        m = f(rf"\b(?:{pat})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b")
        if m:
            return "day", day_month(int(m[1]), num), m[0]
    # day of month alone
    m = f(r"\b(?:до|к|на)\s+(\d{1,2})(?:-?го)?\s+(?:числа|числу|число)\b")
    if m:
        return "day", day_of_month(int(m[1])), m[0]
    m = f(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b")
    if m:
        return "day", day_of_month(int(m[1])), m[0]
    # relative days
    m = f(rf"\b(?:{AFTER_TOMORROW})\b")
    if m:
        return "day", TODAY + timedelta(days=2), m[0]
    m = f(rf"\b(?:{TOMORROW})\b")
    if m:
        return "day", TODAY + timedelta(days=1), m[0]
    m = f(r"\b(?:сегодня|today|eod|tonight)\b")
    if m:
        return "day", TODAY, m[0]
    m = f(r"\b(?:через|in)\s+(\d+)\s+(?:дня|дней|день|days?)\b")
    if m:
        return "day", TODAY + timedelta(days=int(m[1])), m[0]
    m = f(r"\b(?:через|in)\s+(\d+)\s+(?:недели|недель|weeks?)\b")
    if m:
        return "day", TODAY + timedelta(days=7 * int(m[1])), m[0]
    m = f(r"\b(?:через неделю|in a week)\b")
    if m:
        return "day", TODAY + timedelta(days=7), m[0]
    # weeks
    m = f(rf"\b(?:next|nxt|следующ\w*|след)\s+(?:{WEEK_WORD})\b")
    if m:
        return "week", sunday_of(TODAY) + timedelta(days=7), m[0]
    m = f(r"\b(?:конц\w*\s+недели|end of (?:the )?week|this week|этой неделе)\b")
    if m:
        return "week", sunday_of(TODAY), m[0]
    # months / year
    m = f(r"\b(?:конц\w*\s+месяца|end of (?:the )?month|eom)\b")
    if m:
        return "day", last_day(TODAY.year, TODAY.month), m[0]
    m = f(r"\b(?:next month|следующем месяце|следующий месяц)\b")
    if m:
        y, mm = add_month(TODAY.year, TODAY.month, 1)
        return "day", last_day(y, mm), m[0]
    m = f(r"\b(?:конц\w*\s+года|end of (?:the )?year)\b")
    if m:
        return "day", date(TODAY.year, 12, 31), m[0]
    # weekend = the coming Saturday (today if Saturday)
    m = f(r"\b(?:выходн\w+|weekend)\b")
    if m:
        return "day", TODAY + timedelta(days=(5 - TODAY.weekday()) % 7), m[0]
    # weekdays
    next_monday = TODAY - timedelta(days=TODAY.weekday()) + timedelta(days=7)
    for wd, pat in WEEKDAYS:
        m = f(rf"\b(?:next|следующ\w+)\s+(?:{pat})\b")
        if m:
            return "day", next_monday + timedelta(days=wd), m[0]
    for wd, short in WD_SHORT:
        m = f(rf"\bnext\s+{short}\b")
        if m:
            return "day", next_monday + timedelta(days=wd), m[0]
    for wd, pat in WEEKDAYS:
        m = f(rf"\b(?:this\s+)?(?:{pat})\b")
        if m:
            ahead = (wd - TODAY.weekday()) % 7 or 7
            return "day", TODAY + timedelta(days=ahead), m[0]
    for wd, short in WD_SHORT:
        m = f(rf"\b(?:on|by|to|till|until|this)\s+{short}\b")
        if m:
            ahead = (wd - TODAY.weekday()) % 7 or 7
            return "day", TODAY + timedelta(days=ahead), m[0]
    return None


# ---------------------------------------------------------------- data checks
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = []
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields: {p}")
    if not re.fullmatch(r"[A-Z]+", str(p.get("key", ""))):
        bad(f"project key: {p.get('key')}")
    if p.get("key") == "INBOX":
        bad("INBOX must not be listed")
    pkeys.append(p.get("key"))
if len(pkeys) != 5 or len(set(pkeys)) != 5:
    bad(f"need 5 distinct projects, got {pkeys}")
if not any(re.search("[а-я]", p["name"].lower()) for p in projects) or \
   not any(re.fullmatch(r"[A-Za-z ]+", p["name"]) for p in projects):
    bad("project names should mix Russian and English")

task_by_key = {}
counter = Counter()
due_stats = Counter()
for n, t in enumerate(tasks, 1):
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task {n} fields: {t}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"task {t['key']}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        bad(f"task line {n}: key {t['key']} but creation order gives {want}")
    if t["key"] in task_by_key:
        bad(f"duplicate key {t['key']}")
    task_by_key[t["key"]] = t
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due_kind none with a due")
        due_stats["undated"] += 1
        continue
    if t["due_kind"] not in ("day", "week"):
        bad(f"{t['key']}: due_kind {t['due_kind']}")
        continue
    try:
        d = date.fromisoformat(t["due"])
    except (TypeError, ValueError):
        bad(f"{t['key']}: bad due {t['due']}")
        continue
    if t["due_kind"] == "week" and d.weekday() != 6:
        bad(f"{t['key']}: week due {d} is not a Sunday")
    if d < TODAY:
        due_stats["overdue"] += 1
    elif d == TODAY:
        due_stats["today"] += 1
    elif t["due_kind"] == "week":
        due_stats["week"] += 1
    else:
        due_stats["later"] += 1
if not 55 <= len(tasks) <= 65:
    bad(f"{len(tasks)} tasks, want 55-65")


def due_of(k):
    t = task_by_key[k]
    return t["due"]


CLASSES = {
    "typo": ("plain", 30), "report": ("plain", 33), "negated_cancel": ("plain", 23),
    "explicit_form": ("plain", 28), "deadline_not_close": ("plain", 26),
    "project_leadin": ("plain", 24), "offtopic": ("unknown", 22), "plain_other": ("plain", 54),
    "ambiguous": ("ambiguous", 52), "unknown_other": ("unknown", 24),
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
KEY_RE = re.compile(r"\b([A-Za-z]+)-(\d+)\b")

by_class = Counter()
by_class_lang = Counter()
by_kind_lang = Counter()
by_tool = Counter()
by_filter = Counter()
date_checked = Counter()
seen = set()

for n, ph in enumerate(phrases, 1):
    where = f"phrase {n} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(ph)}")
        continue
    text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    if text in seen:
        bad(f"{where}: duplicate text")
    seen.add(text)
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if cls not in CLASSES:
        bad(f"{where}: class {cls}")
        continue
    if CLASSES[cls][0] != kind:
        bad(f"{where}: class {cls} needs kind {CLASSES[cls][0]}, got {kind}")
    if re.search(r"[,!?;\"«»()]", text):
        bad(f"{where}: punctuation")
    if text != text.strip() or "  " in text:
        bad(f"{where}: spacing")
    by_class[cls] += 1
    by_class_lang[(cls, lang)] += 1
    by_kind_lang[(kind, lang)] += 1
    tool = exp.get("tool")
    by_tool[tool] += 1

    # keys written in the text: must be the target, or (for none) must not exist
    for km in KEY_RE.finditer(text):
        key = f"{km[1].upper()}-{km[2]}"
        if km[1].upper() not in pkeys + ["INBOX"]:
            continue
        if tool == "none":
            if key in task_by_key:
                bad(f"{where}: names existing {key} but expects none")
        elif exp.get("id") != key:
            bad(f"{where}: names {key} but expects {exp}")

    found = ref_date(text)
    shape = set(exp)
    if tool in ("close_task", "cancel_task"):
        if shape != {"tool", "id"} or exp["id"] not in task_by_key:
            bad(f"{where}: bad {tool} {exp}")
        if found:
            bad(f"{where}: a {tool} phrase carries a date {found[2]!r}")
        if cls == "deadline_not_close":
            bad(f"{where}: deadline_not_close must not close/cancel")
    elif tool == "update_task":
        if shape != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in task_by_key:
            bad(f"{where}: bad update {exp}")
            continue
        if not found:
            bad(f"{where}: reference finds no date")
        elif (found[0], found[1].isoformat()) != (exp["deadline_kind"], exp["deadline"]):
            bad(f"{where}: reference gives {found[0]} {found[1]} ({found[2]!r}), expect says "
                f"{exp['deadline_kind']} {exp['deadline']}")
        else:
            date_checked["update"] += 1
        if exp["deadline"] == due_of(exp["id"]) and exp["deadline_kind"] == task_by_key[exp["id"]]["due_kind"]:
            bad(f"{where}: moves {exp['id']} to its current due")
    elif tool == "create_task":
        if not shape <= {"tool", "text", "deadline_kind", "deadline", "project"} or not exp.get("text"):
            bad(f"{where}: bad create {exp}")
            continue
        if "project" in exp and exp["project"] not in pkeys:
            bad(f"{where}: unknown project {exp['project']}")
        if cls == "project_leadin" and "project" not in exp:
            bad(f"{where}: project_leadin without project")
        if found:
            if (found[0], found[1].isoformat()) != (exp["deadline_kind"], exp.get("deadline")):
                bad(f"{where}: reference gives {found[0]} {found[1]}, expect {exp}")
            else:
                date_checked["create"] += 1
        elif exp["deadline_kind"] != "none" or "deadline" in exp:
            bad(f"{where}: no date in text but create has a deadline")
        if ref_date(exp["text"]):
            bad(f"{where}: create text still holds a date phrase")
        norm = lambda s: " ".join(s.lower().replace("ё", "е").split())
        if norm(exp["text"]) not in norm(text):
            bad(f"{where}: create text is not a piece of the phrase")
    elif tool == "list_tasks":
        if shape != {"tool", "filter"} or exp["filter"] not in FILTERS:
            bad(f"{where}: bad list {exp}")
        else:
            by_filter[exp["filter"]] += 1
    elif tool == "clarify":
        opts = exp.get("options", [])
        if shape != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: bad clarify {exp}")
        for k in opts:
            if k not in task_by_key:
                bad(f"{where}: clarify option {k} does not exist")
        if found:
            # an ambiguous move: the date must differ from every candidate's due
            iso = found[1].isoformat()
            clash = [k for k in opts if k in task_by_key and due_of(k) == iso]
            if clash:
                bad(f"{where}: move date {iso} equals the due of {clash}")
            else:
                date_checked["ambiguous move"] += 1
    elif tool == "none":
        if shape != {"tool"}:
            bad(f"{where}: bad none {exp}")
    else:
        bad(f"{where}: unknown tool {tool}")

    if kind == "ambiguous" and tool != "clarify":
        bad(f"{where}: ambiguous must be clarify")
    if kind == "unknown" and tool != "none":
        bad(f"{where}: unknown must be none")
    if kind == "plain" and tool in ("clarify", "none"):
        bad(f"{where}: plain must act")
    if cls == "negated_cancel" and tool != "cancel_task":
        bad(f"{where}: negated_cancel must cancel")
    if cls == "report" and tool != "close_task":
        bad(f"{where}: report must close")
    if cls == "deadline_not_close" and tool != "update_task":
        bad(f"{where}: deadline_not_close must update")
    if cls == "project_leadin" and tool != "create_task":
        bad(f"{where}: project_leadin must create")

# counts
total = len(phrases)
ru = sum(1 for p in phrases if p.get("lang") == "ru")
en = total - ru
if total < 300:
    bad(f"only {total} phrases")
if abs(ru - en) > total * 0.1:
    bad(f"languages unbalanced: ru {ru}, en {en}")
for cls, (_, aim) in CLASSES.items():
    if abs(by_class[cls] - aim) > 3:
        bad(f"class {cls}: {by_class[cls]}, aim {aim}")

# sanity of the reference itself (house rules on this TODAY)
SELF = {
    "today": ("day", "2036-01-01"), "tomorrow": ("day", "2036-01-02"),
    "послезавтра": ("day", "2036-01-03"), "в пятницу": ("day", "2036-01-04"),
    "on tuesday": ("day", "2036-01-08"), "next tuesday": ("day", "2036-01-08"),
    "next friday": ("day", "2036-01-11"), "this week": ("week", "2036-01-06"),
    "next week": ("week", "2036-01-13"), "end of month": ("day", "2036-01-31"),
    "next month": ("day", "2036-02-29"), "end of year": ("day", "2036-12-31"),
    "weekend": ("day", "2036-01-05"), "до 1 числа": ("day", "2036-01-01"),
    "31 декабря": ("day", "2036-12-31"), "через неделю": ("day", "2036-01-08"),
    "in 2 weeks": ("day", "2036-01-15"), "19/01": ("day", "2036-01-19"),
}
if TODAY != date(2036, 1, 1) or TODAY.weekday() != 1:
    bad(f"TODAY is {TODAY}, expected Tuesday 2036-01-01")
for s, (k, d) in SELF.items():
    r = ref_date(s)
    if not r or (r[0], r[1].isoformat()) != (k, d):
        bad(f"reference self-test {s!r}: got {r}")

# ---------------------------------------------------------------- report
print(f"TODAY (local, Asia/Tokyo): {TODAY} {TODAY.strftime('%A')}  (UTC now {NOW_UTC.isoformat()})")
print(f"projects: {len(projects)}  tasks: {len(tasks)}  phrases: {total}")
print("tasks per project: " + ", ".join(f"{k} {counter[k]}" for k in pkeys + ["INBOX"]))
print("task dues: " + ", ".join(f"{k} {due_stats[k]}" for k in ("overdue", "today", "week", "later", "undated")))
print()
print(f"{'class':<20}{'kind':<11}{'ru':>4}{'en':>4}{'all':>5}")
for cls, (kind, _) in CLASSES.items():
    print(f"{cls:<20}{kind:<11}{by_class_lang[(cls, 'ru')]:>4}{by_class_lang[(cls, 'en')]:>4}{by_class[cls]:>5}")
print(f"{'all':<31}{ru:>4}{en:>4}{total:>5}")
print()
print(f"{'kind':<11}{'ru':>4}{'en':>4}{'all':>5}")
for kind in ("plain", "ambiguous", "unknown"):
    r_, e_ = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
    print(f"{kind:<11}{r_:>4}{e_:>4}{r_ + e_:>5}")
print()
print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items(), key=lambda x: -x[1])))
print("list filters: " + ", ".join(f"{k} {by_filter[k]}" for k in sorted(FILTERS)))
print("dates recomputed: " + ", ".join(f"{k} {v}" for k, v in date_checked.items()))
if problems:
    print()
    for p in problems:
        print("PROBLEM:", p)
    print(f"{len(problems)} problem(s)")
    sys.exit(1)
print("OK")
