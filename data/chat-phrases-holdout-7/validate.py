#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-7 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks shapes, keys and
references, counts phrases, and re-derives every date answer from the phrase text
with a small reference of the house date rules written for this set only (it is
self-tested on fixed values first). Prints counts and OK; exits 1 on a problem.

    python3 data/chat-phrases-holdout-7/validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2028, 6, 8)  # Thursday, 08:50 Europe/Riga

PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)


# --------------------------------------------------------------------------
# Reference of the house date rules (only what this set needs, plus a margin).
# resolve(text, today) -> list of (kind, date) for every date phrase found,
# or ("error", None) for a recognised but impossible one.
# --------------------------------------------------------------------------
EN_WD = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
RU_WD = [r"понедельник\w*", r"вторник\w*", r"сред[аеуы]\b", r"четверг\w*",
         r"пятниц\w*", r"суббот\w*", r"воскресень\w*"]
EN_MON = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
RU_MON = ["январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август",
          "сентябр", "октябр", "ноябр", "декабр"]
NUMS = {"a": 1, "one": 1, "одну": 1, "один": 1, "two": 2, "две": 2, "два": 2,
        "three": 3, "три": 3}


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def this_sunday(today):
    return today + dt.timedelta(days=6 - today.weekday())


def next_weekday(today, wd):  # strictly after today
    d = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=d or 7)


def weekday_next_week(today, wd):  # that weekday in the next Mon-Sun week
    monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def day_month(today, day, month, year=None):
    try:
        if year:
            return dt.date(year, month, day)
        d = dt.date(today.year, month, day)
    except ValueError:
        return None
    if (today - d).days > 30:
        try:
            d = dt.date(today.year + 1, month, day)
        except ValueError:
            return None
    return d


def day_of_month(today, day):
    if not 1 <= day <= 31:
        return None
    y, m = today.year, today.month
    cand = dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))
    if cand >= today:
        return cand
    y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))


def num(s):
    if s is None:
        return 1
    return int(s) if s.isdigit() else NUMS[s]


