#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-43 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and keys,
recomputes every date answer from a small reference of the house date rules written
for this set only (not the parser's code), prints the counts and exits 1 on any problem.

    python3 data/chat-phrases-holdout-43/validate.py
"""
import calendar
import json
import os
import re
import sys
from collections import Counter, defaultdict
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = date(2039, 10, 30)  # Sunday; local date in Europe/Prague at 2039-10-30T07:30:00Z

PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                problem(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                problem(f"{name}:{n}: bad JSON: {e}")
    return rows


# ---------------------------------------------------------------- house date rules
def plus(n):
    return TODAY + timedelta(days=n)


def next_weekday(wd):
    """A plain weekday: the next such day strictly after today."""
    d = (wd - TODAY.weekday()) % 7
    return plus(d or 7)


def weekday_of_next_week(wd):
    """"next friday": that weekday in the next Monday-Sunday week."""
    monday = TODAY - timedelta(days=TODAY.weekday()) + timedelta(days=7)
    return monday + timedelta(days=wd)


def this_sunday():
    return plus(6 - TODAY.weekday())


def next_sunday_week():
    return this_sunday() + timedelta(days=7)


def month_end(y, m):
    return date(y, m, calendar.monthrange(y, m)[1])


def end_of_month():
    return month_end(TODAY.year, TODAY.month)


def end_of_next_month():
    y, m = (TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)
    return month_end(y, m)


def coming_saturday():
    return plus((5 - TODAY.weekday()) % 7)


def day_month(d, m):
    """Day + month without year: this year's unless more than 30 days in the past."""
    c = date(TODAY.year, m, d)
    if (TODAY - c).days > 30:
        c = date(TODAY.year + 1, m, d)
    return c


def day_of_month(n):
    """Day of month alone: next such day on or after today, clamped to month end."""
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        c = date(y, m, min(n, calendar.monthrange(y, m)[1]))
        if c >= TODAY:
            return c
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    raise ValueError(n)


EN_WD = {"monday": 0, "tuesday": 1, "wednesday": 2, "wendesday": 2, "thursday": 3,
         "friday": 4, "saturday": 5, "sunday": 6}
RU_WD = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3), ("пятн", 4),
         ("суббот", 5), ("воскресен", 6)]
CZ_WD = {"pondělí": 0, "úterý": 1, "středu": 2, "středa": 2, "čtvrtek": 3, "pátek": 4,
         "sobotu": 5, "sobota": 5, "neděli": 6, "neděle": 6}
RU_MONTHS = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
             "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
EN_MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7,
             "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}


def ru_wd(word):
    for stem, wd in RU_WD:
        if word.startswith(stem):
            return wd
    raise ValueError(word)


WDS = "|".join(EN_WD)
RULES = [
    # (regex, function(match) -> (kind, date))
    (r"\b(?:next|nex) week\b|на следующей неделе|на следующую неделю|příští týden",
     lambda m: ("week", next_sunday_week())),
    (r"\bthis week\b|\bend of (?:the )?week\b|до конца недели|на этой неделе|к концу недели",
     lambda m: ("week", this_sunday())),
    (r"\bend of (?:the )?month\b|до конца месяца|к концу месяца",
     lambda m: ("day", end_of_month())),
    (r"\bnext month\b|в следующем месяце", lambda m: ("day", end_of_next_month())),
    (rf"\bnext ({WDS})\b", lambda m: ("day", weekday_of_next_week(EN_WD[m.group(1)]))),
    (r"\bday after tomorrow\b|послезавтра|pozítří", lambda m: ("day", plus(2))),
    (r"\b(?:tomorrow|tomorow|tmrw|tmr)\b|\bзавтра\b|\bзавтро\b|\bzítra\b",
     lambda m: ("day", plus(1))),
    (r"\btoday\b|\beod\b|\bсегодня\b|\bdnes\b", lambda m: ("day", plus(0))),
    (r"\bweekend\b|\bвыходн(?:ые|ых|ым)\b", lambda m: ("day", coming_saturday())),
    (r"через неделю|\bin a week\b", lambda m: ("day", plus(7))),
    (r"\bin (\d+) days?\b|через (\d+) (?:день|дня|дней)\b",
     lambda m: ("day", plus(int(m.group(1) or m.group(2))))),
    (r"\bin (\d+) weeks?\b|через (\d+) недел[иь]\b",
     lambda m: ("day", plus(7 * int(m.group(1) or m.group(2))))),
    (r"\b(\d{1,2}) числа\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m.group(1))))),
    (r"\b(\d{1,2}) (" + "|".join(RU_MONTHS) + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), RU_MONTHS[m.group(2)]))),
    (r"\b(" + "|".join(EN_MONTHS) + r")[a-z]* (\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(2)), EN_MONTHS[m.group(1)]))),
    (r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
    (rf"\b({WDS})\b", lambda m: ("day", next_weekday(EN_WD[m.group(1)]))),
    (r"\b(?:в|во|на|до|к|ко) (понедельник\w*|вторник\w*|сред\w*|четверг\w*|пятн\w*|суббот\w*|воскресень\w*)",
     lambda m: ("day", next_weekday(ru_wd(m.group(1))))),
    (r"\b(" + "|".join(CZ_WD) + r")(?!\w)", lambda m: ("day", next_weekday(CZ_WD[m.group(1)]))),
]
RULES = [(re.compile(rx), fn) for rx, fn in RULES]


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def find_dates(text):
    """All date expressions in text: list of (kind, iso date, matched words)."""
    t = norm(text)
    found = []
    for rx, fn in RULES:
        for m in rx.finditer(t):
            found.append((m.start(), m.end(), fn, m))
    found.sort(key=lambda x: (x[0], -(x[1] - x[0])))
    out, last_end = [], -1
    for s, e, fn, m in found:
        if s < last_end:
            continue
        kind, d = fn(m)
        out.append((kind, d.isoformat(), m.group(0)))
        last_end = e
    return out


# ---------------------------------------------------------------- checks
CLASS_KIND = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
    "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
    "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown",
}
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
CYR = re.compile(r"[а-яё]", re.I)


