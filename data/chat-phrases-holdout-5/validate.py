#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-5 (stdlib only).

Run:  python3 data/chat-phrases-holdout-5/validate.py
Prints counts and OK; exits 1 on any problem.

It holds its own small reference of the house date rules (the list in
data/chat-phrases/README.md), self-tests it on fixed values first, and then
re-derives every date answer in phrases.jsonl from the phrase text.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2027, 10, 14)          # Thursday, 19:20, Asia/Yekaterinburg
TODAY_WEEKDAY = "Thursday"

PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)


# --------------------------------------------------------------------------
# Reference of the house date rules (only what the phrases need, plus the
# README's own examples for the self-test).
# --------------------------------------------------------------------------
ERROR = ("error", None)

RU_MONTHS = {
    "январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7,
    "август": 8, "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12,
}
RU_MONTH_RE = r"(январ[ья]|феврал[ья]|марта?|апрел[ья]|ма[йя]|июн[ья]|июл[ья]|августа?|сентябр[ья]|октябр[ья]|ноябр[ья]|декабр[ья])"
EN_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
}
EN_MONTH_RE = r"(" + "|".join(sorted(EN_MONTHS, key=len, reverse=True)) + r")\.?"

WEEKDAYS = [  # (regex alternatives, index Mon=0)
    (r"понедельник\w*|пн|monday|mon", 0),
    (r"вторник\w*|вт|tuesday|tues|tue", 1),
    (r"сред[аеуы]|ср|wednesday|wed", 2),
    (r"четверг\w*|чт|thursday|thurs|thu", 3),
    (r"пятниц\w*|пт|friday|fri", 4),
    (r"суббот\w*|сб|saturday|sat", 5),
    (r"воскресень\w*|вс|sunday|sun", 6),
]


def ru_month(word):
    for stem, m in sorted(RU_MONTHS.items(), key=lambda kv: -len(kv[0])):
        if word.startswith(stem):
            return m
    raise ValueError(word)


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months_last_day(d, n):
    y, m = d.year, d.month + n
    while m > 12:
        y, m = y + 1, m - 12
    return last_day(y, m)


def day_month(today, d, m):
    """Day + month without a year: this year's unless more than 30 days past."""
    try:
        x = dt.date(today.year, m, d)
    except ValueError:
        return ERROR
    if (today - x).days > 30:
        try:
            x = dt.date(today.year + 1, m, d)
        except ValueError:
            return ERROR
    return ("day", x)


def day_of_month(today, d):
    """Day of month alone: next such day on or after today (clamped to month end)."""
    if d < 1 or d > 31:
        return ERROR
    y, m = today.year, today.month
    if d < today.day:
        m += 1
        if m > 12:
            y, m = y + 1, 1
    return ("day", dt.date(y, m, min(d, calendar.monthrange(y, m)[1])))