def resolve(text, today):
    t = " " + text.lower().replace("ё", "е") + " "
    found = []

    def take(pattern, fn):
        nonlocal t
        for m in list(re.finditer(pattern, t)):
            found.append((m.start(), fn(m)))
        t = re.sub(pattern, lambda m: " " * len(m.group(0)), t)

    D = lambda d, kind="day": (kind, d) if d else ("error", None)
    # relative words
    take(r"\b(?:the )?day after (?:tomorrow|tmrw|tmr)\b|\bпослезавтра\b",
         lambda m: D(today + dt.timedelta(days=2)))
    take(r"\b(?:tomorrow|tmrw|tmr)\b|\bзавтра\b", lambda m: D(today + dt.timedelta(days=1)))
    take(r"\b(?:today|eod)\b|\bсегодня\b", lambda m: D(today))
    # week kind
    take(r"\b(?:the )?end of (?:the |this )?week\b|\bthis week\b|"
         r"(?:до|к) конц[ау] (?:этой )?недели\b|\bна этой неделе\b",
         lambda m: D(this_sunday(today), "week"))
    take(r"\bnext week\b|\bследующ\w* недел\w*",
         lambda m: D(this_sunday(today) + dt.timedelta(days=7), "week"))
    # month / year
    take(r"\b(?:the )?end of (?:the |this )?month\b|(?:до|к) конц[ау] (?:этого )?месяца\b",
         lambda m: D(last_day(today.year, today.month)))
    take(r"\bnext month\b|\bв следующем месяце\b",
         lambda m: D(last_day(today.year + (today.month == 12), today.month % 12 + 1)))
    take(r"\b(?:the )?end of (?:the )?year\b|(?:до|к) конц[ау] года\b",
         lambda m: D(dt.date(today.year, 12, 31)))
    # weekend = coming Saturday (today if Saturday)
    take(r"\b(?:this )?weekend\b|\b(?:на )?выходн\w*",
         lambda m: D(today + dt.timedelta(days=(5 - today.weekday()) % 7)))
    # in N days / weeks
    def span(m):
        n = num(m.group(1))
        unit = m.group(2)
        days = n * 7 if unit.startswith(("week", "недел")) else n
        if n <= 0:
            return ("error", None)
        return D(today + dt.timedelta(days=days))
    take(r"\bin (\d+|a|one|two|three) (days?|weeks?)\b", span)
    take(r"\bчерез (?:(\d+|одну|один|две|два|три) )?(дн\w*|день|недел\w*)", span)
    # next / this weekday
    for i, w in enumerate(EN_WD):
        take(r"\bnext %s\b" % w, lambda m, i=i: D(weekday_next_week(today, i)))
        take(r"\bthis %s\b" % w, lambda m, i=i: D(next_weekday(today, i)))
    for i, w in enumerate(RU_WD):
        take(r"\bследующ\w* %s" % w, lambda m, i=i: D(weekday_next_week(today, i)))
    # plain weekday (any preposition: on/by/to/till/before, в/на/до/к, or none)
    for i, w in enumerate(EN_WD):
        take(r"\b%s\b" % w, lambda m, i=i: D(next_weekday(today, i)))
    for i, w in enumerate(RU_WD):
        take(r"(?<![а-я])%s" % w, lambda m, i=i: D(next_weekday(today, i)))
    # day + month
    mon_en = "|".join(EN_MON)
    take(r"\b(%s)[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?\b" % mon_en,
         lambda m: D(day_month(today, int(m.group(2)), EN_MON.index(m.group(1)) + 1)))
    take(r"\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?(%s)[a-z]*\b" % mon_en,
         lambda m: D(day_month(today, int(m.group(1)), EN_MON.index(m.group(2)) + 1)))
    take(r"\b(\d{1,2}) (%s)[а-я]*" % "|".join(RU_MON),
         lambda m: D(day_month(today, int(m.group(1)), RU_MON.index(m.group(2)) + 1)))
    take(r"\b(\d{4})-(\d{2})-(\d{2})\b",
         lambda m: D(day_month(today, int(m.group(3)), int(m.group(2)), int(m.group(1)))))

    def numeric(m):
        a, b, y = int(m.group(1)), int(m.group(3)), m.group(4)
        if m.group(2) == "/" and a <= 12:
            return ("error", None)  # 03/04 could be mm/dd
        if not 1 <= b <= 12:
            return ("error", None)
        return D(day_month(today, a, b, int(y) if y else None))
    take(r"\b(\d{1,2})([./])(\d{1,2})(?:[./](\d{4}))?\b", numeric)
    # day of month alone
    take(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: D(day_of_month(today, int(m.group(1)))))
    take(r"\b(\d{1,2}) числ\w*", lambda m: D(day_of_month(today, int(m.group(1)))))
    found.sort()
    return [r for _, r in found]


