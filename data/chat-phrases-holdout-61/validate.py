#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-61 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and keys,
recomputes every date answer with a small independent reference of the house date
rules (written for this set only), prints counts and exits 1 on any problem.

    python3 data/chat-phrases-holdout-61/validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))

# TODAY of this set: now = 2043-01-31T15:10:00Z, zone Australia/Brisbane (UTC+10, no DST)
NOW_UTC = dt.datetime(2043, 1, 31, 15, 10, tzinfo=dt.timezone.utc)
BRISBANE = dt.timezone(dt.timedelta(hours=10))
NOW_LOCAL = NOW_UTC.astimezone(BRISBANE)
TODAY = NOW_LOCAL.date()

CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain", "project_leadin": "plain",
    "offtopic": "unknown", "plain_other": "plain", "ambiguous": "ambiguous",
    "unknown_other": "unknown",
}
# which tools a class may expect
CLASS_TOOLS = {
    "typo": {"close_task", "cancel_task", "update_task", "create_task"},
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
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def bad(msg):
    problems.append(msg)


# ---------------------------------------------------------------- date reference

def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[^\w.\-/&]+", " ", s)
    return [t.strip(".-/") for t in s.split() if t.strip(".-/")]


def add_days(n):
    return TODAY + dt.timedelta(days=n)


def this_sunday():
    return TODAY + dt.timedelta(days=6 - TODAY.weekday())


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def next_month_end():
    y, m = (TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)
    return month_end(y, m)


def plain_weekday(i):
    d = (i - TODAY.weekday()) % 7
    return add_days(d or 7)


def next_week_weekday(i):
    monday_next = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday_next + dt.timedelta(days=i)


def coming_saturday():
    return add_days((5 - TODAY.weekday()) % 7)


def day_month(d, m):
    try:
        x = dt.date(TODAY.year, m, d)
    except ValueError:
        return None
    if (TODAY - x).days > 30:
        x = dt.date(TODAY.year + 1, m, d)
    return x


def day_of_month(d):
    y, m = TODAY.year, TODAY.month
    for _ in range(2):
        last = calendar.monthrange(y, m)[1]
        if d <= last:
            x = dt.date(y, m, d)
        else:
            x = dt.date(y, m, last)
        if x >= TODAY:
            return x
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


WEEKDAY_FORMS = [
    ["monday", "понедельник", "понедельника", "понедельнику", "maandag", "montag", "lundi", "lunes"],
    ["tuesday", "вторник", "вторника", "вторнику", "dinsdag", "dienstag", "mardi", "martes"],
    ["wednesday", "среду", "среда", "среды", "среде", "woensdag", "mittwoch", "mercredi", "miercoles"],
    ["thursday", "четверг", "четверга", "четвергу", "donderdag", "donnerstag", "jeudi", "jueves"],
    ["friday", "пятницу", "пятница", "пятницы", "пятнице", "vrijdag", "freitag", "vendredi", "viernes"],
    ["saturday", "субботу", "суббота", "субботы", "субботе", "zaterdag", "samstag", "samedi", "sabado"],
    ["sunday", "воскресенье", "воскресенья", "воскресенью", "zondag", "sonntag", "dimanche", "domingo"],
]
WEEKDAY = {w: i for i, forms in enumerate(WEEKDAY_FORMS) for w in forms}
NEXT_WORDS = {"next", "следующую", "следующий", "следующее", "следующей"}

MONTHS = {}
for i, forms in enumerate([
    ["january", "jan", "января", "январь"], ["february", "feb", "февраля", "февраль"],
    ["march", "mar", "марта", "март"], ["april", "apr", "апреля", "апрель"],
    ["may", "мая", "май"], ["june", "jun", "июня", "июнь"], ["july", "jul", "июля", "июль"],
    ["august", "aug", "августа", "август"], ["september", "sep", "sept", "сентября", "сентябрь"],
    ["october", "oct", "октября", "октябрь"], ["november", "nov", "ноября", "ноябрь"],
    ["december", "dec", "декабря", "декабрь"]], start=1):
    for f in forms:
        MONTHS[f] = i

# fixed phrases -> (kind, date)
PHRASES = {
    # +2
    "day after tomorrow": ("day", add_days(2)), "послезавтра": ("day", add_days(2)),
    "pasado manana": ("day", add_days(2)), "overmorgen": ("day", add_days(2)),
    "ubermorgen": ("day", add_days(2)), "apres-demain": ("day", add_days(2)),
    "depois de amanha": ("day", add_days(2)), "methavrio": ("day", add_days(2)),
    "asatte": ("day", add_days(2)),
    # +1
    "tomorrow": ("day", add_days(1)), "tmrw": ("day", add_days(1)), "tmr": ("day", add_days(1)),
    "завтра": ("day", add_days(1)), "manana": ("day", add_days(1)), "amanha": ("day", add_days(1)),
    "morgen": ("day", add_days(1)), "demain": ("day", add_days(1)), "avrio": ("day", add_days(1)),
    "аврио": ("day", add_days(1)), "ashita": ("day", add_days(1)),
    "bukra": ("day", add_days(1)),  # Gulf Arabic, this set's judgement call (see README)
    # 0
    "today": ("day", TODAY), "eod": ("day", TODAY), "сегодня": ("day", TODAY),
    "hoy": ("day", TODAY), "hoje": ("day", TODAY), "simera": ("day", TODAY), "kyou": ("day", TODAY),
    # month ends
    "end of month": ("day", month_end(TODAY.year, TODAY.month)),
    "end of the month": ("day", month_end(TODAY.year, TODAY.month)),
    "до конца месяца": ("day", month_end(TODAY.year, TODAY.month)),
    "к концу месяца": ("day", month_end(TODAY.year, TODAY.month)),
    "next month": ("day", next_month_end()),
    "в следующем месяце": ("day", next_month_end()),
    "end of year": ("day", dt.date(TODAY.year, 12, 31)),
    "end of the year": ("day", dt.date(TODAY.year, 12, 31)),
    "до конца года": ("day", dt.date(TODAY.year, 12, 31)),
    # weeks
    "this week": ("week", this_sunday()), "end of week": ("week", this_sunday()),
    "end of the week": ("week", this_sunday()), "до конца недели": ("week", this_sunday()),
    "к концу недели": ("week", this_sunday()), "на этой неделе": ("week", this_sunday()),
    "next week": ("week", this_sunday() + dt.timedelta(days=7)),
    "на следующей неделе": ("week", this_sunday() + dt.timedelta(days=7)),
    "на следующую неделю": ("week", this_sunday() + dt.timedelta(days=7)),
    "volgende week": ("week", this_sunday() + dt.timedelta(days=7)),
    "nachste woche": ("week", this_sunday() + dt.timedelta(days=7)),
    "la semaine prochaine": ("week", this_sunday() + dt.timedelta(days=7)),
    "la proxima semana": ("week", this_sunday() + dt.timedelta(days=7)),
    "raishuu": ("week", this_sunday() + dt.timedelta(days=7)),
    # weekend
    "weekend": ("day", coming_saturday()), "выходные": ("day", coming_saturday()),
    "выходных": ("day", coming_saturday()), "выходным": ("day", coming_saturday()),
    # spans
    "in a week": ("day", add_days(7)), "через неделю": ("day", add_days(7)),
    "in a fortnight": ("day", add_days(14)), "in 2 weeks": ("day", add_days(14)),
    "in two weeks": ("day", add_days(14)), "через 2 недели": ("day", add_days(14)),
    "через две недели": ("day", add_days(14)),
}
STRIP_ACCENTS = str.maketrans("ñãáàâçéèêíóôúü", "naaaaceeeioouu")
PHRASE_TOKENS = {k: k.translate(STRIP_ACCENTS).split() for k in PHRASES}
ALL_DATE_WORDS = set(WEEKDAY) | set(MONTHS) | {"month", "week", "weekend"}
for toks in PHRASE_TOKENS.values():
    for t in toks:
        if len(t) >= 5:
            ALL_DATE_WORDS.add(t)
# ordinary words one letter from a date word (none needed in this set)
NOT_DATES = set()


def damerau1(a, b):
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        if len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]:
            return True
        return False
    if la > lb:
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


