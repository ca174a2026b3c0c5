#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-17 (stdlib only).

Checks the shape of every line, that every task key referenced exists, the per-project
key numbering, the class/kind/lang conventions, and recomputes every expected date from
the house date rules with a small reference written for this set only (it knows the
vocabulary and the slips used in this set, nothing more). Prints counts; exits 1 on
any problem.  Run:  python3 data/chat-phrases-holdout-17/validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2032, 7, 28)          # 2032-07-28T19:35Z = 21:35 Europe/Warsaw (UTC+2), Wednesday
CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
KIND_OF_CLASS = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
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
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def parse_iso(s):
    try:
        return dt.date.fromisoformat(s) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", s or "") else None
    except ValueError:
        return None


# ------------------------------------------------------------------ house date rules
def this_sunday(t):
    return t + dt.timedelta(days=6 - t.weekday())


def plain_weekday(t, wd):          # strictly after today
    d = (wd - t.weekday()) % 7
    return t + dt.timedelta(days=d or 7)


def next_weekday(t, wd):           # that weekday in the next Monday-Sunday week
    next_monday = t + dt.timedelta(days=7 - t.weekday())
    return next_monday + dt.timedelta(days=wd)


def month_end(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def day_month(t, day, month):      # this year's unless more than 30 days past
    try:
        d = dt.date(t.year, month, day)
    except ValueError:
        return None
    if (t - d).days > 30:
        try:
            d = dt.date(t.year + 1, month, day)
        except ValueError:
            return None
    return d


def day_of_month(t, day):          # next such day on or after today; short month -> its last day
    if not 1 <= day <= 31:
        return None
    y, m = t.year, t.month
    for _ in range(3):
        last = month_end(y, m).day
        d = dt.date(y, m, min(day, last))
        if d >= t:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


EN_WD = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "fri": 4,
         "saturday": 5, "sunday": 6}
EN_MON = {"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4,
          "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8,
          "august": 8, "sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10,
          "nov": 11, "november": 11, "dec": 12, "december": 12}
RU_MON = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
          "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
# weekday stems with the case forms used after в/во/к/ко/до/на
RU_WD = [
    (0, r"понедельник|понедельнику|понедельника"),
    (1, r"вторник|вторнику|вторника"),
    (2, r"среду|среде|среды"),
    (3, r"четверг|четвергу|четверга"),
    (4, r"пятницу|пятнице|пятницы"),
    (5, r"субботу|субботе|субботы"),
    (6, r"воскресенье|воскресенью|воскресенья"),
]
NUMW = {"two": 2, "две": 2, "три": 3, "three": 3}
L = r"(?<![a-zа-я0-9])"
R = r"(?![a-zа-я0-9])"


