#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-18 (stdlib only).

    python3 data/chat-phrases-holdout-18/validate.py

Checks the shape of every line of projects.jsonl, tasks.jsonl and phrases.jsonl,
that every referenced task key exists, that task keys reproduce when the file is
loaded in order, and recomputes every expected date from the house date rules with
a small reference written for this set only (it knows exactly the date wordings
this set uses, typos included, and nothing more). Prints counts; exits 1 on any
problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2033, 1, 19, 6, 10)
UTC_OFFSET = dt.timedelta(hours=4)  # Asia/Yerevan, no DST
TODAY = (NOW_UTC + UTC_OFFSET).date()  # 2033-01-19, a Wednesday

CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
CLASS_KIND = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def problem(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                problem(f"{name}:{n}: empty line")
                continue
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                problem(f"{name}:{n}: bad JSON: {e}")
    return rows


# ---------------------------------------------------------------- date reference
def add_days(d, n):
    return d + dt.timedelta(days=n)


def this_sunday(d):
    return add_days(d, 6 - d.weekday())


def next_weekday_strict(d, wd):
    delta = (wd - d.weekday()) % 7
    return add_days(d, delta or 7)


def weekday_next_week(d, wd):
    monday_next = add_days(d, 7 - d.weekday())
    return add_days(monday_next, wd)


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def day_of_month(d, day):
    # next such day on or after d; a month without that day gives its last day
    y, m = d.year, d.month
    for _ in range(3):
        cand = dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))
        if cand >= d:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    raise ValueError(day)


def day_month(d, day, month):
    cand = dt.date(d.year, month, day)
    if (d - cand).days > 30:
        cand = dt.date(d.year + 1, month, day)
    return cand


RU_WD = [(r"понедельник[ау]?", 0), (r"вторник[ау]?", 1), (r"сред[ауеы]", 2),
         (r"четверг[ау]?", 3), (r"пятниц[ауеы]", 4), (r"суббот[ауеы]", 5),
         (r"воскресень[еяю]", 6)]
EN_WD = [("monday", 0), ("tuesday", 1), ("wednesday", 2), ("thursday", 3),
         ("friday", 4), ("saturday", 5), ("sunday", 6)]
RU_MON = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
          "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11,
          "декабря": 12}
EN_MON = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7,
          "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
TOMORROW = r"(?:завтра|завтар|звтра|tomorrow|tomorow|tommorow|tmrw|tmr)"
AFTER_TOMORROW = r"(?:послезавтра|послезватра|day after tomorrow)"


def ref_date(text, today=TODAY):
    """(kind, date) for the date phrase in text, or None when it names no date."""
    t = text.lower().replace("ё", "е")
    if re.search(r"(до|к) конц[ау] недели|на этой неделе|end of (the )?week|this week", t):
        return ("week", this_sunday(today))
    if re.search(r"на следующ(ей|ую) недел[юе]|\bn(e)?xt week", t):
        return ("week", add_days(this_sunday(today), 7))
    if re.search(r"(до|к) конц[ау] месяца|end of (the )?month", t):
        return ("day", last_day(today.year, today.month))
    for pat, wd in RU_WD:
        if re.search(r"в следующ(ий|ую|ее) " + pat + r"\b", t):
            return ("day", weekday_next_week(today, wd))
    for name, wd in EN_WD:
        if re.search(r"\bnext " + name + r"\b", t):
            return ("day", weekday_next_week(today, wd))
    if re.search(r"через неделю|in a week\b", t):
        return ("day", add_days(today, 7))
    m = re.search(r"через (\d+) (дня|дней|день)|\bin (\d+) days?\b", t)
    if m:
        return ("day", add_days(today, int(m.group(1) or m.group(3))))
    if re.search(AFTER_TOMORROW, t):
        return ("day", add_days(today, 2))
    if re.search(r"\b" + TOMORROW + r"\b", t):
        return ("day", add_days(today, 1))
    if re.search(r"\b(сегодня|today|eod)\b", t):
        return ("day", today)
    if re.search(r"(на|до|к) выходны[хме]|\bweekend\b", t):
        return ("day", next_weekday_strict(add_days(today, -1), 5))  # today if Saturday
    m = re.search(r"\b(\d{1,2})\.(\d{1,2})\b(?!\.\d)", t)
    if m:
        return ("day", day_month(today, int(m.group(1)), int(m.group(2))))
    m = re.search(r"\b(\d{1,2}) (" + "|".join(RU_MON) + r")\b", t)
    if m:
        return ("day", day_month(today, int(m.group(1)), RU_MON[m.group(2)]))
    m = re.search(r"\b(" + "|".join(EN_MON) + r")[a-z]* (\d{1,2})\b", t)
    if m:
        return ("day", day_month(today, int(m.group(2)), EN_MON[m.group(1)]))
    m = re.search(r"\b(\d{1,2}) (" + "|".join(EN_MON) + r")[a-z]*\b", t)
    if m:
        return ("day", day_month(today, int(m.group(1)), EN_MON[m.group(2)]))
    m = re.search(r"(\d{1,2}) числ[ауо]|the (\d{1,2})(st|nd|rd|th)\b", t)
    if m:
        return ("day", day_of_month(today, int(m.group(1) or m.group(2))))
    for pat, wd in RU_WD:
        if re.search(r"\b" + pat + r"\b", t):
            return ("day", next_weekday_strict(today, wd))
    for name, wd in EN_WD:
        if re.search(r"\b" + name + r"\b", t):
            return ("day", next_weekday_strict(today, wd))
    return None


