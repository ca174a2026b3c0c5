#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-6 (stdlib only).

Run:  python3 data/chat-phrases-holdout-6/validate.py
Prints counts and OK; exits 1 on any problem.

It holds its own small reference of the house date rules (written for this set
only, not taken from the parser) and re-derives every date answer from the
phrase text. The reference is self-tested on fixed values first.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2028, 2, 22)          # Tuesday; local time 19:40, America/Toronto

problems = []


def problem(msg):
    problems.append(msg)


# ---------------------------------------------------------------- date reference

def norm(s):
    s = s.lower().replace("ё", "е")
    return re.sub(r"\s+", " ", s).strip()


def add_days(d, n):
    return d + dt.timedelta(days=n)


def last_day(y, m):
    return calendar.monthrange(y, m)[1]


def this_sunday(today):
    return add_days(today, 6 - today.weekday())


def plain_weekday(today, wd):
    """Next such weekday strictly after today."""
    n = (wd - today.weekday()) % 7
    return add_days(today, n or 7)


def next_weekday(today, wd):
    """That weekday in the next Monday-Sunday week."""
    next_monday = add_days(today, 7 - today.weekday())
    return add_days(next_monday, wd)


def day_month(today, d, m):
    try:
        cand = dt.date(today.year, m, d)
    except ValueError:
        return None
    if (today - cand).days > 30:
        try:
            cand = dt.date(today.year + 1, m, d)
        except ValueError:
            return None
    return cand


def day_of_month(today, d):
    if d < 1 or d > 31:
        return None
    y, m = today.year, today.month
    cand = dt.date(y, m, min(d, last_day(y, m)))
    if cand >= today:
        return cand
    m += 1
    if m == 13:
        y, m = y + 1, 1
    return dt.date(y, m, min(d, last_day(y, m)))


def add_month_end(today, k):
    y, m = today.year, today.month + k
    while m > 12:
        y, m = y + 1, m - 12
    return dt.date(y, m, last_day(y, m))


RU_WD = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
         ("пятниц", 4), ("суббот", 5), ("воскресень", 6)]
EN_WD = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2,
         "wed": 2, "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4,
         "fri": 4, "saturday": 5, "sat": 5, "sunday": 6, "sun": 6}
RU_MONTHS = [("январ", 1), ("феврал", 2), ("март", 3), ("апрел", 4), ("ма", 5),
             ("июн", 6), ("июл", 7), ("август", 8), ("сентябр", 9), ("октябр", 10),
             ("ноябр", 11), ("декабр", 12)]
EN_MONTHS = {"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
             "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
             "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
             "october": 10, "oct": 10, "november": 11, "nov": 11,
             "december": 12, "dec": 12}
EN_MON_RE = "|".join(sorted(EN_MONTHS, key=len, reverse=True))
RU_MON_RE = "|".join(s for s, _ in RU_MONTHS)
EN_WD_RE = "|".join(sorted(EN_WD, key=len, reverse=True))
RU_WD_RE = "|".join(s for s, _ in RU_WD)

# fragments of task titles that look like dates but are not (masked first)
TITLE_DATES = [r"грузчик\w* на 11 марта"]


