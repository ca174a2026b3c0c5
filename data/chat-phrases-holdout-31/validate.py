#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-31 (stdlib only).

    python3 validate.py

Checks the JSON shapes of projects.jsonl, tasks.jsonl and phrases.jsonl, that every
referenced key exists, that loading tasks.jsonl in file order reproduces the keys,
class/kind consistency, counts per class and language, and RECOMPUTES every expected
date (updates, dated creates, the date named in ambiguous moves) from the phrase text
with a small reference of the house date rules written for this set only.
Prints counts; exits 1 on any problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))

# TODAY: now = 2037-08-15T18:45:00Z, zone Asia/Kolkata (UTC+5:30)
NOW_UTC = dt.datetime(2037, 8, 15, 18, 45, tzinfo=dt.timezone.utc)
ZONE = dt.timezone(dt.timedelta(hours=5, minutes=30), "IST")
NOW_LOCAL = NOW_UTC.astimezone(ZONE)
TODAY = NOW_LOCAL.date()

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
KEY_RE = re.compile(r"^([A-Z]+)-(\d+)$")
KEY_IN_TEXT = re.compile(r"\b([A-Z]+-\d+)\b")

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


def iso(s):
    try:
        return dt.date.fromisoformat(s) if isinstance(s, str) and len(s) == 10 else None
    except ValueError:
        return None


# ---------------------------------------------------------------- date reference
WD_EN = {"mon": 0, "monday": 0, "tue": 1, "tues": 1, "tuesday": 1, "wed": 2,
         "wednesday": 2, "thu": 3, "thur": 3, "thurs": 3, "thursday": 3, "fri": 4,
         "friday": 4, "sat": 5, "saturday": 5, "sun": 6, "sunday": 6}
WD_RU_STEMS = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
               ("пятниц", 4), ("суббот", 5), ("воскресень", 6)]
WD_RU_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
MON_RU = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
          "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11,
          "декабря": 12}
MON_EN = {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
WD_EN_RE = r"(monday|tuesday|tues|tue|wednesday|wed|thursday|thurs|thur|thu|friday|fri|saturday|sat|sunday|sun)"
WD_RU_RE = r"(понедельник\w*|вторник\w*|сред[уаые]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*)"
MON_EN_RE = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"


def ru_wd(word):
    for stem, i in WD_RU_STEMS:
        if word.startswith(stem):
            return i
    raise ValueError(word)


def plain_weekday(i):  # next such day strictly after today
    d = (i - TODAY.weekday()) % 7
    return TODAY + dt.timedelta(days=d or 7)


def next_weekday(i):  # that weekday in the next Monday-Sunday week
    monday = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=i)


def this_sunday():
    return TODAY + dt.timedelta(days=(6 - TODAY.weekday()) % 7)


