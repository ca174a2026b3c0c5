#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-57 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks shapes and keys,
prints counts, and recomputes every date answer from a small reference of the
house date rules written for this set only. Exits 1 on any problem.

    python3 data/chat-phrases-holdout-57/validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2042, 11, 2)  # Sunday; now = 2042-11-02T06:30:00Z, America/Chicago, 01:30 local

CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain",
    "project_leadin": "plain", "offtopic": "unknown", "plain_other": "plain",
    "ambiguous": "ambiguous", "unknown_other": "unknown",
}
CLASS_TOOLS = {
    "typo": {"close_task", "cancel_task", "update_task"},
    "report": {"close_task"},
    "negated_cancel": {"cancel_task"},
    "explicit_form": {"close_task", "cancel_task", "update_task"},
    "deadline_not_close": {"update_task", "create_task"},
    "project_leadin": {"create_task"},
    "offtopic": {"none"},
    "plain_other": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
    "ambiguous": {"clarify"},
    "unknown_other": {"none"},
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

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
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


def norm(s):
    s = s.lower().replace("ё", "е")
    return re.sub(r"\s+", " ", s).strip()


# ---------------------------------------------------------------- house date rules
def add_days(d, n):
    return d + dt.timedelta(days=n)


def week_sunday(d, weeks_ahead):
    # Monday–Sunday weeks; the Sunday that ends the week `weeks_ahead` from d's week
    return add_days(d, 6 - d.weekday() + 7 * weeks_ahead)


def next_weekday(d, wd):
    # strictly after today
    delta = (wd - d.weekday()) % 7
    return add_days(d, delta or 7)


def last_of_month(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def day_month(d, day, month):
    cand = dt.date(d.year, month, day)
    if (d - cand).days > 30:
        cand = dt.date(d.year + 1, month, day)
    return cand


def day_of_month(d, day):
    y, m = d.year, d.month
    for _ in range(2):
        cand = dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))
        if cand >= d:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    raise ValueError(day)


def weekend(d):
    return d if d.weekday() == 5 else next_weekday(d, 5)


RU_WD = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
         ("пятниц", 4), ("суббот", 5), ("воскресень", 6)]
EN_WD = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
ES_WD = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]
RU_MON = ["январ", "феврал", "март", "апрел", "ма[яй]", "июн", "июл", "август",
          "сентябр", "октябр", "ноябр", "декабр"]
EN_MON = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