def rules(today):
    """(regex, function(match) -> (kind, date) or ('error', None)) in priority order."""
    def day(x):
        return ("day", x) if x else ("error", None)

    return [
        (r"\b(\d{4})[-/](\d{2})[-/](\d{2})\b",
         lambda m: day(_safe(int(m[1]), int(m[2]), int(m[3])))),
        (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b",
         lambda m: day(_safe(int(m[3]), int(m[2]), int(m[1])))),
        (r"\b(\d{1,2})\.(\d{1,2})\b",
         lambda m: day(day_month(today, int(m[1]), int(m[2])))),
        (r"\b(\d{1,2})/(\d{1,2})\b",
         lambda m: day(day_month(today, int(m[1]), int(m[2]))) if int(m[1]) > 12
         else ("error", None)),
        (r"(?:до|к) (\d{1,2})(?:-?го)? (?:числа|числу)",
         lambda m: day(day_of_month(today, int(m[1])))),
        (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b(?! of)",
         lambda m: day(day_of_month(today, int(m[1])))),
        (r"\b(\d{1,2}) (" + RU_MON_RE + r")\w*",
         lambda m: day(day_month(today, int(m[1]),
                                 dict(RU_MONTHS)[m[2]]))),
        (r"\b(" + EN_MON_RE + r")\.? (\d{1,2})(?:st|nd|rd|th)?\b",
         lambda m: day(day_month(today, int(m[2]), EN_MONTHS[m[1]]))),
        (r"\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?(" + EN_MON_RE + r")\b",
         lambda m: day(day_month(today, int(m[1]), EN_MONTHS[m[2]]))),
        (r"послезавтра|\bday after tomorrow\b", lambda m: day(add_days(today, 2))),
        (r"завтра|\btomorrow\b|\btmrw?\b", lambda m: day(add_days(today, 1))),
        (r"сегодня|\btoday\b|\beod\b", lambda m: day(today)),
        (r"через (\d+) (?:день|дня|дней)|\bin (\d+) days?\b",
         lambda m: day(add_days(today, int(m[1] or m[2])))),
        (r"через (?:две|2) недели|\bin (?:two|2) weeks\b", lambda m: day(add_days(today, 14))),
        (r"через неделю|\bin a week\b", lambda m: day(add_days(today, 7))),
        (r"следующ\w* недел\w*|\bnext week\b",
         lambda m: ("week", add_days(this_sunday(today), 7))),
        (r"кон(?:ец|ца|цу) недели|этой неделе|\bthis week\b|\bend of (?:the )?week\b",
         lambda m: ("week", this_sunday(today))),
        (r"следующ\w* месяц\w*|\bnext month\b", lambda m: day(add_month_end(today, 1))),
        (r"кон(?:ец|ца|цу) месяца|\bend of (?:the )?month\b|\beom\b",
         lambda m: day(add_month_end(today, 0))),
        (r"кон(?:ец|ца|цу) года|\bend of (?:the )?year\b",
         lambda m: day(dt.date(today.year, 12, 31))),
        (r"выходн\w*|\bweekend\b",
         lambda m: day(today if today.weekday() == 5 else plain_weekday(today, 5))),
        (r"(следующ\w* )?(" + RU_WD_RE + r")\w*",
         lambda m: day((next_weekday if m[1] else plain_weekday)(
             today, dict(RU_WD)[m[2]]))),
        (r"\b(next |this )?(" + EN_WD_RE + r")\b",
         lambda m: day((next_weekday if m[1] == "next " else plain_weekday)(
             today, EN_WD[m[2]]))),
    ]


def _safe(y, m, d):
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def derive(text, today=TODAY):
    """All date expressions in text as a list of (kind, date|None)."""
    s = norm(text)
    for frag in TITLE_DATES:
        s = re.sub(frag, lambda m: "#" * len(m[0]), s)
    found = []
    for rx, fn in rules(today):
        for m in list(re.finditer(rx, s)):
            if "#" in m[0]:
                continue
            found.append((m.start(), fn(m)))
            s = s[:m.start()] + "#" * (m.end() - m.start()) + s[m.end():]
    return [r for _, r in sorted(found)]


