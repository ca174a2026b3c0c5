#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-45 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and keys,
recomputes every date answer from a small reference of the house date rules written
for this set only (not the parser's code), prints the counts and exits 1 on any
problem.   Run:  python3 data/chat-phrases-holdout-45/validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
# TODAY: now = 2040-03-31T22:30:00Z, zone Europe/London (BST, UTC+1) -> local 2040-03-31 23:30, Saturday
NOW_UTC = dt.datetime(2040, 3, 31, 22, 30, tzinfo=dt.timezone.utc)
LOCAL_OFFSET = dt.timedelta(hours=1)  # BST began on Sunday 2040-03-25
TODAY = (NOW_UTC + LOCAL_OFFSET).date()

CLASSES = OrderedDict([
    ("typo", "plain"), ("report", "plain"), ("negated_cancel", "plain"),
    ("explicit_form", "plain"), ("deadline_not_close", "plain"), ("project_leadin", "plain"),
    ("offtopic", "unknown"), ("plain_other", "plain"), ("ambiguous", "ambiguous"),
    ("unknown_other", "unknown"),
])
TOOLS = {"close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none"}
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
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad JSON: {e}")
    return rows


# ---------------------------------------------------------------- date reference
def add(n):
    return TODAY + dt.timedelta(days=n)


def this_sunday(d=None):
    d = d or TODAY
    return d + dt.timedelta(days=6 - d.weekday())


def next_strict(wd):
    n = (wd - TODAY.weekday()) % 7
    return add(n or 7)


def next_week_day(wd):
    return this_sunday() + dt.timedelta(days=1 + wd)


def last_day(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def day_month(d, m):
    try:
        x = dt.date(TODAY.year, m, d)
    except ValueError:
        return None
    if (TODAY - x).days > 30:
        try:
            x = dt.date(TODAY.year + 1, m, d)
        except ValueError:
            return None
    return x


def day_of_month(d):
    y, m = TODAY.year, TODAY.month
    for _ in range(2):
        cand = dt.date(y, m, min(d, last_day(y, m).day))
        if cand >= TODAY:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


WEEKDAYS = {}
for i, names in enumerate([
    "monday mon понедельник понедельника понедельнику пн lunes",
    "tuesday tue tues вторник вторника вторнику вт martes",
    "wednesday wed среда среду среды среде ср miercoles miércoles",
    "thursday thu thur thurs четверг четверга четвергу чт jueves",
    "friday fri пятница пятницу пятницы пятнице пт viernes",
    "saturday sat суббота субботу субботы субботе сб sabado sábado",
    "sunday sun воскресенье воскресенья воскресенью вс domingo",
]):
    for n in names.split():
        WEEKDAYS[n] = i
SHORT_RU = {"пн", "вт", "ср", "чт", "пт", "сб", "вс"}
MONTHS = {}
for i, names in enumerate([
    "января january jan", "февраля february feb", "марта march mar", "апреля april apr",
    "мая may", "июня june jun", "июля july jul", "августа august aug",
    "сентября september sep sept", "октября october oct", "ноября november nov",
    "декабря december dec",
], 1):
    for n in names.split():
        MONTHS[n] = i

# words a one-letter slip is read back to (conversation rule of the README)
FUZZY_TARGETS = sorted(set(
    "tomorrow today monday tuesday wednesday thursday friday saturday sunday weekend "
    "завтра сегодня послезавтра понедельник вторник среду четверг пятницу пятнице субботу "
    "воскресенье неделе неделю следующей следующую выходным выходных месяца mañana viernes".split()))


def osa(a, b):
    """Optimal string alignment distance (one swap counts 1)."""
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


KNOWN = set(FUZZY_TARGETS) | set(WEEKDAYS) | set(MONTHS)


def normalize(text):
    t = text.lower().replace("ё", "е")
    words = re.findall(r"\w+|[^\w\s]", t)
    fixed = []
    for w in words:
        if len(w) >= 5 and w not in KNOWN and w.isalpha():
            near = [x for x in FUZZY_TARGETS if osa(w, x) == 1]
            if len(near) == 1:
                w = near[0]
        fixed.append(w)
    return " ".join(fixed)


WD = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
MO = "|".join(sorted(MONTHS, key=len, reverse=True))
PATTERNS = [
    (r"\b(?:day after tomorrow|послезавтра|pasado mañana|pasado manana)\b", lambda m: ("day", add(2))),
    (r"\b(?:tomorrow|tmrw|tmr|завтра|mañana|manana)\b", lambda m: ("day", add(1))),
    (r"\b(?:today|tonight|eod|сегодня|hoy)\b", lambda m: ("day", add(0))),
    (r"\b(?:end of (?:the )?week|this week|конца недели|концу недели|этой неделе|эту неделю)\b",
     lambda m: ("week", this_sunday())),
    (r"\b(?:next week|следующей неделе|следующую неделю|след неделе|próxima semana|proxima semana)\b",
     lambda m: ("week", this_sunday() + dt.timedelta(days=7))),
    (r"\b(?:weekend|выходные|выходных|выходным)\b", lambda m: ("day", add((5 - TODAY.weekday()) % 7))),
    (r"\b(?:end of (?:the )?month|конца месяца|конец месяца|концу месяца)\b",
     lambda m: ("day", last_day(TODAY.year, TODAY.month))),
    (r"\b(?:next month|следующем месяце|следующий месяц)\b",
     lambda m: ("day", last_day(TODAY.year + (TODAY.month == 12), TODAY.month % 12 + 1))),
    (r"\b(?:end of (?:the )?year|конца года|концу года)\b", lambda m: ("day", dt.date(TODAY.year, 12, 31))),
    (r"\b(?:in (\d+) days?|через (\d+) (?:дня|дней|день))\b",
     lambda m: ("day", add(int(m.group(1) or m.group(2))))),
    (r"\b(?:in (?:2|two) weeks|через (?:2|две) недели)\b", lambda m: ("day", add(14))),
    (r"\b(?:in a week|через неделю)\b", lambda m: ("day", add(7))),
    (r"\b(?:next|следующий|следующую|следующее|следующей|próximo|proximo)\s+(" + WD + r")\b",
     lambda m: ("day", next_week_day(WEEKDAYS[m.group(1)]))),
    (r"\b(\d{1,2})\s+(" + MO + r")\b", lambda m: ("day", day_month(int(m.group(1)), MONTHS[m.group(2)]))),
    (r"\b(" + MO + r")\s+(\d{1,2})\b", lambda m: ("day", day_month(int(m.group(2)), MONTHS[m.group(1)]))),
    (r"\b(\d{1,2})\s*\.\s*(\d{1,2})\b", lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
    (r"\b(?:до|к|на)\s+(\d{1,2})\s+числа\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"(?:\b(в|во|на|до|к|ко)\s+)?\b(" + WD + r")\b", None),  # plain weekday, handled below
]
for _pat, _fn in PATTERNS:  # every literal date word is read as written, never "corrected"
    KNOWN.update(re.findall(r"[^\W\d_]+", _pat))


def resolve(text):
    """All date phrases found in text -> list of (kind, date, matched)."""
    t = normalize(text)
    taken = []
    out = []
    for pat, fn in PATTERNS:
        for m in re.finditer(pat, t):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            if fn is None:
                w = m.group(2)
                if w in SHORT_RU and not m.group(1):
                    continue
                val = ("day", next_strict(WEEKDAYS[w]))
            else:
                val = fn(m)
            taken.append((m.start(), m.end()))
            out.append((val[0], val[1], m.group(0)))
    return out


# ---------------------------------------------------------------- load and check
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = set()
for i, p in enumerate(projects, 1):
    if set(p) != {"key", "name", "description"}:
        bad(f"projects:{i}: fields {sorted(p)}")
    if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p.get("key") == "INBOX":
        bad(f"projects:{i}: key {p.get('key')!r}")
    if p.get("key") in pkeys:
        bad(f"projects:{i}: duplicate key")
    pkeys.add(p.get("key"))
    if not p.get("name") or len(p.get("description", "")) < 20:
        bad(f"projects:{i}: name/description too short")
if len(projects) != 5:
    bad(f"expected 5 projects, got {len(projects)}")

TASK = {}
seq = Counter()
for i, t in enumerate(tasks, 1):
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks:{i}: fields {sorted(t)}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"tasks:{i}: unknown project {proj}")
    seq[proj] += 1
    if t["key"] != f"{proj}-{seq[proj]}":
        bad(f"tasks:{i}: key {t['key']} but creation order gives {proj}-{seq[proj]}")
    if t["key"] in TASK:
        bad(f"tasks:{i}: duplicate key {t['key']}")
    if t["due_kind"] not in ("day", "week", "none"):
        bad(f"tasks:{i}: due_kind {t['due_kind']}")
    if (t["due"] is None) != (t["due_kind"] == "none"):
        bad(f"tasks:{i}: due/due_kind mismatch")
    if t["due"] is not None:
        try:
            d = dt.date.fromisoformat(t["due"])
            t["_due"] = d
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"tasks:{i}: week due {d} is not a Sunday")
        except ValueError:
            bad(f"tasks:{i}: bad due {t['due']}")
    else:
        t["_due"] = None
    TASK[t["key"]] = t

KEYLIKE = re.compile(r"\b([a-z]+)[- ](\d+)\b", re.I)
pk_all = pkeys | {"INBOX"}
counts_cl = Counter()
counts_kind = Counter()
tools = Counter()
lists = Counter()
seen_text = set()

for i, ph in enumerate(phrases, 1):
    where = f"phrases:{i} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(ph)}")
        continue
    text, lang, kind, e, cl = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    if text in seen_text:
        bad(f"{where}: duplicate text")
    seen_text.add(text)
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if cl not in CLASSES:
        bad(f"{where}: class {cl}")
        continue
    if CLASSES[cl] != kind:
        bad(f"{where}: kind {kind} but class {cl} wants {CLASSES[cl]}")
    counts_cl[(cl, lang)] += 1
    counts_kind[(kind, lang)] += 1
    tool = e.get("tool")
    if tool not in TOOLS:
        bad(f"{where}: tool {tool}")
        continue
    tools[tool] += 1
    # kind <-> tool
    if kind == "ambiguous" and tool != "clarify":
        bad(f"{where}: ambiguous must be clarify")
    if kind == "unknown" and tool != "none":
        bad(f"{where}: unknown must be none")
    if kind == "plain" and tool in ("clarify", "none"):
        bad(f"{where}: plain cannot be {tool}")
    found = resolve(text)
    keys_in_text = [f"{m.group(1).upper()}-{int(m.group(2))}" for m in KEYLIKE.finditer(text)
                    if m.group(1).upper() in pk_all]
    if tool in ("close_task", "cancel_task", "update_task"):
        k = e.get("id")
        if k not in TASK:
            bad(f"{where}: no task {k}")
            continue
        want = {"close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
                "update_task": {"tool", "id", "deadline_kind", "deadline"}}[tool]
        if set(e) != want:
            bad(f"{where}: expect fields {sorted(e)}")
        if keys_in_text and keys_in_text != [k]:
            bad(f"{where}: key in text {keys_in_text} != {k}")
        if cl == "explicit_form" and not keys_in_text:
            # exact title form: the whole title must be in the text
            ttl = TASK[k]["title"].lower().replace("ё", "е").replace("'", "")
            if ttl not in text.lower().replace("ё", "е").replace("'", ""):
                bad(f"{where}: explicit_form without a key must carry the exact title of {k}")
        if tool == "update_task":
            if e["deadline_kind"] not in ("day", "week"):
                bad(f"{where}: deadline_kind {e['deadline_kind']}")
            if len(found) != 1:
                bad(f"{where}: reference found {len(found)} date phrases: {found}")
            else:
                fk, fd, _ = found[0]
                if (fk, fd.isoformat()) != (e["deadline_kind"], e["deadline"]):
                    bad(f"{where}: expect {e['deadline_kind']} {e['deadline']}, reference {fk} {fd}")
                cur = TASK[k]
                if cur["due"] == e["deadline"] and cur["due_kind"] == e["deadline_kind"]:
                    bad(f"{where}: move to the task's current due")
        elif cl == "deadline_not_close":
            bad(f"{where}: deadline_not_close must be a move or a dated create")
    elif tool == "create_task":
        if not set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"}:
            bad(f"{where}: expect fields {sorted(e)}")
        norm = lambda s: " ".join(s.lower().replace("ё", "е").split())
        if norm(e["text"]) not in norm(text):
            bad(f"{where}: create text {e['text']!r} is not part of the phrase")
        if "project" in e and e["project"] not in pkeys:
            bad(f"{where}: project {e['project']}")
        if cl == "project_leadin" and "project" not in e:
            bad(f"{where}: project_leadin needs project")
        if cl != "project_leadin" and "project" in e:
            bad(f"{where}: project outside project_leadin")
        if e["deadline_kind"] == "none":
            if "deadline" in e:
                bad(f"{where}: none with a deadline")
            if found:
                bad(f"{where}: undated create but reference found {found}")
            if cl == "deadline_not_close":
                bad(f"{where}: deadline_not_close create must be dated")
        else:
            if len(found) != 1:
                bad(f"{where}: reference found {len(found)} date phrases: {found}")
            else:
                fk, fd, matched = found[0]
                if (fk, fd.isoformat()) != (e["deadline_kind"], e.get("deadline")):
                    bad(f"{where}: expect {e['deadline_kind']} {e.get('deadline')}, reference {fk} {fd}")
                if norm(matched) in norm(e["text"]):
                    bad(f"{where}: date phrase left in the create text")
    elif tool == "list_tasks":
        if e.get("filter") not in FILTERS or set(e) - {"tool", "filter", "period"}:
            bad(f"{where}: list expect {e}")
        lists[e.get("filter")] += 1
    elif tool == "clarify":
        opts = e.get("options", [])
        if set(e) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify options {opts}")
        for k in opts:
            if k not in TASK:
                bad(f"{where}: no task {k}")
        for fk, fd, _ in found:  # an ambiguous move must not be tie-broken by the date
            for k in opts:
                if k in TASK and TASK[k]["_due"] == fd:
                    bad(f"{where}: date {fd} equals the current due of option {k}")
    elif tool == "none":
        if set(e) != {"tool"}:
            bad(f"{where}: none expect {e}")
        for k in keys_in_text:
            if k in TASK:
                bad(f"{where}: expects none but names the existing key {k}")

# ---------------------------------------------------------------- report
def table(title, rows, counter):
    print(f"\n{title}")
    print(f"| {'':20} | ru | en | total |")
    print(f"|{'-' * 22}|---:|---:|------:|")
    tot = Counter()
    for r in rows:
        ru, en = counter[(r, "ru")], counter[(r, "en")]
        tot["ru"] += ru
        tot["en"] += en
        print(f"| {r:20} | {ru:>2} | {en:>2} | {ru + en:>5} |")
    print(f"| {'all':20} | {tot['ru']:>2} | {tot['en']:>2} | {tot['ru'] + tot['en']:>5} |")


print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local 23:30 Europe/London")
print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
per = Counter(t["project"] for t in tasks)
print("tasks per project:", ", ".join(f"{k} {v}" for k, v in per.items()))
dated = [t for t in tasks if t.get("_due")]
print("dues: overdue %d, today %d, week-kind %d, later %d, undated %d" % (
    sum(1 for t in dated if t["_due"] < TODAY),
    sum(1 for t in dated if t["_due"] == TODAY and t["due_kind"] == "day"),
    sum(1 for t in dated if t["due_kind"] == "week"),
    sum(1 for t in dated if t["_due"] > TODAY and t["due_kind"] == "day"),
    len(tasks) - len(dated)))
table("class x lang", list(CLASSES), counts_cl)
table("kind x lang", ["plain", "ambiguous", "unknown"], counts_kind)
print("\ntools:", ", ".join(f"{k} {v}" for k, v in sorted(tools.items())))
print("list filters:", ", ".join(f"{k} {v}" for k, v in sorted(lists.items())))

if len(phrases) < 300:
    bad(f"only {len(phrases)} phrases")
for c in CLASSES:
    ru, en = counts_cl[(c, "ru")], counts_cl[(c, "en")]
    if abs(ru - en) > 2:
        bad(f"class {c} unbalanced: ru {ru} en {en}")

if problems:
    print(f"\n{len(problems)} PROBLEM(S):")
    for p in problems:
        print("  -", p)
    sys.exit(1)
print("\nOK")
