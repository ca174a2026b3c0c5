#!/usr/bin/env python3
"""Self-check for the chat-phrases-holdout-2 set (standard library only).

    python3 data/chat-phrases-holdout-2/validate.py

Checks projects, tasks (keys, dates, week dues on Sundays), every phrase's
expectation shape, kinds versus actions, that referenced keys exist, that a
create's text is taken from the phrase, and re-derives every expected date
from the phrase's own words with the small reference of the house date rules
below (which tests itself first). Prints counts and OK, exits 1 on a problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2026, 10, 8)  # Thursday; Europe/Moscow, local time 10:00

problems = []


def bad(msg):
    problems.append(msg)


# ---------------------------------------------------------------------------
# A small, independent reference of the house date rules.
# ---------------------------------------------------------------------------

class DateError(Exception):
    pass


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_month(y, m, n=1):
    m0 = m - 1 + n
    return y + m0 // 12, m0 % 12 + 1


def this_sunday(t):
    return t + dt.timedelta(days=6 - t.weekday())


def strictly_next_weekday(t, wd):
    d = (wd - t.weekday()) % 7
    return t + dt.timedelta(days=d or 7)


def weekday_of_next_week(t, wd):
    monday = t - dt.timedelta(days=t.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def coming_saturday(t):
    return t + dt.timedelta(days=(5 - t.weekday()) % 7)


def day_month(t, d, m, y=None):
    try:
        if y is not None:
            return dt.date(y, m, d)
        cand = dt.date(t.year, m, d)
    except ValueError:
        raise DateError("impossible date %s.%s" % (d, m))
    if (t - cand).days > 30:
        try:
            cand = dt.date(t.year + 1, m, d)
        except ValueError:  # 29 Feb
            raise DateError("impossible date next year")
    return cand


def day_of_month(t, d):
    if not 1 <= d <= 31:
        raise DateError("no such day of month")
    y, m = t.year, t.month
    if d < t.day:
        y, m = add_month(y, m)
    return min(dt.date(y, m, min(d, calendar.monthrange(y, m)[1])), last_day(y, m))


RU_MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля",
             "августа", "сентября", "октября", "ноября", "декабря"]
EN_MONTHS = {"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3,
             "apr": 4, "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7,
             "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9, "oct": 10,
             "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12}
EN_MONTH_RE = "|".join(sorted(EN_MONTHS, key=len, reverse=True))
RU_WD = [("понедельник|понедельника|пн", 0), ("вторник|вторника|вт", 1),
         ("среду|среда|среды|ср", 2), ("четверг|четверга|чт", 3),
         ("пятницу|пятница|пятницы|пт", 4), ("субботу|суббота|субботы|сб", 5),
         ("воскресенье|воскресенья|вск|вс", 6)]
EN_WD = [("monday|mon", 0), ("tuesday|tues|tue", 1), ("wednesday|wed", 2),
         ("thursday|thurs|thu", 3), ("friday|fri", 4), ("saturday|sat", 5),
         ("sunday|sun", 6)]
RU_WD_RE = "|".join(f for f, _ in RU_WD)
EN_WD_RE = "|".join(f for f, _ in EN_WD)


def wd_index(word, table):
    for forms, i in table:
        if word in forms.split("|"):
            return i
    raise AssertionError(word)


def _dd_mm(t, m):
    d, mo = int(m.group(1)), int(m.group(2))
    y = int(m.group(3)) if m.group(3) else None
    return ("day", day_month(t, d, mo, y))


def _slash(t, m):
    a, b = int(m.group(1)), int(m.group(2))
    if a <= 12:
        raise DateError("dd/mm with day <= 12 could be mm/dd")
    return ("day", day_month(t, a, b))


def _iso(t, m):
    try:
        return ("day", dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
    except ValueError:
        raise DateError("impossible ISO date")


RULES = [
    # numeric forms
    (r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b", _iso),
    (r"\b(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?\b", _dd_mm),
    (r"\b(\d{1,2})/(\d{1,2})\b", _slash),
    # Russian
    (r"\bпослезавтра\b", lambda t, m: ("day", t + dt.timedelta(days=2))),
    (r"\bзавтр(?:а)?\b", lambda t, m: ("day", t + dt.timedelta(days=1))),
    (r"\bсегодня\b", lambda t, m: ("day", t)),
    (r"\bчерез (\d+) (?:день|дня|дней)\b",
     lambda t, m: ("day", t + dt.timedelta(days=int(m.group(1))))),
    (r"\bчерез неделю\b", lambda t, m: ("day", t + dt.timedelta(days=7))),
    (r"\bчерез (\d+) недел(?:и|ь|ю)\b",
     lambda t, m: ("day", t + dt.timedelta(days=7 * int(m.group(1))))),
    (r"\b(?:до|к) (?:конца|концу) (?:этой )?недели\b", lambda t, m: ("week", this_sunday(t))),
    (r"\b(?:на|в) этой неделе\b|\bна эту неделю\b", lambda t, m: ("week", this_sunday(t))),
    (r"\bна (?:следующей|следующую|след) недел(?:е|ю)\b",
     lambda t, m: ("week", this_sunday(t) + dt.timedelta(days=7))),
    (r"\b(?:в|на|к|до) (?:конец|конце|концу|конца) месяца\b",
     lambda t, m: ("day", last_day(t.year, t.month))),
    (r"\bв следующем месяце\b", lambda t, m: ("day", last_day(*add_month(t.year, t.month)))),
    (r"\b(?:на )?выходн(?:ые|ых)\b", lambda t, m: ("day", coming_saturday(t))),
    (r"\b(?:в|во|на|к|до) (?:следующ(?:ую|ий|ее|его|ей)|след) (" + RU_WD_RE + r")\b",
     lambda t, m: ("day", weekday_of_next_week(t, wd_index(m.group(1), RU_WD)))),
    (r"\b(?:в|во|на|к|до) (" + RU_WD_RE + r")\b",
     lambda t, m: ("day", strictly_next_weekday(t, wd_index(m.group(1), RU_WD)))),
    (r"\b(\d{1,2}) (" + "|".join(RU_MONTHS) + r")\b",
     lambda t, m: ("day", day_month(t, int(m.group(1)), RU_MONTHS.index(m.group(2)) + 1))),
    (r"\b(?:до|к|на) (\d{1,2})(?:-?го)? числ(?:а|у)\b",
     lambda t, m: ("day", day_of_month(t, int(m.group(1))))),
    # English
    (r"\b(?:the )?day after tomorrow\b", lambda t, m: ("day", t + dt.timedelta(days=2))),
    (r"\b(?:tomorrow|tmrw|tmr)\b", lambda t, m: ("day", t + dt.timedelta(days=1))),
    (r"\b(?:today|eod)\b", lambda t, m: ("day", t)),
    (r"\bin (\d+) days?\b", lambda t, m: ("day", t + dt.timedelta(days=int(m.group(1))))),
    (r"\bin a week\b", lambda t, m: ("day", t + dt.timedelta(days=7))),
    (r"\bin (\d+) weeks\b", lambda t, m: ("day", t + dt.timedelta(days=7 * int(m.group(1))))),
    (r"\b(?:this )?weekend\b", lambda t, m: ("day", coming_saturday(t))),
    (r"\b(?:(?:the )?end of (?:the |this )?week|this week)\b", lambda t, m: ("week", this_sunday(t))),
    (r"\bnext week\b", lambda t, m: ("week", this_sunday(t) + dt.timedelta(days=7))),
    (r"\b(?:the )?end of (?:the |this )?month\b", lambda t, m: ("day", last_day(t.year, t.month))),
    (r"\bnext month\b", lambda t, m: ("day", last_day(*add_month(t.year, t.month)))),
    (r"\b(" + EN_MONTH_RE + r") (\d{1,2})(?:st|nd|rd|th)?\b",
     lambda t, m: ("day", day_month(t, int(m.group(2)), EN_MONTHS[m.group(1)]))),
    (r"\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?(" + EN_MONTH_RE + r")\b",
     lambda t, m: ("day", day_month(t, int(m.group(1)), EN_MONTHS[m.group(2)]))),
    (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda t, m: ("day", day_of_month(t, int(m.group(1))))),
    (r"\bnext (" + EN_WD_RE + r")\b",
     lambda t, m: ("day", weekday_of_next_week(t, wd_index(m.group(1), EN_WD)))),
    (r"\b(?:this )?(" + EN_WD_RE + r")\b",
     lambda t, m: ("day", strictly_next_weekday(t, wd_index(m.group(1), EN_WD)))),
]
RULES = [(re.compile(p), f) for p, f in RULES]


def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[,:;!?()«»\"]", " ", s)
    return re.sub(r"\s+", " ", s).strip()


def find_dates(text, today=TODAY):
    """All date expressions in text: list of (words, kind, date | 'error')."""
    s = norm(text)
    found = []
    for rx, fn in RULES:
        for m in rx.finditer(s):
            try:
                kind, date = fn(today, m)
            except DateError:
                kind, date = "error", "error"
            found.append((m.start(), m.group(0), kind, date))
        s = rx.sub(lambda m: " " * len(m.group(0)), s)
    return [f[1:] for f in sorted(found)]


def one_date(text, today=TODAY):
    ds = find_dates(text, today)
    if len(ds) != 1:
        raise DateError("expected one date expression, found %r" % (ds,))
    _, kind, date = ds[0]
    if kind == "error":
        raise DateError("bad date")
    return kind, date


def self_test():
    D = dt.date
    cases = [
        # (text, today, kind, date)  -- the set's TODAY, Thu 2026-10-08
        ("завтра", TODAY, "day", D(2026, 10, 9)),
        ("завтр", TODAY, "day", D(2026, 10, 9)),
        ("tmrw", TODAY, "day", D(2026, 10, 9)),
        ("послезавтра", TODAY, "day", D(2026, 10, 10)),
        ("the day after tomorrow", TODAY, "day", D(2026, 10, 10)),
        ("на сегодня", TODAY, "day", TODAY),
        ("в пятницу", TODAY, "day", D(2026, 10, 9)),
        ("this friday", TODAY, "day", D(2026, 10, 9)),
        ("на пт", TODAY, "day", D(2026, 10, 9)),
        ("в четверг", TODAY, "day", D(2026, 10, 15)),
        ("thursday", TODAY, "day", D(2026, 10, 15)),
        ("на пн", TODAY, "day", D(2026, 10, 12)),
        ("next monday", TODAY, "day", D(2026, 10, 12)),
        ("next friday", TODAY, "day", D(2026, 10, 16)),
        ("на следующую пятницу", TODAY, "day", D(2026, 10, 16)),
        ("до воскресенья", TODAY, "day", D(2026, 10, 11)),
        ("next sunday", TODAY, "day", D(2026, 10, 18)),
        ("до конца недели", TODAY, "week", D(2026, 10, 11)),
        ("на эту неделю", TODAY, "week", D(2026, 10, 11)),
        ("by end of week", TODAY, "week", D(2026, 10, 11)),
        ("на след неделю", TODAY, "week", D(2026, 10, 18)),
        ("на следующей неделе", TODAY, "week", D(2026, 10, 18)),
        ("next week", TODAY, "week", D(2026, 10, 18)),
        ("на выходные", TODAY, "day", D(2026, 10, 10)),
        ("this weekend", TODAY, "day", D(2026, 10, 10)),
        ("на конец месяца", TODAY, "day", D(2026, 10, 31)),
        ("end of month", TODAY, "day", D(2026, 10, 31)),
        ("next month", TODAY, "day", D(2026, 11, 30)),
        ("в следующем месяце", TODAY, "day", D(2026, 11, 30)),
        ("через 3 дня", TODAY, "day", D(2026, 10, 11)),
        ("in 3 days", TODAY, "day", D(2026, 10, 11)),
        ("через неделю", TODAY, "day", D(2026, 10, 15)),
        ("in 2 weeks", TODAY, "day", D(2026, 10, 22)),
        ("14 октября", TODAY, "day", D(2026, 10, 14)),
        ("до 1 декабря", TODAY, "day", D(2026, 12, 1)),
        ("8 сентября", TODAY, "day", D(2026, 9, 8)),      # exactly 30 days back
        ("7 сентября", TODAY, "day", D(2027, 9, 7)),      # 31 days back -> next year
        ("20.10", TODAY, "day", D(2026, 10, 20)),
        ("24.12.2026", TODAY, "day", D(2026, 12, 24)),
        ("23/10", TODAY, "day", D(2026, 10, 23)),
        ("oct 22", TODAY, "day", D(2026, 10, 22)),
        ("on the 15th", TODAY, "day", D(2026, 10, 15)),
        ("до 15 числа", TODAY, "day", D(2026, 10, 15)),
        ("до 8 числа", TODAY, "day", D(2026, 10, 8)),
        ("к 5 числу", TODAY, "day", D(2026, 11, 5)),
        ("2026-12-24", TODAY, "day", D(2026, 12, 24)),
        # other days, to pin down the edges of the rules
        ("friday", D(2026, 10, 9), "day", D(2026, 10, 16)),
        ("this week", D(2026, 10, 9), "week", D(2026, 10, 11)),
        ("end of week", D(2026, 10, 11), "week", D(2026, 10, 11)),
        ("next week", D(2026, 10, 11), "week", D(2026, 10, 18)),
        ("next monday", D(2026, 10, 11), "day", D(2026, 10, 12)),
        ("weekend", D(2026, 10, 10), "day", D(2026, 10, 10)),
        ("weekend", D(2026, 10, 11), "day", D(2026, 10, 17)),
        ("до 30 числа", D(2026, 1, 31), "day", D(2026, 2, 28)),
        ("до 31 числа", D(2026, 4, 30), "day", D(2026, 4, 30)),
        ("next month", D(2026, 12, 30), "day", D(2027, 1, 31)),
        ("в конце месяца", D(2026, 12, 30), "day", D(2026, 12, 31)),
        ("tomorrow", D(2026, 12, 31), "day", D(2027, 1, 1)),
    ]
    for text, today, kind, date in cases:
        try:
            got = one_date(text, today)
        except DateError as e:
            got = ("error", str(e))
        if got != (kind, date):
            bad("date reference self-test: %r on %s gave %r, want %r" % (text, today, got, (kind, date)))
    for text in ["03/04", "31.02", "32.13", "30 февраля", "2026-02-30"]:
        if find_dates(text) and find_dates(text)[0][1] != "error":
            bad("date reference self-test: %r should be an error" % text)
    for text in ["субботний турнир", "saturdays tournament", "mate in two", "всё сделал",
                 "купить подарок серёже к др", "налог за сентябрь", "the draw", "moms birthday"]:
        if find_dates(text):
            bad("date reference self-test: %r should hold no date, got %r" % (text, find_dates(text)))


# ---------------------------------------------------------------------------
# The data
# ---------------------------------------------------------------------------

def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad("%s:%d empty line" % (name, i))
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                bad("%s:%d not JSON: %s" % (name, i, e))
    return rows


def parse_date(s):
    try:
        return dt.date.fromisoformat(s) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", s or "") else None
    except ValueError:
        return None


PROJECT_WORDS = {  # how a phrase may name a project
    "TRAN": ["translations", "переводы"],
    "DOM": ["дом", "home"],
    "KIDS": ["дети", "kids"],
    "CHESS": ["шахматы", "chess"],
    "FIN": ["финансы", "finance"],
}
COMMAND_WORDS = ["добавь", "напомни", "новая задача", "add", "remind me", "todo", "new task"]
CYR = re.compile(r"[а-яё]", re.I)
KEY_RE = re.compile(r"\b([a-z]+)-(\d+)\b", re.I)


def main():
    self_test()

    projects = load("projects.jsonl")
    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad("project fields %r" % p)
        k = p.get("key", "")
        if not re.fullmatch(r"[A-Z]+", k) or k == "INBOX":
            bad("project key %r" % k)
        if not p.get("name") or not p.get("description"):
            bad("project %s lacks name or description" % k)
        pkeys.append(k)
    if len(set(pkeys)) != len(pkeys):
        bad("duplicate project keys")
    if not 4 <= len(projects) <= 6:
        bad("want 4-6 projects, have %d" % len(projects))
    if set(pkeys) != set(PROJECT_WORDS):
        bad("PROJECT_WORDS does not match projects.jsonl")

    tasks = load("tasks.jsonl")
    by_key, seen = {}, {}
    for i, t in enumerate(tasks, 1):
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad("tasks:%d fields %r" % (i, sorted(t)))
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad("tasks:%d unknown project %r" % (i, proj))
        seen[proj] = seen.get(proj, 0) + 1
        want = "%s-%d" % (proj, seen[proj])
        if t["key"] != want:
            bad("tasks:%d key %s, file order gives %s" % (i, t["key"], want))
        if not t["title"].strip():
            bad("tasks:%d empty title" % i)
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad("tasks:%d undated task with a due" % i)
        elif t["due_kind"] in ("day", "week"):
            d = parse_date(t["due"])
            if d is None:
                bad("tasks:%d bad due %r" % (i, t["due"]))
            elif t["due_kind"] == "week" and d.weekday() != 6:
                bad("tasks:%d week due %s is not a Sunday" % (i, d))
        else:
            bad("tasks:%d due_kind %r" % (i, t["due_kind"]))
        by_key[t["key"]] = t
    if not 50 <= len(tasks) <= 60:
        bad("want 50-60 tasks, have %d" % len(tasks))

    phrases = load("phrases.jsonl")
    texts = set()
    counts, tools, filters, extra = {}, {}, {}, {}
    for i, ph in enumerate(phrases, 1):
        where = "phrases:%d %r" % (i, ph.get("text"))
        if set(ph) != {"text", "lang", "kind", "expect"}:
            bad("%s fields %r" % (where, sorted(ph)))
            continue
        text, lang, kind, e = ph["text"], ph["lang"], ph["kind"], ph["expect"]
        n = norm(text)
        if n in texts:
            bad("%s duplicate phrase" % where)
        texts.add(n)
        if lang not in ("ru", "en"):
            bad("%s lang %r" % (where, lang))
        if lang == "ru" and not CYR.search(text):
            bad("%s ru phrase without Cyrillic" % where)
        if lang == "en" and CYR.search(text):
            bad("%s en phrase with Cyrillic" % where)
        if kind not in ("plain", "ambiguous", "unknown"):
            bad("%s kind %r" % (where, kind))
        tool = e.get("tool")
        counts[(kind, lang)] = counts.get((kind, lang), 0) + 1
        tools[tool] = tools.get(tool, 0) + 1
        dates = find_dates(text)

        # expectation shapes
        if tool in ("close_task", "cancel_task"):
            ok = set(e) == {"tool", "id"}
        elif tool == "update_task":
            ok = set(e) == {"tool", "id", "deadline_kind", "deadline"} and e["deadline_kind"] in ("day", "week")
        elif tool == "create_task":
            ok = {"tool", "text", "deadline_kind"} <= set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"}
            ok = ok and e["deadline_kind"] in ("none", "day", "week")
            ok = ok and (("deadline" in e) == (e["deadline_kind"] != "none"))
        elif tool == "list_tasks":
            ok = set(e) == {"tool", "filter"} and e["filter"] in ("today", "inbox", "overdue", "done", "all_by_project")
        elif tool == "clarify":
            ok = set(e) == {"tool", "options"} and isinstance(e["options"], list)
        elif tool == "none":
            ok = set(e) == {"tool"}
        else:
            ok = False
        if not ok:
            bad("%s bad expectation shape %r" % (where, e))
            continue

        # kind versus action
        want_tools = {"plain": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
                      "ambiguous": {"clarify"}, "unknown": {"none"}}.get(kind, set())
        if tool not in want_tools:
            bad("%s kind %s with tool %s" % (where, kind, tool))

        # referenced keys exist
        ids = [e["id"]] if "id" in e else list(e.get("options", []))
        for k in ids:
            if k not in by_key:
                bad("%s refers to missing task %s" % (where, k))
        if any(k not in by_key for k in ids):
            continue

        # explicit keys written in the phrase
        for m in KEY_RE.finditer(text):
            k = "%s-%s" % (m.group(1).upper(), m.group(2))
            if k in by_key:
                if ids != [k]:
                    bad("%s names %s but expects %r" % (where, k, e))
            elif tool != "none":
                bad("%s names missing key %s but expects an action" % (where, k))

        # dates
        if tool in ("close_task", "cancel_task") or (tool == "create_task" and e["deadline_kind"] == "none"):
            if dates:
                bad("%s holds a date expression %r but expects no date" % (where, dates))
        if tool == "update_task" or (tool == "create_task" and e["deadline_kind"] != "none"):
            try:
                got = one_date(text)
                want = (e["deadline_kind"], parse_date(e["deadline"]))
                if got != want:
                    bad("%s date: reference gives %s %s, expected %s %s" % (where, got[0], got[1], want[0], want[1]))
            except DateError as err:
                bad("%s %s" % (where, err))
        if tool == "update_task":
            t = by_key[e["id"]]
            if (t["due_kind"], t["due"]) == (e["deadline_kind"], e["deadline"]):
                bad("%s moves %s to the date it already has" % (where, e["id"]))
            extra["update " + e["deadline_kind"]] = extra.get("update " + e["deadline_kind"], 0) + 1
        if tool == "clarify":
            if len(ids) < 2 or len(set(ids)) != len(ids):
                bad("%s clarify needs two or more distinct options" % where)
            if dates:
                try:
                    k2, d2 = one_date(text)
                    for k in ids:
                        t = by_key[k]
                        if (t["due_kind"], t["due"]) == (k2, d2.isoformat()):
                            bad("%s ambiguous move to %s, which %s already has" % (where, d2, k))
                except DateError as err:
                    bad("%s %s" % (where, err))

        # create text comes from the phrase
        if tool == "create_task":
            ct = norm(e["text"])
            if not ct or ct not in n:
                bad("%s create text %r is not in the phrase" % (where, e["text"]))
            if find_dates(e["text"]):
                bad("%s create text keeps a date %r" % (where, find_dates(e["text"])))
            if any(ct == c or ct.startswith(c + " ") for c in COMMAND_WORDS):
                bad("%s create text starts with a command word" % where)
            rest = n.replace(ct, " ", 1)
            named = [p for p, words in PROJECT_WORDS.items()
                     if re.search(r"\b(?:в проект|в|to|into) (?:%s)\b" % "|".join(words), rest)]
            if named != ([e["project"]] if "project" in e else []):
                bad("%s project named in the phrase %r, expected %r" % (where, named, e.get("project")))
            if "project" in e and e["project"] not in pkeys:
                bad("%s unknown project %s" % (where, e["project"]))
            extra["create " + e["deadline_kind"]] = extra.get("create " + e["deadline_kind"], 0) + 1
            if "project" in e:
                extra["create with project"] = extra.get("create with project", 0) + 1
        if tool == "list_tasks":
            filters[e["filter"]] = filters.get(e["filter"], 0) + 1

    # ------------------------------------------------------------------ report
    print("projects %d, tasks %d (%s)" % (len(projects), len(tasks),
          ", ".join("%s %d" % (k, v) for k, v in seen.items())))
    overdue = [t["key"] for t in tasks if t["due"] and parse_date(t["due"]) < TODAY]
    today = [t["key"] for t in tasks if t["due"] == TODAY.isoformat()]
    weeks = [t["key"] for t in tasks if t["due_kind"] == "week"]
    print("overdue %d %s" % (len(overdue), overdue))
    print("due today %d %s" % (len(today), today))
    print("week dues %d %s" % (len(weeks), weeks))
    print("phrases %d" % len(phrases))
    print("%-10s %4s %4s %5s" % ("kind", "ru", "en", "all"))
    for kind in ("plain", "ambiguous", "unknown"):
        ru, en = counts.get((kind, "ru"), 0), counts.get((kind, "en"), 0)
        print("%-10s %4d %4d %5d" % (kind, ru, en, ru + en))
    ru = sum(v for (k, l), v in counts.items() if l == "ru")
    en = sum(v for (k, l), v in counts.items() if l == "en")
    print("%-10s %4d %4d %5d" % ("all", ru, en, ru + en))
    print("tools: " + ", ".join("%s %d" % kv for kv in sorted(tools.items())))
    print("list filters: " + ", ".join("%s %d" % kv for kv in sorted(filters.items())))
    print("detail: " + ", ".join("%s %d" % kv for kv in sorted(extra.items())))
    if problems:
        for p in problems:
            print("PROBLEM:", p)
        print("%d problem(s)" % len(problems))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
