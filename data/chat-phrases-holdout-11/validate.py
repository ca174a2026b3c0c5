#!/usr/bin/env python3
"""Self-check of the chat-phrases-holdout-11 set (stdlib only).

    python3 data/chat-phrases-holdout-11/validate.py

Loads projects.jsonl, tasks.jsonl and phrases.jsonl next to this file, checks
shapes, keys and references, re-derives every date answer from the phrase text
with a small reference of the house date rules (written for this set only and
self-tested on fixed values first), prints counts and `OK`; exits 1 on a problem.
"""
import calendar
import collections
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2030, 4, 17)  # Wednesday, 07:45 Asia/Bishkek

PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)


# ---------------------------------------------------------------------------
# Reference of the house date rules (only the wordings this set uses, and the
# README's examples). derive(text, today) -> list of (kind, date|None) found.
# ---------------------------------------------------------------------------

EN_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
    "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
    "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9, "october": 10,
    "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
RU_MONTHS = {
    "января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
    "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11,
    "декабря": 12,
}
EN_WD = {
    "monday": 0, "mon": 0, "tuesday": 1, "tues": 1, "tue": 1, "wednesday": 2,
    "wed": 2, "thursday": 3, "thurs": 3, "thur": 3, "thu": 3, "friday": 4,
    "fri": 4, "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}
RU_WD = [  # stems
    ("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
    ("пятниц", 4), ("суббот", 5), ("воскресень", 6),
]
RU_NUM = {"две": 2, "два": 2, "три": 3, "четыре": 4, "пять": 5}


def norm(s):
    return s.lower().replace("ё", "е")


def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def plain_weekday(today, wd):
    ahead = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=ahead or 7)


def next_weekday(today, wd):
    monday_next = today + dt.timedelta(days=7 - today.weekday())
    return monday_next + dt.timedelta(days=wd)


def day_month(today, d, m, y=None):
    try:
        if y is not None:
            return dt.date(y, m, d)
        cand = dt.date(today.year, m, d)
    except ValueError:
        return None
    if (today - cand).days > 30:
        try:
            return dt.date(today.year + 1, m, d)
        except ValueError:
            return None
    return cand


def day_of_month(today, d):
    if d < 1 or d > 31:
        return None
    y, m = today.year, today.month
    for _ in range(2):
        last = calendar.monthrange(y, m)[1]
        cand = dt.date(y, m, min(d, last))
        if cand >= today:
            return cand
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return None


def _wd_en(m):
    return EN_WD[m]


def _wd_ru(word):
    for stem, wd in RU_WD:
        if word.startswith(stem):
            return wd
    return None


EN_MON_RE = "|".join(sorted(EN_MONTHS, key=len, reverse=True))
RU_MON_RE = "|".join(RU_MONTHS)
EN_WD_RE = "|".join(sorted(EN_WD, key=len, reverse=True))
RU_WD_RE = r"(?:понедельник\w*|вторник\w*|сред[уаеы]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*)"


def _rules(today):
    """(regex, function(match) -> (kind, date|None)) in priority order."""
    t = today
    D = lambda n: ("day", t + dt.timedelta(days=n))
    return [
        (r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b",
         lambda m: ("day", day_month(t, int(m[3]), int(m[2]), int(m[1])))),
        (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b",
         lambda m: ("day", day_month(t, int(m[1]), int(m[2]), int(m[3])))),
        (r"\b(\d{1,2})\.(\d{1,2})\b",
         lambda m: ("day", day_month(t, int(m[1]), int(m[2])))),
        (r"\b(\d{1,2})/(\d{1,2})\b",
         lambda m: ("day", day_month(t, int(m[1]), int(m[2])) if int(m[1]) > 12 else None)),
        (r"\b(\d{1,2})\s+(" + RU_MON_RE + r")\b",
         lambda m: ("day", day_month(t, int(m[1]), RU_MONTHS[m[2]]))),
        (r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + EN_MON_RE + r")\b",
         lambda m: ("day", day_month(t, int(m[1]), EN_MONTHS[m[2]]))),
        (r"\b(" + EN_MON_RE + r")\s+(\d{1,2})(?:st|nd|rd|th)?\b",
         lambda m: ("day", day_month(t, int(m[2]), EN_MONTHS[m[1]]))),
        (r"\b(\d{1,2})(?:-?го)?\s+(?:числа|число|числу)\b",
         lambda m: ("day", day_of_month(t, int(m[1])))),
        (r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b",
         lambda m: ("day", day_of_month(t, int(m[1])))),
        (r"\bday after tomorrow\b|\bпослезавтра\b", lambda m: D(2)),
        (r"\btomorrow\b|\btmrw\b|\btmr\b|\bзавтра\b", lambda m: D(1)),
        (r"\btoday\b|\beod\b|\bсегодня\b", lambda m: D(0)),
        (r"\bnext week\b|\bна следующей неделе\b|\bна следующую неделю\b",
         lambda m: ("week", sunday_of(t) + dt.timedelta(days=7))),
        (r"\bthis week\b|\bend of (?:the )?week\b|\b(?:до|к) конц[ау] недели\b|\bна этой неделе\b",
         lambda m: ("week", sunday_of(t))),
        (r"\bnext month\b|\bв следующем месяце\b",
         lambda m: ("day", last_day(t.year + (t.month == 12), t.month % 12 + 1))),
        (r"\bend of (?:the )?month\b|\bконец месяца\b|\b(?:до|к) конц[ау] месяца\b",
         lambda m: ("day", last_day(t.year, t.month))),
        (r"\bend of (?:the )?year\b|\b(?:до|к) конц[ау] года\b|\bконец года\b",
         lambda m: ("day", dt.date(t.year, 12, 31))),
        (r"\b(?:the )?weekend\b|\bвыходны[хе]\b",
         lambda m: ("day", t + dt.timedelta(days=(5 - t.weekday()) % 7))),
        (r"\bin (\d+|a|one|two) weeks?\b|\bчерез (\d+|две|два|три)? ?недел[юиь]\w*\b",
         lambda m: D(7 * _count(m[1] or m[2] or "1"))),
        (r"\bin (\d+) days?\b|\bчерез (\d+|два|три|четыре|пять) (?:день|дня|дней)\b",
         lambda m: D(_count(m[1] or m[2]))),
        (r"\bnext (" + EN_WD_RE + r")\b|\bв? ?следующ\w+ (" + RU_WD_RE + r")\b",
         lambda m: ("day", next_weekday(t, _wd_en(m[1]) if m[1] else _wd_ru(m[2])))),
        (r"\b(?:this )?(" + EN_WD_RE + r")\b|\b(" + RU_WD_RE + r")\b",
         lambda m: ("day", plain_weekday(t, _wd_en(m[1]) if m[1] else _wd_ru(m[2])))),
    ]


def _count(s):
    if s in ("a", "one"):
        return 1
    if s == "two":
        return 2
    if s in RU_NUM:
        return RU_NUM[s]
    n = int(s)
    if n < 0:
        raise ValueError
    return n


def derive(text, today):
    s = norm(text)
    found = []
    for rx, fn in _rules(today):
        while True:
            m = re.search(rx, s)
            if not m:
                break
            kind, d = fn(m)
            found.append((m.start(), kind, d))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    found.sort()
    return [(k, d) for _, k, d in found]


def self_test():
    d = dt.date
    W = d(2026, 3, 11)  # the README's Wednesday
    cases = [
        (W, "friday", ("day", d(2026, 3, 13))),
        (W, "в пятницу", ("day", d(2026, 3, 13))),
        (W, "wednesday", ("day", d(2026, 3, 18))),
        (W, "next friday", ("day", d(2026, 3, 20))),
        (W, "в следующую пятницу", ("day", d(2026, 3, 20))),
        (W, "this friday", ("day", d(2026, 3, 13))),
        (d(2026, 3, 13), "friday", ("day", d(2026, 3, 20))),
        (W, "this week", ("week", d(2026, 3, 15))),
        (d(2026, 3, 15), "до конца недели", ("week", d(2026, 3, 15))),
        (W, "next week", ("week", d(2026, 3, 22))),
        (W, "на следующей неделе", ("week", d(2026, 3, 22))),
        (W, "end of month", ("day", d(2026, 3, 31))),
        (W, "в следующем месяце", ("day", d(2026, 4, 30))),
        (d(2026, 12, 30), "next month", ("day", d(2027, 1, 31))),
        (W, "end of year", ("day", d(2026, 12, 31))),
        (W, "на выходных", ("day", d(2026, 3, 14))),
        (d(2026, 3, 14), "weekend", ("day", d(2026, 3, 14))),
        (W, "послезавтра", ("day", d(2026, 3, 13))),
        (W, "tmrw", ("day", d(2026, 3, 12))),
        (W, "через 3 дня", ("day", d(2026, 3, 14))),
        (W, "in 2 weeks", ("day", d(2026, 3, 25))),
        (W, "через неделю", ("day", d(2026, 3, 18))),
        (W, "9.02", ("day", d(2026, 2, 9))),
        (W, "8.02", ("day", d(2027, 2, 8))),
        (W, "20 мая", ("day", d(2026, 5, 20))),
        (W, "apr 28", ("day", d(2026, 4, 28))),
        (W, "19/03", ("day", d(2026, 3, 19))),
        (W, "03/04", ("day", None)),
        (W, "31.02", ("day", None)),
        (W, "2026-12-24", ("day", d(2026, 12, 24))),
        (W, "24.12.2026", ("day", d(2026, 12, 24))),
        (d(2026, 1, 31), "до 30 числа", ("day", d(2026, 2, 28))),
        (d(2026, 4, 30), "до 31 числа", ("day", d(2026, 4, 30))),
        (W, "on the 20th", ("day", d(2026, 3, 20))),
        (W, "before the 5th", ("day", d(2026, 4, 5))),
        (TODAY, "next thursday", ("day", d(2030, 4, 25))),
        (TODAY, "thursday", ("day", d(2030, 4, 18))),
        (TODAY, "next monday", ("day", d(2030, 4, 22))),
        (TODAY, "к 10.03", ("day", d(2031, 3, 10))),
    ]
    bad = 0
    for today, text, want in cases:
        got = derive(text, today)
        if got != [want]:
            print(f"self-test: {text!r} on {today}: got {got}, want {want}")
            bad += 1
    for text in ["купить хлеб", "send the may report", "the q1 report", "на июль"]:
        if derive(text, TODAY):
            print(f"self-test: {text!r} should carry no date, got {derive(text, TODAY)}")
            bad += 1
    if bad:
        print("date reference self-test FAILED")
        sys.exit(1)
    return len(cases)


# ---------------------------------------------------------------------------


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


CYR = re.compile(r"[а-яё]", re.I)
KIND_OF_CLASS = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain",
    "project_leadin": "plain", "plain_other": "plain",
    "ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown",
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}


