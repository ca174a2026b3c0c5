#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-53 (stdlib only).

    python3 data/chat-phrases-holdout-53/validate.py          # checks + counts
    python3 data/chat-phrases-holdout-53/validate.py --rules  # also the date table

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and the
keys they name, prints counts by class / kind / lang / tool, and RECOMPUTES every
date answer from the phrase text with a small reference of the house date rules
written for this set only (below). Exits 1 on any problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))

# TODAY: now = 2041-10-26T23:30:00Z, zone Europe/Berlin -> local Sunday 2041-10-27 01:30
# (UTC+2; clocks go back at 03:00 that night). Every relative date uses the LOCAL date.
NOW_UTC = dt.datetime(2041, 10, 26, 23, 30, tzinfo=dt.timezone.utc)
TODAY = dt.date(2041, 10, 27)

CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain",
    "project_leadin": "plain", "offtopic": "unknown", "plain_other": "plain",
    "ambiguous": "ambiguous", "unknown_other": "unknown",
}
TOOLS = {"close_task", "cancel_task", "update_task", "create_task", "list_tasks",
         "clarify", "none"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def bad(msg):
    problems.append(msg)


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
                bad(f"{name}:{i}: bad JSON ({e})")
    return rows


# ---------------------------------------------------------------- local date
def local_today():
    """Europe/Berlin by hand: CEST (UTC+2) from the last Sunday of March 01:00 UTC
    to the last Sunday of October 01:00 UTC, else CET (UTC+1)."""
    y = NOW_UTC.year

    def last_sunday(month):
        d = dt.date(y, month, calendar.monthrange(y, month)[1])
        return d - dt.timedelta(days=(d.weekday() + 1) % 7)

    start = dt.datetime.combine(last_sunday(3), dt.time(1), dt.timezone.utc)
    end = dt.datetime.combine(last_sunday(10), dt.time(1), dt.timezone.utc)
    off = 2 if start <= NOW_UTC < end else 1
    return (NOW_UTC + dt.timedelta(hours=off)).date()


# ---------------------------------------------------------------- house rules
def r_weekday(wd, today=TODAY):
    """plain weekday: the next such day strictly after today."""
    n = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=n or 7)


def r_next_weekday(wd, today=TODAY):
    """'next <weekday>': that weekday in the next Monday-Sunday week."""
    monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def r_this_week(today=TODAY):
    return today + dt.timedelta(days=6 - today.weekday())


def r_next_week(today=TODAY):
    return r_this_week(today) + dt.timedelta(days=7)


def r_weekend(today=TODAY):
    n = (5 - today.weekday()) % 7
    return today + dt.timedelta(days=n)


def r_end_of_month(today=TODAY):
    return today.replace(day=calendar.monthrange(today.year, today.month)[1])


def r_next_month(today=TODAY):
    y, m = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def r_day_month(day, month, today=TODAY):
    d = dt.date(today.year, month, day)
    if (today - d).days > 30:
        d = dt.date(today.year + 1, month, day)
    return d


def r_day_of_month(day, today=TODAY):
    y, m = today.year, today.month
    while True:
        last = calendar.monthrange(y, m)[1]
        d = dt.date(y, m, min(day, last))
        if d >= today:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)


# ---------------------------------------------------------------- date finder
WEEKDAYS = {
    0: ["monday", "mon", "понедельник", "понедельника", "понедельнику", "пн", "maandag"],
    1: ["tuesday", "tue", "вторник", "вторника", "вторнику", "вт", "dinsdag"],
    2: ["wednesday", "wed", "среда", "среду", "среды", "среде", "ср", "woensdag"],
    3: ["thursday", "thu", "четверг", "четверга", "четвергу", "чт", "donderdag"],
    4: ["friday", "fri", "пятница", "пятницу", "пятницы", "пятнице", "пт", "vrijdag"],
    5: ["saturday", "sat", "суббота", "субботу", "субботы", "субботе", "сб", "zaterdag"],
    6: ["sunday", "sun", "воскресенье", "воскресенья", "воскресенью", "вс", "zondag"],
}
WD_FORM = {f: wd for wd, forms in WEEKDAYS.items() for f in forms}
MONTHS = {
    1: ["января", "january", "jan", "januari"], 2: ["февраля", "february", "feb", "februari"],
    3: ["марта", "march", "mar", "maart"], 4: ["апреля", "april", "apr"],
    5: ["мая", "may", "mei"], 6: ["июня", "june", "jun", "juni"],
    7: ["июля", "july", "jul", "juli"], 8: ["августа", "august", "aug", "augustus"],
    9: ["сентября", "september", "sep", "sept"], 10: ["октября", "october", "oct", "oktober"],
    11: ["ноября", "november", "nov"], 12: ["декабря", "december", "dec"],
}
MONTH_FORM = {f: m for m, forms in MONTHS.items() for f in forms}

