#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-62 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl next to this file, checks their
shapes, that every key in an expected answer exists, and recomputes every date answer
from the small reference of the house date rules below (written for this set only).
Prints the counts; exits 1 on any problem.

    python3 data/chat-phrases-holdout-62/validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# TODAY: now = 2043-03-29T00:30:00Z, zone Europe/London -> local Sunday 2043-03-29 00:30
# (UTC+0; clocks go forward at 01:00 that night). Every relative date uses the local date.
TODAY = dt.date(2043, 3, 29)

CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain", "project_leadin": "plain",
    "offtopic": "unknown", "plain_other": "plain", "ambiguous": "ambiguous",
    "unknown_other": "unknown",
}
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
                rows.append(json.loads(line))
            except ValueError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


def norm(s):
    return s.lower().replace("ё", "е")


# ---------------------------------------------------------------- date reference
def iso(d):
    return d.isoformat()


def parse_iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def weekday_after(today, wd):
    """A weekday = the next such day strictly after today."""
    n = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=n or 7)


def weekday_next_week(today, wd):
    """next <weekday> = that weekday in the next Monday-Sunday week."""
    monday_next = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday_next + dt.timedelta(days=wd)


def day_month(today, day, month):
    """Day + month without a year: this year's unless > 30 days past, then next year's."""
    try:
        d = dt.date(today.year, month, day)
    except ValueError:
        return None
    if (today - d).days > 30:
        try:
            d = dt.date(today.year + 1, month, day)
        except ValueError:
            return None
    return d


def day_of_month(today, day):
    """Day of month alone: the next such day on or after today, clamped to month end."""
    if not 1 <= day <= 31:
        return None
    y, m = today.year, today.month
    for _ in range(2):
        last = calendar.monthrange(y, m)[1]
        d = dt.date(y, m, min(day, last))
        if d >= today:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


EN_WD = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
         "saturday": 5, "sunday": 6,
         "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
         "fri": 4, "sat": 5}
RU_WD = {}
for i, forms in enumerate([
        "понедельник понедельника понедельнику",
        "вторник вторника вторнику",
        "среда среду среды среде",
        "четверг четверга четвергу",
        "пятница пятницу пятницы пятнице",
        "суббота субботу субботы субботе",
        "воскресенье воскресенья воскресенью"]):
    for w in forms.split():
        RU_WD[w] = i
REL = {"today": 0, "eod": 0, "сегодня": 0,
       "tomorrow": 1, "tmrw": 1, "tmr": 1, "завтра": 1,
       "послезавтра": 2}