def self_test_dates():
    cases = [("в пятницу", ("day", "2033-01-21")), ("friday", ("day", "2033-01-21")),
             ("в среду", ("day", "2033-01-26")), ("next friday", ("day", "2033-01-28")),
             ("next wednesday", ("day", "2033-01-26")), ("до конца недели", ("week", "2033-01-23")),
             ("next week", ("week", "2033-01-30")), ("до конца месяца", ("day", "2033-01-31")),
             ("на выходных", ("day", "2033-01-22")), ("послезавтра", ("day", "2033-01-21")),
             ("через 3 дня", ("day", "2033-01-22")), ("in a week", ("day", "2033-01-26")),
             ("к 5 числу", ("day", "2033-02-05")), ("on the 19th", ("day", "2033-01-19")),
             ("before the 1st", ("day", "2033-02-01")), ("10.02", ("day", "2033-02-10")),
             ("5.01", ("day", "2033-01-05")), ("18.12", ("day", "2033-12-18")),
             ("15.12", ("day", "2033-12-15")), ("1 марта", ("day", "2033-03-01")),
             ("jan 25", ("day", "2033-01-25")), ("завтра", ("day", "2033-01-20")),
             ("сколько в среднем", None)]
    for text, want in cases:
        got = ref_date(text)
        got = got and (got[0], got[1].isoformat())
        if got != want:
            problem(f"date reference self-test: {text!r} -> {got}, want {want}")
    # 30-day rule at its edge, on a different TODAY
    if ref_date("30.01", dt.date(2033, 3, 1))[1] != dt.date(2033, 1, 30):
        problem("date reference self-test: 30-day edge (30 days back stays this year)")
    if ref_date("29.01", dt.date(2033, 3, 1))[1] != dt.date(2034, 1, 29):
        problem("date reference self-test: 31 days back goes to next year")
    if ref_date("до 31 числа", dt.date(2033, 2, 1))[1] != dt.date(2033, 2, 28):
        problem("date reference self-test: day-of-month clamp")