def rules():
    t = TODAY
    day = lambda d: ("day", d)
    out = [
        # --- English
        (r"day after (?:tomorrow|tomorow)", lambda m: day(t + dt.timedelta(2))),
        (r"tomorrow|tomorow|tmrw|tmr", lambda m: day(t + dt.timedelta(1))),
        (r"today|tonight|eod", lambda m: day(t)),
        (r"in (\d+) days?", lambda m: day(t + dt.timedelta(int(m.group(1))))),
        (r"in a week", lambda m: day(t + dt.timedelta(7))),
        (r"in (\d+|two|three) weeks", lambda m: day(t + dt.timedelta(7 * int(NUMW.get(m.group(1), m.group(1)))))),
        (r"next (?:week|wek)", lambda m: ("week", this_sunday(t) + dt.timedelta(7))),
        (r"this week|end of (?:the )?(?:week|wek)", lambda m: ("week", this_sunday(t))),
        (r"end of (?:the )?(?:month|mnoth)", lambda m: day(month_end(t.year, t.month))),
        (r"next month", lambda m: day(month_end(t.year + (t.month == 12), t.month % 12 + 1))),
        (r"end of (?:the )?year", lambda m: day(dt.date(t.year, 12, 31))),
        (r"(?:the )?(?:weekend|weeknd)", lambda m: day(t + dt.timedelta((5 - t.weekday()) % 7))),
        (r"next (" + "|".join(EN_WD) + r")", lambda m: day(next_weekday(t, EN_WD[m.group(1)]))),
        (r"(?:this )?(" + "|".join(EN_WD) + r")", lambda m: day(plain_weekday(t, EN_WD[m.group(1)]))),
        (r"(" + "|".join(EN_MON) + r")\.? (\d{1,2})(?:st|nd|rd|th)?",
         lambda m: day(day_month(t, int(m.group(2)), EN_MON[m.group(1)]))),
        (r"(\d{1,2}) (" + "|".join(EN_MON) + r")",
         lambda m: day(day_month(t, int(m.group(1)), EN_MON[m.group(2)]))),
        (r"the (\d{1,2})(?:st|nd|rd|th)", lambda m: day(day_of_month(t, int(m.group(1))))),
        # --- numeric
        (r"(\d{4})-(\d{2})-(\d{2})", lambda m: day(parse_iso(m.group(0)))),
        (r"(\d{1,2})\.(\d{1,2})\.(\d{4})",
         lambda m: day(_safe(int(m.group(3)), int(m.group(2)), int(m.group(1))))),
        (r"(\d{1,2})\.(\d{1,2})", lambda m: day(day_month(t, int(m.group(1)), int(m.group(2))))),
        (r"(\d{1,2})/(\d{1,2})",
         lambda m: day(day_month(t, int(m.group(1)), int(m.group(2))) if int(m.group(1)) > 12 else None)),
        # --- Russian
        (r"послезавтра|послезватра", lambda m: day(t + dt.timedelta(2))),
        (r"завтра|завтар", lambda m: day(t + dt.timedelta(1))),
        (r"сегодня|сегодян", lambda m: day(t)),
        (r"(?:на )?следующ(?:ей|ую) (?:неделе|неделю|недлю)", lambda m: ("week", this_sunday(t) + dt.timedelta(7))),
        (r"(?:до|к|на) (?:конца|концу|конец) (?:недели|недли)|на этой неделе",
         lambda m: ("week", this_sunday(t))),
        (r"(?:до|к|на) (?:конца|концу|конец) месяца|конец месяца", lambda m: day(month_end(t.year, t.month))),
        (r"в следующем месяце", lambda m: day(month_end(t.year + (t.month == 12), t.month % 12 + 1))),
        (r"(?:на|к|в) выходн(?:ых|ым|ые)", lambda m: day(t + dt.timedelta((5 - t.weekday()) % 7))),
        (r"через (\d+) (?:день|дня|дней)", lambda m: day(t + dt.timedelta(int(m.group(1))))),
        (r"через неделю", lambda m: day(t + dt.timedelta(7))),
        (r"через (\d+|две|три) недели", lambda m: day(t + dt.timedelta(7 * int(NUMW.get(m.group(1), m.group(1)))))),
        (r"(\d{1,2}) (" + "|".join(RU_MON) + r")", lambda m: day(day_month(t, int(m.group(1)), RU_MON[m.group(2)]))),
        (r"(?:до |к |на )?(\d{1,2}) числ(?:а|у)", lambda m: day(day_of_month(t, int(m.group(1))))),
    ]
    for wd, forms in RU_WD:
        out.append((r"(?:в|во|к|ко|до|на) следующ(?:ий|ую|ее|его|ей|ему) (?:" + forms + ")",
                    (lambda w: lambda m: day(next_weekday(t, w)))(wd)))
        out.append((r"(?:в|во|к|ко|до|на) (?:" + forms + ")",
                    (lambda w: lambda m: day(plain_weekday(t, w)))(wd)))
    return [(re.compile(L + p + R), f) for p, f in out]


def _safe(y, m, d):
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


RULES = rules()


def find_dates(text):
    """All non-overlapping date expressions: [(matched_text, kind, date)], leftmost-longest."""
    s = norm(text)
    cands = []
    for rx, fn in RULES:
        for m in rx.finditer(s):
            cands.append((m.start(), -(m.end() - m.start()), m.end(), m.group(0), fn(m)))
    cands.sort()
    out, end = [], -1
    for start, _neg, stop, txt, res in cands:
        if start >= end:
            out.append((txt, res[0], res[1]))
            end = stop
    return out


# ------------------------------------------------------------------ load and check
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = []
for n, p in projects:
    if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
        bad(f"projects.jsonl:{n}: shape {p}")
        continue
    if p["key"] == "INBOX" or not re.fullmatch(r"[A-Z]{2,10}", p["key"]):
        bad(f"projects.jsonl:{n}: bad key {p['key']}")
    pkeys.append(p["key"])
if len(set(pkeys)) != len(pkeys):
    bad("projects.jsonl: duplicate keys")
if not 4 <= len(pkeys) <= 6:
    bad(f"projects.jsonl: {len(pkeys)} projects, want 4-6")

