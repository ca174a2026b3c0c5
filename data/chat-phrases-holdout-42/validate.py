#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-42 (stdlib only).

Checks the JSON shapes, that every referenced key exists, that the keys are
reproduced by loading tasks.jsonl in file order, class/kind consistency, counts per
class and language, and recomputes every expected date from the phrase text with a
small reference of the house date rules written for this set only.

TODAY: 2039-07-31T21:20:00Z, zone Europe/Madrid (CEST, UTC+2) -> local Sunday
2039-07-31 23:20. Every relative date below is taken from the LOCAL date.

Prints counts; exits 1 on any problem.
"""
import calendar
import collections
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2039, 7, 31, 21, 20, tzinfo=dt.timezone.utc)
LOCAL_OFFSET = dt.timedelta(hours=2)  # Europe/Madrid in summer (CEST)
TODAY = (NOW_UTC + LOCAL_OFFSET).date()
assert TODAY == dt.date(2039, 7, 31) and TODAY.weekday() == 6, "TODAY must be Sunday 2039-07-31"

problems = []


def problem(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                problem(f"{name}:{i}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                problem(f"{name}:{i}: bad JSON: {e}")
    return rows


# --------------------------------------------------------------------------
# House date rules — an independent reference for this set only
# --------------------------------------------------------------------------

def iso(d):
    return d.isoformat()


def add_days(n):
    return TODAY + dt.timedelta(days=n)


def next_weekday(wd):
    """The next such weekday strictly after today."""
    delta = (wd - TODAY.weekday()) % 7
    return add_days(delta or 7)


def next_week_weekday(wd):
    """That weekday in the next Monday-Sunday week."""
    monday_next = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday_next + dt.timedelta(days=wd)


def this_sunday():
    return TODAY + dt.timedelta(days=(6 - TODAY.weekday()))


def next_sunday():
    return this_sunday() + dt.timedelta(days=7)


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def next_month_end():
    y, m = (TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)
    return month_end(y, m)


def coming_saturday():
    delta = (5 - TODAY.weekday()) % 7
    return add_days(delta)


def day_of_month(n):
    """The next such day of month on or after today; a month without it -> its last day."""
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        last = calendar.monthrange(y, m)[1]
        d = dt.date(y, m, min(n, last))
        if d >= TODAY:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    raise ValueError(n)


def day_month(d, m):
    """Day + month without a year: this year's unless more than 30 days past."""
    cand = dt.date(TODAY.year, m, d)
    if (TODAY - cand).days > 30:
        cand = dt.date(TODAY.year + 1, m, d)
    return cand