def month_last(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months(y, m, k):
    m0 = m - 1 + k
    return y + m0 // 12, m0 % 12 + 1


def day_month(d, m, y=None):
    if y is not None:
        return dt.date(y, m, d)
    x = dt.date(TODAY.year, m, d)
    if (TODAY - x).days > 30:
        x = dt.date(TODAY.year + 1, m, d)
    return x


def day_of_month(d):
    if not 1 <= d <= 31:
        raise ValueError(d)
    y, m = TODAY.year, TODAY.month
    for k in range(0, 3):
        yy, mm = add_months(y, m, k)
        x = dt.date(yy, mm, min(d, calendar.monthrange(yy, mm)[1]))
        if x >= TODAY:
            return x
    raise ValueError(d)


NUMW = {"two": 2, "две": 2, "2": 2, "three": 3, "три": 3}

# (regex, handler(match) -> (kind, date)); earlier rules win, their spans are masked
RULES = [
    (r"\b(\d{4})-(\d{2})-(\d{2})\b",
     lambda m: ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))),
    (r"(?<![\w-])(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?(?![\w.])",
     lambda m: ("day", day_month(int(m[1]), int(m[2]), int(m[3]) if m[3] else None))),
    (r"(?<![\w-])(\d{1,2})/(\d{1,2})(?![\w/])",
     lambda m: ("day", day_month(int(m[1]), int(m[2]))) if int(m[1]) > 12 else ("error", None)),
    (r"\b(\d{1,2}) (" + "|".join(MON_RU) + r")\b",
     lambda m: ("day", day_month(int(m[1]), MON_RU[m[2]]))),
    (r"\b(\d{1,2})(?:st|nd|rd|th)? " + MON_EN_RE + r"\b",
     lambda m: ("day", day_month(int(m[1]), MON_EN[m[2]]))),
    (r"\b" + MON_EN_RE + r" (\d{1,2})(?:st|nd|rd|th)?\b",
     lambda m: ("day", day_month(int(m[2]), MON_EN[m[1]]))),
    (r"\b(\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m[1])))),
    (r"\b(\d{1,2}) числа\b", lambda m: ("day", day_of_month(int(m[1])))),
    (r"\bend of (?:the )?month\b|\bкон(?:ец|ца|це|цу) месяца\b",
     lambda m: ("day", month_last(TODAY.year, TODAY.month))),
    (r"\bnext month\b|\bследующ\w+ месяц\w*",
     lambda m: ("day", month_last(*add_months(TODAY.year, TODAY.month, 1)))),
    (r"\bend of (?:the )?year\b|\bкон(?:ец|ца|це|цу) года\b",
     lambda m: ("day", dt.date(TODAY.year, 12, 31))),
    (r"\bthis week\b|\bend of (?:the )?week\b|\bкон(?:ец|ца|це|цу) недели\b|\bэтой неделе\b",
     lambda m: ("week", this_sunday())),
    (r"\bne?xt week\b|\bследующ(?:ей|ую) неде\w+|\bслед\.? неде\w+",
     lambda m: ("week", this_sunday() + dt.timedelta(days=7))),
    (r"\bnext " + WD_EN_RE + r"\b", lambda m: ("day", next_weekday(WD_EN[m[1]]))),
    (r"\bследующ\w+ " + WD_RU_RE, lambda m: ("day", next_weekday(ru_wd(m[1])))),
    (r"\bin (\d+|two|three) days?\b|\bчерез (\d+|два|три) (?:день|дня|дней)\b",
     lambda m: ("day", TODAY + dt.timedelta(days=int(NUMW.get(m[1] or m[2], m[1] or m[2]))))),
    (r"\bin a week\b|\bчерез неделю\b", lambda m: ("day", TODAY + dt.timedelta(days=7))),
    (r"\bin (\d+|two|three) weeks\b|\bчерез (\d+|две|три) недели\b",
     lambda m: ("day", TODAY + dt.timedelta(days=7 * int(NUMW.get(m[1] or m[2], m[1] or m[2]))))),
    (r"\bday after tomorrow\b|\bпослезавтр[ао]\b", lambda m: ("day", TODAY + dt.timedelta(days=2))),
    # judgement calls of this set: tmrw/tmr (house), plus the common slips
    # tomorow / tommorow / завтро, and nxt / след for next (above)
    (r"\b(?:tomorrow|tomorow|tommorow|tmrw|tmr|завтра|завтро)\b",
     lambda m: ("day", TODAY + dt.timedelta(days=1))),
    (r"\b(?:today|eod|сегодня)\b", lambda m: ("day", TODAY)),
    (r"\bweekend\b|\bвыходн\w*", lambda m: ("day", TODAY + dt.timedelta(days=(5 - TODAY.weekday()) % 7))),
    (r"\b" + WD_EN_RE + r"\b", lambda m: ("day", plain_weekday(WD_EN[m[1]]))),
    (r"\b" + WD_RU_RE, lambda m: ("day", plain_weekday(ru_wd(m[1])))),
    (r"\b(?:в|во|на|до|к|ко) (пн|вт|ср|чт|пт|сб|вс)\b", lambda m: ("day", plain_weekday(WD_RU_ABBR[m[1]]))),
]
RULES = [(re.compile(r), h) for r, h in RULES]


def find_dates(text):
    """All date expressions in text, as a list of (kind, date, matched_text)."""
    s = text.lower().replace("ё", "е")
    out = []
    for rx, h in RULES:
        while True:
            m = rx.search(s)
            if not m:
                break
            try:
                kind, d = h(m)
            except (ValueError, KeyError):
                kind, d = "error", None
            out.append((kind, d, m.group(0)))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return out


# ---------------------------------------------------------------- projects
projects = load("projects.jsonl")
pkeys = []
for n, p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"projects.jsonl:{n}: fields {sorted(p)}")
        continue
    if not re.fullmatch(r"[A-Z]+", p["key"]) or p["key"] == "INBOX":
        bad(f"projects.jsonl:{n}: bad key {p['key']}")
    if not p["name"].strip() or len(p["description"]) < 20:
        bad(f"projects.jsonl:{n}: empty name or thin description")
    pkeys.append(p["key"])
if len(pkeys) != 5 or len(set(pkeys)) != 5:
    bad(f"projects: expected 5 distinct projects, got {pkeys}")