def self_test():
    d = dt.date
    W = d(2026, 3, 11)  # Wednesday
    cases = [
        ("friday", W, ("day", d(2026, 3, 13))),
        ("friday", d(2026, 3, 13), ("day", d(2026, 3, 20))),
        ("this friday", W, ("day", d(2026, 3, 13))),
        ("next friday", W, ("day", d(2026, 3, 20))),
        ("в следующую пятницу", W, ("day", d(2026, 3, 20))),
        ("до пятницы", W, ("day", d(2026, 3, 13))),
        ("к среде", W, ("day", d(2026, 3, 18))),
        ("this week", W, ("week", d(2026, 3, 15))),
        ("до конца недели", d(2026, 3, 15), ("week", d(2026, 3, 15))),
        ("next week", W, ("week", d(2026, 3, 22))),
        ("на следующей неделе", W, ("week", d(2026, 3, 22))),
        ("на следующую неделю", W, ("week", d(2026, 3, 22))),
        ("end of month", W, ("day", d(2026, 3, 31))),
        ("до конца месяца", W, ("day", d(2026, 3, 31))),
        ("next month", W, ("day", d(2026, 4, 30))),
        ("next month", d(2026, 12, 30), ("day", d(2027, 1, 31))),
        ("weekend", W, ("day", d(2026, 3, 14))),
        ("на выходных", d(2026, 3, 14), ("day", d(2026, 3, 14))),
        ("послезавтра", W, ("day", d(2026, 3, 13))),
        ("the day after tomorrow", W, ("day", d(2026, 3, 13))),
        ("tomorrow", d(2026, 12, 31), ("day", d(2027, 1, 1))),
        ("через 3 дня", W, ("day", d(2026, 3, 14))),
        ("через неделю", W, ("day", d(2026, 3, 18))),
        ("in a week", W, ("day", d(2026, 3, 18))),
        ("in 2 weeks", W, ("day", d(2026, 3, 25))),
        ("9.02", W, ("day", d(2026, 2, 9))),
        ("8.02", W, ("day", d(2027, 2, 8))),
        ("20 мая", W, ("day", d(2026, 5, 20))),
        ("apr 28", W, ("day", d(2026, 4, 28))),
        ("28 april", W, ("day", d(2026, 4, 28))),
        ("19/03", W, ("day", d(2026, 3, 19))),
        ("03/04", W, ("error", None)),
        ("32.13", W, ("error", None)),
        ("31.02", W, ("error", None)),
        ("24.12.2026", W, ("day", d(2026, 12, 24))),
        ("2026-12-24", W, ("day", d(2026, 12, 24))),
        ("до 30 числа", d(2026, 1, 31), ("day", d(2026, 2, 28))),
        ("до 31 числа", d(2026, 4, 30), ("day", d(2026, 4, 30))),
        ("on the 20th", W, ("day", d(2026, 3, 20))),
        ("до 5 числа", W, ("day", d(2026, 4, 5))),
        # this set's TODAY, Thursday 2028-06-08
        ("thursday", TODAY, ("day", d(2028, 6, 15))),
        ("next thursday", TODAY, ("day", d(2028, 6, 15))),
        ("next friday", TODAY, ("day", d(2028, 6, 16))),
        ("next monday", TODAY, ("day", d(2028, 6, 12))),
        ("on sunday", TODAY, ("day", d(2028, 6, 11))),
        ("this week", TODAY, ("week", d(2028, 6, 11))),
        ("next week", TODAY, ("week", d(2028, 6, 18))),
        ("до 5 числа", TODAY, ("day", d(2028, 7, 5))),
        ("к 8 числу", TODAY, ("day", d(2028, 6, 8))),
        ("end of month", TODAY, ("day", d(2028, 6, 30))),
        ("next month", TODAY, ("day", d(2028, 7, 31))),
        ("3.05", TODAY, ("day", d(2029, 5, 3))),
        ("1 июня", TODAY, ("day", d(2028, 6, 1))),
        ("weekend", TODAY, ("day", d(2028, 6, 10))),
        ("29 feb", d(2028, 2, 28), ("day", d(2028, 2, 29))),
        ("mark the hose as done", TODAY, None),
        ("invoice for may", TODAY, None),
        ("расписание на июль", TODAY, None),
    ]
    bad = 0
    for text, today, want in cases:
        got = resolve(text, today)
        ok = (got == []) if want is None else (got == [want])
        if not ok:
            bad += 1
            print(f"self-test: {text!r} on {today}: got {got}, want {want}")
    if bad:
        print("date reference self-test FAILED")
        sys.exit(1)
    return len(cases)


# --------------------------------------------------------------------------
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
                problem(f"{name}:{n}: bad json: {e}")
    return rows


def date_ok(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


CYR = re.compile(r"[а-яё]", re.I)
CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
MAJOR = ["typo", "report", "explicit_form", "deadline_not_close", "project_leadin",
         "ambiguous", "offtopic"]
KIND_OF_CLASS = {c: "plain" for c in CLASSES}
KIND_OF_CLASS.update({"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"})
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}