# (regex, function(match) -> (kind, date))
RULES = [
    (r"\bpasado mañana\b|\bday after tomorrow\b|\bпослезавтра\b",
     lambda m: ("day", add_days(TODAY, 2))),
    (r"\btomorrow\b|\btmrw\b|\bзавтра\b|\bmañana\b|\bmanana\b",
     lambda m: ("day", add_days(TODAY, 1))),
    (r"\btoday\b|\beod\b|\bсегодня\b|\bhoy\b", lambda m: ("day", TODAY)),
    (r"\bin (\d+) days\b|\bчерез (\d+) дн(?:я|ей)\b",
     lambda m: ("day", add_days(TODAY, int(m.group(1) or m.group(2))))),
    (r"\bin a week\b|\bчерез неделю\b", lambda m: ("day", add_days(TODAY, 7))),
    (r"\bin 2 weeks\b|\bin a fortnight\b|\bчерез 2 недели\b",
     lambda m: ("day", add_days(TODAY, 14))),
    (r"\b(?:by |to )?(?:the )?end of (?:the )?week\b|\bthis week\b|\bдо конца недели\b|"
     r"\bк концу недели\b|\bна этой неделе\b",
     lambda m: ("week", week_sunday(TODAY, 0))),
    (r"\bnext week\b|\bна следующ(?:ую|ей) недел[юеи]\b|\bla próxima semana\b|\bслед неделю\b",
     lambda m: ("week", week_sunday(TODAY, 1))),
    (r"\bend of (?:the )?month\b|\bконца месяца\b",
     lambda m: ("day", last_of_month(TODAY.year, TODAY.month))),
    (r"\bnext month\b|\bв следующем месяце\b",
     lambda m: ("day", last_of_month(*((TODAY.year + 1, 1) if TODAY.month == 12
                                        else (TODAY.year, TODAY.month + 1))))),
    (r"\bend of (?:the )?year\b|\bконца года\b",
     lambda m: ("day", dt.date(TODAY.year, 12, 31))),
    (r"\bweekend\b|\bвыходн\w*", lambda m: ("day", weekend(TODAY))),
    (r"\b(\d{1,2})\.(\d{1,2})\b",
     lambda m: ("day", day_month(TODAY, int(m.group(1)), int(m.group(2))))),
    (r"\b(\d{1,2})/(\d{1,2})\b",
     lambda m: ("day", day_month(TODAY, int(m.group(1)), int(m.group(2))))
     if int(m.group(1)) > 12 else ("error", None)),
    (r"\b(\d{1,2}) (" + "|".join(RU_MON) + r")\w*",
     lambda m: ("day", day_month(TODAY, int(m.group(1)),
                                 next(i + 1 for i, p in enumerate(RU_MON)
                                      if re.fullmatch(p, m.group(2)))))),
    (r"\b(" + "|".join(EN_MON) + r")\w* (\d{1,2})\b",
     lambda m: ("day", day_month(TODAY, int(m.group(2)), EN_MON.index(m.group(1)) + 1))),
    (r"\b(\d{1,2}) числ[аоу]\b|\bthe (\d{1,2})(?:st|nd|rd|th)\b",
     lambda m: ("day", day_of_month(TODAY, int(m.group(1) or m.group(2))))),
    (r"\bnext (" + "|".join(EN_WD) + r")\b",
     lambda m: ("day", add_days(week_sunday(TODAY, 1), EN_WD.index(m.group(1)) - 6))),
    (r"\bв следующ\w+ (" + "|".join(w for w, _ in RU_WD) + r")\w*",
     lambda m: ("day", add_days(week_sunday(TODAY, 1), dict(RU_WD)[m.group(1)] - 6))),
    (r"\b(" + "|".join(w for w, _ in RU_WD) + r")\w*",
     lambda m: ("day", next_weekday(TODAY, dict(RU_WD)[m.group(1)]))),
    (r"\b(" + "|".join(EN_WD) + r")\b",
     lambda m: ("day", next_weekday(TODAY, EN_WD.index(m.group(1))))),
    (r"\bel (" + "|".join(ES_WD) + r")\b",
     lambda m: ("day", next_weekday(TODAY, ES_WD.index(m.group(1))))),
]

# In a conversation a date word one letter off is read as the word it is closest to.
TYPOS = {"птяницу": "пятницу", "завтар": "завтра", "послезавра": "послезавтра",
         "fridya": "friday", "wednsday": "wednesday", "tomorow": "tomorrow"}

# date words that belong to task titles, not to the message's date
TITLE_DATE_WORDS = [r"tuesday (?:fuegos )?delivery", r"урок\w*(?: с хавьером)? в четверг"]


def damerau1(a, b):
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if abs(len(a) - len(b)) != 1:
        return False
    s, l = (a, b) if len(a) < len(b) else (b, a)
    return any(l[:i] + l[i + 1:] == s for i in range(len(l)))


for t, c in TYPOS.items():
    if not damerau1(t, c):
        bad(f"typo table: {t!r} is not one letter off {c!r}")


def find_dates(text):
    s = text.lower()
    for pat in TITLE_DATE_WORDS:
        s = re.sub(pat, " ", s)
    for t, c in TYPOS.items():
        s = re.sub(r"\b" + t + r"\b", c, s)
    hits = []
    for pat, fn in RULES:
        for m in re.finditer(pat, s):
            hits.append((m.start(), m.end(), fn(m)))
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    out, end = [], -1
    for a, b, r in hits:  # longest leftmost, no overlaps
        if a >= end:
            out.append(r)
            end = b
        elif b - a > 0 and out and a < end:
            continue
    return out