T = {}
seq = Counter()
for n, t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks.jsonl:{n}: fields {sorted(t)}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"tasks.jsonl:{n}: unknown project {proj}")
    seq[proj] += 1
    if t["key"] != f"{proj}-{seq[proj]}":
        bad(f"tasks.jsonl:{n}: key {t['key']} but loading in order gives {proj}-{seq[proj]}")
    if not isinstance(t["title"], str) or not t["title"].strip():
        bad(f"tasks.jsonl:{n}: empty title")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"tasks.jsonl:{n}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        d = parse_iso(t["due"])
        if d is None:
            bad(f"tasks.jsonl:{n}: bad due {t['due']}")
        elif t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"tasks.jsonl:{n}: week due {d} is not a Sunday")
    else:
        bad(f"tasks.jsonl:{n}: bad due_kind {t['due_kind']}")
    if t["key"] in T:
        bad(f"tasks.jsonl:{n}: duplicate key")
    T[t["key"]] = t
if not 50 <= len(T) <= 65:
    bad(f"tasks.jsonl: {len(T)} tasks, want 50-65")
for pk in pkeys:
    if seq[pk] == 0:
        bad(f"project {pk} has no tasks")


def task_ok(k, where):
    if k not in T:
        bad(f"{where}: unknown task {k}")
        return False
    return True


def check_date(where, text, titles, want_kind, want_date):
    """want_kind None: the phrase must carry no date outside the referenced titles."""
    found = [f for f in find_dates(text) if not any(norm(f[0]) in ti for ti in titles)]
    if want_kind is None:
        if found:
            bad(f"{where}: date expression {found[0][0]!r} in a phrase expected without a date")
        return None
    if len(found) != 1:
        bad(f"{where}: expected one date expression, found {[f[0] for f in found]}")
        return None
    txt, kind, d = found[0]
    if d is None:
        bad(f"{where}: {txt!r} does not give a valid date")
        return None
    if (kind, d.isoformat()) != (want_kind, want_date):
        bad(f"{where}: {txt!r} -> {kind} {d}, expected {want_kind} {want_date}")
    return d


seen = set()
by = defaultdict(Counter)
tools = Counter()
filters = Counter()
for n, p in phrases:
    w = f"phrases.jsonl:{n}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{w}: fields {sorted(p)}")
        continue
    text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if not isinstance(text, str) or not text.strip() or text != text.strip():
        bad(f"{w}: bad text")
        continue
    if norm(text) in seen:
        bad(f"{w}: duplicate text {text!r}")
    seen.add(norm(text))
    if text.endswith("."):
        bad(f"{w}: final dot")
    if lang not in ("ru", "en"):
        bad(f"{w}: lang {lang}")
    cyr = bool(re.search(r"[а-яё]", text.lower()))
    if lang == "ru" and not cyr:
        bad(f"{w}: ru phrase without Cyrillic")
    if lang == "en" and cyr:
        bad(f"{w}: en phrase with Cyrillic")
    if cls not in CLASSES:
        bad(f"{w}: class {cls}")
        continue
    if kind != KIND_OF_CLASS.get(cls, "plain"):
        bad(f"{w}: kind {kind} does not fit class {cls}")
    if not isinstance(e, dict) or "tool" not in e:
        bad(f"{w}: expect {e}")
        continue
    tool = e["tool"]
    tools[tool] += 1
    by["class"][(cls, lang)] += 1
    by["kind"][(kind, lang)] += 1
    keys_ok = True
    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"}:
            bad(f"{w}: {tool} fields {sorted(e)}")
        keys_ok = task_ok(e.get("id"), w)
        if keys_ok:
            check_date(w, text, [norm(T[e["id"]]["title"])], None, None)
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["deadline_kind"] not in ("day", "week"):
            bad(f"{w}: update_task fields {e}")
            continue
        if task_ok(e["id"], w):
            d = check_date(w, text, [norm(T[e["id"]]["title"])], e["deadline_kind"], e["deadline"])
            if d is not None and T[e["id"]]["due"] == e["deadline"] and T[e["id"]]["due_kind"] == e["deadline_kind"]:
                bad(f"{w}: update to the task's current due")
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(e) <= allowed or "text" not in e or "deadline_kind" not in e:
            bad(f"{w}: create_task fields {sorted(e)}")
            continue
        if norm(e["text"]) not in norm(text):
            bad(f"{w}: create text {e['text']!r} is not part of the phrase")
        if "project" in e and e["project"] not in pkeys + ["INBOX"]:
            bad(f"{w}: create project {e['project']}")
        rest = norm(text).replace(norm(e["text"]), " ")
        if e["deadline_kind"] == "none":
            if "deadline" in e:
                bad(f"{w}: deadline with kind none")
            check_date(w, rest, [], None, None)
        elif e["deadline_kind"] in ("day", "week"):
            check_date(w, rest, [], e["deadline_kind"], e.get("deadline"))
        else:
            bad(f"{w}: deadline_kind {e['deadline_kind']}")
    elif tool == "list_tasks":
        if set(e) - {"tool", "filter", "period"} or e.get("filter") not in FILTERS:
            bad(f"{w}: list_tasks {e}")
        filters[e.get("filter")] += 1
    elif tool == "clarify":
        opts = e.get("options")
        if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{w}: clarify {e}")
            continue
        if all(task_ok(k, w) for k in opts):
            titles = [norm(T[k]["title"]) for k in opts]
            found = [f for f in find_dates(text) if not any(norm(f[0]) in ti for ti in titles)]
            if len(found) > 1:
                bad(f"{w}: several dates in an ambiguous phrase {found}")
            for txt, kind_, d in found:       # an ambiguous move: the date must not break the tie
                if d is None:
                    bad(f"{w}: invalid date {txt!r}")
                    continue
                for k in opts:
                    if T[k]["due"] == d.isoformat():
                        bad(f"{w}: move to {d} equals the current due of {k}; the tie could be broken")
    elif tool == "none":
        if set(e) != {"tool"}:
            bad(f"{w}: none with extra fields")
    else:
        bad(f"{w}: unknown tool {tool}")
    # class <-> expectation conventions
    if cls in ("offtopic", "unknown_other") and tool != "none":
        bad(f"{w}: {cls} must expect none")
    if cls == "ambiguous" and tool != "clarify":
        bad(f"{w}: ambiguous must expect clarify")
    if cls not in ("offtopic", "unknown_other", "ambiguous") and tool in ("none", "clarify"):
        bad(f"{w}: plain class {cls} with {tool}")
    if cls == "report" and tool != "close_task":
        bad(f"{w}: a report should close")
    if cls == "negated_cancel" and tool != "cancel_task":
        bad(f"{w}: negated_cancel should cancel")
    if cls == "deadline_not_close" and tool not in ("update_task", "create_task"):
        bad(f"{w}: deadline phrase with {tool}")
    if cls == "project_leadin" and (tool != "create_task" or "project" not in e):
        bad(f"{w}: project lead-in must create with a project")