def self_test():
    D = dt.date
    wed = D(2026, 3, 11)
    cases = [
        # README examples of the house rules
        ("9.02", wed, ("day", D(2026, 2, 9))),
        ("8.02", wed, ("day", D(2027, 2, 8))),
        ("до 30 числа", D(2026, 1, 31), ("day", D(2026, 2, 28))),
        ("до 31 числа", D(2026, 4, 30), ("day", D(2026, 4, 30))),
        ("friday", D(2026, 3, 13), ("day", D(2026, 3, 20))),
        ("friday", wed, ("day", D(2026, 3, 13))),
        ("next friday", wed, ("day", D(2026, 3, 20))),
        ("в следующую пятницу", wed, ("day", D(2026, 3, 20))),
        ("this week", D(2026, 3, 15), ("week", D(2026, 3, 15))),
        ("до конца недели", wed, ("week", D(2026, 3, 15))),
        ("на следующей неделе", wed, ("week", D(2026, 3, 22))),
        ("weekend", D(2026, 3, 14), ("day", D(2026, 3, 14))),
        ("на выходных", wed, ("day", D(2026, 3, 14))),
        ("end of month", wed, ("day", D(2026, 3, 31))),
        ("next month", D(2026, 12, 30), ("day", D(2027, 1, 31))),
        ("end of year", wed, ("day", D(2026, 12, 31))),
        ("послезавтра", wed, ("day", D(2026, 3, 13))),
        ("через 3 дня", wed, ("day", D(2026, 3, 14))),
        ("in 2 weeks", wed, ("day", D(2026, 3, 25))),
        ("03/04", wed, ("error", None)),
        ("19/03", wed, ("day", D(2026, 3, 19))),
        ("2026-12-24", wed, ("day", D(2026, 12, 24))),
        ("24.12.2026", wed, ("day", D(2026, 12, 24))),
        ("31.02", wed, ("error", None)),
        ("apr 28", wed, ("day", D(2026, 4, 28))),
        ("20 мая", wed, ("day", D(2026, 5, 20))),
        # values this set depends on (TODAY = Tue 2028-02-22, leap year)
        ("tuesday", TODAY, ("day", D(2028, 2, 29))),
        ("next tuesday", TODAY, ("day", D(2028, 2, 29))),
        ("wednesday", TODAY, ("day", D(2028, 2, 23))),
        ("next wednesday", TODAY, ("day", D(2028, 3, 1))),
        ("до конца месяца", TODAY, ("day", D(2028, 2, 29))),
        ("до 30 числа", TODAY, ("day", D(2028, 2, 29))),
        ("до 22 числа", TODAY, ("day", D(2028, 2, 22))),
        ("by the 15th", TODAY, ("day", D(2028, 3, 15))),
        ("jan 15", TODAY, ("day", D(2029, 1, 15))),
        ("30 января", TODAY, ("day", D(2028, 1, 30))),
        ("через неделю", TODAY, ("day", D(2028, 2, 29))),
        ("на следующий месяц", TODAY, ("day", D(2028, 3, 31))),
        ("грузчики на 11 марта найдены", TODAY, None),
    ]
    for text, today, want in cases:
        got = derive(text, today)
        if want is None:
            ok = got == []
        else:
            ok = got == [want]
        if not ok:
            problem(f"date reference self-test: {text!r} on {today}: got {got}, want {want}")


# ---------------------------------------------------------------- helpers

def osa(a, b):
    """Optimal string alignment distance (one swap of neighbours = 1)."""
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


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                problem(f"{name}:{n}: bad JSON: {e}")
    return rows


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
    print("| **all** | " + " | ".join(str(tot[c]) for c in cols) + f" | **{sum(tot.values())}** |")


# ---------------------------------------------------------------- checks

