#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-36 (stdlib only).

python3 validate.py  -> prints counts, exits 1 on any problem.

Holds its own small reference of the house date rules (from
data/chat-phrases/README.md), written for this set only, and recomputes every
expected date: updates, dated creates, and the dates named in ambiguous moves.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
# now = 2038-12-31T23:30:00Z, zone America/New_York (EST, UTC-5)
NOW_UTC = dt.datetime(2038, 12, 31, 23, 30, tzinfo=dt.timezone.utc)
ZONE = dt.timezone(dt.timedelta(hours=-5), "EST")
TODAY = NOW_UTC.astimezone(ZONE).date()

CLASSES = {  # class -> (kind, target count)
    "typo": ("plain", 30),
    "report": ("plain", 33),
    "negated_cancel": ("plain", 23),
    "explicit_form": ("plain", 28),
    "deadline_not_close": ("plain", 26),
    "project_leadin": ("plain", 24),
    "offtopic": ("unknown", 22),
    "plain_other": ("plain", 54),
    "ambiguous": ("ambiguous", 52),
    "unknown_other": ("unknown", 24),
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
KEY_RE = re.compile(r"\b([A-Za-z]+)-(\d+)\b")

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
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad json: {e}")
    return rows


def iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- date reference
D = dt.timedelta


def sunday_of(d):
    return d + D(days=6 - d.weekday())


def last_of_month(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def next_weekday(wd):
    """the next such weekday strictly after today"""
    delta = (wd - TODAY.weekday()) % 7
    return TODAY + D(days=delta or 7)


def weekday_next_week(wd):
    """that weekday in the next Monday-Sunday week"""
    monday = TODAY - D(days=TODAY.weekday()) + D(days=7)
    return monday + D(days=wd)


def day_month(day, month):
    """day + month without a year: this year's unless > 30 days past, then next year's"""
    try:
        d = dt.date(TODAY.year, month, day)
    except ValueError:
        return "error"
    if (TODAY - d).days > 30:
        try:
            d = dt.date(TODAY.year + 1, month, day)
        except ValueError:
            return "error"
    return d


def day_of_month(n):
    """the next such day on or after today; a month without it gives its last day"""
    if not 1 <= n <= 31:
        return "error"
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        last = calendar.monthrange(y, m)[1]
        d = dt.date(y, m, min(n, last))
        if d >= TODAY:
            return d
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return "error"


EN_WD = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4,
         "saturday": 5, "sat": 5, "sunday": 6, "sun": 6}
RU_WD = [(r"понедельник\w*", 0), (r"вторник\w*", 1), (r"сред[аыуе]", 2), (r"четверг\w*", 3),
         (r"пятниц\w*", 4), (r"суббот\w*", 5), (r"воскресень\w*", 6)]
RU_WD_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
EN_MON = {"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4,
          "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
          "sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11,
          "november": 11, "dec": 12, "december": 12}
RU_MON = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6, "июля": 7,
          "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
NUM_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "a": 1,
             "один": 1, "одну": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5}
# obvious slips of non-weekday date words, read as the word (a judgement of this set;
# the house rules make only misspelt weekdays an error)
TOMORROW = r"(?:tomorrow|tomorow|tommorow|tmrw|tmr|завтра|завтро|завтар)"
AFTER_TOMORROW = r"(?:послезавтра|послезавтро|послезавра|day after tomorrow)"


def _num(s):
    return int(s) if s.isdigit() else NUM_WORDS.get(s)


WD_EN_ALT = "|".join(sorted(EN_WD, key=len, reverse=True))
RU_WD_ALT = "|".join(p for p, _ in RU_WD)


def _ru_wd(word):
    for p, wd in RU_WD:
        if re.fullmatch(p, word):
            return wd
    return None