# ---------------------------------------------------------------- tasks
tasks = load("tasks.jsonl")
tmap = {}
counter = defaultdict(int)
due_cat = Counter()
for n, t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks.jsonl:{n}: fields {sorted(t)}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"tasks.jsonl:{n}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        bad(f"tasks.jsonl:{n}: key {t['key']} but creation order gives {want}")
    if t["key"] in tmap:
        bad(f"tasks.jsonl:{n}: duplicate key {t['key']}")
    if not t["title"].strip():
        bad(f"tasks.jsonl:{n}: empty title")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"tasks.jsonl:{n}: due_kind none with a due")
        due_cat["undated"] += 1
    elif t["due_kind"] in ("day", "week"):
        d = iso(t["due"])
        if d is None:
            bad(f"tasks.jsonl:{n}: bad due {t['due']}")
        else:
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"tasks.jsonl:{n}: week due {d} is not a Sunday")
            if t["due_kind"] == "week":
                due_cat["week"] += 1
            elif d < TODAY:
                due_cat["overdue"] += 1
            elif d == TODAY:
                due_cat["today"] += 1
            else:
                due_cat["later"] += 1
    else:
        bad(f"tasks.jsonl:{n}: bad due_kind {t['due_kind']}")
    tmap[t["key"]] = t
if not 55 <= len(tmap) <= 65:
    bad(f"tasks: {len(tmap)} tasks, want 55-65")
if not 12 <= due_cat["undated"] <= 18:
    bad(f"tasks: {due_cat['undated']} undated, want about 15")
for c in ("overdue", "today", "week", "later"):
    if due_cat[c] == 0:
        bad(f"tasks: no {c} task")

# ---------------------------------------------------------------- phrases
phrases = load("phrases.jsonl")
by_class = Counter()
by_class_lang = Counter()
by_kind_lang = Counter()
by_tool = Counter()
by_filter = Counter()
dates_checked = 0
texts = set()


def norm(s):
    return " ".join(s.lower().replace("ё", "е").split())


