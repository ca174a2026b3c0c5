#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-54 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and keys,
prints counts by class/kind/lang and by expected tool, and recomputes every date
answer with a small reference of the house date rules written for this set only
(TODAY = Saturday 2041-09-28, Pacific/Auckland). Exits 1 on any problem.
"""
import json, os, re, sys, datetime as dt
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2041, 9, 28)          # local date of 2041-09-28T10:15:00Z in Pacific/Auckland
problems = []

def bad(msg):
    problems.append(msg)

def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{i}: empty line"); continue
            try:
                rows.append(json.loads(line))
            except Exception as e:
                bad(f"{name}:{i}: bad json {e}")
    return rows

projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

# ---------------------------------------------------------------- projects / tasks
pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project shape {p}")
    if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p["key"] == "INBOX":
        bad(f"project key {p.get('key')}")
    pkeys.add(p["key"])
if len(projects) != 5:
    bad(f"expected 5 projects, got {len(projects)}")

tkeys = {}
counters = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task shape {t}"); continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"task {t['key']}: unknown project {proj}")
    counters[proj] += 1
    want = f"{proj}-{counters[proj]}"
    if t["key"] != want:
        bad(f"task key {t['key']} should be {want} (creation order)")
    if t["key"] in tkeys:
        bad(f"duplicate key {t['key']}")
    if t["due_kind"] == "none":
        if t["due"] is not None: bad(f"{t['key']}: undated but due set")
    elif t["due_kind"] in ("day", "week"):
        try:
            d = dt.date.fromisoformat(t["due"])
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"{t['key']}: week due must be a Sunday")
        except Exception:
            bad(f"{t['key']}: bad due {t['due']}")
    else:
        bad(f"{t['key']}: bad due_kind")
    tkeys[t["key"]] = t

# ---------------------------------------------------------------- date reference
WD_EN = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
         "sunday": 6, "sun": 6}
WD_RU_STEMS = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
               ("пятниц", 4), ("суббот", 5), ("воскресен", 6)]
WD_RU_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
RU_WD_FORMS = ["понедельник", "понедельника", "понедельнику", "вторник", "вторника", "вторнику",
               "среда", "среду", "среды", "среде", "четверг", "четверга", "четвергу",
               "пятница", "пятницу", "пятницы", "пятнице", "суббота", "субботу", "субботы",
               "субботе", "воскресенье", "воскресенья", "воскресенью"]
MONTHS_EN = {m: i for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july",
             "august", "september", "october", "november", "december"], 1)}
MONTHS_RU = {"январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7,
             "август": 8, "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12}
VOCAB = (list(WD_EN) + RU_WD_FORMS +
         ["tomorrow", "today", "week", "weeks", "month", "weekend", "next", "days",
          "завтра", "послезавтра", "сегодня", "неделю", "недели", "неделе", "месяца", "месяце",
          "выходные", "выходных", "следующую", "следующей", "следующее", "следующий"])

def dl1(a, b):
    """Damerau-Levenshtein distance capped: True when a and b are at most one edit apart."""
    if a == b: return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1: return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1: return True
        if len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]:
            return True
        return False
    if la > lb: a, b = b, a
    for i in range(len(b)):
        if a == b[:i] + b[i + 1:]: return True
    return False

def fix_typos(tokens):
    out = []
    for w in tokens:
        if len(w) >= 5 and w not in VOCAB:
            near = [v for v in VOCAB if len(v) >= 5 and dl1(w, v)]
            # several forms of one Russian weekday (пятницу/пятницы/пятнице) count as one word
            meaning = {("wd", ru_weekday(v)) if v in RU_WD_FORMS else v for v in near}
            if len(meaning) == 1:
                w = near[0]
        out.append(w)
    return out

def last_day(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)

def this_sunday(d):
    return d + dt.timedelta(days=6 - d.weekday())

def next_weekday(d, wd):          # strictly after d
    k = (wd - d.weekday()) % 7
    return d + dt.timedelta(days=k or 7)

def weekday_next_week(d, wd):     # that weekday in the next Monday-Sunday week
    monday = this_sunday(d) + dt.timedelta(days=1)
    return monday + dt.timedelta(days=wd)

def day_month(d, day, month):
    try:
        c = dt.date(d.year, month, day)
    except ValueError:
        return None
    if (d - c).days > 30:
        c = dt.date(d.year + 1, month, day)
    return c

def day_of_month(d, day):
    y, m = d.year, d.month
    for _ in range(3):
        c = dt.date(y, m, min(day, last_day(y, m).day))
        if c >= d: return c
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None

def ru_weekday(w):
    for stem, n in WD_RU_STEMS:
        if w.startswith(stem): return n
    return None

def parse_date(text, today=TODAY):
    """Return (kind, date) for the date phrase in text, or None."""
    toks = fix_typos(re.findall(r"[a-zа-яё0-9]+", text.lower().replace("ё", "е")))
    s = " " + " ".join(toks) + " "
    has = lambda p: re.search(p, s) is not None
    D = lambda n: ("day", today + dt.timedelta(days=n))
    if has(r" (day after tomorrow|послезавтра) "): return D(2)
    if has(r" (tomorrow|tmrw|tmr|завтра) "): return D(1)
    if has(r" (today|tonight|eod|сегодня) "): return D(0)
    m = re.search(r" (?:in|через) (\d+) (days?|дн[ея]й|дня|день) ", s)
    if m: return D(int(m.group(1)))
    m = re.search(r" (?:in|через) (\d+) (weeks?|недел[иь]|неделю) ", s)
    if m: return D(7 * int(m.group(1)))
    if has(r" (in a week|через неделю) "): return D(7)
    if has(r" (end of (the )?month|конц[ау] месяца) "): return ("day", last_day(today.year, today.month))
    if has(r" (next month|следующ\w+ месяц\w*) "):
        y, mo = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return ("day", last_day(y, mo))
    if has(r" (end of (the )?year|конц[ау] года) "): return ("day", dt.date(today.year, 12, 31))
    if has(r" (next week|следующ(ей|ую) неде(ле|лю)) "):
        return ("week", this_sunday(today) + dt.timedelta(days=7))
    if has(r" (this week|end of (the )?week|конц[ау] недели|этой неделе) "):
        return ("week", this_sunday(today))
    if has(r" (weekend|выходны[ех]) "):
        return ("day", today + dt.timedelta(days=(5 - today.weekday()) % 7))
    # next <weekday>
    m = re.search(r" next (\w+) ", s)
    if m and m.group(1) in WD_EN: return ("day", weekday_next_week(today, WD_EN[m.group(1)]))
    m = re.search(r" следующ\w+ (\w+) ", s)
    if m and ru_weekday(m.group(1)) is not None: return ("day", weekday_next_week(today, ru_weekday(m.group(1))))
    # day + month
    for m in re.finditer(r"(?= (\d{1,2}) (\w+) )", s):
        w = m.group(2)
        if w in MONTHS_EN: return ("day", day_month(today, int(m.group(1)), MONTHS_EN[w]))
        for stem, mo in MONTHS_RU.items():
            if w.startswith(stem) and (stem != "ма" or w in ("мая", "май")):
                return ("day", day_month(today, int(m.group(1)), mo))
    m = re.search(r" (\w+) (\d{1,2}) ", s)
    if m and m.group(1) in MONTHS_EN: return ("day", day_month(today, int(m.group(2)), MONTHS_EN[m.group(1)]))
    # day of month alone
    m = re.search(r" (?:the )?(\d{1,2})(?:st|nd|rd|th) ", s) or re.search(r" (\d{1,2}) числа ", s)
    if m: return ("day", day_of_month(today, int(m.group(1))))
    # plain weekday
    for i, w in enumerate(toks):
        if w in WD_EN and w not in ("sat", "sun", "wed", "mon"):   # short forms that are ordinary words
            return ("day", next_weekday(today, WD_EN[w]))
        if ru_weekday(w) is not None and w in RU_WD_FORMS:
            return ("day", next_weekday(today, ru_weekday(w)))
        if w in WD_RU_ABBR and i > 0 and toks[i - 1] in ("в", "на", "до", "к", "ко", "по"):
            return ("day", next_weekday(today, WD_RU_ABBR[w]))
    return None

# self-test of the reference on this TODAY
REF = {
    "today": ("day", "2041-09-28"), "tomorrow": ("day", "2041-09-29"), "tmrw": ("day", "2041-09-29"),
    "послезавтра": ("day", "2041-09-30"), "day after tomorrow": ("day", "2041-09-30"),
    "friday": ("day", "2041-10-04"), "saturday": ("day", "2041-10-05"), "sunday": ("day", "2041-09-29"),
    "monday": ("day", "2041-09-30"), "next monday": ("day", "2041-09-30"), "next sunday": ("day", "2041-10-06"),
    "в следующее воскресенье": ("day", "2041-10-06"), "в пт": ("day", "2041-10-04"),
    "this week": ("week", "2041-09-29"), "до конца недели": ("week", "2041-09-29"),
    "next week": ("week", "2041-10-06"), "на следующей неделе": ("week", "2041-10-06"),
    "end of month": ("day", "2041-09-30"), "next month": ("day", "2041-10-31"),
    "end of year": ("day", "2041-12-31"), "weekend": ("day", "2041-09-28"), "на выходных": ("day", "2041-09-28"),
    "in 3 days": ("day", "2041-10-01"), "через неделю": ("day", "2041-10-05"), "in 2 weeks": ("day", "2041-10-12"),
    "1 ноября": ("day", "2041-11-01"), "1 сентября": ("day", "2041-09-01"), "20 августа": ("day", "2042-08-20"),
    "до 5 числа": ("day", "2041-10-05"), "by the 28th": ("day", "2041-09-28"), "до 31 числа": ("day", "2041-09-30"),
    "fridya": ("day", "2041-10-04"), "на пятницй": ("day", "2041-10-04"), "на послезавтар": ("day", "2041-09-30"),
}
for txt, (k, d) in REF.items():
    got = parse_date(txt)
    if got is None or got[0] != k or got[1].isoformat() != d:
        bad(f"date reference self-test: {txt!r} -> {got}, want {k} {d}")

# ---------------------------------------------------------------- phrases
CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
              "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
              "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
norm = lambda x: re.sub(r"\s+", " ", x.lower().replace("ё", "е")).strip()

by_cls, by_kind, by_tool = Counter(), Counter(), Counter()
seen = set()
dates_checked = 0
for i, ph in enumerate(phrases, 1):
    where = f"phrases.jsonl:{i} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: shape"); continue
    text, lang, kind, e, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    if norm(text) in seen: bad(f"{where}: duplicate text")
    seen.add(norm(text))
    if lang not in ("ru", "en"): bad(f"{where}: lang")
    if cls not in CLASS_KIND: bad(f"{where}: class {cls}"); continue
    if CLASS_KIND[cls] != kind: bad(f"{where}: kind {kind} for class {cls}")
    tool = e.get("tool")
    by_cls[(cls, lang)] += 1; by_kind[(kind, lang)] += 1; by_tool[tool] += 1
    if tool == "list_tasks": by_tool["list:" + e.get("filter", "?")] += 1
    # kind <-> tool
    if kind == "ambiguous" and tool != "clarify": bad(f"{where}: ambiguous must clarify")
    if kind == "unknown" and e != {"tool": "none"}: bad(f"{where}: unknown must be none")
    if kind == "plain" and tool in ("clarify", "none"): bad(f"{where}: plain with {tool}")
    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"} or e["id"] not in tkeys: bad(f"{where}: bad id {e}")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in tkeys:
            bad(f"{where}: bad update {e}"); continue
        t = tkeys[e["id"]]
        if t["due"] == e["deadline"] and t["due_kind"] == e["deadline_kind"]:
            bad(f"{where}: move to the task's current due")
        got = parse_date(text); dates_checked += 1
        if got is None or got[0] != e["deadline_kind"] or got[1].isoformat() != e["deadline"]:
            bad(f"{where}: date reference gives {got}, expect {e['deadline_kind']} {e['deadline']}")
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(e) <= allowed or "text" not in e: bad(f"{where}: bad create {e}"); continue
        if "project" in e and e["project"] not in pkeys | {"INBOX"}: bad(f"{where}: project {e['project']}")
        if cls == "project_leadin" and "project" not in e: bad(f"{where}: leadin without project")
        words = set(re.findall(r"[\w-]+", norm(text)))
        for w in re.findall(r"[\w-]+", norm(e["text"])):
            if w not in words: bad(f"{where}: create word {w!r} not in phrase")
        got = parse_date(text)
        if e["deadline_kind"] == "none":
            if "deadline" in e: bad(f"{where}: none with deadline")
            if got is not None: bad(f"{where}: undated create but reference finds {got}")
        else:
            dates_checked += 1
            if got is None or got[0] != e["deadline_kind"] or got[1].isoformat() != e.get("deadline"):
                bad(f"{where}: date reference gives {got}, expect {e['deadline_kind']} {e.get('deadline')}")
    elif tool == "list_tasks":
        if set(e) != {"tool", "filter"} or e["filter"] not in FILTERS: bad(f"{where}: bad list {e}")
    elif tool == "clarify":
        opts = e.get("options", [])
        if set(e) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: bad clarify {e}")
        for k in opts:
            if k not in tkeys: bad(f"{where}: unknown option {k}")
        got = parse_date(text)
        if got is not None:          # an ambiguous move: its date must differ from every candidate's due
            dates_checked += 1
            for k in opts:
                if k in tkeys and tkeys[k]["due"] == got[1].isoformat():
                    bad(f"{where}: move date {got[1]} equals the due of {k}")
    elif tool == "none":
        if set(e) != {"tool"}: bad(f"{where}: none with extra fields")
    else:
        bad(f"{where}: unknown tool {tool}")

# ---------------------------------------------------------------- report
classes = list(CLASS_KIND)
print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}, date answers recomputed {dates_checked}")
print("tasks per project:", dict(Counter(t["project"] for t in tasks)))
undated = sum(1 for t in tasks if t["due"] is None)
overdue = [t["key"] for t in tasks if t["due"] and t["due_kind"] == "day" and t["due"] < TODAY.isoformat()]
today = [t["key"] for t in tasks if t["due"] == TODAY.isoformat()]
weekd = [t["key"] for t in tasks if t["due_kind"] == "week"]
print(f"dues: overdue {len(overdue)} {overdue}; today {len(today)} {today}; week {len(weekd)} {weekd}; undated {undated}")
print()
print("| class | kind | ru | en | total |"); print("|---|---|---|---|---|")
for c in classes:
    print(f"| {c} | {CLASS_KIND[c]} | {by_cls[(c,'ru')]} | {by_cls[(c,'en')]} | {by_cls[(c,'ru')]+by_cls[(c,'en')]} |")
ru = sum(v for (c, l), v in by_cls.items() if l == "ru"); en = sum(v for (c, l), v in by_cls.items() if l == "en")
print(f"| **all** | | {ru} | {en} | **{ru+en}** |")
print()
print("| kind | ru | en | total |"); print("|---|---|---|---|")
for k in ("plain", "ambiguous", "unknown"):
    print(f"| {k} | {by_kind[(k,'ru')]} | {by_kind[(k,'en')]} | {by_kind[(k,'ru')]+by_kind[(k,'en')]} |")
print(f"| **all** | {ru} | {en} | **{ru+en}** |")
print()
print("by tool:", ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
if len(phrases) < 300: bad(f"only {len(phrases)} phrases")
for c in classes:
    a, b = by_cls[(c, "ru")], by_cls[(c, "en")]
    if abs(a - b) > max(2, (a + b) // 5): bad(f"class {c} unbalanced ru {a} / en {b}")
if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems: print(" -", p)
    sys.exit(1)
print("\nOK")