# ---------------------------------------------------------------- projects & tasks
projects = load("projects.jsonl")
pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields: {p}")
    if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p.get("key") == "INBOX":
        bad(f"project key: {p.get('key')}")
    pkeys.add(p.get("key"))
if len(projects) != 5 or len(pkeys) != 5:
    bad(f"want 5 distinct projects, got {len(projects)}")

tasks = load("tasks.jsonl")
tmap, counters = {}, Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task fields: {t}")
        continue
    proj = t["project"] or "INBOX"
    if t["project"] is not None and t["project"] not in pkeys:
        bad(f"{t['key']}: unknown project {t['project']}")
    counters[proj] += 1
    want = f"{proj}-{counters[proj]}"
    if t["key"] != want:
        bad(f"task key {t['key']} should be {want} (creation order)")
    if t["key"] in tmap:
        bad(f"duplicate task key {t['key']}")
    tmap[t["key"]] = t
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        try:
            d = dt.date.fromisoformat(t["due"])
        except (TypeError, ValueError):
            bad(f"{t['key']}: bad due {t['due']}")
            continue
        if t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"{t['key']}: week due {d} is not a Sunday")
    else:
        bad(f"{t['key']}: bad due_kind {t['due_kind']}")

titles = {norm(t["title"]): k for k, t in tmap.items()}

# ---------------------------------------------------------------- phrases
phrases = load("phrases.jsonl")
seen = set()
by_cl = Counter()
by_kind = Counter()
by_tool = Counter()
date_checked = 0
KEY_RE = re.compile(r"\b([a-z]+)[- ](\d+)\b", re.I)


def check_key(k, where):
    if k not in tmap:
        bad(f"{where}: key {k} does not exist")


for n, p in enumerate(phrases, 1):
    w = f"phrases:{n} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{w}: fields {sorted(p)}")
        continue
    text, lang, kind, e, cl = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if norm(text) in seen:
        bad(f"{w}: duplicate text")
    seen.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"{w}: lang {lang}")
    if cl not in CLASSES:
        bad(f"{w}: class {cl}")
        continue
    if CLASSES[cl] != kind:
        bad(f"{w}: class {cl} wants kind {CLASSES[cl]}, got {kind}")
    tool = e.get("tool")
    if tool not in CLASS_TOOLS[cl]:
        bad(f"{w}: tool {tool} not allowed in class {cl}")
    by_cl[(cl, lang)] += 1
    by_kind[(kind, lang)] += 1
    by_tool[tool if tool != "list_tasks" else f"list_tasks:{e.get('filter')}"] += 1
    dates = find_dates(text)

    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"}:
            bad(f"{w}: fields {sorted(e)}")
        check_key(e["id"], w)
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"}:
            bad(f"{w}: fields {sorted(e)}")
        check_key(e["id"], w)
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(e) <= allowed:
            bad(f"{w}: fields {sorted(e)}")
        if norm(e["text"]) not in norm(text):
            bad(f"{w}: create text {e['text']!r} is not taken from the phrase")
        if find_dates(e["text"]):
            bad(f"{w}: create text still holds a date phrase")
        if "project" in e and e["project"] not in pkeys:
            bad(f"{w}: unknown project {e['project']}")
        if cl == "project_leadin" and "project" not in e:
            bad(f"{w}: project lead-in without project")
        if e["deadline_kind"] == "none":
            if "deadline" in e:
                bad(f"{w}: kind none with a deadline")
            if dates:
                bad(f"{w}: undated create but the phrase holds a date {dates}")
    elif tool == "list_tasks":
        if e.get("filter") not in FILTERS or set(e) != {"tool", "filter"}:
            bad(f"{w}: bad list {e}")
    elif tool == "clarify":
        opts = e.get("options", [])
        if set(e) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{w}: bad clarify {e}")
        for k in opts:
            check_key(k, w)
        # an ambiguous move: the date must differ from every candidate's due
        if dates and all(k in tmap for k in opts):
            kinds = {r[0] for r in dates}
            ds = {r[1] for r in dates}
            if len(ds) != 1 or "error" in kinds:
                bad(f"{w}: unclear date {dates}")
            else:
                d = ds.pop().isoformat()
                date_checked += 1
                for k in opts:
                    if tmap[k]["due"] == d:
                        bad(f"{w}: {k} is already due {d}, the tie can be broken")
    elif tool == "none":
        if set(e) != {"tool"}:
            bad(f"{w}: fields {sorted(e)}")
    else:
        bad(f"{w}: unknown tool {tool}")

    # recompute date answers
    if tool in ("update_task", "create_task") and e.get("deadline_kind") in ("day", "week"):
        if not dates:
            bad(f"{w}: expects a date but no date phrase found")
        else:
            got = {(k, d.isoformat() if d else None) for k, d in dates}
            want = (e["deadline_kind"], e.get("deadline"))
            if got != {want}:
                bad(f"{w}: date rules give {sorted(got)}, expect says {want}")
            date_checked += 1
    if tool == "update_task" and e.get("deadline_kind") not in ("day", "week"):
        bad(f"{w}: update_task must be a date move")

    # explicit forms name the key or the exact title
    if cl == "explicit_form":
        keys = {f"{a.upper()}-{b}" for a, b in KEY_RE.findall(text)}
        if e["id"] not in keys and not any(tt in norm(text) and kk == e["id"]
                                           for tt, kk in titles.items()):
            bad(f"{w}: explicit form names neither {e['id']} nor its title")
    if cl == "unknown_other":
        for a, b in KEY_RE.findall(text):
            if a.upper() in pkeys | {"INBOX"} and f"{a.upper()}-{b}" in tmap:
                bad(f"{w}: names an existing key")

