#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-34 (stdlib only).

Checks JSON shapes, keys, creation order, class/kind consistency, counts, and
recomputes every expected date from the phrase text with a small reference of the
house date rules written for this set only. Prints counts; exits 1 on any problem.

    python3 validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2038, 3, 27, 23, 40)  # 2038-03-27T23:40:00Z
ZONE = "Europe/Berlin"

problems = []


def bad(msg):
    problems.append(msg)


# ---------------------------------------------------------------- local "now"
def last_sunday(year, month):
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    d = nxt - dt.timedelta(days=1)
    return d - dt.timedelta(days=(d.weekday() - 6) % 7)


def berlin_local(utc):
    """EU rule: CEST (UTC+2) from 01:00 UTC on the last Sunday of March to
    01:00 UTC on the last Sunday of October, else CET (UTC+1)."""
    y = utc.year
    start = dt.datetime.combine(last_sunday(y, 3), dt.time(1, 0))
    end = dt.datetime.combine(last_sunday(y, 10), dt.time(1, 0))
    off = 2 if start <= utc < end else 1
    return utc + dt.timedelta(hours=off), off


NOW_LOCAL, OFFSET = berlin_local(NOW_UTC)
TODAY = NOW_LOCAL.date()
if (TODAY, NOW_LOCAL.time(), OFFSET) != (dt.date(2038, 3, 28), dt.time(0, 40), 1):
    bad(f"local now is {NOW_LOCAL} (+{OFFSET}), expected 2038-03-28 00:40 CET")
if TODAY.weekday() != 6:
    bad("TODAY should be a Sunday")
if last_sunday(2038, 3) != TODAY:
    bad("the DST switch should be this night")
try:  # optional cross-check with the system tz database
    from zoneinfo import ZoneInfo

    z = dt.datetime(2038, 3, 27, 23, 40, tzinfo=dt.timezone.utc).astimezone(ZoneInfo(ZONE))
    if z.replace(tzinfo=None) != NOW_LOCAL:
        bad(f"zoneinfo disagrees: {z}")
except Exception:
    pass


# ---------------------------------------------------------------- date reference
def add_days(n):
    return TODAY + dt.timedelta(days=n)


def week_sunday(offset_weeks):
    monday = TODAY - dt.timedelta(days=TODAY.weekday())
    return monday + dt.timedelta(days=7 * offset_weeks + 6)


def month_last(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def plain_weekday(idx):  # strictly after today
    n = (idx - TODAY.weekday()) % 7
    return add_days(n or 7)


def next_week_weekday(idx):  # that weekday in the next Monday-Sunday week
    monday = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=idx)


def day_month(d, m):
    try:
        x = dt.date(TODAY.year, m, d)
    except ValueError:
        return None
    if (TODAY - x).days > 30:
        x = dt.date(TODAY.year + 1, m, d)
    return x


def day_of_month(d):
    if not 1 <= d <= 31:
        return None
    y, m = TODAY.year, TODAY.month
    for _ in range(2):
        last = month_last(y, m).day
        x = dt.date(y, m, min(d, last))
        if x >= TODAY:
            return x
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


NUM = {"1": 1, "один": 1, "одну": 1, "one": 1, "a": 1, "2": 2, "два": 2, "две": 2, "two": 2,
       "3": 3, "три": 3, "three": 3, "4": 4, "четыре": 4, "four": 4, "5": 5, "пять": 5, "five": 5}
NUMRE = r"(\d{1,2}|один|одну|два|две|три|четыре|пять|one|two|three|four|five)"

RU_WD = [r"понедельник\w*", r"вторник\w*", r"сред[аеуы]", r"четверг\w*", r"пятниц[аеуы]",
         r"суббот[аеуы]", r"воскресень[еяю]"]
EN_WD = [r"monday|mon", r"tuesday|tues|tue", r"wednesday|wed", r"thursday|thurs|thur|thu",
         r"friday|fri", r"saturday|sat", r"sunday|sun"]
RU_MON = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
          "сентября", "октября", "ноября", "декабря"]
EN_MON = ["jan(?:uary)?", "feb(?:ruary)?", "mar(?:ch)?", "apr(?:il)?", "may", "june?",
          "july?", "aug(?:ust)?", "sep(?:t|tember)?", "oct(?:ober)?", "nov(?:ember)?",
          "dec(?:ember)?"]