def derive(text, today):
    """Return (kind, date) for the date phrase in text, ERROR, or None if none found."""
    t = " " + text.lower().replace("ё", "е") + " "
    # explicit dates
    m = re.search(r"\b(\d{4})[-/](\d{2})[-/](\d{2})\b", t)
    if m:
        try:
            return ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            return ERROR
    m = re.search(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", t)
    if m:
        try:
            return ("day", dt.date(int(m[3]), int(m[2]), int(m[1])))
        except ValueError:
            return ERROR
    m = re.search(r"\b(\d{1,2})\.(\d{1,2})\b", t)
    if m:
        return day_month(today, int(m[1]), int(m[2]))
    m = re.search(r"\b(\d{1,2})/(\d{1,2})\b", t)
    if m:
        if int(m[1]) <= 12:
            return ERROR
        return day_month(today, int(m[1]), int(m[2]))
    m = re.search(r"\b(\d{1,2})\s+" + RU_MONTH_RE + r"\b", t)
    if m:
        return day_month(today, int(m[1]), ru_month(m[2]))
    m = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + EN_MONTH_RE + r"(?=\W)", t)
    if m:
        return day_month(today, int(m[1]), EN_MONTHS[m[2]])
    m = re.search(r"\b" + EN_MONTH_RE + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b", t)
    if m:
        return day_month(today, int(m[2]), EN_MONTHS[m[1]])
    m = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)\b", t) or \
        re.search(r"\b(\d{1,2})\s*(?:числа|-?го)\b", t)
    if m:
        return day_of_month(today, int(m[1]))
    # relative amounts
    m = re.search(r"через\s+(\d+)\s+(?:день|дня|дней)\b|\bin\s+(\d+)\s+days?\b", t)
    if m:
        n = int(m[1] or m[2])
        return ("day", today + dt.timedelta(days=n))
    if re.search(r"через\s+(?:две|2)\s+недели|\bin\s+(?:2|two)\s+weeks\b", t):
        return ("day", today + dt.timedelta(days=14))
    if re.search(r"через\s+неделю|\bin\s+a\s+week\b", t):
        return ("day", today + dt.timedelta(days=7))
    sunday = today + dt.timedelta(days=6 - today.weekday())
    if re.search(r"\bnext\s+week\b|следующ\w*\s+недел", t):
        return ("week", sunday + dt.timedelta(days=7))
    if re.search(r"\bthis\s+week\b|\bend\s+of\s+(?:the\s+)?week\b|конц\w*\s+недели|этой\s+неделе", t):
        return ("week", sunday)
    if re.search(r"\bend\s+of\s+(?:the\s+)?month\b|конц\w*\s+месяца|конец\s+месяца", t):
        return ("day", last_day(today.year, today.month))
    if re.search(r"\bnext\s+month\b|следующ\w*\s+месяц", t):
        return ("day", add_months_last_day(today, 1))
    if re.search(r"\bweekend\b|выходн\w*", t):
        return ("day", today + dt.timedelta(days=(5 - today.weekday()) % 7))
    # weekdays
    for alts, idx in WEEKDAYS:
        m = re.search(r"(?:\b(next)\s+|(следующ\w*)\s+)?\b(?:" + alts + r")\b", t)
        if m:
            if m[1] or m[2]:
                monday_next = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
                return ("day", monday_next + dt.timedelta(days=idx))
            delta = (idx - today.weekday()) % 7 or 7
            return ("day", today + dt.timedelta(days=delta))
    if re.search(r"послезавтра|\bday\s+after\s+tomorrow\b", t):
        return ("day", today + dt.timedelta(days=2))
    if re.search(r"\bзавтра\b|\btomorrow\b|\btmrw\b|\btmr\b", t):
        return ("day", today + dt.timedelta(days=1))
    if re.search(r"\bсегодня\b|\btoday\b|\beod\b", t):
        return ("day", today)
    return None


