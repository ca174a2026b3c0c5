#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-50 (stdlib only).

Loads projects.jsonl, tasks.jsonl, phrases.jsonl; checks shapes and keys; prints
counts by class/kind/lang and by tool; recomputes every date answer (update_task,
dated create_task, and the target date of ambiguous moves) with a small reference
of the house date rules written for this set only. Exits 1 on any problem.
"""
import json, os, re, sys, calendar
from collections import Counter
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = date(2041, 3, 1)   # local date in Europe/Moscow for now = 2041-02-28T23:10:00Z
errors = []
def err(m): errors.append(m)

def load(name):
    out = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                err(f"{name}:{i}: empty line"); continue
            try: out.append(json.loads(line))
            except Exception as e: err(f"{name}:{i}: bad json {e}")
    return out

projects, tasks, phrases = load("projects.jsonl"), load("tasks.jsonl"), load("phrases.jsonl")

# ---------------- projects and tasks ----------------
pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"}: err(f"project shape {p}")
    if p.get("key") in pkeys or p.get("key") == "INBOX": err(f"project key {p.get('key')}")
    pkeys.add(p.get("key"))
counter, tmap = Counter(), {}
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}: err(f"task shape {t}"); continue
    if t["project"] not in pkeys | {"INBOX"}: err(f"task project {t}")
    counter[t["project"]] += 1
    if t["key"] != f"{t['project']}-{counter[t['project']]}": err(f"task key out of order {t['key']}")
    if t["key"] in tmap: err(f"dup key {t['key']}")
    tmap[t["key"]] = t
    if t["due_kind"] == "none":
        if t["due"] is not None: err(f"undated with due {t['key']}")
    elif t["due_kind"] in ("day", "week"):
        try: d = date.fromisoformat(t["due"])
        except Exception: err(f"bad due {t['key']}"); continue
        if t["due_kind"] == "week" and d.weekday() != 6: err(f"week due not Sunday {t['key']}")
    else: err(f"due_kind {t['key']}")

# ---------------- reference date rules ----------------
def osa(a, b):
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1): d[i][0] = i
    for j in range(len(b) + 1): d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            c = 0 if a[i-1] == b[j-1] else 1
            d[i][j] = min(d[i-1][j] + 1, d[i][j-1] + 1, d[i-1][j-1] + c)
            if i > 1 and j > 1 and a[i-1] == b[j-2] and a[i-2] == b[j-1]:
                d[i][j] = min(d[i][j], d[i-2][j-2] + 1)
    return d[-1][-1]

WD = {}
for i, forms in enumerate([
    "monday mon понедельник понедельника понедельнику пн",
    "tuesday tue tues вторник вторника вторнику вт",
    "wednesday wed среда среду среды среде ср",
    "thursday thu thurs четверг четверга четвергу чт",
    "friday fri пятница пятницу пятницы пятнице пт",
    "saturday sat суббота субботу субботы субботе сб",
    "sunday sun воскресенье воскресенья воскресенью вс"]):
    for w in forms.split(): WD[w] = ("wd", i)
SINGLE = dict(WD)
for w in "today eod сегодня hoy".split(): SINGLE[w] = ("plus", 0)
for w in "tomorrow tmrw tmr завтра manana".split(): SINGLE[w] = ("plus", 1)
for w in "послезавтра".split(): SINGLE[w] = ("plus", 2)
for w in "weekend выходные выходных".split(): SINGLE[w] = ("weekend", 0)
NEXT = {"next", "следующую", "следующий", "следующей", "следующее", "следующем"}
MONTHS = {}
for i, forms in enumerate(["january jan января", "february feb февраля", "march mar марта", "april apr апреля",
        "may мая", "june jun июня", "july jul июля", "august aug августа", "september sep sept сентября",
        "october oct октября", "november nov ноября", "december dec декабря"], 1):
    for w in forms.split(): MONTHS[w] = i

def fuzzy(word, vocab):
    """exact, else the unique meaning within one edit (words of 4+ letters only)"""
    if word in vocab: return vocab[word]
    if len(word) < 4: return None
    hits = {vocab[v] for v in vocab if len(v) >= 4 and osa(word, v) == 1}
    return hits.pop() if len(hits) == 1 else None

def last_day(y, m): return date(y, m, calendar.monthrange(y, m)[1])
def this_sunday(t): return t + timedelta(days=6 - t.weekday())
def next_wd(t, wd):
    n = (wd - t.weekday()) % 7
    return t + timedelta(days=n or 7)
def day_month(t, d, m):
    c = date(t.year, m, d)
    return date(t.year + 1, m, d) if (t - c).days > 30 else c
def day_of_month(t, n):
    y, m = t.year, t.month
    while True:
        c = date(y, m, min(n, calendar.monthrange(y, m)[1]))
        if c >= t: return c
        m += 1
        if m == 13: y, m = y + 1, 1

def resolve(text, t=TODAY):
    """list of (kind, iso date) for every date phrase found in text"""
    s = text.lower().replace("ё", "е").replace("ñ", "n")
    w = re.findall(r"[a-zа-я]+|\d+(?:[./]\d+)*", s)
    out, i = [], 0
    def nxt(k): return w[k] if k < len(w) else ""
    while i < len(w):
        a, b, c = w[i], nxt(i + 1), nxt(i + 2)
        # day after tomorrow
        if (a, b, c) == ("day", "after", "tomorrow"): out.append(("day", t + timedelta(2))); i += 3; continue
        # end of month / week
        if a in ("end", "конце", "концу", "конца") and b in ("of", "месяца", "недели"):
            unit = c if b == "of" else b
            if unit in ("month", "месяца"): out.append(("day", last_day(t.year, t.month)))
            elif unit in ("week", "недели"): out.append(("week", this_sunday(t)))
            i += 3 if b == "of" else 2; continue
        if (a == "this" and b == "week") or (a == "этой" and b == "неделе"):
            out.append(("week", this_sunday(t))); i += 2; continue
        # next ... (fuzzy on both words)
        if a in NEXT or fuzzy(a, {x: "next" for x in NEXT}) == "next":
            unit = fuzzy(b, {"week": "w", "неделе": "w", "неделю": "w", "month": "m", "месяце": "m", "месяц": "m", **WD})
            if unit == "w": out.append(("week", this_sunday(t) + timedelta(7))); i += 2; continue
            if unit == "m":
                y, m = (t.year, t.month + 1) if t.month < 12 else (t.year + 1, 1)
                out.append(("day", last_day(y, m))); i += 2; continue
            if isinstance(unit, tuple):
                out.append(("day", t - timedelta(t.weekday()) + timedelta(7 + unit[1]))); i += 2; continue
        # in N days / weeks, через N дней / недели, через неделю, in a week
        if a in ("in", "через"):
            if b == "неделю" or (b == "a" and c == "week"):
                out.append(("day", t + timedelta(7))); i += 2 if b == "неделю" else 3; continue
            if b.isdigit() and c:
                if c.startswith(("day", "дн", "дня")): out.append(("day", t + timedelta(int(b)))); i += 3; continue
                if c.startswith(("week", "недел")): out.append(("day", t + timedelta(7 * int(b)))); i += 3; continue
        # N числа / N число / the Nth
        if a.isdigit() and b in ("числа", "число"):
            out.append(("day", day_of_month(t, int(a)))); i += 2; continue
        m = re.fullmatch(r"(\d+)(st|nd|rd|th)", a + b) if a.isdigit() and b in ("st", "nd", "rd", "th") else None
        if m: out.append(("day", day_of_month(t, int(m.group(1))))); i += 2; continue
        # D month / month D
        if a.isdigit() and b in MONTHS: out.append(("day", day_month(t, int(a), MONTHS[b]))); i += 2; continue
        if a in MONTHS and b.isdigit() and len(a) > 2: out.append(("day", day_month(t, int(b), MONTHS[a]))); i += 2; continue
        # dd.mm / dd/mm (day > 12 for slash)
        m = re.fullmatch(r"(\d{1,2})([./])(\d{1,2})", a)
        if m and not (m.group(2) == "/" and int(m.group(1)) <= 12):
            out.append(("day", day_month(t, int(m.group(1)), int(m.group(3))))); i += 1; continue
        # single words (fuzzy)
        v = fuzzy(a, SINGLE)
        if v:
            kind, n = v
            if kind == "plus": out.append(("day", t + timedelta(n)))
            elif kind == "weekend": out.append(("day", next_wd(t, 5) if t.weekday() != 5 else t))
            else: out.append(("day", next_wd(t, n)))
        i += 1
    return [(k, d.isoformat()) for k, d in out]

# words of titles that look like dates but are not: (context word, words to drop)
NOT_DATES = [("route", "sunday route"), ("подарок", "к 8 марта"), ("подарком", "к 8 марта")]
def resolve_phrase(text):
    s = text.lower()
    for ctx, nd in NOT_DATES:
        if ctx in s: s = s.replace(nd, " ")
    return resolve(s)

# spot checks of the reference itself on TODAY
ref_checks = {
    "сегодня": ("day", "2041-03-01"), "tomorrow": ("day", "2041-03-02"), "послезавтра": ("day", "2041-03-03"),
    "friday": ("day", "2041-03-08"), "в пятницу": ("day", "2041-03-08"), "saturday": ("day", "2041-03-02"),
    "next saturday": ("day", "2041-03-09"), "next monday": ("day", "2041-03-04"), "on monday": ("day", "2041-03-04"),
    "this week": ("week", "2041-03-03"), "до конца недели": ("week", "2041-03-03"), "next week": ("week", "2041-03-10"),
    "на следующей неделе": ("week", "2041-03-10"), "end of month": ("day", "2041-03-31"), "next month": ("day", "2041-04-30"),
    "на выходных": ("day", "2041-03-02"), "через неделю": ("day", "2041-03-08"), "in 2 weeks": ("day", "2041-03-15"),
    "через 3 дня": ("day", "2041-03-04"), "до 5 числа": ("day", "2041-03-05"), "до 1 числа": ("day", "2041-03-01"),
    "15.02": ("day", "2041-02-15"), "25 января": ("day", "2042-01-25"), "19/03": ("day", "2041-03-19"),
    "8 марта": ("day", "2041-03-08"), "fryday": ("day", "2041-03-08"), "в пятнидцу": ("day", "2041-03-08"),
}
for s, want in ref_checks.items():
    got = resolve(s)
    if got != [want]: err(f"reference self-check {s!r}: {got} != {want}")

# ---------------- phrases ----------------
CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
              "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
              "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
def norm(s): return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()

seen = set()
by_cls, by_kind, by_tool, dates_checked = Counter(), Counter(), Counter(), 0
for n, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{n} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}: err(f"{where}: shape"); continue
    if p["text"] in seen: err(f"{where}: duplicate text")
    seen.add(p["text"])
    if p["lang"] not in ("ru", "en"): err(f"{where}: lang")
    if p["class"] not in CLASS_KIND: err(f"{where}: class"); continue
    if CLASS_KIND[p["class"]] != p["kind"]: err(f"{where}: kind {p['kind']} for class {p['class']}")
    e = p["expect"]; tool = e.get("tool")
    by_cls[(p["class"], p["lang"])] += 1; by_kind[(p["kind"], p["lang"])] += 1; by_tool[tool] += 1
    if p["kind"] == "ambiguous" and tool != "clarify": err(f"{where}: ambiguous must clarify")
    if p["kind"] == "unknown" and tool != "none": err(f"{where}: unknown must be none")
    if p["kind"] == "plain" and tool in ("clarify", "none"): err(f"{where}: plain with {tool}")
    found = resolve_phrase(p["text"])
    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"} or e["id"] not in tmap: err(f"{where}: bad id")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in tmap: err(f"{where}: bad update"); continue
        if found != [(e["deadline_kind"], e["deadline"])]: err(f"{where}: date {found} != {e['deadline_kind']} {e['deadline']}")
        dates_checked += 1
        t = tmap[e["id"]]
        if (t["due_kind"], t["due"]) == (e["deadline_kind"], e["deadline"]): err(f"{where}: move to the current due")
    elif tool == "create_task":
        if not set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"}: err(f"{where}: create keys")
        if norm(e["text"]) not in norm(p["text"]): err(f"{where}: create text not in phrase")
        if "project" in e and e["project"] not in pkeys | {"INBOX"}: err(f"{where}: project")
        if e["deadline_kind"] == "none":
            if "deadline" in e or found: err(f"{where}: undated create but reference finds {found}")
        else:
            if found != [(e["deadline_kind"], e.get("deadline"))]: err(f"{where}: date {found} != {e['deadline_kind']} {e.get('deadline')}")
            dates_checked += 1
            if resolve_phrase(e["text"]): err(f"{where}: date phrase left in create text")
    elif tool == "list_tasks":
        if e.get("filter") not in FILTERS: err(f"{where}: filter")
    elif tool == "clarify":
        o = e.get("options", [])
        if len(o) < 2 or len(set(o)) != len(o) or any(k not in tmap for k in o): err(f"{where}: options")
        if len(found) == 1:   # an ambiguous move: the date must differ from every candidate's due
            dates_checked += 1
            for k in o:
                if tmap[k]["due"] == found[0][1]: err(f"{where}: {k} already due {found[0][1]}")
    elif tool == "none":
        if set(e) != {"tool"}: err(f"{where}: none shape")
    else: err(f"{where}: tool {tool}")

# ---------------- report ----------------
def table(title, rows, counter):
    print(f"\n| {title} | ru | en | total |\n|---|---|---|---|")
    tr = te = 0
    for r in rows:
        a, b = counter[(r, "ru")], counter[(r, "en")]; tr += a; te += b
        print(f"| {r} | {a} | {b} | {a+b} |")
    print(f"| **all** | {tr} | {te} | **{tr+te}** |")

print(f"projects {len(projects)} (+INBOX), tasks {len(tasks)}: " + ", ".join(f"{k} {v}" for k, v in counter.items()))
dk = Counter(t["due_kind"] for t in tasks)
od = sum(1 for t in tasks if t["due"] and t["due"] < TODAY.isoformat())
td = sum(1 for t in tasks if t["due"] == TODAY.isoformat())
print(f"dues: day {dk['day']}, week {dk['week']}, none {dk['none']}; overdue {od}, today {td}")
table("class", list(CLASS_KIND), by_cls)
table("kind", ["plain", "ambiguous", "unknown"], by_kind)
print("\nby tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
print(f"date answers recomputed: {dates_checked}")
if errors:
    print(f"\n{len(errors)} problem(s):"); [print(" -", m) for m in errors]; sys.exit(1)
print("\nOK")
