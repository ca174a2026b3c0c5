#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-15 (stdlib only).

Checks projects.jsonl, tasks.jsonl and phrases.jsonl: JSON shape, unique keys that
reproduce per-project numbering, every expected key exists, kind/expect agreement,
dates valid, and every relative-date answer recomputed with a small independent
reference of the house rules under TODAY = 2031-10-29 (Wednesday), 08:05 Europe/Minsk.
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
TODAY = dt.date(2031, 10, 29)
assert TODAY.weekday() == 2  # Wednesday

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


def pdate(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- projects
projects = load("projects.jsonl")
pkeys = [p.get("key") for p in projects]
if len(set(pkeys)) != len(pkeys):
    bad("duplicate project keys")
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields: {p}")
    if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p.get("key") == "INBOX":
        bad(f"project key: {p.get('key')}")
    if not p.get("name") or not p.get("description"):
        bad(f"project {p.get('key')}: empty name/description")

# ---------------------------------------------------------------- tasks
tasks = load("tasks.jsonl")
by_key = {}
counter = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task fields: {t}")
    proj = t.get("project")
    if proj != "INBOX" and proj not in pkeys:
        bad(f"{t.get('key')}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t.get("key") != want:
        bad(f"task key {t.get('key')} should be {want} (creation order)")
    if t.get("key") in by_key:
        bad(f"duplicate task key {t.get('key')}")
    by_key[t.get("key")] = t
    if not t.get("title"):
        bad(f"{t.get('key')}: empty title")
    kind = t.get("due_kind")
    if kind == "none":
        if t.get("due") is not None:
            bad(f"{t['key']}: due_kind none with a due")
    elif kind in ("day", "week"):
        d = pdate(t.get("due"))
        if d is None:
            bad(f"{t['key']}: bad due {t.get('due')}")
        elif kind == "week" and d.weekday() != 6:
            bad(f"{t['key']}: week due must be a Sunday")
    else:
        bad(f"{t.get('key')}: bad due_kind {kind}")
titles = [t["title"].lower() for t in tasks]
if len(set(titles)) != len(titles):
    bad("duplicate task titles")


def due_of(k):
    return by_key[k]["due"]


# ---------------------------------------------------------------- date reference
def norm(s):
    return s.lower().replace("ё", "е")


def add_days(n):
    return TODAY + dt.timedelta(days=n)


def next_weekday(wd):  # strictly after today
    n = (wd - TODAY.weekday()) % 7
    return add_days(n or 7)


def next_week_weekday(wd):  # that weekday in next Mon-Sun week
    monday_next = TODAY + dt.timedelta(days=7 - TODAY.weekday())
    return monday_next + dt.timedelta(days=wd)


def this_sunday():
    return TODAY + dt.timedelta(days=6 - TODAY.weekday())


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def day_of_month(n):
    if not 1 <= n <= 31:
        return None
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        last = calendar.monthrange(y, m)[1]
        cand = dt.date(y, m, min(n, last))
        if cand >= TODAY:
            return cand
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return None


def day_month(d, m):
    try:
        cand = dt.date(TODAY.year, m, d)
    except ValueError:
        return None
    if (TODAY - cand).days > 30:
        cand = dt.date(TODAY.year + 1, m, d)
    return cand


WD_RU = [
    (0, r"понедельник\w*"), (1, r"вторник\w*"), (2, r"сред(?:а|ы|у|е|ой)"),
    (3, r"четверг\w*"), (4, r"пятниц\w*"), (5, r"суббот\w*"), (6, r"воскресень\w*"),
]
WD_EN = [
    (0, r"monday|mon"), (1, r"tuesday|tue|tues"), (2, r"wednesday|wed"),
    (3, r"thursday|thu|thurs"), (4, r"friday|fri"), (5, r"saturday|sat"), (6, r"sunday|sun"),
]
MON_RU = ["январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август", "сентябр",
          "октябр", "ноябр", "декабр"]
MON_EN = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
# one-letter slips in date words that a careful reader still reads (brief: typo class)
SLIPS = {"завра": "завтра", "послезавра": "послезавтра", "tomorow": "tomorrow"}
# date words that belong to a task title, not to the date phrase
TITLE_BOUND = ["sunday lunch", "на ноябрь", "for october"]


def find_dates(text):
    """Return list of (kind, date) found in text by the house rules."""
    s = norm(text)
    for bound in TITLE_BOUND:
        s = s.replace(bound, " ")
    for a, b in SLIPS.items():
        s = re.sub(rf"\b{a}\b", b, s)
    out = []

    def take(pattern, fn):
        nonlocal s
        for m in list(re.finditer(pattern, s)):
            r = fn(m)
            if r is not None:
                out.append(r)
        s = re.sub(pattern, " # ", s)

    # fixed words (longest first)
    take(r"\bпослезавтра\b|\bday after tomorrow\b", lambda m: ("day", add_days(2)))
    take(r"\bзавтра\b|\btomorrow\b|\btmrw?\b", lambda m: ("day", add_days(1)))
    take(r"\bсегодня\b|\btoday\b|\beod\b", lambda m: ("day", TODAY))
    # weeks
    take(r"\bследующ\w* недел\w*|\bnext week\b", lambda m: ("week", this_sunday() + dt.timedelta(days=7)))
    take(r"\b(?:до|к) конц\w* недели\b|\bна этой неделе\b|\bthis week\b|\bend of (?:the )?week\b",
         lambda m: ("week", this_sunday()))
    take(r"\bчерез неделю\b|\bin a week\b", lambda m: ("day", add_days(7)))
    take(r"\bчерез (\d+) (?:дня|дней|день)\b|\bin (\d+) days?\b",
         lambda m: ("day", add_days(int(m.group(1) or m.group(2)))))
    take(r"\bin (\d+) weeks?\b|\bчерез (\d+) недел\w*",
         lambda m: ("day", add_days(7 * int(m.group(1) or m.group(2)))))
    # months
    take(r"\bконец месяца\b|\bконц\w* месяца\b|\bend of (?:the )?month\b",
         lambda m: ("day", month_end(TODAY.year, TODAY.month)))
    take(r"\bследующ\w* месяц\w*|\bnext month\b",
         lambda m: ("day", month_end(TODAY.year + (TODAY.month == 12), TODAY.month % 12 + 1)))
    take(r"\bend of (?:the )?year\b|\bконц\w* года\b", lambda m: ("day", dt.date(TODAY.year, 12, 31)))
    # weekend
    take(r"\bвыходн\w*|\bweekend\b", lambda m: ("day", next_weekday(5) if TODAY.weekday() != 5 else TODAY))
    # explicit day+month
    take(r"\b(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?\b",
         lambda m: ("day", dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1))) if m.group(3)
                    else day_month(int(m.group(1)), int(m.group(2)))))
    ru_mon = "|".join(MON_RU)
    take(rf"\b(\d{{1,2}}) ({ru_mon})\w*",
         lambda m: ("day", day_month(int(m.group(1)), MON_RU.index(m.group(2)) + 1)))
    en_mon = "|".join(MON_EN)
    take(rf"\b({en_mon})[a-z]* (\d{{1,2}})(?:st|nd|rd|th)?\b",
         lambda m: ("day", day_month(int(m.group(2)), MON_EN.index(m.group(1)) + 1)))
    take(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? ({en_mon})[a-z]*\b",
         lambda m: ("day", day_month(int(m.group(1)), MON_EN.index(m.group(2)) + 1)))
    # day of month alone
    take(r"\b(\d{1,2}) числа\b", lambda m: ("day", day_of_month(int(m.group(1)))))
    take(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m.group(1)))))
    # weekdays: next <wd> first, then plain
    for wd, pat in WD_RU:
        take(rf"\bследующ\w* (?:{pat})\b", lambda m, wd=wd: ("day", next_week_weekday(wd)))
    for wd, pat in WD_EN:
        take(rf"\bnext (?:{pat})\b", lambda m, wd=wd: ("day", next_week_weekday(wd)))
    for wd, pat in WD_RU + WD_EN:
        take(rf"\b(?:this )?(?:{pat})\b", lambda m, wd=wd: ("day", next_weekday(wd)))
    return out


