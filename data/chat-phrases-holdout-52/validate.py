#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-52 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks shapes and keys,
recomputes every date answer from a small reference of the house date rules
written for this set only (not the parser's code), prints the counts and exits 1
on any problem.

    python3 data/chat-phrases-holdout-52/validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
# now = 2041-08-16T02:40:00Z, zone America/Sao_Paulo (UTC-3, no DST)
NOW_UTC = dt.datetime(2041, 8, 16, 2, 40, tzinfo=dt.timezone.utc)
ZONE = dt.timezone(dt.timedelta(hours=-3))
TODAY = NOW_UTC.astimezone(ZONE).date()  # local date: Thursday 2041-08-15

CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain", "project_leadin": "plain",
    "offtopic": "unknown", "plain_other": "plain", "ambiguous": "ambiguous",
    "unknown_other": "unknown",
}
TOOL_KIND = {"close_task": "plain", "cancel_task": "plain", "update_task": "plain",
             "create_task": "plain", "list_tasks": "plain", "clarify": "ambiguous",
             "none": "unknown"}
CLASS_TOOLS = {
    "report": {"close_task"}, "negated_cancel": {"cancel_task"},
    "deadline_not_close": {"update_task", "create_task"},
    "project_leadin": {"create_task"},
}
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def bad(msg):
    problems.append(msg)


# ---------------------------------------------------------------- date reference
def d(s):
    return dt.date.fromisoformat(s)


def add_days(n):
    return TODAY + dt.timedelta(days=n)


def sunday_of(day):
    return day + dt.timedelta(days=6 - day.weekday())


def last_of_month(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def weekday_after(wd):
    """Next such weekday strictly after today."""
    delta = (wd - TODAY.weekday()) % 7
    return add_days(delta or 7)


def weekday_next_week(wd):
    """That weekday in the next Monday-Sunday week."""
    next_monday = TODAY + dt.timedelta(days=7 - TODAY.weekday())
    return next_monday + dt.timedelta(days=wd)


def day_month(day, month):
    cand = dt.date(TODAY.year, month, day)
    if (TODAY - cand).days > 30:
        cand = dt.date(TODAY.year + 1, month, day)
    return cand


def day_of_month(day):
    y, m = TODAY.year, TODAY.month
    for _ in range(2):
        last = calendar.monthrange(y, m)[1]
        cand = dt.date(y, m, min(day, last))
        if cand >= TODAY:
            return cand
        m += 1
        if m == 13:
            y, m = y + 1, 1
    raise ValueError(day)


EN_WD = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
         "sunday": 6, "sun": 6}
RU_WD = [(r"понедельник\w*", 0), (r"вторник\w*", 1), (r"сред[аыуе]", 2), (r"четверг\w*", 3),
         (r"пятниц\w*", 4), (r"суббот\w*", 5), (r"воскресень\w*", 6)]
RU_SHORT = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
EN_MON = {"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4,
          "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8,
          "august": 8, "sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10,
          "nov": 11, "november": 11, "dec": 12, "december": 12}
RU_MON = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
          "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}

# words a one-letter slip is read back to (conversation rule of the README)
FUZZY_VOCAB = ["tomorrow", "today", "monday", "tuesday", "wednesday", "thursday", "friday",
               "saturday", "sunday", "weekend", "завтра", "послезавтра", "сегодня",
               "понедельник", "вторник", "среду", "четверг", "пятницу", "пятницы", "пятнице",
               "субботу", "субботы", "воскресенье", "выходных", "выходные", "неделе",
               "неделю", "месяца"]