# ---------------------------------------------------------------- checks
def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def main():
    self_test_dates()
    if TODAY.weekday() != 2 or TODAY.isoformat() != "2033-01-19":
        problem(f"TODAY is {TODAY}, expected Wednesday 2033-01-19")

    projects = load("projects.jsonl")
    pkeys = []
    for n, p in projects:
        if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
            problem(f"projects.jsonl:{n}: bad shape {p}")
            continue
        if not re.fullmatch(r"[A-Z]{2,6}", p["key"]) or p["key"] == "INBOX":
            problem(f"projects.jsonl:{n}: bad key {p['key']}")
        pkeys.append(p["key"])
    if len(set(pkeys)) != len(pkeys):
        problem("projects.jsonl: duplicate keys")
    if not 4 <= len(pkeys) <= 6:
        problem(f"projects.jsonl: {len(pkeys)} projects, want 4-6")
    known_projects = set(pkeys) | {"INBOX"}

    tasks = {}
    counter = Counter()
    per_project = Counter()
    for n, t in load("tasks.jsonl"):
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"tasks.jsonl:{n}: bad fields {sorted(t)}")
            continue
        if t["project"] not in known_projects:
            problem(f"tasks.jsonl:{n}: unknown project {t['project']}")
            continue
        counter[t["project"]] += 1
        want = f"{t['project']}-{counter[t['project']]}"
        if t["key"] != want:
            problem(f"tasks.jsonl:{n}: key {t['key']}, loading in order gives {want}")
        if t["key"] in tasks:
            problem(f"tasks.jsonl:{n}: duplicate key {t['key']}")
        if not isinstance(t["title"], str) or not t["title"].strip():
            problem(f"tasks.jsonl:{n}: empty title")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                problem(f"tasks.jsonl:{n}: due_kind none with a due")
        elif t["due_kind"] in ("day", "week"):
            try:
                d = dt.date.fromisoformat(t["due"])
                if t["due_kind"] == "week" and d.weekday() != 6:
                    problem(f"tasks.jsonl:{n}: week due {d} is not a Sunday")
            except (TypeError, ValueError):
                problem(f"tasks.jsonl:{n}: bad due {t['due']}")
        else:
            problem(f"tasks.jsonl:{n}: bad due_kind {t['due_kind']}")
        per_project[t["project"]] += 1
        tasks[t["key"]] = t
    if not 50 <= len(tasks) <= 65:
        problem(f"tasks.jsonl: {len(tasks)} tasks, want 50-65")
    titles = [norm(t["title"]) for t in tasks.values()]
    if len(set(titles)) != len(titles):
        problem("tasks.jsonl: duplicate titles")
    task_langs = Counter("ru" if re.search("[а-яё]", t["title"], re.I) else "en" for t in tasks.values())

    def due_of(k):
        t = tasks[k]
        return None if t["due"] is None else dt.date.fromisoformat(t["due"])

    phrases = load("phrases.jsonl")
    by_class_lang = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_list = Counter()
    seen = set()
    date_checked = 0
    for n, p in phrases:
        where = f"phrases.jsonl:{n}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            problem(f"{where}: bad fields {sorted(p)}")
            continue
        text, lang, kind, exp, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if not isinstance(text, str) or not text.strip():
            problem(f"{where}: empty text")
            continue
        if norm(text) in seen:
            problem(f"{where}: duplicate text {text!r}")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            problem(f"{where}: bad lang {lang}")
        has_cyr = bool(re.search("[а-яё]", text, re.I))
        if lang == "ru" and not has_cyr:
            problem(f"{where}: lang ru without Cyrillic")
        if lang == "en" and has_cyr:
            problem(f"{where}: lang en with Cyrillic")
        if cls not in CLASSES:
            problem(f"{where}: bad class {cls}")
        if kind != CLASS_KIND.get(cls, "plain"):
            problem(f"{where}: class {cls} with kind {kind}")
        if text.rstrip().endswith("."):
            problem(f"{where}: final dot")
        for tok in re.findall(r"\S+", text):
            if tok != tok.lower() and not re.fullmatch(r"[A-Z]+(-\d+)?[:,]?", tok):
                problem(f"{where}: upper case outside a key: {tok!r}")
        by_class_lang[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        if not isinstance(exp, dict) or "tool" not in exp:
            problem(f"{where}: bad expect {exp}")
            continue
        tool = exp["tool"]
        by_tool[tool] += 1
        ref = ref_date(text)
        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"}:
                problem(f"{where}: bad {tool} fields")
            if exp.get("id") not in tasks:
                problem(f"{where}: unknown task {exp.get('id')}")
            if kind != "plain":
                problem(f"{where}: {tool} under kind {kind}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"}:
                problem(f"{where}: bad update_task fields")
                continue
            if exp["id"] not in tasks:
                problem(f"{where}: unknown task {exp['id']}")
                continue
            if ref is None:
                problem(f"{where}: update without a date the reference can read")
            elif (ref[0], ref[1].isoformat()) != (exp["deadline_kind"], exp["deadline"]):
                problem(f"{where}: expected {exp['deadline_kind']} {exp['deadline']}, reference gives {ref[0]} {ref[1]}")
            else:
                date_checked += 1
            if exp["deadline"] == tasks[exp["id"]]["due"]:
                problem(f"{where}: update to the task's current due")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(exp) <= allowed or "text" not in exp or "deadline_kind" not in exp:
                problem(f"{where}: bad create_task fields")
                continue
            if norm(exp["text"]) not in norm(text):
                problem(f"{where}: create text {exp['text']!r} not inside the phrase")
            if "project" in exp and exp["project"] not in known_projects:
                problem(f"{where}: unknown project {exp['project']}")
            if cls == "project_leadin" and "project" not in exp:
                problem(f"{where}: project lead-in without project")
            if exp["deadline_kind"] == "none":
                if "deadline" in exp:
                    problem(f"{where}: kind none with a deadline")
                if ref is not None:
                    problem(f"{where}: no deadline expected, reference reads {ref}")
            else:
                if ref is None:
                    problem(f"{where}: create with a date the reference cannot read")
                elif (ref[0], ref[1].isoformat()) != (exp["deadline_kind"], exp.get("deadline")):
                    problem(f"{where}: expected {exp['deadline_kind']} {exp.get('deadline')}, reference gives {ref[0]} {ref[1]}")
                else:
                    date_checked += 1
        elif tool == "list_tasks":
            if exp.get("filter") not in LIST_FILTERS or not set(exp) <= {"tool", "filter", "period"}:
                problem(f"{where}: bad list_tasks {exp}")
            by_list[exp.get("filter")] += 1
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                problem(f"{where}: bad clarify {exp}")
                continue
            if len(set(opts)) != len(opts):
                problem(f"{where}: repeated clarify options")
            for k in opts:
                if k not in tasks:
                    problem(f"{where}: unknown task {k}")
            if kind != "ambiguous":
                problem(f"{where}: clarify under kind {kind}")
            if re.search(r"перенеси|\bmove\b|\bpush\b", text.lower()):
                if ref is None:
                    problem(f"{where}: ambiguous move without a readable date")
                else:
                    date_checked += 1
                    for k in opts:
                        if due_of(k) == ref[1]:
                            problem(f"{where}: move date {ref[1]} equals the due of candidate {k}")
        elif tool == "none":
            if set(exp) != {"tool"}:
                problem(f"{where}: bad none")
            if kind != "unknown":
                problem(f"{where}: none under kind {kind}")
        else:
            problem(f"{where}: unknown tool {tool}")
        if kind == "ambiguous" and tool != "clarify":
            problem(f"{where}: kind ambiguous must expect clarify")
        if kind == "unknown" and tool != "none":
            problem(f"{where}: kind unknown must expect none")

    # --------------------------------------------------------------- quotas
    total = len(phrases)
    if total < 290:
        problem(f"phrases: {total}, want at least 290")
    for cls in CLASSES:
        ru, en = by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]
        if ru == 0 or en == 0:
            problem(f"class {cls}: missing a language (ru {ru}, en {en})")
        if ru + en < 20:
            problem(f"class {cls}: {ru + en} phrases, want about 20")
    amb = sum(v for (c, _), v in by_class_lang.items() if c == "ambiguous")
    unk = sum(v for (c, _), v in by_class_lang.items() if c in ("offtopic", "unknown_other"))
    if amb < 40:
        problem(f"ambiguous: {amb}, want >= 40")
    if unk < 40:
        problem(f"unknown: {unk}, want >= 40")
    ru_all = sum(v for (_, l), v in by_class_lang.items() if l == "ru")
    en_all = total - ru_all
    if abs(ru_all - en_all) > total * 0.1:
        problem(f"languages unbalanced: ru {ru_all}, en {en_all}")

    # --------------------------------------------------------------- report
    print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), zone Asia/Yerevan (UTC+4)")
    print(f"projects: {len(pkeys)} ({', '.join(pkeys)}) + INBOX")
    print("tasks:", len(tasks), "|", ", ".join(f"{k} {per_project[k]}" for k in pkeys + ["INBOX"]),
          "| titles ru", task_langs["ru"], "en", task_langs["en"])
    overdue = sorted((k for k in tasks if due_of(k) and due_of(k) < TODAY), key=lambda k: due_of(k))
    today = [k for k in tasks if tasks[k]["due_kind"] == "day" and due_of(k) == TODAY]
    weekly = [k for k in tasks if tasks[k]["due_kind"] == "week"]
    later = [k for k in tasks if tasks[k]["due_kind"] == "day" and due_of(k) > TODAY]
    undated = [k for k in tasks if tasks[k]["due_kind"] == "none"]
    print(f"  overdue {len(overdue)}: {', '.join(overdue)}")
    print(f"  due today {len(today)}: {', '.join(today)}")
    week_s = ", ".join("%s (%s)" % (k, tasks[k]["due"]) for k in weekly)
    print(f"  week kind {len(weekly)}: {week_s}")
    print(f"  later day {len(later)}, undated {len(undated)}")
    print(f"phrases: {total} (ru {ru_all}, en {en_all})")
    print(f"  {'class':<20}{'ru':>5}{'en':>5}{'all':>6}")
    for cls in CLASSES:
        ru, en = by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]
        print(f"  {cls:<20}{ru:>5}{en:>5}{ru + en:>6}")
    print(f"  {'kind':<20}{'ru':>5}{'en':>5}{'all':>6}")
    for kind in ("plain", "ambiguous", "unknown"):
        ru, en = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
        print(f"  {kind:<20}{ru:>5}{en:>5}{ru + en:>6}")
    print("  by tool:", ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())),
          "| list:", ", ".join(f"{k} {v}" for k, v in sorted(by_list.items())))
    print(f"  dates recomputed by the reference: {date_checked}")
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  -", p)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