def self_test():
    D = dt.date
    cases = [
        # README examples (house rules), on the README's own dates
        (D(2026, 3, 11), "9.02", ("day", D(2026, 2, 9))),
        (D(2026, 3, 11), "8.02", ("day", D(2027, 2, 8))),
        (D(2026, 3, 11), "friday", ("day", D(2026, 3, 13))),
        (D(2026, 3, 13), "friday", ("day", D(2026, 3, 20))),
        (D(2026, 3, 11), "next friday", ("day", D(2026, 3, 20))),
        (D(2026, 3, 11), "в среду", ("day", D(2026, 3, 18))),
        (D(2026, 3, 11), "this week", ("week", D(2026, 3, 15))),
        (D(2026, 3, 15), "до конца недели", ("week", D(2026, 3, 15))),
        (D(2026, 3, 11), "на следующей неделе", ("week", D(2026, 3, 22))),
        (D(2026, 3, 11), "end of month", ("day", D(2026, 3, 31))),
        (D(2026, 3, 11), "в следующем месяце", ("day", D(2026, 4, 30))),
        (D(2026, 12, 30), "next month", ("day", D(2027, 1, 31))),
        (D(2026, 3, 11), "на выходных", ("day", D(2026, 3, 14))),
        (D(2026, 3, 14), "weekend", ("day", D(2026, 3, 14))),
        (D(2026, 3, 15), "weekend", ("day", D(2026, 3, 21))),
        (D(2026, 3, 11), "через 3 дня", ("day", D(2026, 3, 14))),
        (D(2026, 3, 11), "in 2 weeks", ("day", D(2026, 3, 25))),
        (D(2026, 3, 11), "через неделю", ("day", D(2026, 3, 18))),
        (D(2026, 3, 11), "19/03", ("day", D(2026, 3, 19))),
        (D(2026, 3, 11), "03/04", ERROR),
        (D(2026, 3, 11), "31.02", ERROR),
        (D(2026, 3, 11), "2026-12-24", ("day", D(2026, 12, 24))),
        (D(2026, 3, 11), "24.12.2026", ("day", D(2026, 12, 24))),
        (D(2026, 3, 11), "20 мая", ("day", D(2026, 5, 20))),
        (D(2026, 3, 11), "apr 28", ("day", D(2026, 4, 28))),
        (D(2026, 3, 11), "28 april", ("day", D(2026, 4, 28))),
        (D(2026, 1, 31), "до 30 числа", ("day", D(2026, 2, 28))),
        (D(2026, 4, 30), "до 31 числа", ("day", D(2026, 4, 30))),
        (D(2026, 3, 11), "on the 20th", ("day", D(2026, 3, 20))),
        (D(2026, 3, 11), "before the 5th", ("day", D(2026, 4, 5))),
        (D(2026, 12, 30), "послезавтра", ("day", D(2027, 1, 1))),
        (D(2028, 2, 28), "tomorrow", ("day", D(2028, 2, 29))),
        (D(2028, 2, 28), "end of month", ("day", D(2028, 2, 29))),
        (D(2026, 3, 11), "сегодня", ("day", D(2026, 3, 11))),
        (D(2026, 3, 11), "пн", ("day", D(2026, 3, 16))),
        # this set's TODAY (Thu 2027-10-14)
        (TODAY, "tomorrow", ("day", D(2027, 10, 15))),
        (TODAY, "в четверг", ("day", D(2027, 10, 21))),
        (TODAY, "next thursday", ("day", D(2027, 10, 21))),
        (TODAY, "next monday", ("day", D(2027, 10, 18))),
        (TODAY, "в следующую пятницу", ("day", D(2027, 10, 22))),
        (TODAY, "this week", ("week", D(2027, 10, 17))),
        (TODAY, "next week", ("week", D(2027, 10, 24))),
        (TODAY, "weekend", ("day", D(2027, 10, 16))),
        (TODAY, "june 3", ("day", D(2028, 6, 3))),
        (TODAY, "20 сентября", ("day", D(2027, 9, 20))),   # 24 days past: this year
        (TODAY, "10 сентября", ("day", D(2028, 9, 10))),   # 34 days past: next year
        (TODAY, "10.01", ("day", D(2028, 1, 10))),
        (TODAY, "the 14th", ("day", D(2027, 10, 14))),
        (TODAY, "до 5 числа", ("day", D(2027, 11, 5))),
        (TODAY, "next month", ("day", D(2027, 11, 30))),
        (TODAY, "nothing here", None),
    ]
    ok = True
    for today, text, want in cases:
        got = derive(text, today)
        if got != want:
            print(f"SELF-TEST FAIL: {today} {text!r}: got {got}, want {want}")
            ok = False
    return ok, len(cases)