def main():
    n_self = self_test()

    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"project shape: {p}")
        if p.get("key") in pkeys or p.get("key") == "INBOX":
            problem(f"project key duplicate or INBOX: {p.get('key')}")
        pkeys.add(p.get("key"))
    if not 4 <= len(projects) <= 6:
        problem(f"{len(projects)} projects, want 4-6")

    by_key = {}
    counters = collections.Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"task shape: {t}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            problem(f"{t['key']}: unknown project {proj}")
        counters[proj] += 1
        if t["key"] != f"{proj}-{counters[proj]}":
            problem(f"{t['key']}: key out of creation order (want {proj}-{counters[proj]})")
        if t["key"] in by_key:
            problem(f"duplicate task key {t['key']}")
        by_key[t["key"]] = t
        if t["due_kind"] == "none":
            if t["due"] is not None:
                problem(f"{t['key']}: due set with kind none")
        elif t["due_kind"] in ("day", "week"):
            try:
                due = dt.date.fromisoformat(t["due"])
            except (TypeError, ValueError):
                problem(f"{t['key']}: bad due {t['due']}")
                continue
            if t["due_kind"] == "week" and due.weekday() != 6:
                problem(f"{t['key']}: week due is not a Sunday")
        else:
            problem(f"{t['key']}: bad due_kind {t['due_kind']}")
    if not 50 <= len(tasks) <= 60:
        problem(f"{len(tasks)} tasks, want 50-60")
    titles = [norm(t["title"]) for t in tasks]
    if len(set(titles)) != len(titles):
        problem("duplicate task titles")

    def due_of(k):
        t = by_key[k]
        return (t["due_kind"], dt.date.fromisoformat(t["due"]) if t["due"] else None)

    counts = collections.Counter()
    by_class = collections.Counter()
    by_tool = collections.Counter()
    seen = set()
    n_dates = 0
    for i, ph in enumerate(phrases, 1):
        where = f"phrases.jsonl:{i}"
        keys = set(ph)
        base = {"text", "lang", "kind", "class", "expect"}
        if keys not in (base, base | {"typo"}):
            problem(f"{where}: shape {sorted(keys)}")
            continue
        text, lang, kind, cls, exp = (ph[k] for k in ("text", "lang", "kind", "class", "expect"))
        if norm(text) in seen:
            problem(f"{where}: duplicate text")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            problem(f"{where}: lang {lang}")
        if (lang == "ru") != bool(CYR.search(text)):
            problem(f"{where}: lang {lang} does not fit the script of the text")
        if cls not in KIND_OF_CLASS:
            problem(f"{where}: class {cls}")
            continue
        if KIND_OF_CLASS[cls] != kind:
            problem(f"{where}: class {cls} with kind {kind}")
        counts[(kind, lang)] += 1
        by_class[(cls, lang)] += 1
        tool = exp.get("tool")
        by_tool[tool] += 1

        # typo record
        if cls == "typo":
            ty = ph.get("typo")
            if not ty or set(ty) != {"wrote", "meant", "in"} or ty["in"] not in ("verb", "date", "title"):
                problem(f"{where}: bad typo record {ty}")
                continue
            if ty["wrote"] not in text or ty["wrote"] == ty["meant"]:
                problem(f"{where}: typo 'wrote' not in text")
        elif "typo" in ph:
            problem(f"{where}: typo record on class {cls}")

        fixed = text
        if cls == "typo" and ph["typo"]["in"] == "date":
            fixed = text.replace(ph["typo"]["wrote"], ph["typo"]["meant"])
            if derive(text, TODAY):
                problem(f"{where}: the misspelt date word still reads as a date")
        found = derive(fixed, TODAY)

        # kind vs tool
        if kind == "ambiguous" and tool != "clarify":
            problem(f"{where}: ambiguous but tool {tool}")
        if kind == "unknown" and tool != "none":
            problem(f"{where}: unknown but tool {tool}")
        if kind == "plain" and tool in ("clarify", "none"):
            problem(f"{where}: plain but tool {tool}")

        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"} or exp["id"] not in by_key:
                problem(f"{where}: bad {tool} {exp}")
            if cls == "deadline_not_close":
                problem(f"{where}: deadline phrase expects {tool}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in by_key:
                problem(f"{where}: bad update {exp}")
                continue
            want = (exp["deadline_kind"], dt.date.fromisoformat(exp["deadline"]))
            if found != [want]:
                problem(f"{where}: date re-derived {found}, expected {want}")
            if want == due_of(exp["id"]):
                problem(f"{where}: move to the date the task already has")
            n_dates += 1
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(exp) <= allowed or "text" not in exp or "deadline_kind" not in exp:
                problem(f"{where}: bad create {exp}")
                continue
            if norm(exp["text"]) not in norm(fixed):
                problem(f"{where}: create text is not part of the phrase")
            if exp.get("project") is not None and exp["project"] not in pkeys:
                problem(f"{where}: create into unknown project {exp['project']}")
            if cls == "project_leadin" and "project" not in exp:
                problem(f"{where}: project lead-in create without project")
            if exp["deadline_kind"] == "none":
                if "deadline" in exp or found:
                    problem(f"{where}: create without deadline, but text reads {found}")
            else:
                want = (exp["deadline_kind"], dt.date.fromisoformat(exp["deadline"]))
                if found != [want]:
                    problem(f"{where}: date re-derived {found}, expected {want}")
                if derive(exp["text"], TODAY):
                    problem(f"{where}: create text still holds the date phrase")
                n_dates += 1
        elif tool == "list_tasks":
            if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in FILTERS:
                problem(f"{where}: bad list {exp}")
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                problem(f"{where}: bad clarify {exp}")
                continue
            if len(set(opts)) != len(opts):
                problem(f"{where}: repeated clarify option")
            for k in opts:
                if k not in by_key:
                    problem(f"{where}: clarify option {k} does not exist")
            # an ambiguous move must name a date no candidate already has
            for kd, d in found:
                for k in opts:
                    if k in by_key and due_of(k)[1] == d:
                        problem(f"{where}: move date {d} equals the due of option {k}")
        elif tool == "none":
            if set(exp) != {"tool"}:
                problem(f"{where}: bad none {exp}")
            for k in re.findall(r"\b([A-Za-z]+-\d+)\b", text):
                if k.upper() in by_key:
                    problem(f"{where}: none, but names existing key {k}")
        else:
            problem(f"{where}: unknown tool {tool}")
        # an explicit key in an acting phrase must be the one acted on
        if tool in ("close_task", "cancel_task", "update_task"):
            for k in re.findall(r"\b([A-Za-z]+-\d+)\b", text):
                if k.upper() != exp["id"]:
                    problem(f"{where}: names {k} but acts on {exp['id']}")

    # ---- report
    print(f"date reference self-test: {n_self} cases passed")
    print(f"projects {len(projects)}, tasks {len(tasks)} "
          + ", ".join(f"{k} {v}" for k, v in sorted(counters.items())))
    overdue = sorted(k for k, t in by_key.items() if t["due_kind"] == "day" and t["due"] < TODAY.isoformat())
    today = sorted(k for k, t in by_key.items() if t["due_kind"] == "day" and t["due"] == TODAY.isoformat())
    week = sorted(k for k, t in by_key.items() if t["due_kind"] == "week")
    undated = [k for k, t in by_key.items() if t["due_kind"] == "none"]
    print(f"  overdue {len(overdue)} {overdue}")
    print(f"  due today {len(today)} {today}")
    print(f"  week dues {len(week)} {week}")
    print(f"  undated {len(undated)}, later days {len(tasks) - len(overdue) - len(today) - len(week) - len(undated)}")
    print(f"phrases {len(phrases)} (date answers re-derived: {n_dates})")
    langs = collections.Counter(p["lang"] for p in phrases)
    print(f"  by lang: ru {langs['ru']}, en {langs['en']}")
    for kind in ("plain", "ambiguous", "unknown"):
        print(f"  {kind:10s} ru {counts[(kind, 'ru')]:3d}  en {counts[(kind, 'en')]:3d}  "
              f"all {counts[(kind, 'ru')] + counts[(kind, 'en')]}")
    for cls in KIND_OF_CLASS:
        ru, en = by_class[(cls, "ru")], by_class[(cls, "en")]
        print(f"  class {cls:20s} ru {ru:3d}  en {en:3d}  all {ru + en}")
        if ru == 0 or en == 0:
            problem(f"class {cls} is missing a language")
    print("  by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
    if len(phrases) < 270:
        problem(f"only {len(phrases)} phrases")

    if PROBLEMS:
        for p in PROBLEMS:
            print("PROBLEM:", p)
        print(f"{len(PROBLEMS)} problem(s)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