WEEKDAYS = {
    0: ["понедельник", "понедельника", "понедельнику", "monday", "lunes"],
    1: ["вторник", "вторника", "вторнику", "tuesday", "martes"],
    2: ["среда", "среду", "среды", "среде", "wednesday", "miercoles", "miércoles"],
    3: ["четверг", "четверга", "четвергу", "thursday", "jueves"],
    4: ["пятница", "пятницу", "пятницы", "пятнице", "friday", "viernes"],
    5: ["суббота", "субботу", "субботы", "субботе", "saturday", "sabado", "sábado"],
    6: ["воскресенье", "воскресенья", "воскресенью", "sunday", "domingo"],
}
MONTHS = {
    1: ["января", "january", "jan"], 2: ["февраля", "february", "feb"],
    3: ["марта", "march", "mar"], 4: ["апреля", "april", "apr"],
    5: ["мая", "may"], 6: ["июня", "june", "jun"], 7: ["июля", "july", "jul"],
    8: ["августа", "august", "aug"], 9: ["сентября", "september", "sep", "sept"],
    10: ["октября", "october", "oct"], 11: ["ноября", "november", "nov"],
    12: ["декабря", "december", "dec"],
}
CONCEPTS = {
    "today": ["сегодня", "today", "hoy", "eod", "tonight"],
    "tomorrow": ["завтра", "tomorrow", "tmrw", "tmr", "mañana", "manana"],
    "dat": ["послезавтра"],
    "week": ["неделя", "неделе", "неделю", "недели", "недель", "week", "weeks", "semana"],
    "month": ["месяц", "месяца", "месяце", "месяцу", "month", "mes"],
    "year": ["год", "года", "году", "year"],
    "weekend": ["выходные", "выходных", "выходным", "weekend", "finde"],
    "next": ["следующей", "следующую", "следующий", "следующем", "следующая", "next",
             "próxima", "proxima"],
    "this": ["этой", "эту", "этом", "этот", "этого", "this", "esta"],
    "end": ["конец", "конца", "концу", "end"],
    "day": ["день", "дня", "дней", "day", "days"],
    "in": ["через", "in"],
    "after": ["after"],
    "pasado": ["pasado"],
    "chisla": ["числа", "число", "числу"],
}
NUMWORDS = {"один": 1, "одну": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5,
            "шесть": 6, "семь": 7, "десять": 10, "a": 1, "an": 1, "one": 1, "two": 2,
            "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}

LEX = {}
for wd, forms in WEEKDAYS.items():
    for w in forms:
        LEX[w] = ("wd", wd)
for m, forms in MONTHS.items():
    for w in forms:
        LEX[w] = ("mon", m)
for c, forms in CONCEPTS.items():
    for w in forms:
        LEX[w] = (c, None)


def damerau1(a, b):
    """True when a and b are exactly one edit apart (insert, delete, substitute, swap)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    s, l = (a, b) if len(a) < len(b) else (b, a)
    for i in range(len(l)):
        if l[:i] + l[i + 1:] == s:
            return True
    return False


def concept_of(tok):
    """Exact lexicon hit, or a one-letter slip of exactly one date concept (len >= 5)."""
    if tok in LEX:
        return LEX[tok]
    if len(tok) < 5 or not re.fullmatch(r"[a-zа-яñáéíóú]+", tok):
        return None
    # month names are left out: a lone month is no date, and «Марта» is also a name
    hits = {LEX[w] for w in LEX
            if len(w) >= 5 and LEX[w][0] != "mon" and damerau1(tok, w)}
    # forms of one weekday / one concept count as one
    if len(hits) == 1:
        return hits.pop()
    return None


def tokenize(text):
    t = text.lower().replace("ё", "е")
    t = re.sub(r"[,;:!?()«»\"']", " ", t)
    return t.split()


def find_dates(text):
    """All (kind, date) readings found in text; each as a tuple (kind, 'YYYY-MM-DD')."""
    out = []
    low = text.lower()
    # ISO and numeric forms
    for m in re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})\b", low):
        out.append(("day", iso(dt.date(int(m[1]), int(m[2]), int(m[3])))))
    for m in re.finditer(r"(?<![\w.])(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?(?![\w.])", low):
        d, mo = int(m[1]), int(m[2])
        out.append(("day", iso(dt.date(int(m[3]), mo, d) if m[3] else day_month(d, mo))))
    for m in re.finditer(r"(?<![\w/])(\d{1,2})/(\d{1,2})(?![\w/])", low):
        d, mo = int(m[1]), int(m[2])
        if d > 12:
            out.append(("day", iso(day_month(d, mo))))
    toks = tokenize(text)
    cons = [concept_of(t) for t in toks]
    n = len(toks)

    def c(i):
        return cons[i][0] if 0 <= i < n and cons[i] else None

    def num(i):
        if not 0 <= i < n:
            return None
        if toks[i].isdigit():
            return int(toks[i])
        return NUMWORDS.get(toks[i])

    used = set()
    for i in range(n):
        if i in used:
            continue
        k = c(i)
        tok = toks[i]
        # day + month name, month name + day
        if k == "mon":
            mo = cons[i][1]
            if i > 0 and re.fullmatch(r"\d{1,2}", toks[i - 1]):
                out.append(("day", iso(day_month(int(toks[i - 1]), mo))))
                used.add(i)
                continue
            if i + 1 < n and re.fullmatch(r"\d{1,2}(st|nd|rd|th)?", toks[i + 1]):
                out.append(("day", iso(day_month(int(re.match(r"\d+", toks[i + 1])[0]), mo))))
                used.add(i + 1)
                continue
            continue  # a month name alone is not a date ("за август", "в сентябре")
        # day of month alone
        m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th|-?го|-?му|-?е)", tok)
        if m and not (i + 1 < n and c(i + 1) == "mon"):
            out.append(("day", iso(day_of_month(int(m[1])))))
            continue
        if re.fullmatch(r"\d{1,2}", tok) and c(i + 1) == "chisla":
            out.append(("day", iso(day_of_month(int(tok)))))
            continue
        # in N days / weeks, через N дней / недель
        if k == "in":
            q = num(i + 1)
            if q is not None and c(i + 2) == "day":
                out.append(("day", iso(add_days(q))))
                used.update({i + 1, i + 2})
                continue
            if q is not None and c(i + 2) == "week":
                out.append(("day", iso(add_days(7 * q))))
                used.update({i + 1, i + 2})
                continue
            if c(i + 1) == "week" and toks[i] == "через":
                out.append(("day", iso(add_days(7))))
                used.add(i + 1)
                continue
            continue
        if k == "dat":
            out.append(("day", iso(add_days(2))))
            continue
        if k == "tomorrow":
            if i >= 2 and toks[i - 2] == "day" and toks[i - 1] == "after":
                out.append(("day", iso(add_days(2))))
            elif i >= 1 and c(i - 1) == "pasado":
                out.append(("day", iso(add_days(2))))
            else:
                out.append(("day", iso(add_days(1))))
            continue
        if k == "today":
            out.append(("day", iso(TODAY)))
            continue
        if k == "weekend":
            out.append(("day", iso(coming_saturday())))
            continue
        if k == "wd":
            wd = cons[i][1]
            if c(i - 1) == "next":
                out.append(("day", iso(next_week_weekday(wd))))
            else:  # plain or "this <weekday>"
                out.append(("day", iso(next_weekday(wd))))
            continue
        if k == "week" and i not in used:
            prev = [c(j) for j in range(max(0, i - 2), i)]
            if "next" in prev or c(i + 1) == "next":
                out.append(("week", iso(next_sunday())))
            elif "end" in prev or "this" in prev:
                out.append(("week", iso(this_sunday())))
            continue
        if k == "month":
            prev = [c(j) for j in range(max(0, i - 2), i)]
            if "next" in prev:
                out.append(("day", iso(next_month_end())))
            elif "end" in prev or "this" in prev:
                out.append(("day", iso(month_end(TODAY.year, TODAY.month))))
            continue
        if k == "year":
            prev = [c(j) for j in range(max(0, i - 2), i)]
            if "end" in prev:
                out.append(("day", iso(dt.date(TODAY.year, 12, 31))))
            continue
    return out


def the_date(text):
    found = sorted(set(find_dates(text)))
    if len(found) > 1:
        return ("conflict", found)
    return found[0] if found else None


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

# projects
pkeys = []
for i, p in enumerate(projects, 1):
    if set(p) != {"key", "name", "description"}:
        problem(f"projects.jsonl:{i}: fields {sorted(p)}")
        continue
    if not re.fullmatch(r"[A-Z][A-Z0-9]*", p["key"]) or p["key"] == "INBOX":
        problem(f"projects.jsonl:{i}: bad key {p['key']}")
    if not p["name"].strip() or not p["description"].strip():
        problem(f"projects.jsonl:{i}: empty name/description")
    pkeys.append(p["key"])
if len(pkeys) != 5 or len(set(pkeys)) != 5:
    problem(f"expected 5 distinct projects, got {pkeys}")
allowed_projects = set(pkeys) | {"INBOX"}

# tasks: keys reproduced by creation order
counter = collections.Counter()
task = {}
for i, t in enumerate(tasks, 1):
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        problem(f"tasks.jsonl:{i}: fields {sorted(t)}")
        continue
    if t["project"] not in allowed_projects:
        problem(f"tasks.jsonl:{i}: unknown project {t['project']}")
    counter[t["project"]] += 1
    want = f"{t['project']}-{counter[t['project']]}"
    if t["key"] != want:
        problem(f"tasks.jsonl:{i}: key {t['key']} but creation order gives {want}")
    if t["due_kind"] not in ("none", "day", "week"):
        problem(f"tasks.jsonl:{i}: due_kind {t['due_kind']}")
    if (t["due"] is None) != (t["due_kind"] == "none"):
        problem(f"tasks.jsonl:{i}: due/due_kind mismatch")
    if t["due"] is not None:
        try:
            d = dt.date.fromisoformat(t["due"])
        except ValueError:
            problem(f"tasks.jsonl:{i}: bad due {t['due']}")
            d = None
        if d and t["due_kind"] == "week" and d.weekday() != 6:
            problem(f"tasks.jsonl:{i}: week due {t['due']} is not a Sunday")
    if not t["title"].strip():
        problem(f"tasks.jsonl:{i}: empty title")
    task[t["key"]] = t
if not 55 <= len(tasks) <= 65:
    problem(f"{len(tasks)} tasks, want 55-65")


def due_bucket(t):
    if t["due"] is None:
        return "undated"
    d = dt.date.fromisoformat(t["due"])
    if d < TODAY:
        return "overdue"
    if d == TODAY:
        return "today/this-week" if t["due_kind"] == "week" else "today"
    return "week-later" if t["due_kind"] == "week" else "later"


buckets = collections.Counter(due_bucket(t) for t in tasks)

# phrases
CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain",
              "explicit_form": "plain", "deadline_not_close": "plain",
              "project_leadin": "plain", "offtopic": "unknown", "plain_other": "plain",
              "ambiguous": "ambiguous", "unknown_other": "unknown"}
CLASS_TARGET = {"typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28,
                "deadline_not_close": 26, "project_leadin": 24, "offtopic": 22,
                "plain_other": 54, "ambiguous": 52, "unknown_other": 24}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
KEY_RE = re.compile(r"\b([A-Za-z]+)[- ](\d+)\b")

by_class = collections.Counter()
by_class_lang = collections.Counter()
by_kind_lang = collections.Counter()
by_tool = collections.Counter()
by_filter = collections.Counter()
dates_checked = collections.Counter()
texts = collections.Counter()

for i, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{i} ({p.get('text')!r})"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        problem(f"{where}: fields {sorted(p)}")
        continue
    text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    texts[text.lower()] += 1
    if lang not in ("ru", "en"):
        problem(f"{where}: lang {lang}")
    if cls not in CLASS_KIND:
        problem(f"{where}: class {cls}")
        continue
    if kind != CLASS_KIND[cls]:
        problem(f"{where}: class {cls} needs kind {CLASS_KIND[cls]}, got {kind}")
    if text != text.strip() or not text:
        problem(f"{where}: untrimmed/empty text")
    if re.search(r"[.,!?;]", text):
        problem(f"{where}: punctuation in a messenger phrase")
    by_class[cls] += 1
    by_class_lang[(cls, lang)] += 1
    by_kind_lang[(kind, lang)] += 1
    tool = e.get("tool")
    by_tool[tool] += 1

    # kind <-> tool
    if kind == "ambiguous" and tool != "clarify":
        problem(f"{where}: ambiguous must expect clarify")
    if kind == "unknown" and tool != "none":
        problem(f"{where}: unknown must expect none")
    if kind == "plain" and tool in ("clarify", "none"):
        problem(f"{where}: plain must expect one clear action")

    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"}:
            problem(f"{where}: fields {sorted(e)}")
        elif e["id"] not in task:
            problem(f"{where}: unknown key {e['id']}")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"}:
            problem(f"{where}: fields {sorted(e)}")
            continue
        if e["id"] not in task:
            problem(f"{where}: unknown key {e['id']}")
            continue
        got = the_date(text)
        want = (e["deadline_kind"], e["deadline"])
        if got != want:
            problem(f"{where}: date reference reads {got}, expected {want}")
        t = task[e["id"]]
        if (t["due_kind"], t["due"]) == want:
            problem(f"{where}: update to the task's current due {want} (a no-op)")
        dates_checked["update"] += 1
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(e) <= allowed or not {"tool", "text", "deadline_kind"} <= set(e):
            problem(f"{where}: fields {sorted(e)}")
            continue
        if "project" in e and e["project"] not in allowed_projects:
            problem(f"{where}: unknown project {e['project']}")
        if cls == "project_leadin" and "project" not in e:
            problem(f"{where}: project lead-in without an expected project")
        norm = lambda s: " ".join(s.lower().replace("ё", "е").split())
        if norm(e["text"]) not in norm(text):
            problem(f"{where}: create text {e['text']!r} is not a span of the phrase")
        got = the_date(text)
        if e["deadline_kind"] == "none":
            if "deadline" in e:
                problem(f"{where}: deadline with kind none")
            if got is not None:
                problem(f"{where}: date reference reads {got} but the create has none")
            dates_checked["create-undated"] += 1
        else:
            want = (e["deadline_kind"], e.get("deadline"))
            if got != want:
                problem(f"{where}: date reference reads {got}, expected {want}")
            if the_date(e["text"]) is not None:
                problem(f"{where}: create text still holds a date phrase")
            dates_checked["create-dated"] += 1
    elif tool == "list_tasks":
        if set(e) != {"tool", "filter"} or e["filter"] not in FILTERS:
            problem(f"{where}: bad list_tasks {e}")
        else:
            by_filter[e["filter"]] += 1
    elif tool == "clarify":
        opts = e.get("options")
        if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
            problem(f"{where}: clarify needs 2+ options")
            continue
        if len(set(opts)) != len(opts):
            problem(f"{where}: repeated option")
        for k in opts:
            if k not in task:
                problem(f"{where}: unknown key {k}")
        got = the_date(text)
        if got is not None:
            if got[0] == "conflict":
                problem(f"{where}: date conflict {got}")
            else:
                for k in opts:
                    t = task.get(k)
                    if t and t["due"] == got[1]:
                        problem(f"{where}: move date {got} equals {k}'s due, a tie-breaker")
                dates_checked["ambiguous-move"] += 1
    elif tool == "none":
        if set(e) != {"tool"}:
            problem(f"{where}: fields {sorted(e)}")
    else:
        problem(f"{where}: unknown tool {tool}")

    # explicit keys written in the text
    for m in KEY_RE.finditer(text):
        pk = m[1].upper()
        if pk not in allowed_projects:
            continue
        key = f"{pk}-{m[2]}"
        if tool in ("close_task", "cancel_task", "update_task"):
            if key != e.get("id"):
                problem(f"{where}: text names {key} but expect targets {e.get('id')}")
        elif tool == "none":
            if key in task:
                problem(f"{where}: names existing {key} but expects none")
        else:
            problem(f"{where}: names {key} with tool {tool}")

for t, n in texts.items():
    if n > 1:
        problem(f"phrase repeated {n} times: {t!r}")

for cls, want in CLASS_TARGET.items():
    if abs(by_class[cls] - want) > max(2, want // 10):
        problem(f"class {cls}: {by_class[cls]} phrases, aim {want}")
if len(phrases) < 300:
    problem(f"only {len(phrases)} phrases, want 300+")
ru = sum(v for (k, l), v in by_kind_lang.items() if l == "ru")
en = sum(v for (k, l), v in by_kind_lang.items() if l == "en")
if abs(ru - en) > 0.1 * len(phrases):
    problem(f"languages unbalanced: ru {ru} / en {en}")

# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------
print(f"TODAY local {TODAY} ({TODAY.strftime('%A')}) 23:20 Europe/Madrid; "
      f"tomorrow {add_days(1)}, friday {next_weekday(4)}, next friday {next_week_weekday(4)}, "
      f"this week {this_sunday()}, next week {next_sunday()}, "
      f"end of month {month_end(TODAY.year, TODAY.month)}, next month {next_month_end()}, "
      f"weekend {coming_saturday()}")
print(f"projects {len(projects)}, tasks {len(tasks)}: " +
      ", ".join(f"{k} {counter[k]}" for k in pkeys + ['INBOX']))
print("task dues: " + ", ".join(f"{k} {v}" for k, v in sorted(buckets.items())))
print()
print(f"{'class':<20} {'kind':<10} {'ru':>4} {'en':>4} {'total':>6}")
for cls in CLASS_TARGET:
    print(f"{cls:<20} {CLASS_KIND[cls]:<10} {by_class_lang[(cls, 'ru')]:>4} "
          f"{by_class_lang[(cls, 'en')]:>4} {by_class[cls]:>6}")
print(f"{'all':<20} {'':<10} {ru:>4} {en:>4} {len(phrases):>6}")
print()
for kind in ("plain", "ambiguous", "unknown"):
    r, n_ = by_kind_lang[(kind, 'ru')], by_kind_lang[(kind, 'en')]
    print(f"kind {kind:<10} ru {r:>4} en {n_:>4} total {r + n_:>4}")
print()
print("tools: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
print("dates recomputed: " + ", ".join(f"{k} {v}" for k, v in sorted(dates_checked.items())))
print()
if problems:
    for p in problems:
        print("PROBLEM:", p)
    print(f"{len(problems)} problem(s)")
    sys.exit(1)
print("OK")
