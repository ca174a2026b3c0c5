#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-60 (stdlib only).

    python3 data/chat-phrases-holdout-60/validate.py

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and keys,
recomputes every date answer with a small reference of the house date rules written
for this set only (not the parser's code), prints the counts and exits 1 on any problem.
"""
import calendar
import collections
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2044, 2, 28, 18, 40, tzinfo=dt.timezone.utc)
ZONE = "Asia/Kathmandu"
ZONE_OFFSET = dt.timedelta(hours=5, minutes=45)  # fixed, no daylight saving

problems = []


def bad(msg):
    problems.append(msg)


def local_now():
    try:  # cross-check with the tz database when the system has one
        from zoneinfo import ZoneInfo
        z = NOW_UTC.astimezone(ZoneInfo(ZONE))
        fixed = (NOW_UTC + ZONE_OFFSET).replace(tzinfo=None)
        if z.replace(tzinfo=None) != fixed:
            bad(f"zoneinfo {z} differs from the fixed +05:45 offset {fixed}")
    except Exception:
        pass
    return (NOW_UTC + ZONE_OFFSET).replace(tzinfo=None)


NOW = local_now()
TODAY = NOW.date()

# ---------------------------------------------------------------- date reference


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months(y, m, n):
    m0 = (m - 1) + n
    return y + m0 // 12, m0 % 12 + 1


def this_sunday(t):
    return t + dt.timedelta(days=6 - t.weekday())


def next_weekday(t, wd):  # strictly after today
    d = (wd - t.weekday()) % 7
    return t + dt.timedelta(days=d or 7)


def weekday_next_week(t, wd):  # that weekday in the next Monday-Sunday week
    monday = t - dt.timedelta(days=t.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def day_month(t, d, m, y=None):
    if y is not None:
        return dt.date(y, m, d)  # ValueError on impossible dates
    try:
        c = dt.date(t.year, m, d)
    except ValueError:
        c = None
    if c is not None and (t - c).days <= 30:
        return c
    return dt.date(t.year + 1, m, d)


def day_of_month(t, d):
    y, m = t.year, t.month
    for _ in range(3):
        c = dt.date(y, m, min(d, calendar.monthrange(y, m)[1]))
        if c >= t:
            return c
        y, m = add_months(y, m, 1)
    raise ValueError


WD_FORMS = {
    0: "monday mon понедельник понедельника понедельнику пн maandag montag lundi lunes segunda",
    1: "tuesday tue tues вторник вторника вторнику вт dinsdag dienstag mardi martes",
    2: "wednesday wed среда среду среды среде ср woensdag mittwoch mercredi miercoles miércoles",
    3: "thursday thu thur thurs четверг четверга четвергу чт donderdag donnerstag jeudi jueves",
    4: "friday fri пятница пятницу пятницы пятнице пт vrijdag freitag vendredi viernes",
    5: "saturday sat суббота субботу субботы субботе сб zaterdag samstag samedi sabado sábado",
    6: "sunday sun воскресенье воскресенья воскресенью вс zondag sonntag dimanche domingo",
}
WD = {w: i for i, s in WD_FORMS.items() for w in s.split()}
SHORT_WD = {w for w in WD if len(w) <= 4}

REL = {
    0: "today eod сегодня hoy hoje simera kyou",
    1: "tomorrow tmrw tmr завтра mañana manana morgen demain amanhã amanha avrio аврио ashita",
    2: "послезавтра overmorgen übermorgen uebermorgen asatte methavrio",
}
RELW = {w: n for n, s in REL.items() for w in s.split()}

RU_MONTHS = "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split()
EN_MONTHS = "january february march april may june july august september october november december".split()
MONTH = {}
for i, w in enumerate(RU_MONTHS):
    MONTH[w] = i + 1
for i, w in enumerate(EN_MONTHS):
    MONTH[w] = i + 1
    MONTH[w[:3]] = i + 1
MONTH["sept"] = 9

# single words that may be read through a one-letter slip (conversation rule)
FUZZY = {}
for w, i in WD.items():
    if w not in SHORT_WD:
        FUZZY[w] = ("wd", i)
for w, n in RELW.items():
    if len(w) >= 5:
        FUZZY[w] = ("rel", n)
for w in ("выходные", "выходных", "weekend"):
    FUZZY[w] = ("weekend", 0)


def osa(a, b):
    """Optimal string alignment distance (one swap counts as one edit)."""
    la, lb = len(a), len(b)
    d = [[0] * (lb + 1) for _ in range(la + 1)]
    for i in range(la + 1):
        d[i][0] = i
    for j in range(lb + 1):
        d[0][j] = j
    for i in range(1, la + 1):
        for j in range(1, lb + 1):
            c = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + c)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[la][lb]


def norm(text):
    t = text.lower().replace("ё", "е")
    t = re.sub(r"[,!?;:()\"«»—–]", " ", t)
    t = re.sub(r"(?<![\d])\.(?![\d])", " ", t)
    return t.split()


def fuzzy(tok):
    if len(tok) < 5 or tok in FUZZY:
        return None
    hits = {v for w, v in FUZZY.items() if abs(len(w) - len(tok)) <= 1 and osa(w, tok) == 1}
    return hits.pop() if len(hits) == 1 else None


def resolve(text, t=TODAY):
    """Returns a list of (kind, date) read from the text by the house rules."""
    toks = norm(text)
    out = []
    i = 0
    n = len(toks)

    def tk(j):
        return toks[j] if 0 <= j < n else ""

    while i < n:
        a, b, c = tk(i), tk(i + 1), tk(i + 2)
        two, three = f"{a} {b}", f"{a} {b} {c}"
        # multi-word phrases first
        if three in ("day after tomorrow", "depois de amanhã", "depois de amanha") or two in ("pasado mañana", "pasado manana", "après-demain"):
            out.append(("day", t + dt.timedelta(days=2)))
            i += 3 if three.startswith(("day", "depois")) else 2
            continue
        if three in ("end of month", "end of the") and (three == "end of month" or tk(i + 3) == "month"):
            out.append(("day", last_day(t.year, t.month)))
            i += 3 if three == "end of month" else 4
            continue
        if three == "end of the" and tk(i + 3) == "week" or three == "end of week":
            out.append(("week", this_sunday(t)))
            i += 4 if three == "end of the" else 3
            continue
        if three in ("end of year",) or (three == "end of the" and tk(i + 3) == "year"):
            out.append(("day", dt.date(t.year, 12, 31)))
            i += 3
            continue
        if two in ("конца месяца", "концу месяца"):
            out.append(("day", last_day(t.year, t.month)))
            i += 2
            continue
        if two in ("конца года", "концу года"):
            out.append(("day", dt.date(t.year, 12, 31)))
            i += 2
            continue
        if two in ("конца недели", "концу недели", "этой неделе", "this week"):
            out.append(("week", this_sunday(t)))
            i += 2
            continue
        if two in ("next week", "следующей неделе", "следующую неделю", "volgende week", "nächste woche",
                   "naechste woche", "próxima semana", "proxima semana", "semaine prochaine") or a == "raishuu":
            out.append(("week", this_sunday(t) + dt.timedelta(days=7)))
            i += 1 if a == "raishuu" else 2
            continue
        if two in ("next month", "следующем месяце", "следующий месяц"):
            y, m = add_months(t.year, t.month, 1)
            out.append(("day", last_day(y, m)))
            i += 2
            continue
        if a in ("next", "следующий", "следующую", "следующее", "следующей", "следующего") and (b in WD or fuzzy(b) and fuzzy(b)[0] == "wd"):
            wd = WD[b] if b in WD else fuzzy(b)[1]
            out.append(("day", weekday_next_week(t, wd)))
            i += 2
            continue
        if two in ("in a week", "через неделю") or three == "in a week":
            out.append(("day", t + dt.timedelta(days=7)))
            i += 3 if a == "in" else 2
            continue
        if three in ("in a fortnight",) or two == "a fortnight":
            out.append(("day", t + dt.timedelta(days=14)))
            i += 3
            continue
        if a in ("in", "через") and re.fullmatch(r"\d+", b) and c in ("days", "day", "дня", "дней", "день"):
            out.append(("day", t + dt.timedelta(days=int(b))))
            i += 3
            continue
        if a in ("in", "через") and re.fullmatch(r"\d+", b) and c in ("weeks", "week", "недели", "недель", "неделю"):
            out.append(("day", t + dt.timedelta(days=7 * int(b))))
            i += 3
            continue
        # day + month name / month name + day
        m1 = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)?", a)
        if m1 and b in MONTH:
            out.append(("day", day_month(t, int(m1.group(1)), MONTH[b])))
            i += 2
            continue
        m2 = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)?", b)
        if a in MONTH and m2 and a not in ("may", "mar") or (a in ("may", "mar") and m2):
            if m2:
                out.append(("day", day_month(t, int(m2.group(1)), MONTH[a])))
                i += 2
                continue
        # numeric dates
        m3 = re.fullmatch(r"(\d{4})[-/](\d{2})[-/](\d{2})", a)
        if m3:
            out.append(("day", dt.date(int(m3.group(1)), int(m3.group(2)), int(m3.group(3)))))
            i += 1
            continue
        m4 = re.fullmatch(r"(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?", a)
        if m4:
            y = int(m4.group(3)) if m4.group(3) else None
            out.append(("day", day_month(t, int(m4.group(1)), int(m4.group(2)), y)))
            i += 1
            continue
        m5 = re.fullmatch(r"(\d{1,2})/(\d{1,2})", a)
        if m5:
            d, m = int(m5.group(1)), int(m5.group(2))
            if d <= 12:
                raise ValueError(f"dd/mm with day <= 12 is an error: {a}")
            out.append(("day", day_month(t, d, m)))
            i += 1
            continue
        # day of month alone
        if re.fullmatch(r"\d{1,2}", a) and b == "числа":
            out.append(("day", day_of_month(t, int(a))))
            i += 2
            continue
        m6 = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)", a)
        if m6:
            out.append(("day", day_of_month(t, int(m6.group(1)))))
            i += 1
            continue
        # single words
        if a in ("this",) and b in WD:
            out.append(("day", next_weekday(t, WD[b])))
            i += 2
            continue
        if a in WD:
            out.append(("day", next_weekday(t, WD[a])))
            i += 1
            continue
        if a in RELW:
            out.append(("day", t + dt.timedelta(days=RELW[a])))
            i += 1
            continue
        if a in ("weekend", "выходные", "выходных", "выходным"):
            out.append(("day", t + dt.timedelta(days=(5 - t.weekday()) % 7)))
            i += 1
            continue
        f = fuzzy(a)
        if f:
            kind, v = f
            if kind == "wd":
                out.append(("day", next_weekday(t, v)))
            elif kind == "rel":
                out.append(("day", t + dt.timedelta(days=v)))
            else:
                out.append(("day", t + dt.timedelta(days=(5 - t.weekday()) % 7)))
            i += 1
            continue
        i += 1
    return out


# ---------------------------------------------------------------- loading


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
                bad(f"{name}:{n}: bad json: {e}")
    return rows


projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

# projects
pkeys = []
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields {sorted(p)}")
        continue
    if not re.fullmatch(r"[A-Z][A-Z0-9]{1,9}", p["key"]) or p["key"] == "INBOX":
        bad(f"project key {p['key']!r}")
    if not p["name"].strip() or len(p["description"]) < 20:
        bad(f"project {p['key']}: empty name or short description")
    pkeys.append(p["key"])
if len(projects) != 5 or len(set(pkeys)) != 5:
    bad(f"expected 5 distinct projects, got {pkeys}")

# tasks
TASK = {}
counter = collections.Counter()
for n, t in enumerate(tasks, 1):
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task {n} fields {sorted(t)}")
        continue
    proj = t["project"]
    if proj not in pkeys and proj != "INBOX":
        bad(f"task {t['key']}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        bad(f"task {n}: key {t['key']} but creation order gives {want}")
    if t["key"] in TASK:
        bad(f"duplicate task key {t['key']}")
    if t["due_kind"] not in ("day", "week", "none"):
        bad(f"{t['key']}: due_kind {t['due_kind']}")
    if (t["due"] is None) != (t["due_kind"] == "none"):
        bad(f"{t['key']}: due {t['due']} with kind {t['due_kind']}")
    if t["due"] is not None:
        try:
            d = dt.date.fromisoformat(t["due"])
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"{t['key']}: week due {d} is not a Sunday")
        except ValueError:
            bad(f"{t['key']}: bad due {t['due']}")
    if not t["title"].strip():
        bad(f"{t['key']}: empty title")
    TASK[t["key"]] = t

titles = [t["title"].lower() for t in tasks]
if len(set(titles)) != len(titles):
    bad("duplicate task titles")

# ---------------------------------------------------------------- phrases

CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
    "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
    "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown",
}
CYR = re.compile(r"[а-яё]", re.I)


def due_of(key):
    t = TASK[key]
    return (t["due_kind"], t["due"])


def words(s):
    return set(re.findall(r"[\w'-]+", s.lower().replace("ё", "е")))


seen = set()
by_class = collections.Counter()
by_kind = collections.Counter()
by_tool = collections.Counter()
by_filter = collections.Counter()
for n, p in enumerate(phrases, 1):
    where = f"phrases:{n} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
        continue
    text, lang, kind, exp, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if text in seen:
        bad(f"{where}: duplicate text")
    seen.add(text)
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if lang == "ru" and not CYR.search(text):
        bad(f"{where}: ru line without Cyrillic")
    if lang == "en" and CYR.search(text):
        bad(f"{where}: en line with Cyrillic")
    if cls not in CLASSES:
        bad(f"{where}: class {cls}")
        continue
    if CLASSES[cls] != kind:
        bad(f"{where}: kind {kind} but class {cls} needs {CLASSES[cls]}")
    by_class[(cls, lang)] += 1
    by_kind[(kind, lang)] += 1
    tool = exp.get("tool")
    by_tool[tool] += 1
    try:
        found = resolve(text)
    except ValueError as e:
        bad(f"{where}: date reference error {e}")
        found = []
    got = found[0] if found else None

    if kind == "unknown":
        if exp != {"tool": "none"}:
            bad(f"{where}: unknown kind must expect none")
        continue
    if len(set(found)) > 1:
        bad(f"{where}: several date expressions read: {found}")
    if kind == "ambiguous":
        if tool != "clarify":
            bad(f"{where}: ambiguous kind must expect clarify")
    elif tool in ("clarify", "none"):
        bad(f"{where}: plain kind cannot expect {tool}")

    if tool in ("close_task", "cancel_task"):
        if set(exp) != {"tool", "id"} or exp["id"] not in TASK:
            bad(f"{where}: bad {tool} {exp}")
        if got:
            bad(f"{where}: a close/cancel phrase holds a date {got}")
    elif tool == "update_task":
        if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in TASK:
            bad(f"{where}: bad update {exp}")
            continue
        if exp["deadline_kind"] not in ("day", "week"):
            bad(f"{where}: update kind {exp['deadline_kind']}")
        if got is None:
            bad(f"{where}: reference reads no date")
        elif (got[0], got[1].isoformat()) != (exp["deadline_kind"], exp["deadline"]):
            bad(f"{where}: expects {exp['deadline_kind']} {exp['deadline']}, reference gives {got[0]} {got[1]}")
        if due_of(exp["id"]) == (exp["deadline_kind"], exp["deadline"]):
            bad(f"{where}: move to the task's current due (a no-op)")
    elif tool == "create_task":
        keys = set(exp) - {"tool", "text", "deadline_kind", "deadline", "project"}
        if keys or not exp.get("text", "").strip():
            bad(f"{where}: bad create {exp}")
            continue
        if exp.get("project") is not None and exp["project"] not in pkeys:
            bad(f"{where}: create into unknown project {exp['project']}")
        if cls == "project_leadin" and "project" not in exp:
            bad(f"{where}: project_leadin create without project")
        missing = words(exp["text"]) - words(text)
        if missing:
            bad(f"{where}: create text words not in the phrase: {missing}")
        if resolve(exp["text"]):
            bad(f"{where}: create text still holds a date word")
        dk = exp.get("deadline_kind")
        if dk == "none":
            if "deadline" in exp:
                bad(f"{where}: kind none with a deadline")
            if got:
                bad(f"{where}: expects no deadline, reference reads {got}")
        elif dk in ("day", "week"):
            if got is None or (got[0], got[1].isoformat()) != (dk, exp.get("deadline")):
                bad(f"{where}: expects {dk} {exp.get('deadline')}, reference gives {got}")
        else:
            bad(f"{where}: create deadline_kind {dk}")
    elif tool == "list_tasks":
        if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in ("today", "inbox", "overdue", "done", "all_by_project"):
            bad(f"{where}: bad list {exp}")
        by_filter[exp.get("filter")] += 1
    elif tool == "clarify":
        opts = exp.get("options", [])
        if set(exp) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: bad clarify {exp}")
        for k in opts:
            if k not in TASK:
                bad(f"{where}: clarify option {k} does not exist")
        if got:  # an ambiguous move: the date must not break the tie
            for k in opts:
                if k in TASK and due_of(k) == (got[0], got[1].isoformat()):
                    bad(f"{where}: move date {got[1]} equals the due of option {k}")
    else:
        bad(f"{where}: unknown tool {tool}")

if len(phrases) < 300:
    bad(f"only {len(phrases)} phrases")
for cls in CLASSES:
    ru, en = by_class[(cls, "ru")], by_class[(cls, "en")]
    if abs(ru - en) > 2:
        bad(f"class {cls} unbalanced: ru {ru} en {en}")

# ---------------------------------------------------------------- report


def table(title, rows, counter):
    print(f"\n| {title} | ru | en | total |\n|---|---|---|---|")
    tr = te = 0
    for r in rows:
        a, b = counter[(r, "ru")], counter[(r, "en")]
        tr += a
        te += b
        print(f"| {r} | {a} | {b} | {a + b} |")
    print(f"| **all** | {tr} | {te} | **{tr + te}** |")


print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local now {NOW:%Y-%m-%d %H:%M} {ZONE}; UTC {NOW_UTC:%Y-%m-%d %H:%M}")
print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
print("tasks per project:", ", ".join(f"{k} {v}" for k, v in counter.items()))
over = sorted(k for k, t in TASK.items() if t["due"] and dt.date.fromisoformat(t["due"]) < TODAY)
tod = sorted(k for k, t in TASK.items() if t["due"] == TODAY.isoformat())
wk = sorted(k for k, t in TASK.items() if t["due_kind"] == "week")
und = sorted(k for k, t in TASK.items() if t["due_kind"] == "none")
print(f"overdue {len(over)}: {' '.join(over)}")
print(f"due today {len(tod)}: {' '.join(tod)}")
print(f"week dues {len(wk)}: {' '.join(wk)}")
print(f"undated {len(und)}; later {len(tasks) - len(over) - len(tod) - len(und) - len([k for k in wk if k not in over and k not in tod])}")
table("class", list(CLASSES), by_class)
table("kind", ["plain", "ambiguous", "unknown"], by_kind)
print("\nby tool:", ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
print("list filters:", ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))

if "--rules" in sys.argv:
    samples = ["сегодня", "завтра", "tmrw", "вчера? (not a due)", "послезавтра", "overmorgen", "в пятницу", "friday",
               "on monday", "в воскресенье", "next friday", "в следующий вторник", "this week", "до конца недели",
               "next week", "volgende week", "weekend", "на выходных", "end of month", "в следующем месяце",
               "end of year", "через 3 дня", "через неделю", "in 2 weeks", "in a fortnight", "до 5 числа", "до 29 числа",
               "до 28 числа", "до 30 числа", "on the 31st", "1 марта", "15.03", "29.02", "28 feb", "5 февраля",
               "20 января", "mañana", "vrijdag", "fryday", "в пятнидцу"]
    print("\n| words | kind | date |\n|---|---|---|")
    for s in samples:
        r = resolve(s)
        if r:
            print(f"| {s} | {r[0][0]} | {r[0][1]} ({r[0][1]:%a}) |")

if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems:
        print("  -", p)
    sys.exit(1)
print("\nOK")
