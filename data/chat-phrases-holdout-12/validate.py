#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-12 (stdlib only).

Loads projects/tasks/phrases, checks shapes, keys and references, counts by
lang/kind/class, and re-derives every date answer from the phrase text with a
small reference of the house date rules written for this set only.
Prints counts and OK; exits 1 on any problem.
"""
import calendar
import collections
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2030, 9, 3)  # Tuesday, 20:10 Europe/Vilnius
PROBLEMS = []


def bad(msg):
    PROBLEMS.append(msg)


# ---------------------------------------------------------------- date reference
RU_MONTHS = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
             "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
EN_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
EN_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
WD = [  # (regex, weekday index Mon=0)
    (r"понедельник\w*", 0), (r"вторник\w*", 1), (r"сред[ауеы]", 2), (r"четверг\w*", 3),
    (r"пятниц\w*", 4), (r"суббот\w*", 5), (r"воскресень\w*", 6),
    (r"mon(day)?", 0), (r"tue(s|sday)?", 1), (r"wed(nesday)?", 2), (r"thu(rs|rsday)?", 3),
    (r"fri(day)?", 4), (r"sat(urday)?", 5), (r"sun(day)?", 6),
]


def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[,:;!?]", " ", s)
    return re.sub(r"\s+", " ", s).strip()


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def day_month(d, m, today):
    try:
        cand = dt.date(today.year, m, d)
    except ValueError:
        return ("error", None)
    if (today - cand).days > 30:
        try:
            cand = dt.date(today.year + 1, m, d)
        except ValueError:
            return ("error", None)
    return ("day", cand)


def day_of_month(n, today):
    if n < 1 or n > 31:
        return ("error", None)
    y, m = today.year, today.month
    if n < today.day:
        m += 1
        if m == 13:
            y, m = y + 1, 1
    ld = calendar.monthrange(y, m)[1]
    return ("day", dt.date(y, m, min(n, ld)))


def derive(text, today):
    """Return (kind, date) for the date phrase in text, ("error", None), or None."""
    t = norm(text)
    m = re.search(r"\b(\d{4})[-/](\d{2})[-/](\d{2})\b", t)
    if m:
        try:
            return ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            return ("error", None)
    m = re.search(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", t)
    if m:
        try:
            return ("day", dt.date(int(m[3]), int(m[2]), int(m[1])))
        except ValueError:
            return ("error", None)
    m = re.search(r"\b(\d{1,2})\.(\d{1,2})\b", t)
    if m:
        return day_month(int(m[1]), int(m[2]), today)
    m = re.search(r"\b(\d{1,2})/(\d{1,2})\b", t)
    if m:
        if int(m[1]) <= 12:
            return ("error", None)
        return day_month(int(m[1]), int(m[2]), today)
    m = re.search(r"\b(\d{1,2}) (" + "|".join(RU_MONTHS) + r")\b", t)
    if m:
        return day_month(int(m[1]), RU_MONTHS[m[2]], today)
    m = re.search(r"\b(\d{1,2})(?:st|nd|rd|th)? (" + "|".join(EN_MONTHS) + r")\b", t)
    if m:
        return day_month(int(m[1]), EN_MONTHS[m[2]], today)
    m = re.search(r"\b(" + "|".join(EN_MONTHS) + r") (\d{1,2})(?:st|nd|rd|th)?\b", t)
    if m:
        return day_month(int(m[2]), EN_MONTHS[m[1]], today)
    m = re.search(r"\b(\d{1,2}) числа\b", t) or re.search(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", t)
    if m:
        return day_of_month(int(m[1]), today)
    if re.search(r"послезавтра|day after tomorrow", t):
        return ("day", today + dt.timedelta(days=2))
    if re.search(r"\b(сегодня|today|eod)\b", t):
        return ("day", today)
    if re.search(r"\b(завтра|tomorrow|tmrw|tmr)\b", t):
        return ("day", today + dt.timedelta(days=1))
    m = re.search(r"\bчерез (\d+) (день|дня|дней)\b", t) or re.search(r"\bin (\d+) days?\b", t)
    if m:
        return ("day", today + dt.timedelta(days=int(m[1])))
    m = re.search(r"\bчерез (\d+) недел[иь]\b", t) or re.search(r"\bin (\d+) weeks\b", t)
    if m:
        return ("day", today + dt.timedelta(days=7 * int(m[1])))
    if re.search(r"\bчерез неделю\b|\bin a week\b", t):
        return ("day", today + dt.timedelta(days=7))
    if re.search(r"следующ\w* недел\w*|next week", t):
        return ("week", sunday_of(today) + dt.timedelta(days=7))
    if re.search(r"конц\w* недели|этой неделе|this week|end of (the )?week", t):
        return ("week", sunday_of(today))
    if re.search(r"конц\w* года|end of (the )?year", t):
        return ("day", dt.date(today.year, 12, 31))
    if re.search(r"конц\w* месяца|end of (the )?month", t):
        return ("day", last_day(today.year, today.month))
    if re.search(r"следующ\w* месяц\w*|next month", t):
        y, mo = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return ("day", last_day(y, mo))
    if re.search(r"выходн\w*|weekend", t):
        return ("day", today + dt.timedelta(days=(5 - today.weekday()) % 7))
    for rx, wd in WD:
        m = re.search(r"(?:\b(next|следующ\w*) )?\b(" + rx + r")\b", t)
        if m:
            if m[1]:
                monday_next = today + dt.timedelta(days=7 - today.weekday())
                return ("day", monday_next + dt.timedelta(days=wd))
            ahead = (wd - today.weekday()) % 7 or 7
            return ("day", today + dt.timedelta(days=ahead))
    return None


def selftest():
    d = dt.date
    wed = d(2026, 3, 11)
    cases = [
        ("9.02", wed, ("day", d(2026, 2, 9))), ("8.02", wed, ("day", d(2027, 2, 8))),
        ("friday", wed, ("day", d(2026, 3, 13))), ("friday", d(2026, 3, 13), ("day", d(2026, 3, 20))),
        ("next friday", wed, ("day", d(2026, 3, 20))), ("в следующую пятницу", wed, ("day", d(2026, 3, 20))),
        ("до пятницы", wed, ("day", d(2026, 3, 13))), ("this week", d(2026, 3, 15), ("week", d(2026, 3, 15))),
        ("next week", wed, ("week", d(2026, 3, 22))), ("до конца недели", wed, ("week", d(2026, 3, 15))),
        ("weekend", d(2026, 3, 14), ("day", d(2026, 3, 14))), ("на выходных", wed, ("day", d(2026, 3, 14))),
        ("до 30 числа", d(2026, 1, 31), ("day", d(2026, 2, 28))), ("до 31 числа", d(2026, 4, 30), ("day", d(2026, 4, 30))),
        ("до 5 числа", wed, ("day", d(2026, 4, 5))), ("end of month", wed, ("day", d(2026, 3, 31))),
        ("next month", d(2026, 12, 30), ("day", d(2027, 1, 31))), ("end of year", wed, ("day", d(2026, 12, 31))),
        ("через 3 дня", wed, ("day", d(2026, 3, 14))), ("in a week", wed, ("day", d(2026, 3, 18))),
        ("послезавтра", wed, ("day", d(2026, 3, 13))), ("day after tomorrow", wed, ("day", d(2026, 3, 13))),
        ("tomorrow", wed, ("day", d(2026, 3, 12))), ("03/04", wed, ("error", None)),
        ("19/03", wed, ("day", d(2026, 3, 19))), ("20 мая", wed, ("day", d(2026, 5, 20))),
        ("apr 28", wed, ("day", d(2026, 4, 28))), ("2026-02-30", wed, ("error", None)),
        ("31.02", wed, ("error", None)), ("купить хлеб", wed, None),
        ("tuesday", d(2030, 9, 3), ("day", d(2030, 9, 10))), ("next tuesday", d(2030, 9, 3), ("day", d(2030, 9, 10))),
        ("до 3 числа", d(2030, 9, 3), ("day", d(2030, 9, 3))), ("1 августа", d(2030, 9, 3), ("day", d(2031, 8, 1))),
        ("5 августа", d(2030, 9, 3), ("day", d(2030, 8, 5))),
    ]
    for text, today, want in cases:
        got = derive(text, today)
        if got != want:
            print(f"SELFTEST FAIL: {text!r} on {today}: got {got}, want {want}")
            sys.exit(1)
    return len(cases)


# ---------------------------------------------------------------- loading
def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{i}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: {e}")
    return rows


def main():
    n_self = selftest()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"project shape {p}")
        if p["key"] in pkeys or p["key"] == "INBOX":
            bad(f"project key {p['key']}")
        pkeys.add(p["key"])
    if not 4 <= len(projects) <= 6:
        bad("4-6 projects expected")

    tmap, counter = {}, collections.Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"task shape {t}")
            continue
        if t["project"] != "INBOX" and t["project"] not in pkeys:
            bad(f"task {t['key']} unknown project")
        counter[t["project"]] += 1
        if t["key"] != f"{t['project']}-{counter[t['project']]}":
            bad(f"task key {t['key']} out of creation order")
        if t["key"] in tmap:
            bad(f"duplicate task {t['key']}")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"{t['key']} due must be null")
        elif t["due_kind"] in ("day", "week"):
            try:
                due = dt.date.fromisoformat(t["due"])
                if t["due_kind"] == "week" and due.weekday() != 6:
                    bad(f"{t['key']} week due not a Sunday")
            except (TypeError, ValueError):
                bad(f"{t['key']} bad due")
        else:
            bad(f"{t['key']} bad due_kind")
        tmap[t["key"]] = t
    if not 50 <= len(tasks) <= 60:
        bad("50-60 tasks expected")

    TOOLS = {"close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none"}
    CLASSES = {"typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
               "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"}
    KIND_OF = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
    seen, n_dates = set(), 0
    by = collections.Counter()
    tools = collections.Counter()
    for i, ph in enumerate(phrases, 1):
        where = f"phrases:{i} {ph.get('text')!r}"
        need = {"text", "lang", "kind", "class", "expect"}
        extra = set(ph) - need - {"typo"}
        if not need <= set(ph) or extra:
            bad(f"{where}: shape")
            continue
        text, e, cls = ph["text"], ph["expect"], ph["class"]
        if text in seen:
            bad(f"{where}: duplicate text")
        seen.add(text)
        if ph["lang"] not in ("ru", "en"):
            bad(f"{where}: lang")
        has_cyr = bool(re.search(r"[а-яё]", text.lower()))
        if (ph["lang"] == "ru") != has_cyr:
            bad(f"{where}: lang does not match script")
        if cls not in CLASSES:
            bad(f"{where}: class")
        if ph["kind"] != KIND_OF.get(cls, "plain"):
            bad(f"{where}: kind {ph['kind']} for class {cls}")
        if (cls == "typo") != ("typo" in ph):
            bad(f"{where}: typo field only (and always) on class typo")
        fixed = text
        if "typo" in ph:
            ty = ph["typo"]
            if set(ty) != {"wrote", "meant", "in"} or ty["in"] not in ("verb", "date", "title"):
                bad(f"{where}: typo shape")
            elif ty["wrote"] not in text or ty["wrote"] == ty["meant"]:
                bad(f"{where}: typo wrote not in text")
            else:
                fixed = text.replace(ty["wrote"], ty["meant"], 1)
                if ty["in"] == "date" and derive(text, TODAY) == derive(fixed, TODAY):
                    bad(f"{where}: date typo does not affect the date word")
        tool = e.get("tool")
        if tool not in TOOLS:
            bad(f"{where}: tool")
            continue
        tools[tool] += 1
        by[(cls, ph["lang"], ph["kind"])] += 1
        if ph["kind"] == "ambiguous" and tool != "clarify":
            bad(f"{where}: ambiguous must clarify")
        if ph["kind"] == "unknown" and tool != "none":
            bad(f"{where}: unknown must be none")
        if ph["kind"] == "plain" and tool in ("clarify", "none"):
            bad(f"{where}: plain must act")
        if cls == "negated_cancel" and tool != "cancel_task":
            bad(f"{where}: negated_cancel must cancel")
        if cls == "deadline_not_close" and tool not in ("update_task", "create_task"):
            bad(f"{where}: deadline phrase must move/set a date")
        if cls == "project_leadin" and "project" not in e:
            bad(f"{where}: lead-in without project")
        if cls == "report" and tool != "close_task":
            bad(f"{where}: report must close")
        got = derive(fixed, TODAY)
        if tool in ("close_task", "cancel_task", "update_task"):
            if set(e) - {"tool", "id", "deadline_kind", "deadline"} or e.get("id") not in tmap:
                bad(f"{where}: unknown id {e.get('id')}")
                continue
        if tool == "update_task":
            want = (e["deadline_kind"], dt.date.fromisoformat(e["deadline"]))
            n_dates += 1
            if got != want:
                bad(f"{where}: date {want} but reference says {got}")
            cur = tmap[e["id"]]
            if cur["due"] == e["deadline"] and cur["due_kind"] == e["deadline_kind"]:
                bad(f"{where}: move to the current due")
        elif tool == "create_task":
            kind = e.get("deadline_kind")
            if kind == "none":
                if "deadline" in e or got is not None:
                    bad(f"{where}: create none but date {got}")
            else:
                n_dates += 1
                if got != (kind, dt.date.fromisoformat(e.get("deadline", "x") if e.get("deadline") else "2000-01-01")):
                    bad(f"{where}: create date {kind} {e.get('deadline')} but reference says {got}")
            if "project" in e and e["project"] not in pkeys | {"INBOX"}:
                bad(f"{where}: unknown project")
            ct = norm(e.get("text", ""))
            if not ct or ct not in norm(fixed):
                bad(f"{where}: create text not in phrase")
            if derive(ct, TODAY) is not None:
                bad(f"{where}: create text still holds a date")
        elif tool == "list_tasks":
            if e.get("filter") not in ("today", "inbox", "overdue", "done", "all_by_project"):
                bad(f"{where}: filter")
        elif tool == "clarify":
            opts = e.get("options", [])
            if len(opts) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: clarify needs 2+ distinct options")
            for k in opts:
                if k not in tmap:
                    bad(f"{where}: clarify option {k} unknown")
            if got and got[0] != "error":
                n_dates += 1
                for k in opts:
                    if k in tmap and tmap[k]["due"] == got[1].isoformat():
                        bad(f"{where}: move date equals current due of {k}")
        elif tool == "none":
            if set(e) != {"tool"}:
                bad(f"{where}: none shape")

    if len(phrases) < 270:
        bad("at least 270 phrases expected")
    langs = collections.Counter(p["lang"] for p in phrases)
    if abs(langs["ru"] - langs["en"]) > 0.1 * len(phrases):
        bad(f"languages unbalanced {dict(langs)}")
    for c in CLASSES:
        for l in ("ru", "en"):
            if not sum(v for (cc, ll, _), v in by.items() if cc == c and ll == l):
                bad(f"class {c} missing in {l}")

    print(f"selftest: {n_self} fixed date cases pass")
    print(f"projects {len(projects)}, tasks {len(tasks)} {dict(counter)}, phrases {len(phrases)}")
    print("by lang:", dict(langs))
    print("by kind:", dict(collections.Counter(p["kind"] for p in phrases)))
    print("by class (ru/en):")
    for c in sorted(CLASSES):
        ru = sum(v for (cc, ll, _), v in by.items() if cc == c and ll == "ru")
        en = sum(v for (cc, ll, _), v in by.items() if cc == c and ll == "en")
        print(f"  {c:20s} {ru:3d} {en:3d} {ru + en:4d}")
    print("by tool:", dict(tools))
    print(f"date answers re-derived: {n_dates}")
    if PROBLEMS:
        for p in PROBLEMS:
            print("PROBLEM:", p)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