# --------------------------------------------------------------------------
def load(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def osa_distance(a, b):
    """Optimal string alignment distance (one transposition = one edit)."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            c = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + c)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def norm(s):
    return " ".join(s.lower().replace("ё", "е").split())


def table(title, counter, rows, cols=("ru", "en")):
    print(f"\n{title}")
    print("| | " + " | ".join(cols) + " | total |")
    print("|---|" + "---|" * (len(cols) + 1))
    tot = Counter()
    for r in rows:
        vals = [counter[(r, c)] for c in cols]
        for c, v in zip(cols, vals):
            tot[c] += v
        print(f"| {r} | " + " | ".join(map(str, vals)) + f" | {sum(vals)} |")
    print("| **all** | " + " | ".join(str(tot[c]) for c in cols) + f" | {sum(tot.values())} |")


def main():
    ok, n = self_test()
    if not ok:
        print("date reference failed its self-test; not using it")
        sys.exit(1)
    print(f"date reference self-test: {n} fixed cases pass")
    if TODAY.strftime("%A") != TODAY_WEEKDAY:
        problem("TODAY weekday mismatch")

    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # ---- projects
    pkeys = set()
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"project fields: {p}")
        if not re.fullmatch(r"[A-Z]{2,6}", p.get("key", "")):
            problem(f"project key: {p}")
        if p["key"] in pkeys or p["key"] == "INBOX":
            problem(f"duplicate/reserved project key {p['key']}")
        pkeys.add(p["key"])
        if not p["name"].strip() or not p["description"].strip() or "\n" in p["description"]:
            problem(f"project name/description: {p}")
    if len(projects) != 5:
        problem(f"expected 5 projects, got {len(projects)}")

    # ---- tasks
    if not 50 <= len(tasks) <= 60:
        problem(f"expected 50-60 tasks, got {len(tasks)}")
    seq = Counter()
    by_key = {}
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"task fields: {t}")
        pk = t["project"] or "INBOX"
        if t["project"] is not None and t["project"] not in pkeys:
            problem(f"task {t['key']}: unknown project {t['project']}")
        seq[pk] += 1
        if t["key"] != f"{pk}-{seq[pk]}":
            problem(f"task key {t['key']} should be {pk}-{seq[pk]}")
        by_key[t["key"]] = t
        k = t["due_kind"]
        if k not in ("day", "week", "none"):
            problem(f"{t['key']}: due_kind {k}")
        if (k == "none") != (t["due"] is None):
            problem(f"{t['key']}: due/due_kind mismatch")
        if t["due"]:
            d = dt.date.fromisoformat(t["due"])
            if k == "week" and d.weekday() != 6:
                problem(f"{t['key']}: week due not a Sunday")
            t["_due"] = d
        else:
            t["_due"] = None
    overdue = [t["key"] for t in tasks if t["_due"] and t["_due"] < TODAY]
    due_today = [t["key"] for t in tasks if t["_due"] == TODAY and t["due_kind"] == "day"]
    week = [t["key"] for t in tasks if t["due_kind"] == "week"]
    undated = [t["key"] for t in tasks if t["due_kind"] == "none"]
    print(f"\ntasks {len(tasks)}: " + ", ".join(f"{k} {v}" for k, v in sorted(seq.items())))
    print(f"overdue {len(overdue)}: {' '.join(overdue)}")
    print(f"due today {len(due_today)}: {' '.join(due_today)}")
    print(f"week-kind {len(week)}: {' '.join(week)}")
    print(f"undated {len(undated)}; later {len(tasks) - len(overdue) - len(due_today) - len(week) - len(undated)}")
    if len(overdue) < 3 or len(due_today) < 2 or len(week) < 2:
        problem("need some overdue, some due today and a few week-kind tasks")

    # ---- phrases
    CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
               "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
    SHARES = dict(zip(CLASSES, [13, 11, 8, 8, 4, 7, 10, 18, 13, 8]))
    kind_lang, class_lang, tool_lang = Counter(), Counter(), Counter()
    filters = Counter()
    seen_text = set()
    key_re = re.compile(r"\b([A-Z]{2,6}-\d+)\b")
    for i, p in enumerate(phrases, 1):
        where = f"phrase {i} {p.get('text')!r}"
        extra = set(p) - {"text", "lang", "kind", "class", "expect", "typo"}
        if extra or not {"text", "lang", "kind", "class", "expect"} <= set(p):
            problem(f"{where}: fields")
            continue
        text, lang, kind, cls, e = p["text"], p["lang"], p["kind"], p["class"], p["expect"]
        if norm(text) in seen_text:
            problem(f"{where}: duplicate text")
        seen_text.add(norm(text))
        if lang not in ("ru", "en"):
            problem(f"{where}: lang")
        if cls not in CLASSES:
            problem(f"{where}: class {cls}")
        tool = e.get("tool")
        kind_lang[(kind, lang)] += 1
        class_lang[(cls, lang)] += 1
        tool_lang[(tool, lang)] += 1

        # kind <-> expect
        if kind == "ambiguous" and tool != "clarify":
            problem(f"{where}: ambiguous must expect clarify")
        if kind == "unknown" and tool != "none":
            problem(f"{where}: unknown must expect none")
        if kind == "plain" and tool in ("none", "clarify"):
            problem(f"{where}: plain must expect an action")
        if kind not in ("plain", "ambiguous", "unknown"):
            problem(f"{where}: kind {kind}")
        # class <-> expect
        allowed = {
            "typo": {"close_task", "cancel_task", "update_task", "create_task"},
            "report": {"close_task"},
            "negated_cancel": {"cancel_task", "none"},
            "explicit_form": {"close_task", "update_task"},
            "deadline_not_close": {"update_task"},
            "project_leadin": {"create_task"},
            "offtopic": {"none"},
            "plain_other": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
            "ambiguous": {"clarify"},
            "unknown_other": {"none"},
        }[cls]
        if tool not in allowed:
            problem(f"{where}: class {cls} cannot expect {tool}")
        if cls == "project_leadin" and "project" not in e:
            problem(f"{where}: project lead-in without project")

        # typo
        fixed = text
        if cls == "typo" or "typo" in p:
            ty = p.get("typo")
            if cls != "typo" or not ty:
                problem(f"{where}: typo field and class disagree")
            else:
                w, m, inn = ty.get("wrote"), ty.get("meant"), ty.get("in")
                if inn not in ("verb", "date", "title"):
                    problem(f"{where}: typo.in {inn}")
                if not w or w not in text:
                    problem(f"{where}: typo.wrote not in text")
                elif w == m or osa_distance(w, m) != 1:
                    problem(f"{where}: typo {w!r}->{m!r} is not one edit")
                else:
                    fixed = text.replace(w, m, 1)
                if inn == "date":
                    if tool not in ("update_task", "create_task") or "deadline" not in e:
                        problem(f"{where}: date typo without a date answer")
                    if derive(text, TODAY) == derive(fixed, TODAY):
                        problem(f"{where}: date typo does not touch the date phrase")

        # keys
        for k in key_re.findall(text):
            if tool == "none":
                if k in by_key:
                    problem(f"{where}: none-phrase names an existing key {k}")
            elif e.get("id") != k:
                problem(f"{where}: text names {k} but expect differs")
        if tool in ("close_task", "cancel_task", "update_task"):
            if e.get("id") not in by_key:
                problem(f"{where}: unknown key {e.get('id')}")
        if tool == "clarify":
            opts = e.get("options", [])
            if len(opts) < 2 or len(set(opts)) != len(opts):
                problem(f"{where}: clarify needs >= 2 distinct keys")
            for k in opts:
                if k not in by_key:
                    problem(f"{where}: unknown key {k}")
            got = derive(text, TODAY)
            if got and got != ERROR:
                for k in opts:
                    t = by_key.get(k)
                    if t and t["_due"] == got[1]:
                        problem(f"{where}: move date equals current due of {k}; tie could be broken")

        # dates
        if tool in ("update_task", "create_task"):
            dk = e.get("deadline_kind")
            got = derive(fixed, TODAY)
            if dk == "none" or dk is None:
                if tool == "update_task":
                    problem(f"{where}: update without a date")
                if "deadline" in e:
                    problem(f"{where}: deadline with kind none")
                if got is not None:
                    problem(f"{where}: text has a date phrase {got} but expect has none")
            else:
                if dk not in ("day", "week"):
                    problem(f"{where}: deadline_kind {dk}")
                want = (dk, dt.date.fromisoformat(e.get("deadline", "")))
                if got != want:
                    problem(f"{where}: date re-derived as {got}, expect {want}")
                if tool == "update_task" and e.get("id") in by_key:
                    t = by_key[e["id"]]
                    if t["_due"] == want[1] and t["due_kind"] == dk:
                        problem(f"{where}: update does not change the due")
        if tool == "create_task":
            if not e.get("text") or norm(e["text"]) not in norm(text):
                problem(f"{where}: create text is not taken from the phrase")
            if "project" in e and e["project"] not in pkeys:
                problem(f"{where}: unknown project {e['project']}")
        if tool == "list_tasks":
            f = e.get("filter")
            if f not in ("today", "inbox", "overdue", "done", "all_by_project"):
                problem(f"{where}: filter {f}")
            filters[f] += 1
        if tool not in ("close_task", "cancel_task", "update_task", "create_task",
                        "list_tasks", "clarify", "none"):
            problem(f"{where}: tool {tool}")

    # ---- counts
    total = len(phrases)
    if total < 260:
        problem(f"need at least 260 phrases, got {total}")
    table("kind x lang", kind_lang, ["plain", "ambiguous", "unknown"])
    table("tool x lang", tool_lang, ["close_task", "cancel_task", "update_task", "create_task",
                                     "list_tasks", "clarify", "none"])
    print("list_tasks filters: " + ", ".join(f"{k} {v}" for k, v in sorted(filters.items())))
    table("class x lang", class_lang, CLASSES)
    print("\nclass shares (target %):")
    for c in CLASSES:
        n = class_lang[(c, "ru")] + class_lang[(c, "en")]
        share = 100.0 * n / total
        print(f"  {c:20s} {n:3d}  {share:5.1f} %  (target {SHARES[c]} %)")
        if abs(share - SHARES[c]) > 2.0:
            problem(f"class {c} share {share:.1f} % too far from {SHARES[c]} %")
        if abs(class_lang[(c, "ru")] - class_lang[(c, "en")]) > 3:
            problem(f"class {c} ru/en unbalanced")
    ru = sum(v for (k, l), v in kind_lang.items() if l == "ru")
    en = total - ru
    if abs(ru - en) > total * 0.1:
        problem(f"ru {ru} / en {en} not about equal")

    if PROBLEMS:
        print("\nPROBLEMS:")
        for m in PROBLEMS:
            print("  - " + m)
        sys.exit(1)
    print("\nOK")


if __name__ == "__main__":
    main()