def main():
    self_test()

    projects = load("projects.jsonl")
    pkeys = {}
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"project fields: {p}")
        if not re.fullmatch(r"[A-Z]{2,6}", p.get("key", "")):
            problem(f"project key: {p.get('key')}")
        pkeys[p["key"]] = p
    if len(projects) != 5:
        problem(f"expected 5 projects, got {len(projects)}")

    tasks = load("tasks.jsonl")
    tk = {}
    seq = Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"task fields: {t}")
        p = t["project"]
        if p != "INBOX" and p not in pkeys:
            problem(f"task {t['key']}: unknown project {p}")
        seq[p] += 1
        if t["key"] != f"{p}-{seq[p]}":
            problem(f"task key {t['key']} should be {p}-{seq[p]} (file order)")
        if t["key"] in tk:
            problem(f"duplicate task key {t['key']}")
        tk[t["key"]] = t
        if t["due_kind"] == "none":
            if t["due"] is not None:
                problem(f"{t['key']}: due_kind none with a due")
        else:
            try:
                d = dt.date.fromisoformat(t["due"])
            except (TypeError, ValueError):
                problem(f"{t['key']}: bad due {t['due']}")
                continue
            if t["due_kind"] == "week" and d.weekday() != 6:
                problem(f"{t['key']}: week due {d} is not a Sunday")
            if t["due_kind"] not in ("day", "week"):
                problem(f"{t['key']}: due_kind {t['due_kind']}")
    if not 50 <= len(tasks) <= 60:
        problem(f"tasks: {len(tasks)} (want 50-60)")

    def due(k):
        t = tk[k]
        return dt.date.fromisoformat(t["due"]) if t["due"] else None

    overdue = [k for k in tk if due(k) and due(k) < TODAY]
    today_ = [k for k in tk if due(k) == TODAY]
    week = [k for k in tk if tk[k]["due_kind"] == "week"]
    undated = [k for k in tk if not due(k)]
    print(f"tasks {len(tasks)}: " + ", ".join(f"{p} {n}" for p, n in seq.items()))
    print(f"overdue {len(overdue)} {overdue}")
    print(f"today {len(today_)} {today_}")
    print(f"week-kind {len(week)} {week}")
    print(f"undated {len(undated)}")

    phrases = load("phrases.jsonl")
    CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
               "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
    TOOLS = ["close_task", "cancel_task", "update_task", "create_task", "list_tasks",
             "clarify", "none"]
    FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
    kind_lang, class_lang, tool_lang = Counter(), Counter(), Counter()
    filt = Counter()
    seen = set()
    for n, ph in enumerate(phrases, 1):
        where = f"phrases:{n} {ph.get('text')!r}"
        need = {"text", "lang", "kind", "class", "expect"}
        extra = set(ph) - need - {"typo"}
        if need - set(ph) or extra:
            problem(f"{where}: fields {sorted(ph)}")
            continue
        text, lang, kind, cls, e = ph["text"], ph["lang"], ph["kind"], ph["class"], ph["expect"]
        if norm(text) in seen:
            problem(f"{where}: duplicate text")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            problem(f"{where}: lang {lang}")
        if cls not in CLASSES:
            problem(f"{where}: class {cls}")
        tool = e.get("tool")
        if tool not in TOOLS:
            problem(f"{where}: tool {tool}")
            continue
        want_kind = {"clarify": "ambiguous", "none": "unknown"}.get(tool, "plain")
        if kind != want_kind:
            problem(f"{where}: kind {kind} but tool {tool}")
        if cls == "ambiguous" and tool != "clarify":
            problem(f"{where}: class ambiguous must clarify")
        if cls in ("offtopic", "unknown_other") and tool != "none":
            problem(f"{where}: class {cls} must be none")
        if cls in ("typo", "report", "explicit_form", "deadline_not_close",
                   "project_leadin", "plain_other") and kind != "plain":
            problem(f"{where}: class {cls} must be plain")
        if cls == "report" and tool != "close_task":
            problem(f"{where}: report must close")
        if cls == "negated_cancel" and tool not in ("cancel_task", "none"):
            problem(f"{where}: negated_cancel must cancel or none")
        if cls == "deadline_not_close" and tool != "update_task":
            problem(f"{where}: deadline_not_close must update")
        if cls == "explicit_form" and tool not in ("close_task", "update_task"):
            problem(f"{where}: explicit_form must close or update")
        if cls == "project_leadin" and (tool != "create_task" or "project" not in e):
            problem(f"{where}: project_leadin must create with a project")
        kind_lang[(kind, lang)] += 1
        class_lang[(cls, lang)] += 1
        tool_lang[(tool, lang)] += 1
        if tool == "list_tasks":
            filt[e.get("filter")] += 1

        # typo
        fixed = text
        if cls == "typo":
            ty = ph.get("typo")
            if not ty or set(ty) != {"wrote", "meant", "in"} or ty["in"] not in ("verb", "date", "title"):
                problem(f"{where}: typo field {ty}")
            else:
                if not re.search(r"(?<!\w)" + re.escape(ty["wrote"]) + r"(?!\w)", text):
                    problem(f"{where}: typo 'wrote' not in text as a word")
                if osa(ty["wrote"], ty["meant"]) != 1:
                    problem(f"{where}: typo is not one edit: {ty}")
                fixed = re.sub(r"(?<!\w)" + re.escape(ty["wrote"]) + r"(?!\w)", ty["meant"], text, count=1)
                if ty["in"] == "date" and "deadline" not in e:
                    problem(f"{where}: date typo but no date answer")
        elif "typo" in ph:
            problem(f"{where}: typo field on a non-typo phrase")

        # keys
        for k in ([e["id"]] if "id" in e else []) + e.get("options", []):
            if k not in tk:
                problem(f"{where}: unknown key {k}")
        if tool == "clarify":
            opts = e.get("options", [])
            if len(opts) < 2 or len(set(opts)) != len(opts):
                problem(f"{where}: clarify options {opts}")
        if tool == "list_tasks" and e.get("filter") not in FILTERS:
            problem(f"{where}: filter {e.get('filter')}")

        # dates
        if tool in ("update_task", "create_task"):
            dk = e.get("deadline_kind")
            got = derive(fixed)
            if tool == "update_task" and dk not in ("day", "week"):
                problem(f"{where}: update without a date")
            if dk in ("day", "week"):
                want = (dk, dt.date.fromisoformat(e["deadline"]))
                if got != [want]:
                    problem(f"{where}: date answer {want} but reference gives {got}")
                if tool == "update_task" and e["id"] in tk and due(e["id"]) == want[1] \
                        and tk[e["id"]]["due_kind"] == dk:
                    problem(f"{where}: move to the task's current due")
            elif dk == "none":
                if "deadline" in e:
                    problem(f"{where}: kind none with a deadline")
                if got:
                    problem(f"{where}: create without a date but reference finds {got}")
            else:
                problem(f"{where}: deadline_kind {dk}")
        if tool == "create_task":
            if norm(e.get("text", "")) not in norm(fixed):
                problem(f"{where}: create text not in the phrase")
            if "project" in e:
                p = e["project"]
                if p not in pkeys:
                    problem(f"{where}: unknown project {p}")
                else:
                    lead = norm(fixed)[:norm(fixed).find(norm(e["text"]))]
                    words = re.findall(r"\w+", lead)
                    pr = pkeys[p]
                    names = {p.lower(), norm(pr["name"])}
                    desc = re.findall(r"\w+", norm(pr["description"]))
                    hit = any(w in names or any(
                        w == dw or (len(w) >= 5 and len(dw) >= 5 and w[:5] == dw[:5])
                        for dw in desc) for w in words)
                    if not hit:
                        problem(f"{where}: lead-in {lead!r} names neither key, name nor description word of {p}")
        if tool == "clarify":
            got = derive(text)
            for kd, d in got:
                for k in e["options"]:
                    if k in tk and due(k) == d:
                        problem(f"{where}: ambiguous move date {d} equals {k}'s due")

    kinds = ["plain", "ambiguous", "unknown"]
    table("kind x lang", kind_lang, kinds)
    table("tool x lang", tool_lang, TOOLS)
    table("class x lang", class_lang, CLASSES)
    print("\nlist filters:", dict(filt))
    total = len(phrases)
    print("class shares:", ", ".join(
        f"{c} {100 * sum(class_lang[(c, l)] for l in ('ru', 'en')) / total:.1f}%" for c in CLASSES))
    if total < 260:
        problem(f"only {total} phrases")
    ru = sum(v for (k, l), v in kind_lang.items() if l == "ru")
    en = total - ru
    if abs(ru - en) > 0.1 * total:
        problem(f"languages unbalanced: ru {ru}, en {en}")

    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print(" -", p)
        sys.exit(1)
    print("\nOK")


if __name__ == "__main__":
    main()