def one_edit(a, b):
    """Damerau distance exactly 1 (substitution, insertion, deletion, swap)."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if la > lb:
        a, b = b, a
    return any(a == b[:i] + b[i + 1:] for i in range(len(b)))


def fuzzy_fix(text):
    out = []
    for tok in text.split(" "):
        if len(tok) >= 5 and tok not in FUZZY_VOCAB:
            hits = [w for w in FUZZY_VOCAB if one_edit(tok, w)]
            if len(hits) == 1:
                out.append(hits[0])
                continue
        out.append(tok)
    return " ".join(out)


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def find_date(text):
    """Return ((kind, date), matched_span_text) or (None, None)."""
    t = norm(text)
    r = _find(t)
    if r[0] is None:
        r = _find(fuzzy_fix(t))
    return r


def _find(t):
    rules = []

    def rule(pattern, fn):
        rules.append((pattern, fn))

    rule(r"\b(\d{4})-(\d{2})-(\d{2})\b",
         lambda m: ("day", dt.date(int(m[1]), int(m[2]), int(m[3]))))
    rule(r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: ("day", day_month(int(m[1]), int(m[2]))))
    rule(r"\b(\d{1,2})/(\d{1,2})\b",
         lambda m: ("day", day_month(int(m[1]), int(m[2]))) if int(m[1]) > 12 else None)
    rule(r"\b(\d{1,2})\s+(" + "|".join(RU_MON) + r")\b",
         lambda m: ("day", day_month(int(m[1]), RU_MON[m[2]])))
    rule(r"\b(\d{1,2})\s+(" + "|".join(EN_MON) + r")\b",
         lambda m: ("day", day_month(int(m[1]), EN_MON[m[2]])))
    rule(r"\b(" + "|".join(EN_MON) + r")\s+(\d{1,2})(?:st|nd|rd|th)?\b",
         lambda m: ("day", day_month(int(m[2]), EN_MON[m[1]])))
    rule(r"\b(\d{1,2})(?:-?го)?\s+(?:числа|число|числу)\b",
         lambda m: ("day", day_of_month(int(m[1]))))
    rule(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m[1]))))
    rule(r"\bin (\d+) days?\b", lambda m: ("day", add_days(int(m[1]))))
    rule(r"через (\d+) (?:день|дня|дней)", lambda m: ("day", add_days(int(m[1]))))
    rule(r"\bin (?:2|two) weeks\b|через (?:2|две) недели", lambda m: ("day", add_days(14)))
    rule(r"\bin a week\b|через неделю", lambda m: ("day", add_days(7)))
    rule(r"\bnext week\b|на следующей неделе|на следующую неделю",
         lambda m: ("week", sunday_of(TODAY) + dt.timedelta(days=7)))
    rule(r"\bthis week\b|\bend of (?:the )?week\b|до конца недели|к концу недели|на этой неделе",
         lambda m: ("week", sunday_of(TODAY)))
    rule(r"\bnext month\b|в следующем месяце",
         lambda m: ("day", last_of_month(TODAY.year + (TODAY.month == 12),
                                         TODAY.month % 12 + 1)))
    rule(r"\bend of (?:the )?month\b|(?:до|к) конц[ау] месяца",
         lambda m: ("day", last_of_month(TODAY.year, TODAY.month)))
    rule(r"\bweekend\b|выходны[еx]|выходных", lambda m: ("day", weekday_after(5)
                                                          if TODAY.weekday() != 5 else TODAY))
    rule(r"\bday after tomorrow\b|послезавтра|pasado mañana", lambda m: ("day", add_days(2)))
    rule(r"(?<![\w])(?:tomorrow|tmrw|tmr|завтра|mañana|manana|amanhã|amanha)(?![\w])",
         lambda m: ("day", add_days(1)))
    rule(r"\b(?:today|eod|hoje)\b|сегодня", lambda m: ("day", TODAY))
    rule(r"\bnext (" + "|".join(EN_WD) + r")\b",
         lambda m: ("day", weekday_next_week(EN_WD[m[1]])))
    for pat, wd in RU_WD:
        rule(r"следующ\w+ " + pat, lambda m, wd=wd: ("day", weekday_next_week(wd)))
    rule(r"\b(?:this |on |by |to |for |till |until )?(" + "|".join(EN_WD) + r")\b",
         lambda m: ("day", weekday_after(EN_WD[m[1]])))
    for pat, wd in RU_WD:
        rule(r"(?<![\w])" + pat + r"(?![\w])", lambda m, wd=wd: ("day", weekday_after(wd)))
    rule(r"(?<![\w])(?:в|на|до|к|по) (" + "|".join(RU_SHORT) + r")(?![\w])",
         lambda m: ("day", weekday_after(RU_SHORT[m[1]])))

    for pattern, fn in rules:
        m = re.search(pattern, t)
        if m:
            res = fn(m)
            if res:
                return res, m.group(0)
    return None, None


# ---------------------------------------------------------------- loading
def load(name):
    rows = []
    path = os.path.join(HERE, name)
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{i}: empty line")
                continue
            try:
                rows.append((i, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad JSON: {e}")
    return rows


projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

# ---------------------------------------------------------------- projects
pkeys = set()
for i, p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"projects:{i}: fields {sorted(p)}")
    if not re.fullmatch(r"[A-Z]+", p.get("key", "")):
        bad(f"projects:{i}: key {p.get('key')!r}")
    if p.get("key") in pkeys or p.get("key") == "INBOX":
        bad(f"projects:{i}: duplicate or reserved key {p.get('key')}")
    pkeys.add(p.get("key"))
    if not p.get("name") or not p.get("description"):
        bad(f"projects:{i}: empty name/description")
if len(projects) != 5:
    bad(f"projects: expected 5, got {len(projects)}")

# ---------------------------------------------------------------- tasks
task = {}
counter = Counter()
for i, t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks:{i}: fields {sorted(t)}")
        continue
    proj = t["project"]
    if proj not in pkeys and proj != "INBOX":
        bad(f"tasks:{i}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        bad(f"tasks:{i}: key {t['key']} but file order gives {want}")
    if t["key"] in task:
        bad(f"tasks:{i}: duplicate key {t['key']}")
    task[t["key"]] = t
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"tasks:{i}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        try:
            dd = d(t["due"])
            if t["due_kind"] == "week" and dd.weekday() != 6:
                bad(f"tasks:{i}: week due {t['due']} is not a Sunday")
        except (TypeError, ValueError):
            bad(f"tasks:{i}: bad due {t['due']!r}")
    else:
        bad(f"tasks:{i}: due_kind {t['due_kind']!r}")
    if not t["title"].strip():
        bad(f"tasks:{i}: empty title")


def due_of(key):
    t = task[key]
    return d(t["due"]) if t["due"] else None


# ---------------------------------------------------------------- phrases
seen = set()
by_class_lang = Counter()
by_kind_lang = Counter()
by_tool = Counter()
by_filter = Counter()
dates_checked = 0
for i, ph in phrases:
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"phrases:{i}: fields {sorted(ph)}")
        continue
    text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    where = f"phrases:{i} {text!r}"
    if not text.strip():
        bad(f"{where}: empty text")
    if norm(text) in seen:
        bad(f"{where}: duplicate text")
    seen.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang!r}")
    if cls not in CLASSES:
        bad(f"{where}: class {cls!r}")
        continue
    tool = exp.get("tool") if isinstance(exp, dict) else None
    if tool not in TOOL_KIND:
        bad(f"{where}: tool {tool!r}")
        continue
    if kind != TOOL_KIND[tool]:
        bad(f"{where}: kind {kind} but tool {tool}")
    if kind != CLASSES[cls]:
        bad(f"{where}: kind {kind} but class {cls} wants {CLASSES[cls]}")
    if cls in CLASS_TOOLS and tool not in CLASS_TOOLS[cls]:
        bad(f"{where}: class {cls} with tool {tool}")
    by_class_lang[(cls, lang)] += 1
    by_kind_lang[(kind, lang)] += 1
    by_tool[tool] += 1

    found, span = find_date(text)

    if tool in ("close_task", "cancel_task"):
        if set(exp) != {"tool", "id"} or exp["id"] not in task:
            bad(f"{where}: bad {tool} {exp}")
    elif tool == "update_task":
        if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in task:
            bad(f"{where}: bad update {exp}")
            continue
        if found is None:
            bad(f"{where}: reference finds no date")
        elif (exp["deadline_kind"], exp["deadline"]) != (found[0], found[1].isoformat()):
            bad(f"{where}: expect {exp['deadline_kind']} {exp['deadline']}, "
                f"reference {found[0]} {found[1]} from {span!r}")
        else:
            dates_checked += 1
        cur = task[exp["id"]]
        if cur["due"] == exp["deadline"] and cur["due_kind"] == exp["deadline_kind"]:
            bad(f"{where}: move to the date the task already has")
    elif tool == "create_task":
        keys = set(exp)
        if not {"tool", "text", "deadline_kind"} <= keys or keys - {
                "tool", "text", "deadline_kind", "deadline", "project"}:
            bad(f"{where}: bad create {exp}")
            continue
        if norm(exp["text"]) not in norm(text):
            bad(f"{where}: create text not taken from the phrase")
        if "project" in exp and exp["project"] not in pkeys:
            bad(f"{where}: create project {exp['project']}")
        if cls == "project_leadin" and "project" not in exp:
            bad(f"{where}: lead-in without project")
        if exp["deadline_kind"] == "none":
            if "deadline" in exp:
                bad(f"{where}: kind none with deadline")
            if found is not None:
                bad(f"{where}: no deadline expected but reference reads {span!r}")
        else:
            if found is None:
                bad(f"{where}: reference finds no date")
            elif (exp["deadline_kind"], exp.get("deadline")) != (found[0], found[1].isoformat()):
                bad(f"{where}: expect {exp['deadline_kind']} {exp.get('deadline')}, "
                    f"reference {found[0]} {found[1]} from {span!r}")
            else:
                dates_checked += 1
            if span and span in norm(exp["text"]):
                bad(f"{where}: date phrase {span!r} left in create text")
    elif tool == "list_tasks":
        if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in LIST_FILTERS:
            bad(f"{where}: bad list {exp}")
        else:
            by_filter[exp["filter"]] += 1
    elif tool == "clarify":
        opts = exp.get("options")
        if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                or len(set(opts)) != len(opts) or any(o not in task for o in opts):
            bad(f"{where}: bad clarify {exp}")
            continue
        # an ambiguous move must name a date no candidate already has
        if re.search(r"перенес|move|push", norm(text)):
            if found is None:
                bad(f"{where}: ambiguous move without a date the reference reads")
            else:
                dates_checked += 1
                for o in opts:
                    if due_of(o) == found[1]:
                        bad(f"{where}: {o} already due {found[1]} — tie breakable")
    elif tool == "none":
        if set(exp) != {"tool"}:
            bad(f"{where}: bad none {exp}")

# balance per class
for cls in CLASSES:
    ru, en = by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]
    if ru + en == 0:
        bad(f"class {cls} is empty")
    elif abs(ru - en) > 2:
        bad(f"class {cls} unbalanced: ru {ru}, en {en}")
if len(phrases) < 300:
    bad(f"only {len(phrases)} phrases (want >= 300)")

# ---------------------------------------------------------------- report
print(f"TODAY (local, America/Sao_Paulo): {TODAY} {TODAY.strftime('%A')}")
print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in counter.items()))
buckets = defaultdict(list)
for k, t in task.items():
    if t["due"] is None:
        buckets["undated"].append(k)
    elif d(t["due"]) < TODAY:
        buckets["overdue"].append(k)
    elif t["due_kind"] == "week":
        buckets["week due (not overdue)"].append(k)
    elif d(t["due"]) == TODAY:
        buckets["today"].append(k)
    elif d(t["due"]) == TODAY + dt.timedelta(days=1):
        buckets["tomorrow"].append(k)
    else:
        buckets["later"].append(k)
for b in ("overdue", "today", "tomorrow", "week due (not overdue)", "later", "undated"):
    print(f"  {b}: {len(buckets[b])} ({', '.join(buckets[b])})")

print("\n| class | ru | en | total |\n|---|---|---|---|")
for cls in CLASSES:
    ru, en = by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]
    print(f"| {cls} | {ru} | {en} | {ru + en} |")
tru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
ten = sum(v for (c, l), v in by_class_lang.items() if l == "en")
print(f"| **all** | {tru} | {ten} | **{tru + ten}** |")
print("\n| kind | ru | en | total |\n|---|---|---|---|")
for kind in ("plain", "ambiguous", "unknown"):
    ru, en = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
    print(f"| {kind} | {ru} | {en} | {ru + en} |")
print(f"| **all** | {tru} | {ten} | **{tru + ten}** |")
print("\nby tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
print(f"date answers recomputed: {dates_checked}")

if problems:
    print(f"\n{len(problems)} PROBLEM(S):")
    for p in problems:
        print("  " + p)
    sys.exit(1)
print("\nOK")