RULES = [  # (regex, function(match) -> (kind, date) | "error")
    (r"\b(\d{4})-(\d{2})-(\d{2})\b",
     lambda m: ("day", iso(m.group(0)) or "error")),
    (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b",
     lambda m: ("day", _safe(int(m.group(3)), int(m.group(2)), int(m.group(1))))),
    (r"\b(\d{1,2})\.(\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
    (r"\b(\d{1,2})/(\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(1)), int(m.group(2)))
                if int(m.group(1)) > 12 else "error")),
    (r"\b(\d{1,2}) (" + "|".join(RU_MON) + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), RU_MON[m.group(2)]))),
    (r"\b(" + "|".join(sorted(EN_MON, key=len, reverse=True)) + r") (\d{1,2})(?:st|nd|rd|th)?\b",
     lambda m: ("day", day_month(int(m.group(2)), EN_MON[m.group(1)]))),
    (r"\b(\d{1,2})(?:st|nd|rd|th)? (" + "|".join(sorted(EN_MON, key=len, reverse=True)) + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), EN_MON[m.group(2)]))),
    (r"\b(\d{1,2}) (?:числа|числу|число)\b",
     lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b",
     lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\b" + AFTER_TOMORROW + r"\b", lambda m: ("day", TODAY + D(days=2))),
    (r"\b" + TOMORROW + r"\b", lambda m: ("day", TODAY + D(days=1))),
    (r"\b(?:today|eod|сегодня)\b", lambda m: ("day", TODAY)),
    (r"\b(?:in|через) (\w+) (?:days?|дня|дней|день)\b",
     lambda m: ("day", TODAY + D(days=_num(m.group(1)))) if _num(m.group(1)) else "error"),
    (r"\b(?:in a week|через неделю)\b", lambda m: ("day", TODAY + D(days=7))),
    (r"\b(?:in|через) (\w+) (?:weeks?|недели|недель)\b",
     lambda m: ("day", TODAY + D(days=7 * _num(m.group(1)))) if _num(m.group(1)) else "error"),
    (r"\b(?:next|nxt) week\b|\bследующ\w* недел\w*", lambda m: ("week", sunday_of(TODAY) + D(days=7))),
    (r"\b(?:this week|end of (?:the )?week)\b|\bконц\w* недели\b|\bэтой неделе\b",
     lambda m: ("week", sunday_of(TODAY))),
    (r"\bnext month\b|\bследующ\w* месяц\w*",
     lambda m: ("day", last_of_month(TODAY.year + TODAY.month // 12, TODAY.month % 12 + 1))),
    (r"\bend of (?:the )?month\b|\bконц\w* месяца\b",
     lambda m: ("day", last_of_month(TODAY.year, TODAY.month))),
    (r"\bend of (?:the )?year\b|\bконц\w* года\b", lambda m: ("day", dt.date(TODAY.year, 12, 31))),
    (r"\b(?:this )?weekend\b|\bвыходн\w*",
     lambda m: ("day", TODAY + D(days=(5 - TODAY.weekday()) % 7))),
    (r"\bnext (" + WD_EN_ALT + r")\b", lambda m: ("day", weekday_next_week(EN_WD[m.group(1)]))),
    (r"\bследующ\w* (" + RU_WD_ALT + r")\b", lambda m: ("day", weekday_next_week(_ru_wd(m.group(1))))),
    (r"\b(?:this )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
     lambda m: ("day", next_weekday(EN_WD[m.group(1)]))),
    (r"\b(?:on|by|to|till|until|for) (" + WD_EN_ALT + r")\b",
     lambda m: ("day", next_weekday(EN_WD[m.group(1)]))),
    (r"\b(" + RU_WD_ALT + r")\b", lambda m: ("day", next_weekday(_ru_wd(m.group(1))))),
    (r"\b(?:в|во|на|до|к|ко) (пн|вт|ср|чт|пт|сб|вс)\b",
     lambda m: ("day", next_weekday(RU_WD_ABBR[m.group(1)]))),
]
RULES = [(re.compile(r), f) for r, f in RULES]

WEEKDAY_FORMS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                 "понедельник", "вторник", "среду", "четверг", "пятницу", "пятницы", "пятнице",
                 "субботу", "субботы", "воскресенье", "воскресенья"]


def _safe(y, m, d):
    try:
        return dt.date(y, m, d)
    except ValueError:
        return "error"


def lev(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def norm(s):
    return " ".join(s.lower().replace("ё", "е").split())


def read_date(text):
    """-> None (no date), "error", or (kind, date, (start, end)) for the first date phrase"""
    t = norm(text)
    for tok in re.findall(r"\w+", t):  # misspelt weekday -> error (house rule)
        if len(tok) >= 5 and tok not in WEEKDAY_FORMS and _ru_wd(tok) is None:
            if any(lev(tok, w) <= 1 for w in WEEKDAY_FORMS):
                return "error"
    found = []
    for rx, fn in RULES:
        for m in rx.finditer(t):
            if any(not (m.end() <= s or m.start() >= e) for s, e, _ in found):
                continue
            r = fn(m)
            if r == "error" or r[1] == "error":
                return "error"
            found.append((m.start(), m.end(), r))
    if not found:
        return None
    dates = {r for _, _, r in found}
    if len(dates) > 1:
        return "error"
    s, e, (kind, d) = min(found)
    return kind, d, (s, e)


# ------------------------------------------------------------------- checks
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = []
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields: {p}")
    pkeys.append(p.get("key"))
if len(projects) != 5:
    bad(f"expected 5 projects, got {len(projects)}")
if len(set(pkeys)) != len(pkeys) or "INBOX" in pkeys:
    bad("project keys must be unique and must not list INBOX")

task_by_key = {}
seq = Counter()
for i, t in enumerate(tasks, 1):
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task {i} fields: {t}")
        continue
    if t["project"] not in pkeys and t["project"] != "INBOX":
        bad(f"task {t['key']}: unknown project {t['project']}")
    seq[t["project"]] += 1
    want = f"{t['project']}-{seq[t['project']]}"
    if t["key"] != want:
        bad(f"task {i}: key {t['key']} but creation order gives {want}")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        d = iso(t["due"])
        if d is None:
            bad(f"{t['key']}: bad due {t['due']}")
        elif t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"{t['key']}: week due must be a Sunday")
    else:
        bad(f"{t['key']}: bad due_kind {t['due_kind']}")
    task_by_key[t["key"]] = t
if not 55 <= len(tasks) <= 65:
    bad(f"tasks: {len(tasks)} not in 55..65")

due_buckets = Counter()
for t in tasks:
    if t["due"] is None:
        due_buckets["undated"] += 1
    elif t["due_kind"] == "week":
        due_buckets["week"] += 1
    else:
        d = iso(t["due"])
        due_buckets["overdue" if d < TODAY else "today" if d == TODAY else "later"] += 1

ALLOWED_LEFTOVER = set("""add добавь добавить задачу задача напомни remind me to todo new task put in
project проект в во на до к ко через by on for to the this pls плиз""".split())
PROJECT_WORDS = {
    "TAX": {"налоги", "tax"}, "OFC": {"office", "офис"}, "COOP": {"co-op", "board", "кооп", "кооператив"},
    "ICE": {"хоккей", "hockey"}, "FAM": {"семья", "семью", "family"},
}


def key_of(e):
    return e.get("id")


def lang_of(text):
    for w in re.findall(r"[^\W\d_][\w'-]*", text):
        if KEY_RE.fullmatch(w) or re.search(r"\d", w):
            continue
        return "ru" if re.search(r"[а-яё]", w, re.I) else "en"
    return None


seen = set()
by_class = Counter()
by_class_lang = Counter()
by_kind_lang = Counter()
by_tool = Counter()
by_filter = Counter()
dates_checked = Counter()
date_errors_expected = []

for i, p in enumerate(phrases, 1):
    where = f"phrase {i} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
        continue
    text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if text in seen:
        bad(f"{where}: duplicate text")
    seen.add(text)
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    elif lang_of(text) != lang:
        bad(f"{where}: lang says {lang}, first word says {lang_of(text)}")
    if cls not in CLASSES:
        bad(f"{where}: class {cls}")
        continue
    if kind != CLASSES[cls][0]:
        bad(f"{where}: class {cls} needs kind {CLASSES[cls][0]}, got {kind}")
    # messenger style: lowercase (keys aside), no sentence punctuation
    if re.search(r"[,!?;\"«»()]", text):
        bad(f"{where}: punctuation")
    if KEY_RE.sub("", text) != KEY_RE.sub("", text).lower():
        bad(f"{where}: upper case outside a key")
    by_class[cls] += 1
    by_class_lang[(cls, lang)] += 1
    by_kind_lang[(kind, lang)] += 1
    tool = e.get("tool")
    by_tool[tool] += 1

    # --- shape of expect
    shapes = {
        "close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
        "update_task": {"tool", "id", "deadline_kind", "deadline"},
        "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"},
    }
    if tool == "create_task":
        if not ({"tool", "text", "deadline_kind"} <= set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"}):
            bad(f"{where}: create fields {sorted(e)}")
        if e.get("deadline_kind") not in ("none", "day", "week"):
            bad(f"{where}: create deadline_kind")
        if (e.get("deadline_kind") == "none") != ("deadline" not in e):
            bad(f"{where}: create deadline vs kind")
        if "project" in e and e["project"] not in pkeys:
            bad(f"{where}: create project {e['project']} unknown")
    elif tool in shapes:
        if set(e) != shapes[tool]:
            bad(f"{where}: {tool} fields {sorted(e)}")
    else:
        bad(f"{where}: tool {tool}")
        continue
    if tool in ("close_task", "cancel_task", "update_task") and e.get("id") not in task_by_key:
        bad(f"{where}: unknown key {e.get('id')}")
    if tool == "update_task" and e.get("deadline_kind") not in ("day", "week"):
        bad(f"{where}: update deadline_kind")
    if tool == "list_tasks":
        if e.get("filter") not in FILTERS:
            bad(f"{where}: filter {e.get('filter')}")
        by_filter[e.get("filter")] += 1
    if tool == "clarify":
        opts = e.get("options", [])
        if len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify needs 2+ distinct options")
        for k in opts:
            if k not in task_by_key:
                bad(f"{where}: unknown option {k}")

    # --- class vs tool
    need = {
        "report": {"close_task"}, "negated_cancel": {"cancel_task"},
        "explicit_form": {"close_task", "cancel_task", "update_task"},
        "deadline_not_close": {"update_task", "create_task"}, "project_leadin": {"create_task"},
        "offtopic": {"none"}, "unknown_other": {"none"}, "ambiguous": {"clarify"},
        "typo": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
        "plain_other": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
    }[cls]
    if tool not in need:
        bad(f"{where}: class {cls} cannot expect {tool}")
    if cls == "project_leadin" and "project" not in e:
        bad(f"{where}: project lead-in without project")
    if cls != "project_leadin" and "project" in e:
        bad(f"{where}: project outside the lead-in class")
    if cls == "explicit_form":
        keys = [f"{a.upper()}-{b}" for a, b in KEY_RE.findall(text)]
        if keys != [e.get("id")]:
            bad(f"{where}: explicit key {keys} vs expect {e.get('id')}")

    # --- dates, recomputed
    r = read_date(text)
    if tool == "update_task" or (tool == "create_task" and e["deadline_kind"] != "none"):
        if not isinstance(r, tuple):
            bad(f"{where}: reference reads no date ({r})")
        else:
            kind_r, d_r, _ = r
            if (kind_r, d_r.isoformat()) != (e["deadline_kind"], e["deadline"]):
                bad(f"{where}: expect {e['deadline_kind']} {e['deadline']}, reference {kind_r} {d_r}")
            dates_checked[tool] += 1
        if tool == "update_task":
            t = task_by_key.get(e["id"])
            if t and (t["due"], t["due_kind"]) == (e["deadline"], e["deadline_kind"]):
                bad(f"{where}: update to the task's current due")
    elif tool == "create_task":
        if r is not None:
            bad(f"{where}: undated create but reference reads {r}")
    elif tool in ("close_task", "cancel_task") and isinstance(r, tuple):
        span = norm(text)[r[2][0]:r[2][1]]
        if not any(w in norm(task_by_key[e["id"]]["title"]) for w in span.split()):
            bad(f"{where}: a close/cancel carrying a date ({span})")
    elif tool == "clarify" and r is not None:
        if not isinstance(r, tuple):
            bad(f"{where}: ambiguous move with unreadable date")
        else:
            dates_checked["clarify"] += 1
            for k in e["options"]:
                t = task_by_key[k]
                if t["due"] == r[1].isoformat():
                    bad(f"{where}: move date {r[1]} equals {k}'s due")
    elif tool == "none" and r == "error":
        date_errors_expected.append(text)

    # --- create text: a contiguous piece of the phrase; the rest is command/project/date words
    if tool == "create_task":
        nt, ne = norm(text), norm(e["text"])
        pos = nt.find(ne)
        if pos < 0:
            bad(f"{where}: create text not a piece of the phrase")
        else:
            rest = nt[:pos] + " " + nt[pos + len(ne):]
            if isinstance(r, tuple):
                ds, de = r[2]
                if ds < pos + len(ne) and de > pos:
                    bad(f"{where}: date phrase inside create text")
                rest = nt[:min(ds, pos)] + " " + (nt[de:pos] if de <= pos else nt[pos + len(ne):ds]) + " " + nt[max(de, pos + len(ne)):]
                rest = rest.replace(ne, " ")
            allowed = ALLOWED_LEFTOVER | PROJECT_WORDS.get(e.get("project"), set())
            left = [w for w in re.findall(r"[\w-]+", rest) if w not in allowed]
            if left:
                bad(f"{where}: words left outside create text: {left}")

# --- counts
for cls, (_, target) in CLASSES.items():
    if abs(by_class[cls] - target) > 2:
        bad(f"class {cls}: {by_class[cls]} far from target {target}")
n = len(phrases)
ru = sum(v for (k, l), v in by_kind_lang.items() if l == "ru")
en = n - ru
if n < 300:
    bad(f"only {n} phrases")
if abs(ru - en) > n * 0.05:
    bad(f"languages unbalanced: ru {ru} en {en}")
for cls in CLASSES:
    if abs(by_class_lang[(cls, "ru")] - by_class_lang[(cls, "en")]) > 2:
        bad(f"class {cls} unbalanced by language")

print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), now {NOW_UTC.astimezone(ZONE):%Y-%m-%d %H:%M} America/New_York")
print(f"projects {len(projects)}, tasks {len(tasks)}: " + ", ".join(f"{k} {v}" for k, v in sorted(seq.items())))
print("task dues: " + ", ".join(f"{k} {due_buckets[k]}" for k in ("overdue", "today", "week", "later", "undated")))
print(f"phrases {n}: ru {ru}, en {en}")
print(f"{'class':20} {'ru':>4} {'en':>4} {'all':>4}")
for cls in CLASSES:
    print(f"{cls:20} {by_class_lang[(cls, 'ru')]:4} {by_class_lang[(cls, 'en')]:4} {by_class[cls]:4}")
print(f"{'kind':20} {'ru':>4} {'en':>4} {'all':>4}")
for k in ("plain", "ambiguous", "unknown"):
    a, b = by_kind_lang[(k, "ru")], by_kind_lang[(k, "en")]
    print(f"{k:20} {a:4} {b:4} {a + b:4}")
print("by tool: " + ", ".join(f"{k} {by_tool[k]}" for k in
      ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")))
print("list filters: " + ", ".join(f"{k} {by_filter[k]}" for k in sorted(by_filter)))
print(f"dates recomputed: update {dates_checked['update_task']}, create {dates_checked['create_task']}, "
      f"ambiguous moves {dates_checked['clarify']}; unreadable dates expected as none: {len(date_errors_expected)}")
if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems:
        print(" -", p)
    sys.exit(1)
print("OK")