def correct(tokens):
    """A date word one letter off is read as the word it is closest to, when unique."""
    out, fixes = [], []
    for t in tokens:
        if len(t) >= 4 and t not in ALL_DATE_WORDS and t not in NOT_DATES and not t.isdigit():
            cands = sorted(w for w in ALL_DATE_WORDS if len(w) >= 5 and damerau1(t, w))
            if len(cands) == 1:
                fixes.append((t, cands[0]))
                t = cands[0]
        out.append(t)
    return out, fixes


ORD = re.compile(r"^(\d{1,2})(st|nd|rd|th|го|е|ого)?$")


def find_date(text):
    """Return (kind, date, fixes) for the first date expression in text, or None."""
    toks = [t.translate(STRIP_ACCENTS) for t in norm(text)]
    toks, fixes = correct(toks)
    n = len(toks)
    for i in range(n):
        # fixed phrases, longest first
        for key, ptoks in sorted(PHRASE_TOKENS.items(), key=lambda kv: -len(kv[1])):
            if toks[i:i + len(ptoks)] == ptoks:
                kind, d = PHRASES[key]
                return kind, d, fixes
        t = toks[i]
        # end of <month>
        if t == "end" and i + 2 < n and toks[i + 1] == "of" and toks[i + 2] in MONTHS:
            m = MONTHS[toks[i + 2]]
            return "day", month_end(day_month(1, m).year, m), fixes
        # in N days / через N дней
        if t in ("in", "через") and i + 2 < n and toks[i + 1].isdigit() and \
                toks[i + 2] in ("days", "day", "дня", "дней", "день"):
            return "day", add_days(int(toks[i + 1])), fixes
        # weekdays
        if t in WEEKDAY:
            if i > 0 and toks[i - 1] in NEXT_WORDS:
                return "day", next_week_weekday(WEEKDAY[t]), fixes
            return "day", plain_weekday(WEEKDAY[t]), fixes
        # dd.mm / dd/mm (day > 12 for the slash form)
        m = re.match(r"^(\d{1,2})[./](\d{1,2})$", t)
        if m:
            d, mo = int(m.group(1)), int(m.group(2))
            if "/" in t and d <= 12:
                continue
            x = day_month(d, mo)
            if x:
                return "day", x, fixes
        # N month / month N
        if t.isdigit() and i + 1 < n and toks[i + 1] in MONTHS:
            x = day_month(int(t), MONTHS[toks[i + 1]])
            if x:
                return "day", x, fixes
        if t in MONTHS and i + 1 < n and ORD.match(toks[i + 1]):
            x = day_month(int(ORD.match(toks[i + 1]).group(1)), MONTHS[t])
            if x:
                return "day", x, fixes
        # the 10th / до 5 числа
        if t == "the" and i + 1 < n and re.match(r"^\d{1,2}(st|nd|rd|th)$", toks[i + 1]):
            return "day", day_of_month(int(re.match(r"^\d+", toks[i + 1]).group())), fixes
        if t.isdigit() and i + 1 < n and toks[i + 1] in ("числа", "число"):
            return "day", day_of_month(int(t)), fixes
    return None


