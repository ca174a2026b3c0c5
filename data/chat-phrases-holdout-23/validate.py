#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-23 (stdlib only).

Checks the JSON shapes, that every referenced key exists, that the keys are
reproduced by loading tasks.jsonl in creation order, class/kind consistency,
counts per class and language, and RECOMPUTES every expected date from the
phrase text with a small reference of the house date rules (written for this set
only, from data/chat-phrases/README.md).  Prints counts; exits 1 on any problem.

    python3 validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
# now = 2034-11-08T06:20:00Z, zone Asia/Dushanbe (UTC+5) -> local Wed 2034-11-08 11:20
TODAY = dt.date(2034, 11, 8)

CLASSES = OrderedDict([
    # class: (kind, expected count)
    ("typo", ("plain", 30)),
    ("report", ("plain", 33)),
    ("negated_cancel", ("plain", 24)),
    ("explicit_form", ("plain", 28)),
    ("deadline_not_close", ("plain", 26)),
    ("project_leadin", ("plain", 24)),
    ("offtopic", ("unknown", 22)),
    ("plain_other", ("plain", 54)),
    ("ambiguous", ("ambiguous", 52)),
    ("unknown_other", ("unknown", 24)),
])
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

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


# ---------------------------------------------------------------- date reference

def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months(y, m, k):
    m0 = m - 1 + k
    return y + m0 // 12, m0 % 12 + 1


def this_sunday(t):
    return t + dt.timedelta(days=6 - t.weekday())


def day_month(d, m, t=TODAY):
    """Day + month without a year: this year's unless > 30 days in the past."""
    try:
        cand = dt.date(t.year, m, d)
    except ValueError:
        return "error"
    if (t - cand).days > 30:
        try:
            cand = dt.date(t.year + 1, m, d)
        except ValueError:
            return "error"
    return ("day", cand)


def day_of_month(d, t=TODAY):
    """Day of month alone: next such day on or after today; a short month gives its last day."""
    if not 1 <= d <= 31:
        return "error"
    for k in range(0, 3):
        y, m = add_months(t.year, t.month, k)
        cand = dt.date(y, m, min(d, calendar.monthrange(y, m)[1]))
        if cand >= t:
            return ("day", cand)
    return "error"


def weekday_date(wd, mode, t=TODAY):
    if mode == "next":  # that weekday in the next Monday–Sunday week
        monday_next = t + dt.timedelta(days=7 - t.weekday())
        return ("day", monday_next + dt.timedelta(days=wd))
    delta = (wd - t.weekday()) % 7
    return ("day", t + dt.timedelta(days=delta or 7))  # strictly after today


MONTHS_RU = ["январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август",
             "сентябр", "октябр", "ноябр", "декабр"]
MONTHS_EN = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
WD_EN = {"mon": 0, "monday": 0, "tue": 1, "tues": 1, "tuesday": 1, "wed": 2, "wednesday": 2,
         "thu": 3, "thurs": 3, "thursday": 3, "fri": 4, "friday": 4, "sat": 5, "saturday": 5,
         "sun": 6, "sunday": 6}
WD_RU = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3), ("пятниц", 4),
         ("суббот", 5), ("воскресень", 6)]