def main():
    n_self = self_test()

    projects = load("projects.jsonl")
    pkeys = []
    for n, p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"projects:{n}: fields {sorted(p)}")
        if not re.fullmatch(r"[A-Z][A-Z0-9]*", p.get("key", "")) or p.get("key") == "INBOX":
            problem(f"projects:{n}: bad key {p.get('key')}")
        pkeys.append(p.get("key"))
    if len(set(pkeys)) != len(pkeys):
        problem("projects: duplicate keys")
    if not 4 <= len(pkeys) <= 6:
        problem(f"projects: {len(pkeys)} projects, want 4-6")

    tasks = load("tasks.jsonl")
    by_key, counters = {}, Counter()
    for n, t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"tasks:{n}: fields {sorted(t)}")
            continue
        proj = t["project"]
        if proj is not None and proj not in pkeys:
            problem(f"tasks:{n}: unknown project {proj}")
        prefix = proj or "INBOX"
        counters[prefix] += 1
        want = f"{prefix}-{counters[prefix]}"
        if t["key"] != want:
            problem(f"tasks:{n}: key {t['key']} but creation order gives {want}")
        if t["key"] in by_key:
            problem(f"tasks:{n}: duplicate key {t['key']}")
        if not t["title"].strip():
            problem(f"tasks:{n}: empty title")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                problem(f"tasks:{n}: due with due_kind none")
        elif t["due_kind"] in ("day", "week"):
            d = date_ok(t["due"])
            if not d:
                problem(f"tasks:{n}: bad due {t['due']}")
            elif t["due_kind"] == "week" and d.weekday() != 6:
                problem(f"tasks:{n}: week due {d} is not a Sunday")
        else:
            problem(f"tasks:{n}: bad due_kind {t['due_kind']}")
        by_key[t["key"]] = t
    if not 50 <= len(by_key) <= 60:
        problem(f"tasks: {len(by_key)} tasks, want 50-60")

    phrases = load("phrases.jsonl")
    seen = {}
    by = Counter()
    by_kind = Counter()
    tools = Counter()
    for n, ph in phrases:
        where = f"phrases:{n}"
        allowed = {"text", "lang", "kind", "class", "expect", "typo"}
        if not {"text", "lang", "kind", "class", "expect"} <= set(ph) or set(ph) - allowed:
            problem(f"{where}: fields {sorted(ph)}")
            continue
        text, lang, kind, cls, exp = ph["text"], ph["lang"], ph["kind"], ph["class"], ph["expect"]
        k = norm(text)
        if k in seen:
            problem(f"{where}: duplicate of line {seen[k]}")
        seen[k] = n
        if lang not in ("ru", "en"):
            problem(f"{where}: bad lang {lang}")
        if lang == "ru" and not CYR.search(text):
            problem(f"{where}: ru phrase without Cyrillic")
        if lang == "en" and CYR.search(text):
            problem(f"{where}: en phrase with Cyrillic")
        if cls not in CLASSES:
            problem(f"{where}: bad class {cls}")
            continue
        if kind != KIND_OF_CLASS[cls]:
            problem(f"{where}: kind {kind} for class {cls}")
        tool = exp.get("tool")
        want_kind = {"clarify": "ambiguous", "none": "unknown"}.get(tool, "plain")
        if kind != want_kind:
            problem(f"{where}: kind {kind} but expect {tool}")
        by[(cls, lang)] += 1
        by_kind[(kind, lang)] += 1
        tools[tool] += 1
        if tool == "list_tasks":
            tools["list:" + str(exp.get("filter"))] += 1

        # typo annotation
        check_text = text
        if cls == "typo":
            ty = ph.get("typo")
            if not isinstance(ty, dict) or set(ty) != {"wrote", "meant", "in"}:
                problem(f"{where}: typo phrase needs typo {{wrote, meant, in}}")
            else:
                if ty["wrote"] not in text:
                    problem(f"{where}: typo.wrote {ty['wrote']!r} not in text")
                if ty["wrote"] == ty["meant"]:
                    problem(f"{where}: typo.wrote == meant")
                if ty["in"] not in ("verb", "date", "title"):
                    problem(f"{where}: typo.in {ty['in']}")
                check_text = text.replace(ty["wrote"], ty["meant"], 1)
                tid = exp.get("id")
                if ty["in"] == "title" and tid in by_key:
                    title = norm(by_key[tid]["title"])
                    same_script = bool(CYR.search(title)) == bool(CYR.search(ty["meant"]))
                    if same_script and norm(ty["meant"])[:4] not in title:
                        problem(f"{where}: meant {ty['meant']!r} not in title of {tid}")
        elif "typo" in ph:
            problem(f"{where}: typo field on a {cls} phrase")

        dates = resolve(check_text, TODAY)
        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"}:
                problem(f"{where}: shape {exp}")
            if exp.get("id") not in by_key:
                problem(f"{where}: unknown id {exp.get('id')}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"}:
                problem(f"{where}: shape {exp}")
            t = by_key.get(exp.get("id"))
            if not t:
                problem(f"{where}: unknown id {exp.get('id')}")
            want = (exp.get("deadline_kind"), date_ok(exp.get("deadline")))
            if want[0] not in ("day", "week") or not want[1]:
                problem(f"{where}: bad deadline {exp}")
            if dates != [want]:
                problem(f"{where}: date reference reads {dates}, expect {want}")
            if t and t["due"] == exp.get("deadline") and t["due_kind"] == exp.get("deadline_kind"):
                problem(f"{where}: update to the task's current due")
        elif tool == "create_task":
            if not {"tool", "text", "deadline_kind"} <= set(exp) or \
                    set(exp) - {"tool", "text", "deadline_kind", "deadline", "project"}:
                problem(f"{where}: shape {exp}")
            if norm(exp.get("text", "")) not in norm(check_text) or not exp.get("text", "").strip():
                problem(f"{where}: create text not a part of the phrase")
            if "project" in exp and exp["project"] not in pkeys:
                problem(f"{where}: unknown project {exp['project']}")
            if cls == "project_leadin" and "project" not in exp:
                problem(f"{where}: project lead-in without project")
            dk = exp.get("deadline_kind")
            if dk == "none":
                if "deadline" in exp:
                    problem(f"{where}: deadline with kind none")
                if dates:
                    problem(f"{where}: date reference finds {dates} but expect has none")
            else:
                want = (dk, date_ok(exp.get("deadline")))
                if dates != [want]:
                    problem(f"{where}: date reference reads {dates}, expect {want}")
            if resolve(exp.get("text", ""), TODAY):
                problem(f"{where}: create text still holds a date phrase")
        elif tool == "list_tasks":
            if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in FILTERS:
                problem(f"{where}: shape {exp}")
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                problem(f"{where}: shape {exp}")
                continue
            if len(set(opts)) != len(opts):
                problem(f"{where}: repeated option")
            for o in opts:
                if o not in by_key:
                    problem(f"{where}: unknown option {o}")
            for kind_, d in dates:
                if kind_ == "error":
                    problem(f"{where}: date phrase reads as error")
                for o in opts:
                    t = by_key.get(o)
                    if t and t["due"] == (d.isoformat() if d else None):
                        problem(f"{where}: move date {d} equals the due of option {o}")
        elif tool == "none":
            if set(exp) != {"tool"}:
                problem(f"{where}: shape {exp}")
        else:
            problem(f"{where}: unknown tool {tool}")

    # coverage
    total = len(phrases)
    if total < 270:
        problem(f"only {total} phrases, want at least 270")
    for c in CLASSES:
        for lang in ("ru", "en"):
            if not by[(c, lang)]:
                problem(f"class {c} has no {lang} phrase")
        if c in MAJOR and by[(c, "ru")] + by[(c, "en")] < 20:
            problem(f"major class {c} has fewer than 20 phrases")
    ru = sum(by[(c, "ru")] for c in CLASSES)
    en = sum(by[(c, "en")] for c in CLASSES)
    if abs(ru - en) > total * 0.1:
        problem(f"languages unbalanced: ru {ru}, en {en}")

    # report
    print(f"date reference self-test: {n_self} cases passed")
    print(f"projects {len(pkeys)}, tasks {len(by_key)} ({dict(counters)}), phrases {total}")
    print(f"{'by kind':20} {'ru':>4} {'en':>4} {'all':>5}")
    for k in ["plain", "ambiguous", "unknown"]:
        print(f"{k:20} {by_kind[(k, 'ru')]:>4} {by_kind[(k, 'en')]:>4} "
              f"{by_kind[(k, 'ru')] + by_kind[(k, 'en')]:>5}")
    print(f"{'by class':20} {'ru':>4} {'en':>4} {'all':>5}")
    for k in CLASSES:
        print(f"{k:20} {by[(k, 'ru')]:>4} {by[(k, 'en')]:>4} {by[(k, 'ru')] + by[(k, 'en')]:>5}")
    print(f"{'all':20} {ru:>4} {en:>4} {total:>5}")
    print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(tools.items())))
    if PROBLEMS:
        for p in PROBLEMS:
            print("PROBLEM:", p)
        print(f"{len(PROBLEMS)} problem(s)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