# ---------------------------------------------------------------- loading

def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{no}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{no}: bad JSON: {e}")
    return rows


projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

# projects
pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields: {p}")
    if not re.fullmatch(r"[A-Z]{2,6}", p.get("key", "")) or p.get("key") == "INBOX":
        bad(f"project key: {p}")
    pkeys.add(p["key"])
if len(projects) != 5 or len(pkeys) != 5:
    bad("expected 5 distinct projects")

# tasks: keys per project in creation order
counter = Counter()
task = {}
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task fields: {t}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"unknown project in {t['key']}")
    counter[proj] += 1
    if t["key"] != f"{proj}-{counter[proj]}":
        bad(f"key {t['key']} out of creation order (expected {proj}-{counter[proj]})")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        try:
            d = dt.date.fromisoformat(t["due"])
        except (TypeError, ValueError):
            bad(f"{t['key']}: bad due {t['due']}")
        else:
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"{t['key']}: week due is not a Sunday")
    else:
        bad(f"{t['key']}: bad due_kind")
    if t["key"] in task:
        bad(f"duplicate task key {t['key']}")
    task[t["key"]] = t


def due_of(k):
    return task[k]["due"]


def has_cyr(s):
    return bool(re.search(r"[а-яё]", s.lower()))


# ---------------------------------------------------------------- phrases
seen = set()
by_class_lang = Counter()
by_kind_lang = Counter()
by_tool = Counter()
dates_checked = 0
for no, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{no} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
        continue
    text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if text in seen:
        bad(f"{where}: duplicate text")
    seen.add(text)
    if lang not in ("ru", "en"):
        bad(f"{where}: lang")
    if lang == "ru" and not has_cyr(text):
        bad(f"{where}: ru line without Cyrillic")
    if lang == "en" and has_cyr(text):
        bad(f"{where}: en line with Cyrillic")
    if cls not in CLASSES:
        bad(f"{where}: class {cls}")
        continue
    if CLASSES[cls] != kind:
        bad(f"{where}: kind {kind} does not fit class {cls}")
    tool = e.get("tool")
    if tool not in CLASS_TOOLS[cls]:
        bad(f"{where}: tool {tool} not allowed in class {cls}")
    by_class_lang[(cls, lang)] += 1
    by_kind_lang[(kind, lang)] += 1
    by_tool[tool] += 1
    found = find_date(text)

    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"} or e["id"] not in task:
            bad(f"{where}: bad {tool} {e}")
        if found:
            bad(f"{where}: a close/cancel line holds a date word {found[:2]}")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task:
            bad(f"{where}: bad update {e}")
            continue
        if not found:
            bad(f"{where}: no date found by the reference")
        else:
            kind_ref, d_ref, _ = found
            dates_checked += 1
            if (e["deadline_kind"], e["deadline"]) != (kind_ref, d_ref.isoformat()):
                bad(f"{where}: expect {e['deadline_kind']} {e['deadline']} but reference {kind_ref} {d_ref}")
        t = task[e["id"]]
        if (t["due_kind"], t["due"]) == (e["deadline_kind"], e["deadline"]):
            bad(f"{where}: move to the task's current due")
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(e) <= allowed or not e.get("text"):
            bad(f"{where}: bad create {e}")
            continue
        if "project" in e and e["project"] not in pkeys:
            bad(f"{where}: unknown project {e['project']}")
        if cls == "project_leadin" and "project" not in e:
            bad(f"{where}: project lead-in without project")
        ntext = " ".join(norm(e["text"]))
        if ntext not in " ".join(norm(text)):
            bad(f"{where}: create text is not a part of the phrase")
        if find_date(e["text"]):
            bad(f"{where}: create text still holds a date")
        if e["deadline_kind"] == "none":
            if "deadline" in e:
                bad(f"{where}: kind none with a deadline")
            if found:
                bad(f"{where}: undated create but reference finds {found[:2]}")
        else:
            if not found:
                bad(f"{where}: no date found by the reference")
            else:
                dates_checked += 1
                if (e["deadline_kind"], e.get("deadline")) != (found[0], found[1].isoformat()):
                    bad(f"{where}: expect {e['deadline_kind']} {e.get('deadline')} but reference {found[0]} {found[1]}")
    elif tool == "list_tasks":
        if set(e) - {"tool", "filter", "period"} or e.get("filter") not in LIST_FILTERS:
            bad(f"{where}: bad list {e}")
    elif tool == "clarify":
        opts = e.get("options")
        if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                or len(set(opts)) != len(opts) or any(o not in task for o in opts):
            bad(f"{where}: bad clarify {e}")
            continue
        if found:  # an ambiguous move: the date must differ from every candidate's due
            dates_checked += 1
            for o in opts:
                if due_of(o) == found[1].isoformat():
                    bad(f"{where}: {o} is already due {found[1]}, the tie could be broken")
    elif tool == "none":
        if set(e) != {"tool"}:
            bad(f"{where}: bad none {e}")
    else:
        bad(f"{where}: unknown tool {tool}")