# fixed token sequences -> (kind, date)
FIXED = [
    ("next week|на следующей неделе|на следующую неделю|volgende week", "week", r_next_week()),
    ("this week|на этой неделе|до конца недели|к концу недели|на эту неделю|deze week",
     "week", r_this_week()),
    ("end of month|end of the month|к концу месяца|на конец месяца|до конца месяца|в конце месяца",
     "day", r_end_of_month()),
    ("next month|в следующем месяце", "day", r_next_month()),
    ("end of year|end of the year|до конца года|к концу года", "day", dt.date(TODAY.year, 12, 31)),
    ("day after tomorrow|послезавтра|overmorgen", "day", TODAY + dt.timedelta(days=2)),
    ("tomorrow|tmrw|tmr|завтра|morgen|mañana|manana", "day", TODAY + dt.timedelta(days=1)),
    ("today|tonight|eod|сегодня|до конца дня|vandaag", "day", TODAY),
    ("weekend|the weekend|выходные|на выходных|на выходные|weekend", "day", r_weekend()),
    ("через неделю|in a week|over een week", "day", TODAY + dt.timedelta(days=7)),
    ("через две недели|in two weeks", "day", TODAY + dt.timedelta(days=14)),
]
FIXED = [(tuple(tuple(p.split()) for p in pats.split("|")), kind, d) for pats, kind, d in FIXED]