ORD = r"(?:st|nd|rd|th)?"

RULES = []  # (regex, function(match) -> (kind, date))


def rule(pattern):
    def deco(fn):
        RULES.append((re.compile(pattern), fn))
        return fn
    return deco


@rule(r"\b(\d{4})-(\d{2})-(\d{2})\b")
def _iso(m):
    return "day", dt.date(int(m[1]), int(m[2]), int(m[3]))


@rule(r"(?<![\w-])(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?\b")
def _dotted(m):
    if m[3]:
        return "day", dt.date(int(m[3]), int(m[2]), int(m[1]))
    return "day", day_month(int(m[1]), int(m[2]))


@rule(r"\b(\d{1,2}) (" + "|".join(RU_MON) + r")\b")
def _ru_dm(m):
    return "day", day_month(int(m[1]), RU_MON.index(m[2]) + 1)


@rule(r"\b(" + "|".join(f"(?P<m{i}>{p})" for i, p in enumerate(EN_MON)) + r")\.? (\d{1,2})" + ORD + r"\b")
def _en_md(m):
    mon = next(i for i in range(12) if m[f"m{i}"])
    return "day", day_month(int(m.groups()[-1]), mon + 1)


@rule(r"\b(\d{1,2})" + ORD + r" (?:of )?(" + "|".join(f"(?P<n{i}>{p})" for i, p in enumerate(EN_MON)) + r")\b")
def _en_dm(m):
    mon = next(i for i in range(12) if m[f"n{i}"])
    return "day", day_month(int(m[1]), mon + 1)


@rule(r"\b(\d{1,2}) числ[аоу]\b")
def _ru_dom(m):
    return "day", day_of_month(int(m[1]))