def main():
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"project shape: {p}")
        if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p.get("key") == "INBOX":
            problem(f"project key: {p.get('key')}")
        pkeys.append(p.get("key"))
    if len(set(pkeys)) != len(pkeys):
        problem("duplicate project keys")

    by_key = {}
    counters = Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"task shape: {t}")
            continue
        proj = t["project"] or "INBOX"
        if t["project"] is not None and t["project"] not in pkeys:
            problem(f"{t['key']}: unknown project {t['project']}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            problem(f"task key {t['key']} should be {want} (creation order)")
        if t["key"] in by_key:
            problem(f"duplicate task key {t['key']}")
        by_key[t["key"]] = t
        if t["due_kind"] not in ("none", "day", "week"):
            problem(f"{t['key']}: due_kind {t['due_kind']}")
        if (t["due"] is None) != (t["due_kind"] == "none"):
            problem(f"{t['key']}: due and due_kind disagree")
        if t["due"]:
            try:
                d = date.fromisoformat(t["due"])
            except ValueError:
                problem(f"{t['key']}: bad due {t['due']}")
                continue
            if t["due_kind"] == "week" and d.weekday() != 6:
                problem(f"{t['key']}: week due {t['due']} is not a Sunday")
    titles = [norm(t["title"]) for t in tasks]
    if len(set(titles)) != len(titles):
        problem("duplicate task titles")

    key_rx = re.compile(r"\b(" + "|".join(pkeys + ["INBOX"]) + r")[- ]?(\d+)\b", re.I)

    seen = set()
    by_class = defaultdict(Counter)
    by_kind = defaultdict(Counter)
    by_tool = Counter()
    by_filter = Counter()
    n_dated = 0
    for i, ph in enumerate(phrases, 1):
        where = f"phrases.jsonl:{i} {ph.get('text')!r}"
        if set(ph) != {"text", "lang", "kind", "expect", "class"}:
            problem(f"{where}: shape {sorted(ph)}")
            continue
        text, lang, kind, ex, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
        if norm(text) in seen:
            problem(f"{where}: duplicate text")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            problem(f"{where}: lang {lang}")
        if lang == "ru" and not CYR.search(text):
            problem(f"{where}: ru without Cyrillic")
        if lang == "en" and CYR.search(text):
            problem(f"{where}: en frame with Cyrillic")
        if cls not in CLASS_KIND:
            problem(f"{where}: class {cls}")
            continue
        if CLASS_KIND[cls] != kind:
            problem(f"{where}: kind {kind} for class {cls}")
        by_class[cls][lang] += 1
        by_kind[kind][lang] += 1
        tool = ex.get("tool")
        by_tool[tool] += 1

        dates = find_dates(text)
        if len(dates) > 1:
            problem(f"{where}: more than one date expression {dates}")

        # tool shapes and kind agreement
        if kind == "ambiguous" and tool != "clarify":
            problem(f"{where}: ambiguous must clarify")
        if kind == "unknown" and tool != "none":
            problem(f"{where}: unknown must be none")
        if kind == "plain" and tool in ("clarify", "none"):
            problem(f"{where}: plain must act")

        if tool in ("close_task", "cancel_task"):
            if set(ex) != {"tool", "id"} or ex["id"] not in by_key:
                problem(f"{where}: bad {tool} {ex}")
            if dates:
                problem(f"{where}: date words in a {tool} phrase: {dates}")
            if cls == "deadline_not_close":
                problem(f"{where}: deadline_not_close must not close/cancel")
        elif tool == "update_task":
            if set(ex) != {"tool", "id", "deadline_kind", "deadline"} or ex["id"] not in by_key:
                problem(f"{where}: bad update {ex}")
                continue
            n_dated += 1
            if len(dates) != 1:
                problem(f"{where}: move needs exactly one date expression, found {dates}")
            elif (dates[0][0], dates[0][1]) != (ex["deadline_kind"], ex["deadline"]):
                problem(f"{where}: expected {ex['deadline_kind']} {ex['deadline']}, "
                        f"reference gives {dates[0][0]} {dates[0][1]} for {dates[0][2]!r}")
            t = by_key[ex["id"]]
            if (t["due"], t["due_kind"]) == (ex["deadline"], ex["deadline_kind"]):
                problem(f"{where}: move to the task's current due")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(ex) <= allowed or "text" not in ex or "deadline_kind" not in ex:
                problem(f"{where}: bad create {ex}")
                continue
            if ex.get("project") is not None and ex["project"] not in pkeys:
                problem(f"{where}: create into unknown project {ex['project']}")
            if cls == "project_leadin" and not ex.get("project"):
                problem(f"{where}: project_leadin without project")
            if ex["deadline_kind"] == "none":
                if "deadline" in ex:
                    problem(f"{where}: kind none with a deadline")
                if dates:
                    problem(f"{where}: undated create but text has {dates}")
            else:
                n_dated += 1
                if len(dates) != 1:
                    problem(f"{where}: dated create needs one date expression, found {dates}")
                elif (dates[0][0], dates[0][1]) != (ex["deadline_kind"], ex.get("deadline")):
                    problem(f"{where}: expected {ex['deadline_kind']} {ex.get('deadline')}, "
                            f"reference gives {dates[0][0]} {dates[0][1]}")
            ct = norm(ex["text"])
            if find_dates(ct):
                problem(f"{where}: create text keeps a date phrase")
            # create text = the phrase minus command words and date phrase: its words in order
            words = re.findall(r"\w+", norm(text))
            pos = 0
            for w in re.findall(r"\w+", ct):
                try:
                    pos = words.index(w, pos) + 1
                except ValueError:
                    problem(f"{where}: create text word {w!r} not in the phrase in order")
                    break
        elif tool == "list_tasks":
            if ex.get("filter") not in LIST_FILTERS or not set(ex) <= {"tool", "filter", "period"}:
                problem(f"{where}: bad list {ex}")
            by_filter[ex.get("filter")] += 1
        elif tool == "clarify":
            opts = ex.get("options")
            if set(ex) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                problem(f"{where}: bad clarify {ex}")
                continue
            if len(set(opts)) != len(opts):
                problem(f"{where}: repeated options")
            for o in opts:
                if o not in by_key:
                    problem(f"{where}: clarify option {o} does not exist")
            if dates:
                # an ambiguous move: its date differs from every candidate's current due
                n_dated += 1
                k, d, _ = dates[0]
                for o in opts:
                    t = by_key.get(o)
                    if t and t["due"] == d:
                        problem(f"{where}: move date {d} equals the due of option {o}")
        elif tool == "none":
            if set(ex) != {"tool"}:
                problem(f"{where}: bad none {ex}")
        else:
            problem(f"{where}: unknown tool {tool}")

        # keys written in the phrase
        mentioned = [f"{m.group(1).upper()}-{int(m.group(2))}" for m in key_rx.finditer(text)]
        if cls == "explicit_form":
            if mentioned:
                if mentioned != [ex.get("id")]:
                    problem(f"{where}: key in text {mentioned} != expected {ex.get('id')}")
            elif norm(by_key.get(ex.get("id"), {}).get("title", "#")) not in norm(text):
                problem(f"{where}: explicit form names neither the key nor the exact title")
        elif cls == "unknown_other":
            for k in mentioned:
                if k in by_key:
                    problem(f"{where}: key {k} exists but expected none")
        elif mentioned:
            problem(f"{where}: a key in a phrase outside explicit_form/unknown_other")

    # ------------------------------------------------------------ report
    def table(title, rows, order):
        print(f"\n{title}")
        print(f"| {'':20} | ru | en | total |")
        tr = te = 0
        for r in order:
            c = rows.get(r, Counter())
            print(f"| {r:20} | {c['ru']:2} | {c['en']:2} | {c['ru'] + c['en']:5} |")
            tr += c["ru"]
            te += c["en"]
        print(f"| {'all':20} | {tr:2} | {te:2} | {tr + te:5} |")

    print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), zone Europe/Prague")
    print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
    print("tasks per project:", dict(counters))
    rel = Counter()
    for t in tasks:
        if not t["due"]:
            rel["undated"] += 1
        elif t["due_kind"] == "week":
            rel["week due"] += 1
        elif t["due"] < TODAY.isoformat():
            rel["overdue"] += 1
        elif t["due"] == TODAY.isoformat():
            rel["today"] += 1
        else:
            rel["later"] += 1
    print("task dues:", dict(rel))
    table("class x lang", by_class, list(CLASS_KIND))
    table("kind x lang", by_kind, ["plain", "ambiguous", "unknown"])
    print("\nby tool:", dict(by_tool))
    print("list filters:", dict(by_filter))
    print("phrases with a date answer (moves, dated creates, ambiguous moves):", n_dated)
    for cls in CLASS_KIND:
        c = by_class[cls]
        if abs(c["ru"] - c["en"]) > 2:
            problem(f"class {cls} unbalanced: {dict(c)}")
    if len(phrases) < 300:
        problem("fewer than 300 phrases")

    if PROBLEMS:
        print(f"\n{len(PROBLEMS)} problem(s):")
        for p in PROBLEMS:
            print(" -", p)
        return 1
    print("\nOK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
