#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-3 (standard library only).

Run:  python3 data/chat-phrases-holdout-3/validate.py
Prints the counts and "OK", or lists the problems and exits 1.

It holds a small date reference of the house rules (data/chat-phrases/README.md),
written for this set only and self-tested below, and re-derives every expected
deadline from the phrase's own words.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2026, 2, 16)  # Monday, Asia/Novosibirsk, 08:15 local

# --------------------------------------------------------------------------
# date reference
# --------------------------------------------------------------------------

def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def next_weekday(today, wd):
    """The next such weekday strictly after today."""
    d = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=d or 7)


def next_week_weekday(today, wd):
    """That weekday in the next Monday-Sunday week."""
    monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def this_sunday(today):
    return today + dt.timedelta(days=6 - today.weekday())


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_month(y, m):
    return (y + 1, 1) if m == 12 else (y, m + 1)


def day_month(today, day, month):
    """Day + month without a year: this year's unless > 30 days in the past."""
    d = dt.date(today.year, month, day)  # ValueError on an impossible date
    if (today - d).days > 30:
        d = dt.date(today.year + 1, month, day)
    return d


def day_of_month(today, day):
    """Day of month alone: the next such day on or after today; a month
    without that day gives its last day."""
    if not 1 <= day <= 31:
        raise ValueError(day)
    y, m = today.year, today.month
    while True:
        d = dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))
        if d >= today:
            return d
        y, m = add_month(y, m)


RU_WD = [
    (0, r"понедельник\w*|пн"), (1, r"вторник\w*|вт"), (2, r"сред[ауеы]|ср"),
    (3, r"четверг\w*|чт"), (4, r"пятниц\w*|пт"), (5, r"суббот\w*|сб"),
    (6, r"воскресень\w*|вс"),
]
EN_WD = [
    (0, r"monday|mon"), (1, r"tuesday|tues|tue"), (2, r"wednesday|wed"),
    (3, r"thursday|thurs|thu"), (4, r"friday|fri"), (5, r"saturday|sat"),
    (6, r"sunday|sun"),
]
RU_MONTHS = ["январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август",
             "сентябр", "октябр", "ноябр", "декабр"]
EN_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
             "nov", "dec"]
EN_MONTH_RE = (r"(january|february|march|april|may|june|july|august|september|"
               r"october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|"
               r"oct|nov|dec)\.?")
RU_MONTH_RE = (r"(января|февраля|марта|апреля|мая|июня|июля|августа|сентября|"
               r"октября|ноября|декабря)")
NUM_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
             "две": 2, "два": 2, "три": 3, "одну": 1}


def _num(s):
    return int(s) if s.isdigit() else NUM_WORDS[s]


def _en_month(name):
    return EN_MONTHS.index(name[:3]) + 1


def _ru_month(name):
    for i, stem in enumerate(RU_MONTHS):
        if name.startswith(stem) and (stem != "ма" or name == "мая"):
            return i + 1
    raise ValueError(name)