@rule(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b")
def _en_dom(m):
    return "day", day_of_month(int(m[1]))


@rule(r"\b(?:послезавтра|послезавра|day after tomorrow)\b")
def _d2(m):
    return "day", add_days(2)


@rule(r"\b(?:завтра|завтар|tomorrow|tomorow|tommorow|tmrw|tmr)\b")
def _d1(m):
    return "day", add_days(1)


@rule(r"\b(?:сегодня|седня|today|eod)\b")
def _d0(m):
    return "day", TODAY


@rule(r"\b(?:через " + NUMRE + r" (?:день|дня|дней)|in " + NUMRE + r" days?)\b")
def _ndays(m):
    n = m[1] or m[2]
    return "day", add_days(NUM[n])


@rule(r"\b(?:через неделю|in a week|in one week)\b")
def _w1(m):
    return "day", add_days(7)


@rule(r"\b(?:через " + NUMRE + r" недел[иь]|in " + NUMRE + r" weeks)\b")
def _nweeks(m):
    n = m[1] or m[2]
    return "day", add_days(7 * NUM[n])


@rule(r"\b(?:this week|end of (?:the )?week|eow|до конца недели|к концу недели|на этой неделе)\b")
def _thisweek(m):
    return "week", week_sunday(0)


@rule(r"\b(?:next week|nxt week|на следующей неделе|на следующую неделю|на след неделе)\b")
def _nextweek(m):
    return "week", week_sunday(1)


@rule(r"\b(?:end of (?:the )?month|eom|конец месяца|конца месяца|концу месяца)\b")
def _eom(m):
    return "day", month_last(TODAY.year, TODAY.month)


@rule(r"\b(?:next month|в следующем месяце|на следующий месяц)\b")
def _nextmonth(m):
    y, mo = (TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)
    return "day", month_last(y, mo)


@rule(r"\b(?:end of (?:the )?year|конец года|конца года|концу года)\b")
def _eoy(m):
    return "day", dt.date(TODAY.year, 12, 31)


@rule(r"\b(?:weekend|выходны[ех])\b")
def _weekend(m):
    return "day", plain_weekday(5) if TODAY.weekday() != 5 else TODAY


@rule(r"\b(?:next|следующ(?:ий|ую|ее|ей|его)) (" + "|".join(f"(?P<x{i}>{p})" for i, p in enumerate(EN_WD + RU_WD)) + r")\b")
def _next_wd(m):
    i = next(i for i in range(14) if m[f"x{i}"]) % 7
    return "day", next_week_weekday(i)


@rule(r"\b(" + "|".join(f"(?P<w{i}>{p})" for i, p in enumerate(EN_WD + RU_WD)) + r")\b")
def _wd(m):  # plain weekday, also "this <weekday>"
    i = next(i for i in range(14) if m[f"w{i}"]) % 7
    return "day", plain_weekday(i)


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def find_dates(text):
    """All date expressions in text, non-overlapping, longest first at a position."""
    t = norm(text)
    hits = []
    for rx, fn in RULES:
        for m in rx.finditer(t):
            hits.append((m.start(), m.end(), fn, m))
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    out, end = [], -1
    for s, e, fn, m in hits:
        if s < end:
            continue
        kind, d = fn(m)
        out.append((t[s:e], kind, d))
        end = e
    return out


# self-test of the reference on the house rules for this TODAY (Sunday)
for phrase, want in [
    ("сегодня", ("day", "2038-03-28")), ("tomorrow", ("day", "2038-03-29")),
    ("послезавтра", ("day", "2038-03-30")), ("friday", ("day", "2038-04-02")),
    ("this friday", ("day", "2038-04-02")), ("next friday", ("day", "2038-04-02")),
    ("next monday", ("day", "2038-03-29")), ("в воскресенье", ("day", "2038-04-04")),
    ("this week", ("week", "2038-03-28")), ("до конца недели", ("week", "2038-03-28")),
    ("next week", ("week", "2038-04-04")), ("на следующей неделе", ("week", "2038-04-04")),
    ("end of month", ("day", "2038-03-31")), ("next month", ("day", "2038-04-30")),
    ("weekend", ("day", "2038-04-03")), ("через неделю", ("day", "2038-04-04")),
    ("in 2 weeks", ("day", "2038-04-11")), ("до 5 числа", ("day", "2038-04-05")),
    ("on the 28th", ("day", "2038-03-28")), ("27.02", ("day", "2038-02-27")),
    ("26.02", ("day", "2038-02-26")),
    ("25.02", ("day", "2039-02-25")), ("apr 30", ("day", "2038-04-30")),
    ("до 31 числа", ("day", "2038-03-31")), ("in 3 days", ("day", "2038-03-31")),
]:
    got = find_dates(phrase)
    if len(got) != 1 or (got[0][1], got[0][2].isoformat() if got[0][2] else None) != want:
        bad(f"reference self-test: {phrase!r} -> {got}, want {want}")


# ---------------------------------------------------------------- load
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
                bad(f"{name}:{n}: {e}")
    return rows


projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

# ---------------------------------------------------------------- projects
PKEYS = []
for p in projects:
    if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
        bad(f"project shape: {p}")
        continue
    if not re.fullmatch(r"[A-Z]{2,10}", p["key"]) or p["key"] == "INBOX":
        bad(f"project key: {p['key']}")
    PKEYS.append(p["key"])
if len(PKEYS) != 5 or len(set(PKEYS)) != 5:
    bad(f"want 5 distinct projects, got {PKEYS}")
PROJECT_WORDS = {  # how a phrase may name a project (for project lead-ins)
    "ORCH": ["orchestra", "оркестр"], "FLAT": ["flat", "квартир"], "KIDS": ["kids", "дети"],
    "PING": ["table tennis", "теннис"], "DOCS": ["docs", "бумаги"],
}

# ---------------------------------------------------------------- tasks
TASK = OrderedDict()
counter = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task shape: {t}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in PKEYS:
        bad(f"task {t['key']}: unknown project {proj}")
    counter[proj] += 1
    if t["key"] != f"{proj}-{counter[proj]}":
        bad(f"task {t['key']}: creation order gives {proj}-{counter[proj]}")
    if t["key"] in TASK:
        bad(f"duplicate task key {t['key']}")
    if t["due_kind"] not in ("day", "week", "none"):
        bad(f"task {t['key']}: due_kind {t['due_kind']}")
    if (t["due_kind"] == "none") != (t["due"] is None):
        bad(f"task {t['key']}: due/due_kind mismatch")
    if t["due"] is not None:
        d = dt.date.fromisoformat(t["due"])
        if t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"task {t['key']}: week due must be a Sunday")
        t["_due"] = d
    else:
        t["_due"] = None
    if not t["title"].strip():
        bad(f"task {t['key']}: empty title")
    TASK[t["key"]] = t