def damerau1(a, b):
    """True when a and b are at most one edit apart (incl. one adjacent swap)."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if la > lb:
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


def tok_eq(t, p):
    """a text token matches a pattern token exactly, or one letter off for long words."""
    return t == p or (len(p) >= 5 and len(t) >= 4 and damerau1(t, p))


def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[«»\"“”!?,;:()]", " ", s)
    return s


def tokens(s):
    return [t for t in re.split(r"\s+", norm(s)) if t]


def find_dates(text):
    """All date expressions in text -> list of (start_token, end_token, kind, date)."""
    toks = tokens(text)
    found = []
    used = set()

    def take(i, j, kind, d):
        if any(k in used for k in range(i, j)):
            return
        used.update(range(i, j))
        found.append((i, j, kind, d))

    # numeric and named-month forms first
    for i, t in enumerate(toks):
        m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})", t)
        if m:
            take(i, i + 1, "day", r_day_month(int(m.group(1)), int(m.group(2))))
            continue
        if t.isdigit() and i + 1 < len(toks) and toks[i + 1] in MONTH_FORM:
            take(i, i + 2, "day", r_day_month(int(t), MONTH_FORM[toks[i + 1]]))
            continue
        if t in MONTH_FORM and i + 1 < len(toks) and toks[i + 1].isdigit():
            take(i, i + 2, "day", r_day_month(int(toks[i + 1]), MONTH_FORM[t]))
            continue
        if t == "до" and i + 2 < len(toks) and toks[i + 1].isdigit() and toks[i + 2] == "числа":
            take(i + 1, i + 3, "day", r_day_of_month(int(toks[i + 1])))
            continue
        m = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)", t)
        if m and i > 0 and toks[i - 1] == "the":
            take(i, i + 1, "day", r_day_of_month(int(m.group(1))))
            continue
        if t in ("in", "через") and i + 2 < len(toks) and toks[i + 1].isdigit():
            unit = toks[i + 2]
            n = int(toks[i + 1])
            if unit in ("days", "day", "дня", "дней", "день", "dagen"):
                take(i, i + 3, "day", TODAY + dt.timedelta(days=n))
            elif unit in ("weeks", "week", "недели", "недель", "weken"):
                take(i, i + 3, "day", TODAY + dt.timedelta(days=7 * n))
    # fixed phrases, longest first
    for pats, kind, d in sorted(((p, k, d) for ps, k, d in FIXED for p in [ps]),
                                key=lambda x: -max(len(p) for p in x[0])):
        for pat in sorted(pats, key=len, reverse=True):
            for i in range(len(toks) - len(pat) + 1):
                if all(tok_eq(toks[i + k], pat[k]) for k in range(len(pat))):
                    take(i, i + len(pat), kind, d)
    # weekdays, 'next <weekday>' / 'в следующую <weekday>'
    for i, t in enumerate(toks):
        if i in used:
            continue
        hits = {wd for f, wd in WD_FORM.items() if (t == f) or (len(f) >= 5 and tok_eq(t, f))}
        if len(hits) > 1:
            bad(f"date reference: {t!r} in {text!r} is one letter off two weekdays")
            continue
        if not hits:
            continue
        wd = hits.pop()
        prev = toks[i - 1] if i else ""
        if prev in ("next", "следующую", "следующий", "следующее", "volgende"):
            take(i - 1, i + 1, "day", r_next_weekday(wd))
        else:
            take(i, i + 1, "day", r_weekday(wd))
    found.sort()
    return found


def detok(toks):
    return " ".join(toks)


# ---------------------------------------------------------------- language
CYR = re.compile(r"[а-яё]", re.I)
LAT = re.compile(r"[a-z]", re.I)


def frame_lang(text, project_keys):
    words = re.findall(r"[^\W\d_]+", text.lower().replace("ё", "е"))
    keys = {k.lower() for k in project_keys} | {"inbox"}
    ru = sum(1 for w in words if CYR.search(w))
    en = sum(1 for w in words if LAT.search(w) and w not in keys)
    return "ru" if ru > en else "en" if en > ru else "?"


# ---------------------------------------------------------------- main
def main():
    show_rules = "--rules" in sys.argv
    if local_today() != TODAY:
        bad(f"local date of NOW is {local_today()}, set says {TODAY}")
    if TODAY.weekday() != 6:
        bad("TODAY should be a Sunday")

    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # projects
    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"project fields: {p}")
        if not re.fullmatch(r"[A-Z]{2,8}", p.get("key", "")):
            bad(f"project key: {p}")
        pkeys.append(p.get("key"))
    if "INBOX" in pkeys:
        bad("INBOX must stay implicit")
    if len(set(pkeys)) != len(pkeys):
        bad("duplicate project keys")
    if len(projects) != 5:
        bad(f"expected 5 projects, got {len(projects)}")

    # tasks
    task = {}
    counters = Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"task fields: {t}")
            continue
        proj = t["project"] or "INBOX"
        if t["project"] is not None and t["project"] not in pkeys:
            bad(f"task {t['key']}: unknown project {t['project']}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            bad(f"task key {t['key']} should be {want} (creation order)")
        if t["due_kind"] not in ("none", "day", "week"):
            bad(f"task {t['key']}: due_kind {t['due_kind']}")
        if (t["due"] is None) != (t["due_kind"] == "none"):
            bad(f"task {t['key']}: due / due_kind mismatch")
        if t["due"]:
            d = dt.date.fromisoformat(t["due"])
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"task {t['key']}: week due {d} is not a Sunday")
        task[t["key"]] = t
    titles = [t["title"].lower() for t in tasks]
    if len(set(titles)) != len(titles):
        bad("duplicate task titles")

    # phrases
    seen = set()
    by_cls_lang = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    date_checked = 0
    for n, p in enumerate(phrases, 1):
        where = f"phrases.jsonl:{n} {p.get('text')!r}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, exp, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        key = norm(text).strip()
        if key in seen:
            bad(f"{where}: duplicate text")
        seen.add(key)
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        fl = frame_lang(text, pkeys)
        if fl != lang:
            bad(f"{where}: lang {lang} but the frame looks {fl}")
        if cls not in CLASSES:
            bad(f"{where}: class {cls}")
            continue
        if CLASSES[cls] != kind:
            bad(f"{where}: class {cls} needs kind {CLASSES[cls]}, not {kind}")
        tool = exp.get("tool")
        if tool not in TOOLS:
            bad(f"{where}: tool {tool}")
            continue
        by_cls_lang[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        by_tool[tool] += 1
        # kind <-> tool
        if kind == "unknown" and tool != "none":
            bad(f"{where}: unknown kind must expect none")
        if kind == "ambiguous" and tool != "clarify":
            bad(f"{where}: ambiguous kind must expect clarify")
        if kind == "plain" and tool in ("clarify", "none"):
            bad(f"{where}: plain kind cannot expect {tool}")
        dates = find_dates(text)
        # shapes per tool
        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"} or exp["id"] not in task:
                bad(f"{where}: bad {tool} {exp}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in task:
                bad(f"{where}: bad update {exp}")
                continue
            if exp["deadline_kind"] not in ("day", "week"):
                bad(f"{where}: update kind {exp['deadline_kind']}")
            t = task[exp["id"]]
            if (t["due"], t["due_kind"]) == (exp["deadline"], exp["deadline_kind"]):
                bad(f"{where}: moves {t['key']} to the date it already has")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(exp) <= allowed or "text" not in exp or "deadline_kind" not in exp:
                bad(f"{where}: bad create {exp}")
                continue
            if exp["deadline_kind"] == "none" and "deadline" in exp:
                bad(f"{where}: create with kind none has a deadline")
            if exp["deadline_kind"] != "none" and "deadline" not in exp:
                bad(f"{where}: create with a kind but no deadline")
            if "project" in exp and exp["project"] not in pkeys:
                bad(f"{where}: create into unknown project {exp['project']}")
            if cls == "project_leadin" and "project" not in exp:
                bad(f"{where}: project lead-in without project")
            ct = detok(tokens(exp["text"]))
            if ct not in detok(tokens(text)):
                bad(f"{where}: create text {exp['text']!r} is not a piece of the phrase")
            if find_dates(exp["text"]):
                bad(f"{where}: create text still holds a date phrase")
            first = ct.split()[0] if ct else ""
            if first in ("add", "добавь", "напомни", "todo", "remind"):
                bad(f"{where}: create text starts with a command word")
        elif tool == "list_tasks":
            if set(exp) != {"tool", "filter"} or exp["filter"] not in FILTERS:
                bad(f"{where}: bad list {exp}")
            else:
                by_filter[exp["filter"]] += 1
        elif tool == "clarify":
            opts = exp.get("options", [])
            if set(exp) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: bad clarify {exp}")
            for k in opts:
                if k not in task:
                    bad(f"{where}: clarify option {k} does not exist")
            # an ambiguous move must name a date no candidate already has
            if len(dates) == 1:
                _, _, dk, dd = dates[0]
                for k in opts:
                    if k in task and task[k]["due"] == dd.isoformat():
                        bad(f"{where}: {k} already due {dd}, the tie could be broken")
        elif tool == "none":
            if set(exp) != {"tool"}:
                bad(f"{where}: bad none {exp}")

        # recompute dates for every dated answer
        if tool in ("update_task", "create_task"):
            want_kind = exp.get("deadline_kind")
            if want_kind == "none":
                if dates:
                    bad(f"{where}: expects no date but the reference reads {dates}")
            else:
                if len(dates) != 1:
                    bad(f"{where}: reference finds {len(dates)} date phrases: {dates}")
                else:
                    _, _, dk, dd = dates[0]
                    date_checked += 1
                    if (dk, dd.isoformat()) != (want_kind, exp.get("deadline")):
                        bad(f"{where}: expects {want_kind} {exp.get('deadline')}, "
                            f"reference gives {dk} {dd}")

        # explicit keys in the text must agree with the answer
        for m in re.finditer(r"\b([A-Za-z]{3,6})[- ]?(\d{1,3})\b", text):
            k = f"{m.group(1).upper()}-{int(m.group(2))}"
            if m.group(1).upper() not in set(pkeys) | {"INBOX"}:
                continue
            if cls == "explicit_form" and exp.get("id") != k:
                bad(f"{where}: names {k} but expects {exp.get('id')}")
            if cls == "unknown_other" and k in task:
                bad(f"{where}: {k} exists, so this is not an unknown key")

    # ---------------------------------------------------------- print
    print(f"TODAY (local, Europe/Berlin): {TODAY} {TODAY:%A}; now {NOW_UTC:%Y-%m-%dT%H:%MZ}")
    print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
    per = Counter((t['project'] or 'INBOX') for t in tasks)
    print("tasks per project:", ", ".join(f"{k} {per[k]}" for k in pkeys + ["INBOX"]))
    rel = Counter()
    for t in tasks:
        if not t["due"]:
            rel["undated"] += 1
            continue
        d = dt.date.fromisoformat(t["due"])
        if t["due_kind"] == "week":
            rel["week due" + (" (overdue)" if d < TODAY else "")] += 1
        elif d < TODAY:
            rel["overdue"] += 1
        elif d == TODAY:
            rel["today"] += 1
        else:
            rel["later"] += 1
    print("dues:", ", ".join(f"{k} {v}" for k, v in sorted(rel.items())))

    langs = ["ru", "en"]
    print("\n| class | ru | en | total |\n|---|---|---|---|")
    for c in CLASSES:
        r, e = by_cls_lang[(c, "ru")], by_cls_lang[(c, "en")]
        print(f"| {c} | {r} | {e} | {r + e} |")
        if abs(r - e) > 2:
            bad(f"class {c} is not split about equally: ru {r}, en {e}")
    tr = sum(by_cls_lang[(c, 'ru')] for c in CLASSES)
    te = sum(by_cls_lang[(c, 'en')] for c in CLASSES)
    print(f"| **all** | {tr} | {te} | **{tr + te}** |")
    print("\n| kind | ru | en | total |\n|---|---|---|---|")
    for k in ("plain", "ambiguous", "unknown"):
        r, e = by_kind_lang[(k, "ru")], by_kind_lang[(k, "en")]
        print(f"| {k} | {r} | {e} | {r + e} |")
    print(f"| **all** | {tr} | {te} | **{tr + te}** |")
    print("\nby tool:", ", ".join(f"{k} {by_tool[k]}" for k in
          ["close_task", "cancel_task", "update_task", "create_task", "list_tasks",
           "clarify", "none"]))
    print("list filters:", ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
    print(f"date answers recomputed: {date_checked}")
    if len(phrases) < 300:
        bad(f"only {len(phrases)} phrases")

    if show_rules:
        print("\nHouse rules on", TODAY)
        rows = [
            ("today / сегодня / eod / vandaag", TODAY),
            ("tomorrow / завтра / morgen", TODAY + dt.timedelta(days=1)),
            ("day after tomorrow / послезавтра / overmorgen", TODAY + dt.timedelta(days=2)),
        ]
        for wd in range(7):
            rows.append((f"{WEEKDAYS[wd][0]} / {WEEKDAYS[wd][2]} / {WEEKDAYS[wd][-1]}", r_weekday(wd)))
        rows += [
            ("next monday", r_next_weekday(0)), ("next friday", r_next_weekday(4)),
            ("next sunday", r_next_weekday(6)),
            ("this week / до конца недели (week)", r_this_week()),
            ("next week / на следующей неделе / volgende week (week)", r_next_week()),
            ("weekend / на выходных", r_weekend()),
            ("end of month / к концу месяца", r_end_of_month()),
            ("next month", r_next_month()),
            ("end of year", dt.date(TODAY.year, 12, 31)),
            ("in 3 days / через 3 дня", TODAY + dt.timedelta(days=3)),
            ("через неделю / in a week", TODAY + dt.timedelta(days=7)),
            ("in 2 weeks", TODAY + dt.timedelta(days=14)),
            ("5 ноября / nov 5", r_day_month(5, 11)),
            ("1.10", r_day_month(1, 10)),
            ("20.09", r_day_month(20, 9)),
            ("15 января", r_day_month(15, 1)),
            ("до 5 числа", r_day_of_month(5)),
            ("до 27 числа", r_day_of_month(27)),
            ("by the 30th", r_day_of_month(30)),
        ]
        for label, d in rows:
            print(f"| {label} | {d} {d:%a} |")

    if problems:
        print(f"\n{len(problems)} PROBLEM(S):")
        for m in problems:
            print("  -", m)
        sys.exit(1)
    print("\nOK")


if __name__ == "__main__":
    main()