# self-test of the reference on a few fixed points (2031-10-29 is a Wednesday)
_ref = {
    "завтра": ("day", "2031-10-30"), "послезавтра": ("day", "2031-10-31"),
    "в пятницу": ("day", "2031-10-31"), "wednesday": ("day", "2031-11-05"),
    "next friday": ("day", "2031-11-07"), "в следующий четверг": ("day", "2031-11-06"),
    "до конца недели": ("week", "2031-11-02"), "next week": ("week", "2031-11-09"),
    "конец месяца": ("day", "2031-10-31"), "next month": ("day", "2031-11-30"),
    "на выходных": ("day", "2031-11-01"), "через неделю": ("day", "2031-11-05"),
    "in 2 weeks": ("day", "2031-11-12"), "до 5 числа": ("day", "2031-11-05"),
    "on the 29th": ("day", "2031-10-29"), "до 28 числа": ("day", "2031-11-28"),
    "1 сентября": ("day", "2032-09-01"), "20 октября": ("day", "2031-10-20"),
    "dec 1": ("day", "2031-12-01"), "12.11": ("day", "2031-11-12"),
    "до 31 числа": ("day", "2031-10-31"),
}
for phrase, (k, d) in _ref.items():
    got = find_dates(phrase)
    if got != [(k, dt.date.fromisoformat(d))]:
        bad(f"date reference self-test: {phrase!r} -> {got}, want {k} {d}")