def _rules():
    R = []  # (regex, fn(match, today) -> (kind, date))
    day = lambda f: (lambda m, t: ("day", f(m, t)))
    week = lambda f: (lambda m, t: ("week", f(m, t)))
    # ---- Russian
    R.append((r"\bпослезавтра\b", day(lambda m, t: t + dt.timedelta(days=2))))
    R.append((r"\bзавтра\b", day(lambda m, t: t + dt.timedelta(days=1))))
    R.append((r"\bсегодня\b", day(lambda m, t: t)))
    for wd, pat in RU_WD:
        R.append((r"\b(?:в|во|на|к|до)\s+следующ\w+\s+(?:%s)\b" % pat,
                  day(lambda m, t, wd=wd: next_week_weekday(t, wd))))
        R.append((r"\b(?:в|во|на|к|до)\s+(?:%s)\b" % pat,
                  day(lambda m, t, wd=wd: next_weekday(t, wd))))
    R.append((r"\b(?:на\s+этой\s+неделе|на\s+эту\s+неделю|до\s+конца\s+недели|к\s+концу\s+недели)\b",
              week(lambda m, t: this_sunday(t))))
    R.append((r"\b(?:на\s+следующей\s+неделе|на\s+следующую\s+неделю)\b",
              week(lambda m, t: this_sunday(t) + dt.timedelta(days=7))))
    R.append((r"\b(?:в\s+конце\s+месяца|на\s+конец\s+месяца|до\s+конца\s+месяца|к\s+концу\s+месяца)\b",
              day(lambda m, t: last_day(t.year, t.month))))
    R.append((r"\b(?:в\s+следующем\s+месяце|на\s+следующий\s+месяц)\b",
              day(lambda m, t: last_day(*add_month(t.year, t.month)))))
    R.append((r"\b(?:на\s+выходных|на\s+выходные|в\s+выходные)\b",
              day(lambda m, t: t if t.weekday() == 5 else next_weekday(t, 5))))
    R.append((r"\bчерез\s+(\d+|два|две|три)\s+(?:день|дня|дней)\b",
              day(lambda m, t: t + dt.timedelta(days=_num(m.group(1))))))
    R.append((r"\bчерез\s+неделю\b", day(lambda m, t: t + dt.timedelta(days=7))))
    R.append((r"\bчерез\s+(\d+|две|три)\s+недел[иь]\b",
              day(lambda m, t: t + dt.timedelta(days=7 * _num(m.group(1))))))
    R.append((r"\b(?:до|на|к)\s+(\d{1,2})(?:-?го)?\s+(?:числа|число|числу)\b",
              day(lambda m, t: day_of_month(t, int(m.group(1))))))
    R.append((r"\b(\d{1,2})\s+" + RU_MONTH_RE + r"(?!\w)",
              day(lambda m, t: day_month(t, int(m.group(1)), _ru_month(m.group(2))))))
    # ---- numeric
    R.append((r"\b(\d{4})-(\d{2})-(\d{2})\b",
              day(lambda m, t: dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))))
    R.append((r"(?<![\d.])(\d{1,2})\.(\d{1,2})(?![\d.])",
              day(lambda m, t: day_month(t, int(m.group(1)), int(m.group(2))))))
    # ---- English
    R.append((r"\b(?:the\s+)?day\s+after\s+tomorrow\b", day(lambda m, t: t + dt.timedelta(days=2))))
    R.append((r"\b(?:tomorrow|tmrw|tmr)\b", day(lambda m, t: t + dt.timedelta(days=1))))
    R.append((r"\b(?:today|eod)\b", day(lambda m, t: t)))
    for wd, pat in EN_WD:
        R.append((r"\bnext\s+(?:%s)\b" % pat, day(lambda m, t, wd=wd: next_week_weekday(t, wd))))
        R.append((r"\b(?:this\s+)?(?:%s)\b" % pat, day(lambda m, t, wd=wd: next_weekday(t, wd))))
    R.append((r"\b(?:this\s+week|(?:the\s+)?end\s+of\s+(?:the\s+)?week)\b", week(lambda m, t: this_sunday(t))))
    R.append((r"\bnext\s+week\b", week(lambda m, t: this_sunday(t) + dt.timedelta(days=7))))
    R.append((r"\b(?:the\s+)?end\s+of\s+(?:the\s+)?month\b", day(lambda m, t: last_day(t.year, t.month))))
    R.append((r"\bnext\s+month\b", day(lambda m, t: last_day(*add_month(t.year, t.month)))))
    R.append((r"\b(?:the\s+)?weekend\b", day(lambda m, t: t if t.weekday() == 5 else next_weekday(t, 5))))
    R.append((r"\bin\s+(\d+|one|two|three|four|five)\s+days?\b",
              day(lambda m, t: t + dt.timedelta(days=_num(m.group(1))))))
    R.append((r"\bin\s+(\d+|a|one|two|three)\s+weeks?\b",
              day(lambda m, t: t + dt.timedelta(days=7 * _num(m.group(1))))))
    R.append((r"\b" + EN_MONTH_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b",
              day(lambda m, t: day_month(t, int(m.group(2)), _en_month(m.group(1))))))
    R.append((r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + EN_MONTH_RE + r"\b",
              day(lambda m, t: day_month(t, int(m.group(1)), _en_month(m.group(2))))))
    R.append((r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", day(lambda m, t: day_of_month(t, int(m.group(1))))))
    return [(re.compile(p), f) for p, f in R]


RULES = _rules()


def find_dates(text, today=TODAY):
    """All date expressions in text: [(kind, date, (start, end))], longest first,
    non-overlapping, in text order."""
    s = norm(text)
    cands = []
    for rx, fn in RULES:
        for m in rx.finditer(s):
            cands.append((m.start(), m.end(), m, fn))
    cands.sort(key=lambda c: (-(c[1] - c[0]), c[0]))
    taken, out = [], []
    for a, b, m, fn in cands:
        if any(a < y and x < b for x, y in taken):
            continue
        taken.append((a, b))
        kind, d = fn(m, today)
        out.append((kind, d, (a, b)))
    out.sort(key=lambda o: o[2][0])
    return out


def one_date(text, today=TODAY):
    found = find_dates(text, today)
    if len(found) != 1:
        raise ValueError("expected one date expression in %r, found %d" % (text, len(found)))
    return found[0][0], found[0][1]


def selftest():
    D = dt.date
    mon = TODAY
    assert mon.weekday() == 0
    cases = [
        # today Monday 2026-02-16
        (mon, "завтра", "day", D(2026, 2, 17)),
        (mon, "послезавтра", "day", D(2026, 2, 18)),
        (mon, "в пятницу", "day", D(2026, 2, 20)),
        (mon, "на пт", "day", D(2026, 2, 20)),
        (mon, "в понедельник", "day", D(2026, 2, 23)),   # today is Monday
        (mon, "в пн", "day", D(2026, 2, 23)),
        (mon, "monday", "day", D(2026, 2, 23)),
        (mon, "next monday", "day", D(2026, 2, 23)),
        (mon, "next friday", "day", D(2026, 2, 27)),
        (mon, "в следующую пятницу", "day", D(2026, 2, 27)),
        (mon, "к субботе", "day", D(2026, 2, 21)),
        (mon, "на этой неделе", "week", D(2026, 2, 22)),
        (mon, "до конца недели", "week", D(2026, 2, 22)),
        (mon, "by the end of the week", "week", D(2026, 2, 22)),
        (mon, "next week", "week", D(2026, 3, 1)),
        (mon, "на следующую неделю", "week", D(2026, 3, 1)),
        (mon, "end of month", "day", D(2026, 2, 28)),
        (mon, "на конец месяца", "day", D(2026, 2, 28)),
        (mon, "next month", "day", D(2026, 3, 31)),
        (mon, "в следующем месяце", "day", D(2026, 3, 31)),
        (mon, "на выходные", "day", D(2026, 2, 21)),
        (mon, "the weekend", "day", D(2026, 2, 21)),
        (mon, "через 3 дня", "day", D(2026, 2, 19)),
        (mon, "через неделю", "day", D(2026, 2, 23)),
        (mon, "in a week", "day", D(2026, 2, 23)),
        (mon, "in 2 weeks", "day", D(2026, 3, 2)),
        (mon, "in 5 days", "day", D(2026, 2, 21)),
        (mon, "day after tomorrow", "day", D(2026, 2, 18)),
        (mon, "tmrw", "day", D(2026, 2, 17)),
        (mon, "до 25 числа", "day", D(2026, 2, 25)),
        (mon, "до 5 числа", "day", D(2026, 3, 5)),
        (mon, "до 16 числа", "day", D(2026, 2, 16)),
        (mon, "до 30 числа", "day", D(2026, 2, 28)),     # February has no 30th
        (mon, "on the 20th", "day", D(2026, 2, 20)),
        (mon, "20 марта", "day", D(2026, 3, 20)),
        (mon, "к 23 февраля", "day", D(2026, 2, 23)),
        (mon, "10.03", "day", D(2026, 3, 10)),
        (mon, "10.02", "day", D(2026, 2, 10)),          # 6 days ago: this year
        (mon, "17.01", "day", D(2026, 1, 17)),          # exactly 30 days ago: this year
        (mon, "15.01", "day", D(2027, 1, 15)),          # 32 days ago: next year
        (mon, "Mar 4", "day", D(2026, 3, 4)),
        (mon, "march 2", "day", D(2026, 3, 2)),
        (mon, "2026-02-24", "day", D(2026, 2, 24)),
        (mon, "сегодня", "day", D(2026, 2, 16)),
        # other days
        (D(2026, 2, 20), "в пятницу", "day", D(2026, 2, 27)),   # on a Friday
        (D(2026, 2, 22), "на этой неделе", "week", D(2026, 2, 22)),  # on a Sunday
        (D(2026, 2, 22), "next week", "week", D(2026, 3, 1)),
        (D(2026, 2, 21), "на выходных", "day", D(2026, 2, 21)),      # on a Saturday
        (D(2026, 1, 31), "до 30 числа", "day", D(2026, 2, 28)),
        (D(2026, 4, 30), "до 31 числа", "day", D(2026, 4, 30)),
        (D(2026, 3, 11), "9.02", "day", D(2026, 2, 9)),
        (D(2026, 3, 11), "8.02", "day", D(2027, 2, 8)),
        (D(2026, 12, 30), "next month", "day", D(2027, 1, 31)),
        (D(2028, 2, 28), "end of month", "day", D(2028, 2, 29)),
    ]
    for today, text, kind, want in cases:
        got = one_date(text, today)
        assert got == (kind, want), (today, text, got, want)
    # phrases that carry no date
    for text in ["ask galya about the march schedule", "read chapter 5 on extractions",
                 "submit the module 4 quiz", "поздравила дядю вову", "купить саморезы",
                 "watch the module 5 intro video", "mark the nordvet invoice as done"]:
        assert find_dates(text) == [], (text, find_dates(text))
    # impossible dates raise
    for text in ["31.02", "30 февраля"]:
        try:
            one_date(text)
        except ValueError:
            pass
        else:
            raise AssertionError(text)


# --------------------------------------------------------------------------
# data checks
# --------------------------------------------------------------------------

problems = []


def bad(where, msg):
    problems.append("%s: %s" % (where, msg))


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(name, "blank line %d" % i)
                continue
            try:
                rows.append((i, json.loads(line)))
            except json.JSONDecodeError as e:
                bad("%s:%d" % (name, i), "bad JSON: %s" % e)
    return rows


def parse_iso(s):
    if not isinstance(s, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        raise ValueError(s)
    return dt.date.fromisoformat(s)


def main():
    selftest()

    # projects
    projects = {}
    for i, p in load("projects.jsonl"):
        w = "projects.jsonl:%d" % i
        if set(p) != {"key", "name", "description"}:
            bad(w, "fields %s" % sorted(p))
        if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p.get("key") == "INBOX":
            bad(w, "key %r" % p.get("key"))
        if p.get("key") in projects:
            bad(w, "duplicate key")
        if not p.get("name") or not p.get("description"):
            bad(w, "empty name/description")
        projects[p.get("key")] = p
    if not 4 <= len(projects) <= 6:
        bad("projects.jsonl", "%d projects" % len(projects))

    # tasks
    tasks, seq, titles = {}, Counter(), set()
    for i, t in load("tasks.jsonl"):
        w = "tasks.jsonl:%d" % i
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(w, "fields %s" % sorted(t))
            continue
        pr = t["project"]
        if pr != "INBOX" and pr not in projects:
            bad(w, "unknown project %r" % pr)
        seq[pr] += 1
        if t["key"] != "%s-%d" % (pr, seq[pr]):
            bad(w, "key %s, expected %s-%d" % (t["key"], pr, seq[pr]))
        if norm(t["title"]) in titles:
            bad(w, "duplicate title")
        titles.add(norm(t["title"]))
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(w, "due_kind none with a due")
        elif t["due_kind"] in ("day", "week"):
            try:
                d = parse_iso(t["due"])
                if t["due_kind"] == "week" and d.weekday() != 6:
                    bad(w, "week due %s is not a Sunday" % d)
            except ValueError:
                bad(w, "bad due %r" % t["due"])
        else:
            bad(w, "due_kind %r" % t["due_kind"])
        tasks[t["key"]] = t
    if not 45 <= len(tasks) <= 60:
        bad("tasks.jsonl", "%d tasks" % len(tasks))

    # phrases
    shapes = {
        "close_task": {"tool", "id"},
        "cancel_task": {"tool", "id"},
        "update_task": {"tool", "id", "deadline_kind", "deadline"},
        "list_tasks": {"tool", "filter"},
        "clarify": {"tool", "options"},
        "none": {"tool"},
    }
    by_kind_lang, by_tool, by_filter, seen = Counter(), Counter(), Counter(), set()
    create_proj = Counter()
    rows = load("phrases.jsonl")
    for i, p in rows:
        w = "phrases.jsonl:%d %r" % (i, p.get("text"))
        if set(p) != {"text", "lang", "kind", "expect"}:
            bad(w, "fields %s" % sorted(p))
            continue
        text, lang, kind, e = p["text"], p["lang"], p["kind"], p["expect"]
        if norm(text) in seen:
            bad(w, "duplicate phrase")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            bad(w, "lang %r" % lang)
        cyr = re.search(r"[а-яё]", text.lower()) is not None
        if lang == "ru" and not cyr:
            bad(w, "ru phrase without Cyrillic")
        if lang == "en" and cyr:
            bad(w, "en phrase with Cyrillic")
        if kind not in ("plain", "ambiguous", "unknown"):
            bad(w, "kind %r" % kind)
        tool = e.get("tool")
        by_kind_lang[(kind, lang)] += 1
        by_tool[tool] += 1
        # shape
        if tool == "create_task":
            keys = {"tool", "text", "deadline_kind"}
            if e.get("deadline_kind") in ("day", "week"):
                keys.add("deadline")
            if "project" in e:
                keys.add("project")
            if set(e) != keys:
                bad(w, "create shape %s" % sorted(e))
        elif tool in shapes:
            if set(e) != shapes[tool]:
                bad(w, "%s shape %s" % (tool, sorted(e)))
        else:
            bad(w, "tool %r" % tool)
            continue
        # kind vs action
        if kind == "plain" and tool in ("clarify", "none"):
            bad(w, "plain with %s" % tool)
        if kind == "ambiguous" and tool != "clarify":
            bad(w, "ambiguous must be clarify")
        if kind == "unknown" and tool != "none":
            bad(w, "unknown must be none")
        # referenced keys
        for k in ([e["id"]] if "id" in e else []) + list(e.get("options", [])):
            if k not in tasks:
                bad(w, "no such task %r" % k)
        if tool == "clarify":
            opts = e["options"]
            if len(opts) < 2 or len(set(opts)) != len(opts):
                bad(w, "clarify needs 2+ distinct options")
            # an ambiguous move must not be breakable by "the one not already on that day"
            for kd, d, _ in find_dates(text):
                for k in opts:
                    if k in tasks and tasks[k]["due"] == d.isoformat():
                        bad(w, "move date %s equals the due of option %s" % (d, k))
        if tool == "list_tasks":
            if e["filter"] not in ("today", "inbox", "overdue", "done", "all_by_project"):
                bad(w, "filter %r" % e["filter"])
            by_filter[e["filter"]] += 1
        if tool in ("close_task", "cancel_task") and "?" in text:
            bad(w, "a question cannot close or cancel")
        # dates
        if tool == "update_task":
            if e["deadline_kind"] not in ("day", "week"):
                bad(w, "update deadline_kind %r" % e["deadline_kind"])
            try:
                want = (e["deadline_kind"], parse_iso(e["deadline"]))
                got = one_date(text)
                if got != want:
                    bad(w, "date: expected %s %s, the phrase says %s %s" % (want + got))
                if want[0] == "week" and want[1].weekday() != 6:
                    bad(w, "week deadline not a Sunday")
                t = tasks.get(e["id"])
                if t and t["due"] == e["deadline"] and t["due_kind"] == e["deadline_kind"]:
                    bad(w, "move to the task's current due")
            except ValueError as ex:
                bad(w, "date: %s" % ex)
        if tool == "create_task":
            ct = norm(e["text"])
            nt = norm(text)
            pos = nt.find(ct)
            if not ct or pos < 0:
                bad(w, "create text %r not in the phrase" % e["text"])
                continue
            if "project" in e:
                create_proj[e["project"]] += 1
                if e["project"] not in projects:
                    bad(w, "unknown project %r" % e["project"])
            rest = norm(nt[:pos] + " | " + nt[pos + len(ct):])
            if find_dates(ct):
                bad(w, "create text holds a date expression")
            dates = find_dates(rest)
            if e["deadline_kind"] == "none":
                if dates:
                    bad(w, "no deadline expected but the phrase has %s" % (dates,))
            else:
                try:
                    want = (e["deadline_kind"], parse_iso(e["deadline"]))
                    got = one_date(rest)
                    if got != want:
                        bad(w, "date: expected %s %s, the phrase says %s %s" % (want + got))
                except ValueError as ex:
                    bad(w, "date: %s" % ex)
            # whatever is left besides the text and the date must be command words
            left = rest
            for _, _, (a, b) in sorted(dates, key=lambda x: -x[2][0]):
                left = left[:a] + left[b:]
            left = re.sub(r"[|:,.!]", " ", left)
            cmd = {"добавь", "задачу", "задача", "новая", "напомни", "в", "проект", "add", "to",
                   "remind", "me", "todo", "new", "task",
                   "on", "by", "к"}  # date prepositions the reference does not take in
            cmd |= {norm(pp["name"]) for pp in projects.values()}
            cmd |= {k.lower() for k in projects} | {"клинику", "clinic", "dacha", "choir", "course", "хор"}
            extra = [x for x in left.split() if x not in cmd]
            if extra:
                bad(w, "words outside text/date/command: %s" % extra)

    n = len(rows)
    if problems:
        for pr in problems:
            print("PROBLEM", pr)
        print("%d problem(s)" % len(problems))
        sys.exit(1)

    print("projects %d, tasks %d (%s)" % (len(projects), len(tasks),
          ", ".join("%s %d" % kv for kv in sorted(seq.items()))))
    print("phrases %d" % n)
    for kind in ("plain", "ambiguous", "unknown"):
        print("  %-9s ru %3d  en %3d  total %3d" % (kind, by_kind_lang[(kind, "ru")],
              by_kind_lang[(kind, "en")], by_kind_lang[(kind, "ru")] + by_kind_lang[(kind, "en")]))
    print("  by tool: " + ", ".join("%s %d" % kv for kv in sorted(by_tool.items())))
    print("  list filters: " + ", ".join("%s %d" % kv for kv in sorted(by_filter.items())))
    print("  create with project: " + ", ".join("%s %d" % kv for kv in sorted(create_proj.items())))
    print("OK")


if __name__ == "__main__":
    main()