for n, p in phrases:
    where = f"phrases.jsonl:{n}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
        continue
    text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if cls not in CLASSES:
        bad(f"{where}: class {cls}")
        continue
    if kind != CLASSES[cls][0]:
        bad(f"{where}: class {cls} needs kind {CLASSES[cls][0]}, has {kind}")
    if norm(text) in texts:
        bad(f"{where}: duplicate text {text!r}")
    texts.add(norm(text))
    # messenger style: lowercase apart from task keys; no punctuation but ':' '.' '/' '-'
    if KEY_IN_TEXT.sub("", text) != KEY_IN_TEXT.sub("", text).lower():
        bad(f"{where}: uppercase outside a key: {text!r}")
    if re.search(r"[,!?;\"'«»()]", text):
        bad(f"{where}: punctuation in {text!r}")
    by_class[cls] += 1
    by_class_lang[(cls, lang)] += 1
    by_kind_lang[(kind, lang)] += 1

    tool = e.get("tool") if isinstance(e, dict) else None
    by_tool[tool] += 1
    shapes = {
        "close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
        "update_task": {"tool", "id", "deadline_kind", "deadline"},
        "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"},
    }
    if tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not {"tool", "text", "deadline_kind"} <= set(e) <= allowed:
            bad(f"{where}: create_task fields {sorted(e)}")
    elif tool in shapes:
        if set(e) != shapes[tool]:
            bad(f"{where}: {tool} fields {sorted(e)}")
    else:
        bad(f"{where}: unknown tool {tool}")
        continue

    # class -> tool
    if kind == "unknown" and tool != "none":
        bad(f"{where}: unknown kind must expect none")
    if kind == "ambiguous" and tool != "clarify":
        bad(f"{where}: ambiguous kind must expect clarify")
    if kind == "plain" and tool in ("clarify", "none"):
        bad(f"{where}: plain kind cannot expect {tool}")
    need = {"report": {"close_task"}, "negated_cancel": {"cancel_task"},
            "deadline_not_close": {"update_task", "create_task"},
            "project_leadin": {"create_task"}}
    if cls in need and tool not in need[cls]:
        bad(f"{where}: class {cls} expects {need[cls]}, has {tool}")
    if cls == "project_leadin" and "project" not in e:
        bad(f"{where}: project_leadin without project")
    if cls == "explicit_form":
        for k in KEY_IN_TEXT.findall(text):
            if e.get("id") != k:
                bad(f"{where}: explicit key {k} but expect {e}")

    # keys exist
    if tool in ("close_task", "cancel_task", "update_task"):
        if e["id"] not in tmap:
            bad(f"{where}: unknown task {e['id']}")
    if tool == "clarify":
        opts = e["options"]
        if not isinstance(opts, list) or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify needs 2+ distinct options")
        for k in opts:
            if k not in tmap:
                bad(f"{where}: unknown option {k}")
    if tool == "list_tasks":
        if e["filter"] not in FILTERS:
            bad(f"{where}: filter {e['filter']}")
        by_filter[e["filter"]] += 1
    if tool == "create_task":
        if "project" in e and e["project"] not in pkeys:
            bad(f"{where}: unknown project {e['project']}")
        if norm(e["text"]) not in norm(text):
            bad(f"{where}: create text {e['text']!r} not in the phrase")
        if KEY_IN_TEXT.search(text):
            bad(f"{where}: create with a task key in the phrase")

    # dates
    found = [f for f in find_dates(text) if f[0] != "error"]
    errs = [f for f in find_dates(text) if f[0] == "error"]
    if tool == "update_task" or (tool == "create_task" and e["deadline_kind"] != "none"):
        dk = e["deadline_kind"]
        if dk not in ("day", "week"):
            bad(f"{where}: deadline_kind {dk}")
        d = iso(e.get("deadline"))
        if d is None:
            bad(f"{where}: bad deadline {e.get('deadline')}")
            continue
        if len(found) != 1 or errs:
            bad(f"{where}: reference finds {found + errs} in {text!r}")
            continue
        rk, rd, _ = found[0]
        if (rk, rd) != (dk, d):
            bad(f"{where}: expect {dk} {d}, reference gives {rk} {rd} for {text!r}")
        if dk == "week" and d.weekday() != 6:
            bad(f"{where}: week deadline {d} not a Sunday")
        if tool == "update_task" and tmap.get(e["id"], {}).get("due") == e["deadline"] \
                and tmap[e["id"]]["due_kind"] == dk:
            bad(f"{where}: update to the task's current due")
        dates_checked += 1
    elif tool == "create_task":
        if "deadline" in e:
            bad(f"{where}: deadline given with kind none")
        if found or errs:
            bad(f"{where}: kind none but reference finds {found + errs}")
    elif tool == "clarify" and (found or errs):
        if len(found) != 1 or errs:
            bad(f"{where}: ambiguous move, reference finds {found + errs}")
            continue
        rk, rd, _ = found[0]
        for k in e["options"]:
            if tmap.get(k, {}).get("due") == rd.isoformat():
                bad(f"{where}: move date {rd} equals the current due of {k}")
        dates_checked += 1

# counts
total = sum(by_class.values())
for cls, (_, target) in CLASSES.items():
    if by_class[cls] != target:
        bad(f"class {cls}: {by_class[cls]} phrases, target {target}")
nru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
nen = sum(v for (c, l), v in by_class_lang.items() if l == "en")
if total < 300:
    bad(f"only {total} phrases")
if abs(nru - nen) > 0.1 * total:
    bad(f"languages unbalanced: ru {nru}, en {nen}")

# ---------------------------------------------------------------- report
print(f"TODAY: now {NOW_UTC.isoformat()} = local {NOW_LOCAL.isoformat()} "
      f"({NOW_LOCAL.strftime('%A')}, zone Asia/Kolkata)")
print(f"projects: {len(pkeys)} ({', '.join(pkeys)}) + INBOX implicit")
per_proj = Counter(t["project"] for t in tmap.values())
print(f"tasks: {len(tmap)} — " + ", ".join(f"{k} {per_proj[k]}" for k in pkeys + ['INBOX']))
print("  due: " + ", ".join(f"{k} {due_cat[k]}" for k in ("overdue", "today", "week", "later", "undated")))
print(f"phrases: {total} (ru {nru}, en {nen})")
print("  | class | kind | ru | en | total |")
print("  |---|---|---|---|---|")
for cls, (kind, _) in CLASSES.items():
    print(f"  | {cls} | {kind} | {by_class_lang[(cls, 'ru')]} | {by_class_lang[(cls, 'en')]} | {by_class[cls]} |")
print("  | kind | ru | en | total |")
print("  |---|---|---|---|")
for kind in ("plain", "ambiguous", "unknown"):
    r, en = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
    print(f"  | {kind} | {r} | {en} | {r + en} |")
print("  by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items(), key=lambda x: -x[1])))
print("  list_tasks filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
print(f"  dates recomputed by the reference: {dates_checked}")
if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems:
        print("  - " + p)
    sys.exit(1)
print("OK")