if not 55 <= len(TASK) <= 65:
    bad(f"want 55-65 tasks, got {len(TASK)}")
titles = Counter(norm(t["title"]) for t in TASK.values())
for k, v in titles.items():
    if v > 1:
        bad(f"duplicate title {k}")

buckets = Counter()
for t in TASK.values():
    d = t["_due"]
    if d is None:
        buckets["undated"] += 1
    elif d < TODAY:
        buckets["overdue"] += 1
    elif d == TODAY:
        buckets["today"] += 1
    elif t["due_kind"] == "week":
        buckets["week"] += 1
    else:
        buckets["later"] += 1
    if t["due_kind"] == "week":
        buckets["week_kind"] += 1

# ---------------------------------------------------------------- phrases
CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain",
              "explicit_form": "plain", "deadline_not_close": "plain", "project_leadin": "plain",
              "offtopic": "unknown", "plain_other": "plain", "ambiguous": "ambiguous",
              "unknown_other": "unknown"}
CLASS_MIN = {"typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28,
             "deadline_not_close": 26, "project_leadin": 24, "offtopic": 22, "plain_other": 54,
             "ambiguous": 52, "unknown_other": 24}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MOVE_WORDS = re.compile(r"\b(перенеси|сдвинь|move|push|postpone)\b|\bна (вторник|четверг|пятницу)")

seen = set()
by_class, by_kind, by_tool, by_filter = Counter(), Counter(), Counter(), Counter()
lang_class, lang_kind = Counter(), Counter()
n_dates = 0

for i, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{i} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: shape {sorted(p)}")
        continue
    text, lang, kind, exp, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if not isinstance(text, str) or not text.strip():
        bad(f"{where}: empty text")
    if norm(text) in seen:
        bad(f"{where}: duplicate text")
    seen.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if cls not in CLASS_KIND:
        bad(f"{where}: class {cls}")
        continue
    if kind != CLASS_KIND[cls]:
        bad(f"{where}: class {cls} needs kind {CLASS_KIND[cls]}, got {kind}")
    by_class[cls] += 1
    by_kind[kind] += 1
    lang_class[(cls, lang)] += 1
    lang_kind[(kind, lang)] += 1
    tool = exp.get("tool") if isinstance(exp, dict) else None
    by_tool[tool] += 1
    dates = find_dates(text)

    def need_keys(want):
        if set(exp) != want:
            bad(f"{where}: expect keys {sorted(exp)} want {sorted(want)}")
            return False
        return True

    def check_id(k):
        if k not in TASK:
            bad(f"{where}: unknown task {k}")
            return False
        return True

    def check_date(kind_, date_):
        global n_dates
        n_dates += 1
        if not dates:
            bad(f"{where}: expects {kind_} {date_} but the reference finds no date")
            return
        _, k2, d2 = dates[-1]
        if d2 is None or (k2, d2.isoformat()) != (kind_, date_):
            bad(f"{where}: expects {kind_} {date_}, reference gives {k2} {d2} from {dates[-1][0]!r}")

    if kind == "ambiguous" and tool != "clarify":
        bad(f"{where}: ambiguous needs clarify")
    if kind == "unknown" and tool != "none":
        bad(f"{where}: unknown needs none")
    if kind == "plain" and tool in ("clarify", "none"):
        bad(f"{where}: plain cannot expect {tool}")

    if tool in ("close_task", "cancel_task"):
        if need_keys({"tool", "id"}):
            check_id(exp["id"])
        if cls == "deadline_not_close":
            bad(f"{where}: deadline_not_close must not close/cancel")
    elif tool == "update_task":
        if need_keys({"tool", "id", "deadline_kind", "deadline"}) and check_id(exp["id"]):
            if exp["deadline_kind"] not in ("day", "week") or not DATE_RE.match(exp["deadline"]):
                bad(f"{where}: bad deadline")
            else:
                check_date(exp["deadline_kind"], exp["deadline"])
                t = TASK[exp["id"]]
                if (t["due_kind"], t["due"]) == (exp["deadline_kind"], exp["deadline"]):
                    bad(f"{where}: move to the date the task already has")
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(exp) <= allowed or not {"tool", "text", "deadline_kind"} <= set(exp):
            bad(f"{where}: create keys {sorted(exp)}")
        else:
            if norm(exp["text"]) not in norm(text):
                bad(f"{where}: create text {exp['text']!r} is not taken from the phrase")
            if find_dates(exp["text"]):
                bad(f"{where}: create text still holds a date phrase")
            if exp["deadline_kind"] == "none":
                if "deadline" in exp:
                    bad(f"{where}: kind none with a deadline")
                if dates:
                    bad(f"{where}: no deadline expected but reference finds {dates}")
            elif exp["deadline_kind"] in ("day", "week") and DATE_RE.match(exp.get("deadline", "")):
                check_date(exp["deadline_kind"], exp["deadline"])
            else:
                bad(f"{where}: bad create deadline")
            if "project" in exp:
                pk = exp["project"]
                if pk not in PKEYS:
                    bad(f"{where}: unknown project {pk}")
                elif not any(w in norm(text) for w in PROJECT_WORDS[pk]):
                    bad(f"{where}: project {pk} expected but the phrase does not name it")
            if cls == "project_leadin" and "project" not in exp:
                bad(f"{where}: project lead-in without project")
    elif tool == "list_tasks":
        if need_keys({"tool", "filter"}):
            if exp["filter"] not in FILTERS:
                bad(f"{where}: filter {exp['filter']}")
            by_filter[exp["filter"]] += 1
    elif tool == "clarify":
        if need_keys({"tool", "options"}):
            opts = exp["options"]
            if not isinstance(opts, list) or len(opts) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: clarify needs 2+ distinct options")
            elif all(check_id(k) for k in opts):
                if dates or MOVE_WORDS.search(norm(text)):  # an ambiguous move
                    if not dates:
                        bad(f"{where}: move without a date")
                    else:
                        n_dates += 1
                        _, k2, d2 = dates[-1]
                        for k in opts:
                            t = TASK[k]
                            if t["_due"] == d2:
                                bad(f"{where}: date {d2} equals the due of {k}; tie can be broken")
    elif tool == "none":
        if exp != {"tool": "none"}:
            bad(f"{where}: none carries extra keys")
    else:
        bad(f"{where}: unknown tool {tool}")