EN_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
EN_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
RU_MONTHS = {w: i + 1 for i, w in enumerate(
    "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split())}

# canonical token for each fuzzy-matchable date word
VOCAB = {}
for w, i in EN_WD.items():
    VOCAB[w] = "wd%d" % i
for w, i in RU_WD.items():
    VOCAB[w] = "wd%d" % i
for w, n in REL.items():
    VOCAB[w] = "rel%d" % n


def osa(a, b):
    """Optimal string alignment distance (edits + adjacent swaps)."""
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


def canon_tokens(text):
    """Lower-case, split, and map each date word (or a word one letter off a long date
    word, when all its nearest words mean the same) to a canonical token."""
    out = []
    for tok in re.findall(r"[\w/.\-']+", norm(text)):
        tok = tok.strip(".")
        if tok in VOCAB:
            out.append(VOCAB[tok])
            continue
        if len(tok) >= 5 and tok.isalpha():
            near = {VOCAB[w] for w in VOCAB if len(w) >= 5 and osa(tok, w) == 1}
            if len(near) == 1:
                out.append(near.pop())
                continue
        out.append(tok)
    return " ".join(out)


WD = r"wd([0-6])"


def B(p):
    """A pattern bounded by spaces (not consumed, so neighbours can match too)."""
    return r"(?<= )(?:" + p + r")(?= )"


def find_dates(text, today=TODAY):
    """Every date phrase in text -> list of (start, end, kind, date)."""
    s = " " + canon_tokens(text) + " "
    found = []

    def hit(m, kind, d):
        if d is not None:
            found.append((m.start(), m.end(), kind, d))

    for m in re.finditer(B(r"(?:next|следующ\w*) " + WD), s):
        hit(m, "day", weekday_next_week(today, int(m.group(1))))
    for m in re.finditer(B(r"(?:this )?" + WD), s):
        hit(m, "day", weekday_after(today, int(m.group(1))))
    for m in re.finditer(B(r"(?:this week|(?:by )?(?:the )?end of (?:the )?week|до конца недели|к концу недели|на этой неделе)"), s):
        hit(m, "week", sunday_of(today))
    for m in re.finditer(B(r"(?:next week|на следующей неделе|на следующую неделю)"), s):
        hit(m, "week", sunday_of(today) + dt.timedelta(days=7))
    for m in re.finditer(B(r"(?:(?:the )?end of (?:the )?month|до конца месяца|к концу месяца)"), s):
        hit(m, "day", month_end(today.year, today.month))
    for m in re.finditer(B(r"(?:next month|в следующем месяце)"), s):
        y, mo = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        hit(m, "day", month_end(y, mo))
    for m in re.finditer(B(r"(?:(?:the )?weekend|выходн\w*)"), s):
        hit(m, "day", today + dt.timedelta(days=(5 - today.weekday()) % 7))
    for m in re.finditer(B(r"(?:in (\d+) days?|через (\d+) (?:день|дня|дней))"), s):
        hit(m, "day", today + dt.timedelta(days=int(m.group(1) or m.group(2))))
    for m in re.finditer(B(r"(?:in a week|через неделю)"), s):
        hit(m, "day", today + dt.timedelta(days=7))
    for m in re.finditer(B(r"(?:in (?:2|two) weeks|in a fortnight|через (?:2|две) недели)"), s):
        hit(m, "day", today + dt.timedelta(days=14))
    for m in re.finditer(B(r"rel([0-2])"), s):
        hit(m, "day", today + dt.timedelta(days=int(m.group(1))))
    # Scots, said in Aberdeen: "the morn" = tomorrow
    for m in re.finditer(B(r"the morn"), s):
        hit(m, "day", today + dt.timedelta(days=1))
    for m in re.finditer(B(r"(\d{1,2}) ([a-zа-я]+)"), s):
        mon = RU_MONTHS.get(m.group(2)) or EN_MONTHS.get(m.group(2))
        if mon:
            hit(m, "day", day_month(today, int(m.group(1)), mon))
    for m in re.finditer(B(r"([a-z]+) (\d{1,2})"), s):
        mon = EN_MONTHS.get(m.group(1))
        if mon:
            hit(m, "day", day_month(today, int(m.group(2)), mon))
    for m in re.finditer(B(r"(\d{1,2})\.(\d{1,2})"), s):
        hit(m, "day", day_month(today, int(m.group(1)), int(m.group(2))))
    for m in re.finditer(B(r"(\d{1,2})/(\d{1,2})"), s):
        if int(m.group(1)) > 12:  # dd/mm only when the day is > 12
            hit(m, "day", day_month(today, int(m.group(1)), int(m.group(2))))
    for m in re.finditer(B(r"(?:the )?(\d{1,2})(?:st|nd|rd|th)|(\d{1,2})(?:-?го)? числ\w*"), s):
        hit(m, "day", day_of_month(today, int(m.group(1) or m.group(2))))
    # drop matches inside a longer one
    keep = []
    for a in found:
        if not any(b is not a and b[0] <= a[0] and a[1] <= b[1] and (b[1] - b[0]) > (a[1] - a[0])
                   for b in found):
            keep.append(a)
    uniq = {(k, d) for _, _, k, d in keep}
    return sorted(uniq)


# ---------------------------------------------------------------- projects, tasks
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = []
for p in projects:
    if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
        bad(f"project shape: {p}")
        continue
    if not re.fullmatch(r"[A-Z]+", p["key"]) or p["key"] == "INBOX":
        bad(f"project key: {p['key']}")
    pkeys.append(p["key"])
if len(pkeys) != 5 or len(set(pkeys)) != 5:
    bad(f"want 5 distinct projects, got {pkeys}")

task_by_key = {}
counter = {}
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task shape: {t}")
        continue
    proj = t["project"]
    if proj not in pkeys and proj != "INBOX":
        bad(f"{t['key']}: unknown project {proj}")
    counter[proj] = counter.get(proj, 0) + 1
    if t["key"] != f"{proj}-{counter[proj]}":
        bad(f"{t['key']}: expected key {proj}-{counter[proj]} in creation order")
    if t["key"] in task_by_key:
        bad(f"duplicate key {t['key']}")
    if not isinstance(t["title"], str) or not t["title"].strip():
        bad(f"{t['key']}: empty title")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        d = parse_iso(t["due"])
        if d is None:
            bad(f"{t['key']}: bad due {t['due']}")
        elif t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"{t['key']}: week due {t['due']} is not a Sunday")
    else:
        bad(f"{t['key']}: bad due_kind {t['due_kind']}")
    task_by_key[t["key"]] = t
titles = [norm(t["title"]) for t in tasks]
if len(set(titles)) != len(titles):
    bad("duplicate task titles")

# ---------------------------------------------------------------- phrases
KEY_RE = re.compile(r"(?<![\w])(" + "|".join(k.lower() for k in pkeys + ["INBOX"]) + r")[- ]?(\d+)(?![\w])")


def words(s):
    return re.findall(r"[\w'\-/.]+", norm(s))


def in_order(sub, full):
    it = iter(full)
    return all(any(w == x for x in it) for w in sub)


seen = set()
for n, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{n}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
        continue
    text, lang, kind, exp, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if not isinstance(text, str) or not text.strip():
        bad(f"{where}: empty text")
        continue
    if norm(text) in seen:
        bad(f"{where}: duplicate text {text!r}")
    seen.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if cls not in CLASSES:
        bad(f"{where}: class {cls}")
        continue
    if kind != CLASSES[cls]:
        bad(f"{where}: kind {kind} but class {cls} wants {CLASSES[cls]}")
    tool = exp.get("tool") if isinstance(exp, dict) else None
    dates = find_dates(text)

    # keys written in the text
    for m in KEY_RE.finditer(norm(text)):
        key = f"{m.group(1).upper()}-{int(m.group(2))}" if m.group(2).isdigit() else None
        if cls == "unknown_other":
            if key in task_by_key:
                bad(f"{where}: unknown_other names an existing key {key}")
        elif cls == "explicit_form":
            if key != exp.get("id"):
                bad(f"{where}: text names {key}, expect {exp}")

    if kind == "plain" and tool not in ("close_task", "cancel_task", "update_task", "create_task", "list_tasks"):
        bad(f"{where}: plain phrase with tool {tool}")
    if kind == "ambiguous" and tool != "clarify":
        bad(f"{where}: ambiguous phrase with tool {tool}")
    if kind == "unknown" and exp != {"tool": "none"}:
        bad(f"{where}: unknown phrase must expect none")

    if tool in ("close_task", "cancel_task"):
        if set(exp) != {"tool", "id"} or exp["id"] not in task_by_key:
            bad(f"{where}: bad {tool} {exp}")
    elif tool == "update_task":
        if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in task_by_key:
            bad(f"{where}: bad update {exp}")
            continue
        if dates != [(exp["deadline_kind"], parse_iso(exp["deadline"]))]:
            bad(f"{where}: {text!r}: reference dates {[(k, iso(d)) for k, d in dates]} != {exp['deadline_kind']} {exp['deadline']}")
        t = task_by_key[exp["id"]]
        if (t["due_kind"], t["due"]) == (exp["deadline_kind"], exp["deadline"]):
            bad(f"{where}: move to the task's current due")
    elif tool == "create_task":
        if not {"tool", "text", "deadline_kind"} <= set(exp) <= {"tool", "text", "deadline_kind", "deadline", "project"}:
            bad(f"{where}: bad create {exp}")
            continue
        if not exp["text"].strip() or not in_order(words(exp["text"]), words(text)):
            bad(f"{where}: create text {exp['text']!r} is not taken from the phrase")
        if find_dates(exp["text"]):
            bad(f"{where}: create text still holds a date")
        if "project" in exp and exp["project"] not in pkeys:
            bad(f"{where}: create project {exp['project']}")
        if cls == "project_leadin" and "project" not in exp:
            bad(f"{where}: project_leadin without project")
        if exp["deadline_kind"] == "none":
            if "deadline" in exp or dates:
                bad(f"{where}: undated create but the phrase holds {dates}")
        elif exp["deadline_kind"] in ("day", "week"):
            if dates != [(exp["deadline_kind"], parse_iso(exp.get("deadline")))]:
                bad(f"{where}: {text!r}: reference dates {[(k, iso(d)) for k, d in dates]} != {exp['deadline_kind']} {exp.get('deadline')}")
        else:
            bad(f"{where}: deadline_kind {exp['deadline_kind']}")
        for t in tasks:
            if norm(t["title"]) == norm(exp["text"]):
                bad(f"{where}: create repeats an open task {t['key']}")
    elif tool == "list_tasks":
        if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in LIST_FILTERS:
            bad(f"{where}: bad list {exp}")
    elif tool == "clarify":
        opts = exp.get("options")
        if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                or len(set(opts)) != len(opts) or any(o not in task_by_key for o in opts):
            bad(f"{where}: bad clarify {exp}")
            continue
        # an ambiguous move names a date that differs from every candidate's current due
        for k, d in dates:
            for o in opts:
                t = task_by_key[o]
                if t["due"] == iso(d):
                    bad(f"{where}: ambiguous move to {iso(d)} equals the due of {o}")
    elif tool == "none":
        if exp != {"tool": "none"}:
            bad(f"{where}: bad none {exp}")
    else:
        bad(f"{where}: unknown tool {tool}")

# ---------------------------------------------------------------- reference self-test
SELF = [  # (text, kind, date) on TODAY, from the house rules
    ("сегодня", "day", "2043-03-29"), ("tomorrow", "day", "2043-03-30"),
    ("послезавтра", "day", "2043-03-31"), ("в пятницу", "day", "2043-04-03"),
    ("on sunday", "day", "2043-04-05"), ("next monday", "day", "2043-03-30"),
    ("next sunday", "day", "2043-04-05"), ("this week", "week", "2043-03-29"),
    ("до конца недели", "week", "2043-03-29"), ("next week", "week", "2043-04-05"),
    ("end of month", "day", "2043-03-31"), ("в следующем месяце", "day", "2043-04-30"),
    ("на выходных", "day", "2043-04-04"), ("через неделю", "day", "2043-04-05"),
    ("in a fortnight", "day", "2043-04-12"), ("20.02", "day", "2044-02-20"),
    ("1 марта", "day", "2043-03-01"), ("до 29 числа", "day", "2043-03-29"),
    ("до 28 числа", "day", "2043-04-28"), ("on the 31st", "day", "2043-03-31"),
    ("в пятнидцу", "day", "2043-04-03"), ("fryday", "day", "2043-04-03"),
    ("the morn", "day", "2043-03-30"),
]
for text, k, d in SELF:
    got = find_dates(text)
    if got != [(k, parse_iso(d))]:
        bad(f"reference self-test: {text!r} -> {got}, want {k} {d}")
for text in ("03/04", "2/4 march", "march done"):
    if find_dates(text):
        bad(f"reference self-test: {text!r} should hold no date")

# ---------------------------------------------------------------- counts
def table(rows_key, order):
    cells = {}
    for p in phrases:
        cells[(p.get(rows_key), p.get("lang"))] = cells.get((p.get(rows_key), p.get("lang")), 0) + 1
    lines = [f"| {rows_key} | ru | en | total |", "|---|---|---|---|"]
    tr = te = 0
    for r in order:
        ru, en = cells.get((r, "ru"), 0), cells.get((r, "en"), 0)
        tr, te = tr + ru, te + en
        lines.append(f"| {r} | {ru} | {en} | {ru + en} |")
    lines.append(f"| **all** | {tr} | {te} | **{tr + te}** |")
    return "\n".join(lines), cells


cls_table, cls_cells = table("class", list(CLASSES))
kind_table, _ = table("kind", ["plain", "ambiguous", "unknown"])
for c in CLASSES:
    ru, en = cls_cells.get((c, "ru"), 0), cls_cells.get((c, "en"), 0)
    if abs(ru - en) > 2 or ru + en == 0:
        bad(f"class {c} unbalanced: ru {ru} en {en}")
if len(phrases) < 300:
    bad(f"only {len(phrases)} phrases")

tools = {}
for p in phrases:
    e = p.get("expect", {})
    name = e.get("tool")
    if name == "list_tasks":
        name = f"list_tasks({e.get('filter')})"
    tools[name] = tools.get(name, 0) + 1

print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
per_proj = {}
for t in tasks:
    per_proj[t["project"]] = per_proj.get(t["project"], 0) + 1
print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in per_proj.items()))
groups = {"overdue": [], "today": [], "week this": [], "week next": [], "later": [], "undated": []}
for t in tasks:
    d = parse_iso(t["due"]) if t["due"] else None
    if d is None:
        groups["undated"].append(t["key"])
    elif t["due_kind"] == "week":
        if d < TODAY:
            groups["overdue"].append(t["key"])
        elif d == sunday_of(TODAY):
            groups["week this"].append(t["key"])
        else:
            groups["week next"].append(t["key"])
    elif d < TODAY:
        groups["overdue"].append(t["key"])
    elif d == TODAY:
        groups["today"].append(t["key"])
    else:
        groups["later"].append(t["key"])
for g, ks in groups.items():
    print(f"  {g} ({len(ks)}): {' '.join(ks)}")
print()
print(cls_table)
print()
print(kind_table)
print()
print("by expected tool: " + ", ".join(f"{k} {v}" for k, v in sorted(tools.items())))

if problems:
    print(f"\n{len(problems)} problem(s):")
    for m in problems:
        print("  - " + m)
    sys.exit(1)
print("\nOK")