NUM_WORDS = {"один": 1, "одну": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5,
             "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def num(s):
    return int(s) if s.isdigit() else NUM_WORDS[s]


def ru_month(word):
    for i, stem in enumerate(MONTHS_RU):
        if stem == "ма":
            if re.fullmatch(r"ма[йяе]", word):
                return i + 1
        elif word.startswith(stem):
            return i + 1
    return None


def _rules():
    t = TODAY
    R = []

    def rule(pat):
        def deco(fn):
            R.append((re.compile(pat), fn))
            return fn
        return deco

    @rule(r"(?<![\d-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\d-])")
    def _iso(m):
        try:
            return ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            return "error"

    @rule(r"(?<![\w.])(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?(?![\d.])")
    def _dotted(m):
        d, mo = int(m[1]), int(m[2])
        if m[3]:
            try:
                return ("day", dt.date(int(m[3]), mo, d))
            except ValueError:
                return "error"
        if not 1 <= mo <= 12:
            return "error"
        return day_month(d, mo)

    @rule(r"(?<![\w/])(\d{1,2})/(\d{1,2})(?![\w/])")
    def _slashed(m):
        d, mo = int(m[1]), int(m[2])
        if d <= 12 or not 1 <= mo <= 12:
            return "error"  # 03/04 could be mm/dd
        return day_month(d, mo)

    @rule(r"\b(\d{1,2}) ([а-я]+)")
    def _ru_day_month(m):
        mo = ru_month(m[2])
        return day_month(int(m[1]), mo) if mo else None

    @rule(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (\d{1,2})(?:st|nd|rd|th)?\b")
    def _en_month_day(m):
        return day_month(int(m[2]), MONTHS_EN.index(m[1]) + 1)

    @rule(r"\b(\d{1,2})(?:st|nd|rd|th)? (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b")
    def _en_day_month(m):
        return day_month(int(m[1]), MONTHS_EN.index(m[2]) + 1)

    @rule(r"\b(\d{1,2}) ?(?:числа|числу|число)\b")
    def _ru_dom(m):
        return day_of_month(int(m[1]))

    @rule(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b")
    def _en_dom(m):
        return day_of_month(int(m[1]))

    @rule(r"\bчерез (\d+|один|одну|два|две|три|четыре|пять) (?:день|дня|дней)\b")
    def _ru_in_days(m):
        return ("day", t + dt.timedelta(days=num(m[1])))

    @rule(r"\bin (\d+|one|two|three|four|five) days?\b")
    def _en_in_days(m):
        return ("day", t + dt.timedelta(days=num(m[1])))

    @rule(r"\bчерез неделю\b|\bin a week\b")
    def _in_week(m):
        return ("day", t + dt.timedelta(days=7))

    @rule(r"\bчерез (\d+|две|три) недел[иья]\b|\bin (\d+|two|three) weeks\b")
    def _in_weeks(m):
        return ("day", t + dt.timedelta(days=7 * num(m[1] or m[2])))

    @rule(r"\bпослезавтра\b|\bday after tomorrow\b")
    def _d2(m):
        return ("day", t + dt.timedelta(days=2))

    # "tmrw"/"tmr" by the house judgement call; misspellings of non-weekday words are read
    @rule(r"\b(?:завтра|завтар|зватра|tomorrow|tomorow|tommorow|tmrw|tmr)\b")
    def _d1(m):
        return ("day", t + dt.timedelta(days=1))

    @rule(r"\b(?:сегодня|today|eod)\b")
    def _d0(m):
        return ("day", t)

    @rule(r"\b(?:next|nxt) week\b|\bследующ[а-я]* недел[а-я]*")
    def _next_week(m):
        return ("week", this_sunday(t) + dt.timedelta(days=7))

    @rule(r"\bthis week\b|\bend of (?:the )?week\b|\bконц[а-я]* недели\b|\bэтой неделе\b")
    def _this_week(m):
        return ("week", this_sunday(t))

    @rule(r"\bend of (?:the )?month\b|\bконц[а-я]* месяца\b")
    def _eom(m):
        return ("day", last_day(t.year, t.month))

    @rule(r"\bnext month\b|\bследующем месяце\b")
    def _next_month(m):
        y, mo = add_months(t.year, t.month, 1)
        return ("day", last_day(y, mo))

    @rule(r"\bend of (?:the )?year\b|\bконц[а-я]* года\b")
    def _eoy(m):
        return ("day", dt.date(t.year, 12, 31))

    @rule(r"\bweekend\b|\bвыходн[а-я]*")
    def _weekend(m):
        return ("day", t + dt.timedelta(days=(5 - t.weekday()) % 7))

    @rule(r"\b(?:(next|this) )?(monday|tuesday|tues|tue|wednesday|wed|thursday|thurs|thu|"
          r"friday|fri|saturday|sat|sunday|sun)\b")
    def _en_wd(m):
        return weekday_date(WD_EN[m[2]], "next" if m[1] == "next" else "plain")

    @rule(r"\b(?:(следующ[а-я]*|эт[а-я]*) )?(понедельник[а-я]*|вторник[а-я]*|сред[аыуе]|"
          r"четверг[а-я]*|пятниц[а-я]*|суббот[а-я]*|воскресень[а-я]*)")
    def _ru_wd(m):
        wd = next(n for stem, n in WD_RU if m[2].startswith(stem))
        return weekday_date(wd, "next" if m[1] and m[1].startswith("следующ") else "plain")

    return R


RULES = _rules()


def find_dates(text):
    """All date phrases in text: list of (start, end, value); contained matches dropped."""
    s = norm(text)
    hits = []
    for rx, fn in RULES:
        for m in rx.finditer(s):
            v = fn(m)
            if v is not None:
                hits.append((m.start(), m.end(), v))
    kept = [h for h in hits
            if not any((o[0] <= h[0] and h[1] <= o[1]) and (o[1] - o[0]) > (h[1] - h[0])
                       for o in hits)]
    uniq = []
    for h in kept:
        if h not in uniq:
            uniq.append(h)
    return uniq


def the_date(text):
    """None (no date), 'error', 'several', or (kind, date)."""
    hits = find_dates(text)
    if not hits:
        return None
    vals = {h[2] for h in hits}
    if len(vals) > 1:
        return "several"
    return vals.pop()


def _selftest():
    cases = [("завтра", ("day", "2034-11-09")), ("послезавтра", ("day", "2034-11-10")),
             ("в пятницу", ("day", "2034-11-10")), ("в среду", ("day", "2034-11-15")),
             ("next friday", ("day", "2034-11-17")), ("next monday", ("day", "2034-11-13")),
             ("this week", ("week", "2034-11-12")), ("на следующей неделе", ("week", "2034-11-19")),
             ("end of month", ("day", "2034-11-30")), ("в следующем месяце", ("day", "2034-12-31")),
             ("на выходных", ("day", "2034-11-11")), ("через неделю", ("day", "2034-11-15")),
             ("in 2 weeks", ("day", "2034-11-22")), ("до 5 числа", ("day", "2034-12-05")),
             ("до 8 числа", ("day", "2034-11-08")), ("5 октября", ("day", "2035-10-05")),
             ("15.10", ("day", "2034-10-15")), ("20/11", ("day", "2034-11-20")),
             ("03/04", "error"), ("31.02", "error"), ("the day after tomorrow", ("day", "2034-11-10")),
             ("jan 10", ("day", "2035-01-10")), ("до 31 числа", ("day", "2034-11-30"))]
    for text, want in cases:
        got = the_date(text)
        if isinstance(got, tuple):
            got = (got[0], got[1].isoformat())
        if got != want:
            problem(f"date reference self-test: {text!r} -> {got}, want {want}")
    # day-of-month clamp from the house examples
    if day_of_month(30, dt.date(2026, 1, 31)) != ("day", dt.date(2026, 2, 28)):
        problem("date reference self-test: 30th on 2026-01-31")
    if day_of_month(31, dt.date(2026, 4, 30)) != ("day", dt.date(2026, 4, 30)):
        problem("date reference self-test: 31st on 2026-04-30")


# ---------------------------------------------------------------- checks

def iso(s):
    try:
        return dt.date.fromisoformat(s) if isinstance(s, str) and len(s) == 10 else None
    except ValueError:
        return None


def main():
    _selftest()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # projects
    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"project fields: {p}")
        k = p.get("key", "")
        if not re.fullmatch(r"[A-Z]{2,8}", k) or k == "INBOX":
            problem(f"bad project key {k!r}")
        if not p.get("name") or not p.get("description"):
            problem(f"project {k}: empty name/description")
        pkeys.append(k)
    if len(projects) != 5 or len(set(pkeys)) != len(pkeys):
        problem(f"want 5 distinct projects, got {pkeys}")

    # tasks: shape, keys by creation order, dues
    counters = Counter()
    tmap = {}
    per_proj = Counter()
    due_stats = Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"task fields: {t}")
            continue
        proj = t["project"]
        if proj not in pkeys and proj != "INBOX":
            problem(f"{t['key']}: unknown project {proj}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            problem(f"key {t['key']} is not reproduced by creation order (would be {want})")
        if t["key"] in tmap:
            problem(f"duplicate key {t['key']}")
        tmap[t["key"]] = t
        per_proj[proj] += 1
        if not t["title"].strip():
            problem(f"{t['key']}: empty title")
        dk, due = t["due_kind"], t["due"]
        if dk == "none":
            if due is not None:
                problem(f"{t['key']}: due_kind none with a due")
            due_stats["undated"] += 1
            continue
        d = iso(due)
        if dk not in ("day", "week") or d is None:
            problem(f"{t['key']}: bad due {due!r}/{dk!r}")
            continue
        if dk == "week" and d.weekday() != 6:
            problem(f"{t['key']}: week due {due} is not a Sunday")
        if d < TODAY:
            due_stats["overdue"] += 1
        elif d == TODAY:
            due_stats["today"] += 1
        elif dk == "week":
            due_stats["week"] += 1
        else:
            due_stats["later"] += 1
    if not 55 <= len(tasks) <= 65:
        problem(f"want 55-65 tasks, got {len(tasks)}")
    if not 12 <= due_stats["undated"] <= 18:
        problem(f"want about 15 undated tasks, got {due_stats['undated']}")
    for what in ("overdue", "today", "week"):
        if due_stats[what] < 3:
            problem(f"too few {what} tasks: {due_stats[what]}")

    def due_of(k):
        t = tmap[k]
        return None if t["due_kind"] == "none" else (t["due_kind"], iso(t["due"]))

    # phrases
    by_class_lang = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    dates_checked = Counter()
    seen = set()
    allowed = re.compile(r"[a-zа-яё0-9 :\-.'+/]*")
    for i, p in enumerate(phrases, 1):
        where = f"phrases.jsonl:{i} {p.get('text')!r}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            problem(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if lang not in ("ru", "en"):
            problem(f"{where}: lang {lang}")
        if cls not in CLASSES:
            problem(f"{where}: class {cls}")
            continue
        if kind != CLASSES[cls][0]:
            problem(f"{where}: class {cls} needs kind {CLASSES[cls][0]}, got {kind}")
        if norm(text) in seen:
            problem(f"{where}: duplicate text")
        seen.add(norm(text))
        bare = re.sub(r"\b[A-Z]+-\d+\b", "", text)
        if bare != bare.lower() or not allowed.fullmatch(bare):
            problem(f"{where}: not a lowercase messenger line without punctuation")
        by_class_lang[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        tool = e.get("tool") if isinstance(e, dict) else None
        by_tool[tool] += 1

        shapes = {
            "close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
            "update_task": {"tool", "id", "deadline_kind", "deadline"},
            "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"},
        }
        if tool == "create_task":
            ok = {"tool", "text", "deadline_kind"} <= set(e) <= {"tool", "text", "deadline_kind",
                                                                  "deadline", "project"}
        else:
            ok = tool in shapes and set(e) == shapes[tool]
        if not ok:
            problem(f"{where}: bad expect shape {e}")
            continue

        # class <-> tool
        if cls == "ambiguous" and tool != "clarify":
            problem(f"{where}: ambiguous must be clarify")
        if kind == "unknown" and tool != "none":
            problem(f"{where}: unknown must be none")
        if kind == "plain" and tool in ("clarify", "none"):
            problem(f"{where}: plain must act")
        if cls == "project_leadin" and not (tool == "create_task" and "project" in e):
            problem(f"{where}: project_leadin must be a create with a project")
        if cls != "project_leadin" and tool == "create_task" and "project" in e:
            problem(f"{where}: a project is expected only when the phrase names it")
        if cls == "deadline_not_close" and tool != "update_task":
            problem(f"{where}: deadline_not_close must be update_task")
        if cls == "negated_cancel" and tool != "cancel_task":
            problem(f"{where}: negated_cancel must be cancel_task")
        if cls == "report" and tool != "close_task":
            problem(f"{where}: report must be close_task")
        if cls == "explicit_form" and tool in ("close_task", "cancel_task", "update_task"):
            if e["id"].lower() not in text.lower():
                problem(f"{where}: explicit form does not name {e['id']}")

        # keys exist
        ids = [e["id"]] if "id" in e else list(e.get("options", []))
        for k in ids:
            if k not in tmap:
                problem(f"{where}: unknown key {k}")
        if any(k not in tmap for k in ids):
            continue

        found = the_date(text)
        if found in ("several", "error"):
            if tool != "none":
                problem(f"{where}: date phrase is {found}")
            continue
        if tool == "update_task":
            want = (e["deadline_kind"], iso(e["deadline"]))
            if e["deadline_kind"] not in ("day", "week") or want[1] is None:
                problem(f"{where}: bad deadline {e}")
            elif found is None:
                problem(f"{where}: no date phrase found for an update")
            elif found != want:
                problem(f"{where}: recomputed {found[0]} {found[1]}, expected {want[0]} {want[1]}")
            elif due_of(e["id"]) == want:
                problem(f"{where}: {e['id']} is already due {want[1]}")
            dates_checked["update"] += 1
        elif tool == "create_task":
            tnorm = norm(e["text"])
            if not tnorm or tnorm not in norm(text):
                problem(f"{where}: create text {e['text']!r} is not taken from the phrase")
            if the_date(e["text"]) is not None:
                problem(f"{where}: create text still holds a date phrase")
            if e.get("project") is not None and e["project"] not in pkeys:
                problem(f"{where}: unknown project {e['project']}")
            dk = e["deadline_kind"]
            if dk == "none":
                if "deadline" in e or found is not None:
                    problem(f"{where}: kind none but a date ({found})")
            else:
                want = (dk, iso(e.get("deadline")))
                if found != want:
                    problem(f"{where}: recomputed {found}, expected {want}")
                dates_checked["create"] += 1
        elif tool == "clarify":
            opts = e["options"]
            if len(opts) < 2 or len(set(opts)) != len(opts):
                problem(f"{where}: clarify needs 2+ distinct options")
            if found is not None:
                for k in opts:
                    if due_of(k) == found:
                        problem(f"{where}: {k} is already due {found[1]}; the move would break the tie")
                dates_checked["ambiguous move"] += 1
        elif tool in ("close_task", "cancel_task"):
            if found is not None:
                problem(f"{where}: a close/cancel phrase holds a date phrase {found}")
        elif tool == "list_tasks":
            if e["filter"] not in FILTERS:
                problem(f"{where}: filter {e['filter']}")
            by_filter[e["filter"]] += 1

    # counts
    total = len(phrases)
    n_ru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
    n_en = total - n_ru
    if total < 300:
        problem(f"want at least 300 phrases, got {total}")
    if abs(n_ru - n_en) > 0.1 * total:
        problem(f"ru {n_ru} / en {n_en} are not about equal")
    for cls, (_, want) in CLASSES.items():
        got = by_class_lang[(cls, "ru")] + by_class_lang[(cls, "en")]
        if got != want:
            problem(f"class {cls}: {got} phrases, README says {want}")
        if min(by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]) < 0.3 * got:
            problem(f"class {cls}: languages too uneven")

    # report
    print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), Asia/Dushanbe")
    print(f"projects {len(projects)}; tasks {len(tasks)}: " +
          ", ".join(f"{k} {per_proj[k]}" for k in pkeys + ["INBOX"]))
    print("dues: " + ", ".join(f"{k} {due_stats[k]}" for k in ("overdue", "today", "week", "later", "undated")))
    print(f"phrases {total}: ru {n_ru}, en {n_en}")
    print()
    print("| class | kind | ru | en | total |")
    print("|---|---|---|---|---|")
    for cls, (kind, _) in CLASSES.items():
        r, n = by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]
        print(f"| {cls} | {kind} | {r} | {n} | {r + n} |")
    print(f"| **all** | | {n_ru} | {n_en} | **{total}** |")
    print()
    print("| kind | ru | en | total |")
    print("|---|---|---|---|")
    for kind in ("plain", "ambiguous", "unknown"):
        r, n = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
        print(f"| {kind} | {r} | {n} | {r + n} |")
    print()
    print("by tool: " + ", ".join(f"{k} {by_tool[k]}" for k in
          ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")))
    print("list filters: " + ", ".join(f"{k} {by_filter[k]}" for k in
          ("today", "inbox", "overdue", "done", "all_by_project")))
    print("dates recomputed: " + ", ".join(f"{k} {v}" for k, v in sorted(dates_checked.items())))
    print()
    if problems:
        for m in problems:
            print("PROBLEM:", m)
        print(f"{len(problems)} problem(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