for cls, n in CLASS_MIN.items():
    if by_class[cls] < n * 0.9:
        bad(f"class {cls}: {by_class[cls]} (aim {n})")
if len(phrases) < 300:
    bad(f"only {len(phrases)} phrases")
nru, nen = sum(v for (k, l), v in lang_class.items() if l == "ru"), sum(v for (k, l), v in lang_class.items() if l == "en")
if abs(nru - nen) > 0.1 * len(phrases):
    bad(f"languages unbalanced: ru {nru}, en {nen}")

# ---------------------------------------------------------------- report
print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local now {NOW_LOCAL:%Y-%m-%d %H:%M} "
      f"{ZONE} UTC+{OFFSET}; now UTC {NOW_UTC:%Y-%m-%dT%H:%M}Z")
print(f"projects {len(projects)}; tasks {len(TASK)}: "
      + ", ".join(f"{k} {counter[k]}" for k in PKEYS + ["INBOX"]))
print("task dues: " + ", ".join(f"{k} {buckets[k]}" for k in
                                ("overdue", "today", "week", "later", "undated", "week_kind")))
print(f"phrases {len(phrases)}: ru {nru}, en {nen}")
print("| class | kind | ru | en | total |")
print("|---|---|---|---|---|")
for cls in CLASS_KIND:
    print(f"| {cls} | {CLASS_KIND[cls]} | {lang_class[(cls, 'ru')]} | {lang_class[(cls, 'en')]} | {by_class[cls]} |")
print(f"| **all** | | {nru} | {nen} | **{len(phrases)}** |")
print("| kind | ru | en | total |")
print("|---|---|---|---|")
for k in ("plain", "ambiguous", "unknown"):
    print(f"| {k} | {lang_kind[(k, 'ru')]} | {lang_kind[(k, 'en')]} | {by_kind[k]} |")
print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items(), key=lambda x: -x[1])))
print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
print(f"dates recomputed: {n_dates}")
if problems:
    print(f"\n{len(problems)} PROBLEM(S):")
    for m in problems:
        print("  - " + m)
    sys.exit(1)
print("OK")