# ------------------------------------------------------------------ totals and floors
langs = Counter(p["lang"] for _, p in phrases)
total = len(phrases)
for c in CLASSES:
    ru, en = by["class"][(c, "ru")], by["class"][(c, "en")]
    if ru + en < 20 or ru < 8 or en < 8:
        bad(f"class {c}: ru {ru} en {en} (want >= 20, both languages)")
if by["class"][("ambiguous", "ru")] + by["class"][("ambiguous", "en")] < 40:
    bad("fewer than 40 ambiguous")
unk = sum(by["class"][(c, l)] for c in ("offtopic", "unknown_other") for l in ("ru", "en"))
if unk < 40:
    bad("fewer than 40 unknown (offtopic + unknown_other)")
if total < 290:
    bad(f"only {total} phrases")
if langs["ru"] and not 0.9 <= langs["en"] / langs["ru"] <= 1.1:
    bad(f"languages unbalanced: {dict(langs)}")

# ------------------------------------------------------------------ report
print(f"TODAY {TODAY} ({TODAY:%A}), zone Europe/Warsaw")
print(f"projects {len(pkeys)}; tasks {len(T)}: " + ", ".join(f"{k} {seq[k]}" for k in pkeys + ['INBOX']))
dues = Counter()
for t in T.values():
    d = parse_iso(t["due"]) if t["due"] else None
    if d is None:
        dues["undated"] += 1
    elif t["due_kind"] == "week":
        dues["week"] += 1
    elif d < TODAY:
        dues["overdue"] += 1
    elif d == TODAY:
        dues["today"] += 1
    else:
        dues["later"] += 1
print("due: " + ", ".join(f"{k} {dues[k]}" for k in ("overdue", "today", "week", "later", "undated")))
print(f"phrases {total}: ru {langs['ru']}, en {langs['en']}")
print(f"{'class':20} {'ru':>4} {'en':>4} {'all':>4}")
for c in CLASSES:
    ru, en = by["class"][(c, "ru")], by["class"][(c, "en")]
    print(f"{c:20} {ru:4} {en:4} {ru + en:4}")
print(f"{'kind':20} {'ru':>4} {'en':>4} {'all':>4}")
for k in ("plain", "ambiguous", "unknown"):
    ru, en = by["kind"][(k, "ru")], by["kind"][(k, "en")]
    print(f"{k:20} {ru:4} {en:4} {ru + en:4}")
print("tools: " + ", ".join(f"{k} {v}" for k, v in sorted(tools.items())))
print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(filters.items())))
if problems:
    print(f"\n{len(problems)} problem(s):")
    for m in problems:
        print("  " + m)
    sys.exit(1)
print("OK")