# ---------------------------------------------------------------- weekday spelling
WD_FORMS = set()
for base in ["понедельник", "вторник", "четверг"]:
    WD_FORMS |= {base, base + "а", base + "у", base + "ом", base + "е"}
WD_FORMS |= {"среда", "среды", "среду", "среде", "средой", "пятница", "пятницы", "пятницу",
             "пятнице", "пятницей", "суббота", "субботы", "субботу", "субботе", "субботой",
             "воскресенье", "воскресенья", "воскресенью", "monday", "tuesday", "wednesday",
             "thursday", "friday", "saturday", "sunday", "mondays", "fridays"}


def lev1(a, b):
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if len(a) > len(b):
        a, b = b, a
    return any(b[:i] + b[i + 1:] == a for i in range(len(b)))


# ---------------------------------------------------------------- phrases
phrases = load("phrases.jsonl")
KINDS = {"plain", "ambiguous", "unknown"}
CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
texts = Counter()
for n, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{n} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
        continue
    texts[norm(p["text"])] += 1
    if p["lang"] not in ("ru", "en"):
        bad(f"{where}: lang")
    if p["kind"] not in KINDS:
        bad(f"{where}: kind")
    if p["class"] not in CLASSES:
        bad(f"{where}: class")
    for tok in re.findall(r"[a-zа-яё]+", norm(p["text"])):
        if len(tok) >= 5 and tok not in WD_FORMS and any(lev1(tok, w) for w in WD_FORMS):
            bad(f"{where}: looks like a misspelt weekday: {tok}")
    e = p["expect"]
    tool = e.get("tool")
    want_kind = {"clarify": "ambiguous", "none": "unknown"}.get(tool, "plain")
    if tool not in {"close_task", "cancel_task", "update_task", "create_task", "list_tasks",
                    "clarify", "none"}:
        bad(f"{where}: tool {tool}")
        continue
    if p["kind"] != want_kind:
        bad(f"{where}: kind {p['kind']} but tool {tool}")
    if p["class"] == "offtopic" and tool != "none":
        bad(f"{where}: offtopic must expect none")
    if p["class"] == "project_leadin" and (tool != "create_task" or "project" not in e):
        bad(f"{where}: project_leadin must create in a project")
    if p["class"] == "deadline_not_close" and tool not in ("update_task", "clarify"):
        bad(f"{where}: deadline_not_close must move or clarify")
    if p["class"] == "negated_cancel" and tool not in ("cancel_task", "clarify", "none"):
        bad(f"{where}: negated_cancel must cancel, clarify or none")
    found = find_dates(p["text"])
    bad_found = [f for f in found if f[1] is None]
    if bad_found:
        bad(f"{where}: impossible date in text")
    found = sorted({(k, d.isoformat()) for k, d in found if d})
    if tool in ("close_task", "cancel_task", "update_task"):
        if set(e) - {"tool", "id", "deadline_kind", "deadline"}:
            bad(f"{where}: extra fields")
        if e.get("id") not in by_key:
            bad(f"{where}: unknown id {e.get('id')}")
    if tool == "update_task":
        if e.get("deadline_kind") not in ("day", "week") or pdate(e.get("deadline")) is None:
            bad(f"{where}: update needs deadline_kind day|week and a valid deadline")
        elif found != [(e["deadline_kind"], e["deadline"])]:
            bad(f"{where}: reference reads {found}, expect says {e['deadline_kind']} {e['deadline']}")
        if e.get("id") in by_key and due_of(e["id"]) == e.get("deadline"):
            bad(f"{where}: move to the task's current due")
    if tool == "create_task":
        if set(e) - {"tool", "text", "deadline_kind", "deadline", "project"}:
            bad(f"{where}: extra fields")
        if not e.get("text") or norm(e["text"]) not in norm(p["text"]):
            bad(f"{where}: create text is not part of the phrase")
        if "project" in e and e["project"] not in pkeys:
            bad(f"{where}: unknown project {e['project']}")
        dk = e.get("deadline_kind")
        if dk == "none":
            if "deadline" in e:
                bad(f"{where}: none with a deadline")
            if found:
                bad(f"{where}: no deadline expected but reference reads {found}")
        elif dk in ("day", "week"):
            if pdate(e.get("deadline")) is None:
                bad(f"{where}: bad deadline")
            elif found != [(dk, e["deadline"])]:
                bad(f"{where}: reference reads {found}, expect says {dk} {e.get('deadline')}")
        else:
            bad(f"{where}: deadline_kind {dk}")
    if tool == "list_tasks" and e.get("filter") not in FILTERS:
        bad(f"{where}: filter {e.get('filter')}")
    if tool == "clarify":
        opts = e.get("options") or []
        if len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify needs 2+ distinct options")
        for k in opts:
            if k not in by_key:
                bad(f"{where}: unknown option {k}")
        if len(found) > 1:
            bad(f"{where}: several dates {found}")
        for _, d in found:
            for k in opts:
                if k in by_key and due_of(k) == d:
                    bad(f"{where}: move date {d} equals the due of option {k}")
    # keys named in the text: for acting tools they must be the target
    for k in re.findall(r"\b[A-Z]+-\d+\b", p["text"]):
        if tool in ("close_task", "cancel_task", "update_task") and e.get("id") != k:
            bad(f"{where}: names {k} but targets {e.get('id')}")
        if k not in by_key and tool != "none":
            bad(f"{where}: names missing key {k} but expects {tool}")