# ---------------------------------------------------------------- balance
total = len(phrases)
if total < 300:
    bad(f"only {total} phrases, want at least 300")
langs = Counter(p["lang"] for p in phrases)
if abs(langs["ru"] - langs["en"]) > total * 0.1:
    bad(f"languages unbalanced: {dict(langs)}")
for cl in CLASSES:
    r, en = by_cl[(cl, "ru")], by_cl[(cl, "en")]
    if abs(r - en) > max(2, (r + en) // 5):
        bad(f"class {cl} unbalanced ru {r} / en {en}")

undated = sum(1 for t in tasks if t["due_kind"] == "none")
overdue = sorted(k for k, t in tmap.items() if t["due"] and
                 (dt.date.fromisoformat(t["due"]) < TODAY))
today = sorted(k for k, t in tmap.items() if t["due"] == TODAY.isoformat())

# ---------------------------------------------------------------- report
print(f"projects {len(projects)}, tasks {len(tasks)} "
      f"({', '.join(f'{k} {v}' for k, v in counters.items())}); undated {undated}; "
      f"overdue {len(overdue)}; due today {len(today)}")
print(f"phrases {total}; date answers recomputed: {date_checked}")
print()
print("| class | ru | en | total |")
print("|---|---|---|---|")
for cl in CLASSES:
    r, en = by_cl[(cl, "ru")], by_cl[(cl, "en")]
    print(f"| {cl} | {r} | {en} | {r + en} |")
print(f"| **all** | {langs['ru']} | {langs['en']} | **{total}** |")
print()
print("| kind | ru | en | total |")
print("|---|---|---|---|")
for k in ("plain", "ambiguous", "unknown"):
    r, en = by_kind[(k, "ru")], by_kind[(k, "en")]
    print(f"| {k} | {r} | {en} | {r + en} |")
print(f"| **all** | {langs['ru']} | {langs['en']} | **{total}** |")
print()
print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))

if problems:
    print(f"\n{len(problems)} problem(s):", file=sys.stderr)
    for m in problems:
        print("  " + m, file=sys.stderr)
    sys.exit(1)
print("\nOK")