# ---------------------------------------------------------------- report
print(f"TODAY: {TODAY} ({TODAY.strftime('%A')}), local now {NOW_LOCAL.strftime('%Y-%m-%d %H:%M')} "
      f"Australia/Brisbane; UTC date {NOW_UTC.date()}")
print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}, date answers recomputed {dates_checked}")
print("tasks per project:", ", ".join(f"{k} {v}" for k, v in counter.items()))
dues = Counter()
for t in tasks:
    if t["due"] is None:
        dues["undated"] += 1
    elif t["due"] < TODAY.isoformat():
        dues["overdue"] += 1
    elif t["due"] == TODAY.isoformat():
        dues["today"] += 1
    else:
        dues["later"] += 1
    if t["due_kind"] == "week":
        dues["week dues"] += 1
print("dues:", ", ".join(f"{k} {v}" for k, v in dues.items()))


def table(title, rows, counts):
    print(f"\n| {title} | ru | en | total |\n|---|---|---|---|")
    tr = te = 0
    for r in rows:
        a, b = counts[(r, "ru")], counts[(r, "en")]
        tr, te = tr + a, te + b
        print(f"| {r} | {a} | {b} | {a + b} |")
    print(f"| **all** | {tr} | {te} | **{tr + te}** |")


table("class", list(CLASSES), by_class_lang)
table("kind", ["plain", "ambiguous", "unknown"], by_kind_lang)
print("\nby expected tool:", ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))

if len(phrases) < 300:
    bad("fewer than 300 phrases")
for c in CLASSES:
    a, b = by_class_lang[(c, "ru")], by_class_lang[(c, "en")]
    if abs(a - b) > 2:
        bad(f"class {c} unbalanced ru {a} / en {b}")

if problems:
    print(f"\n{len(problems)} PROBLEM(S):")
    for m in problems:
        print("  -", m)
    sys.exit(1)
print("\nOK")