for t, c in texts.items():
    if c > 1:
        bad(f"duplicate phrase {t!r}")

# ---------------------------------------------------------------- report
print(f"TODAY {TODAY} ({TODAY:%A}) 08:05 Europe/Minsk")
print(f"projects {len(projects)}: {', '.join(pkeys)}")
per = Counter(t["project"] for t in tasks)
print(f"tasks {len(tasks)}: " + ", ".join(f"{k} {per[k]}" for k in pkeys + ["INBOX"]))
dues = [(t["key"], pdate(t["due"]), t["due_kind"]) for t in tasks if t["due"]]
print("  overdue:", " ".join(k for k, d, kd in dues if kd == "day" and d < TODAY))
print("  due today:", " ".join(k for k, d, kd in dues if kd == "day" and d == TODAY))
print("  week due:", " ".join(f"{k}({d})" for k, d, kd in dues if kd == "week"))
print("  undated:", sum(1 for t in tasks if t["due"] is None))
print(f"phrases {len(phrases)}")
kl = Counter((p["kind"], p["lang"]) for p in phrases)
print("  kind       ru   en  all")
for k in ["plain", "ambiguous", "unknown"]:
    print(f"  {k:9} {kl[(k, 'ru')]:4} {kl[(k, 'en')]:4} {kl[(k, 'ru')] + kl[(k, 'en')]:4}")
lang = Counter(p["lang"] for p in phrases)
print(f"  all       {lang['ru']:4} {lang['en']:4} {len(phrases):4}")
tools = Counter(p["expect"]["tool"] for p in phrases)
filt = Counter(p["expect"]["filter"] for p in phrases if p["expect"]["tool"] == "list_tasks")
print("  by tool:", ", ".join(f"{k} {v}" for k, v in sorted(tools.items())),
      "| list:", ", ".join(f"{k} {v}" for k, v in sorted(filt.items())))
cl = defaultdict(Counter)
for p in phrases:
    cl[p["class"]][p["lang"]] += 1
    cl[p["class"]][p["kind"]] += 1
print("  class               ru   en  plain amb unk")
for c in CLASSES:
    x = cl[c]
    print(f"  {c:18} {x['ru']:4} {x['en']:4} {x['plain']:5} {x['ambiguous']:3} {x['unknown']:3}")
    for lg in ("ru", "en"):
        if x[lg] == 0:
            bad(f"class {c} has no {lg} phrase")
if kl[("ambiguous", "ru")] + kl[("ambiguous", "en")] < 40:
    bad("fewer than 40 ambiguous")
if kl[("unknown", "ru")] + kl[("unknown", "en")] < 45:
    bad("fewer than 45 unknown")

if problems:
    print(f"\n{len(problems)} problem(s):")
    for m in problems:
        print("  -", m)
    sys.exit(1)
print("\nOK")
