#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-9 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl next to this file, checks
shapes, keys and references, re-derives every date answer from the phrase text
with a small reference of the house date rules (written for this set only and
self-tested on fixed values first), prints counts and `OK`. Exits 1 on a problem.

    python3 data/chat-phrases-holdout-9/validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2029, 3, 14)  # Wednesday, 12:30 Europe/Belgrade

PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)


# ---------------------------------------------------------------- date reference

def norm(s):
    return s.lower().replace("ё", "е")


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months(y, m, k):
    m0 = m - 1 + k
    return y + m0 // 12, m0 % 12 + 1


def this_sunday(today):
    return today + dt.timedelta(days=6 - today.weekday())


def next_weekday(today, wd):
    """strictly after today"""
    d = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=d or 7)


def weekday_next_week(today, wd):
    monday_next = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday_next + dt.timedelta(days=wd)


def day_month(today, d, m):
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


def day_of_month(today, d):
    if d < 1 or d > 31:
        return ("error", None)
    y, m = today.year, today.month
    for k in range(3):
        yy, mm = add_months(y, m, k)
        cand = dt.date(yy, mm, min(d, last_day(yy, mm).day))
        if cand >= today:
            return ("day", cand)
    return ("error", None)


EN_WD = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
RU_WD = [r"понедельник\w*", r"вторник\w*", r"сред[уаеы]\b", r"четверг\w*",
         r"пятниц\w*", r"суббот\w*", r"воскресень\w*"]
RU_MON = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
          "сентября", "октября", "ноября", "декабря"]
EN_MON = ["jan(?:uary)?", "feb(?:ruary)?", "mar(?:ch)?", "apr(?:il)?", "may", "june?",
          "july?", "aug(?:ust)?", "sep(?:t|tember)?", "oct(?:ober)?", "nov(?:ember)?",
          "dec(?:ember)?"]


def _mon_index(word, table):
    for i, pat in enumerate(table):
        if re.fullmatch(pat, word):
            return i + 1
    return None


def _rules(today):
    d = lambda n: ("day", today + dt.timedelta(days=n))
    rules = [
        (r"\bday after tomorrow\b|\bпослезавтра\b", lambda m: d(2)),
        (r"\b(?:tomorrow|tmrw|tmr)\b|\bзавтра\b", lambda m: d(1)),
        (r"\b(?:today|eod|tonight)\b|\bсегодня\b", lambda m: d(0)),
        (r"\bnext week\b|\bследующ\w* недел\w*|\bслед недел\w*",
         lambda m: ("week", this_sunday(today) + dt.timedelta(days=7))),
        (r"\bthis week\b|\bend of (?:the )?week\b|\b(?:до|к) конц\w* недели\b|\bна этой неделе\b",
         lambda m: ("week", this_sunday(today))),
        (r"\bnext month\b|\bследующ\w* месяц\w*",
         lambda m: ("day", last_day(*add_months(today.year, today.month, 1)))),
        (r"\bend of (?:the )?month\b|\bкон(?:ец|ца|цу|це) месяца\b",
         lambda m: ("day", last_day(today.year, today.month))),
        (r"\b(?:this )?weekend\b|\bвыходн\w*",
         lambda m: ("day", today if today.weekday() == 5 else next_weekday(today, 5))),
        (r"\bin (\d+) days?\b|\bчерез (\d+) (?:день|дня|дней)\b",
         lambda m: d(int(m.group(1) or m.group(2)))),
        (r"\bin a week\b|\bчерез неделю\b", lambda m: d(7)),
        (r"\bin (\d+) weeks\b|\bчерез (\d+) недел\w*",
         lambda m: d(7 * int(m.group(1) or m.group(2)))),
        (r"\b(\d{1,2})\.(\d{1,2})\b(?!\.\d)",
         lambda m: day_month(today, int(m.group(1)), int(m.group(2)))
         if 1 <= int(m.group(2)) <= 12 else ("error", None)),
        (r"\b(\d{1,2}) (" + "|".join(RU_MON) + r")\b",
         lambda m: day_month(today, int(m.group(1)), RU_MON.index(m.group(2)) + 1)),
        (r"\b(\d{1,2}) (" + "|".join(EN_MON) + r")\b",
         lambda m: day_month(today, int(m.group(1)), _mon_index(m.group(2), EN_MON))),
        (r"\b(" + "|".join(EN_MON) + r") (\d{1,2})\b",
         lambda m: day_month(today, int(m.group(2)), _mon_index(m.group(1), EN_MON))),
        (r"\b(\d{1,2}) (?:числа|число|числу)\b",
         lambda m: day_of_month(today, int(m.group(1)))),
        (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b",
         lambda m: day_of_month(today, int(m.group(1)))),
    ]
    for i, w in enumerate(EN_WD):
        rules.append((r"\b(?:(next|this) )?" + w + r"\b",
                      lambda m, i=i: ("day", weekday_next_week(today, i) if m.group(1) == "next"
                                      else next_weekday(today, i))))
    for i, w in enumerate(RU_WD):
        rules.append((r"(?:\b(следующ\w*|эт\w*) )?\b" + w,
                      lambda m, i=i: ("day", weekday_next_week(today, i)
                                      if (m.group(1) or "").startswith("следующ")
                                      else next_weekday(today, i))))
    return rules


def ref_date(text, today=TODAY):
    """First date phrase in the text -> ("day"|"week", date) or ("error", None); None if none."""
    t = norm(text)
    hits = []
    for pat, fn in _rules(today):
        for m in re.finditer(pat, t):
            hits.append((m.start(), -(m.end() - m.start()), fn(m)))
    if not hits:
        return None
    hits.sort(key=lambda h: (h[0], h[1]))
    return hits[0][2]


def self_test():
    D = dt.date
    wed = D(2026, 3, 11)
    cases = [
        (wed, "friday", ("day", D(2026, 3, 13))),
        (wed, "в пятницу", ("day", D(2026, 3, 13))),
        (wed, "next friday", ("day", D(2026, 3, 20))),
        (wed, "в следующую пятницу", ("day", D(2026, 3, 20))),
        (wed, "wednesday", ("day", D(2026, 3, 18))),
        (wed, "this week", ("week", D(2026, 3, 15))),
        (wed, "до конца недели", ("week", D(2026, 3, 15))),
        (wed, "next week", ("week", D(2026, 3, 22))),
        (wed, "на следующей неделе", ("week", D(2026, 3, 22))),
        (wed, "9.02", ("day", D(2026, 2, 9))),
        (wed, "8.02", ("day", D(2027, 2, 8))),
        (wed, "20 мая", ("day", D(2026, 5, 20))),
        (wed, "apr 28", ("day", D(2026, 4, 28))),
        (wed, "30 feb", ("error", None)),
        (wed, "end of month", ("day", D(2026, 3, 31))),
        (wed, "в конце месяца", ("day", D(2026, 3, 31))),
        (wed, "на конец месяца", ("day", D(2026, 3, 31))),
        (wed, "до конца месяца", ("day", D(2026, 3, 31))),
        (wed, "next month", ("day", D(2026, 4, 30))),
        (wed, "weekend", ("day", D(2026, 3, 14))),
        (wed, "к выходным", ("day", D(2026, 3, 14))),
        (wed, "in 3 days", ("day", D(2026, 3, 14))),
        (wed, "через 5 дней", ("day", D(2026, 3, 16))),
        (wed, "через неделю", ("day", D(2026, 3, 18))),
        (wed, "in 2 weeks", ("day", D(2026, 3, 25))),
        (wed, "послезавтра", ("day", D(2026, 3, 13))),
        (wed, "day after tomorrow", ("day", D(2026, 3, 13))),
        (wed, "tomorrow", ("day", D(2026, 3, 12))),
        (wed, "tmrw", ("day", D(2026, 3, 12))),
        (wed, "eod", ("day", wed)),
        (wed, "on the 20th", ("day", D(2026, 3, 20))),
        (wed, "до 5 числа", ("day", D(2026, 4, 5))),
        (wed, "до 11 числа", ("day", wed)),
        (wed, "до 0 числа", ("error", None)),
        (wed, "tomorrow not today", ("day", D(2026, 3, 12))),
        (wed, "no date here", None),
        (D(2026, 3, 13), "friday", ("day", D(2026, 3, 20))),
        (D(2026, 3, 15), "this week", ("week", D(2026, 3, 15))),
        (D(2026, 3, 14), "weekend", ("day", D(2026, 3, 14))),
        (D(2026, 1, 31), "до 30 числа", ("day", D(2026, 2, 28))),
        (D(2026, 4, 30), "до 31 числа", ("day", D(2026, 4, 30))),
        (D(2026, 12, 30), "next month", ("day", D(2027, 1, 31))),
        (D(2026, 12, 30), "10.01", ("day", D(2027, 1, 10))),
        (TODAY, "friday", ("day", D(2029, 3, 16))),
        (TODAY, "next friday", ("day", D(2029, 3, 23))),
        (TODAY, "до следующей пятницы", ("day", D(2029, 3, 23))),
        (TODAY, "next tuesday", ("day", D(2029, 3, 20))),
        (TODAY, "в воскресенье", ("day", D(2029, 3, 18))),
        (TODAY, "this week", ("week", D(2029, 3, 18))),
        (TODAY, "next week", ("week", D(2029, 3, 25))),
        (TODAY, "next month", ("day", D(2029, 4, 30))),
        (TODAY, "the 25th", ("day", D(2029, 3, 25))),
        (TODAY, "30.03", ("day", D(2029, 3, 30))),
        (TODAY, "5 февраля", ("day", D(2030, 2, 5))),
        (TODAY, "2 марта", ("day", D(2029, 3, 2))),
    ]
    bad = 0
    for today, text, want in cases:
        got = ref_date(text, today)
        if got != want:
            bad += 1
            print(f"self-test: {today} {text!r}: got {got}, want {want}")
    if bad:
        print(f"date reference self-test failed ({bad})")
        sys.exit(1)
    return len(cases)


# ---------------------------------------------------------------- loading

def load(name):
    rows = []
    path = os.path.join(HERE, name)
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                problem(f"{name}:{n}: empty line")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                problem(f"{name}:{n}: bad json: {e}")
                continue
            if not isinstance(obj, dict):
                problem(f"{name}:{n}: not an object")
                continue
            rows.append((n, obj))
    return rows


def iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


def tokens(s):
    return re.findall(r"[\w]+", norm(s))


def is_subsequence(small, big):
    it = iter(big)
    return all(any(w == b for b in it) for w in small)


CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
MAJOR = ["typo", "report", "explicit_form", "deadline_not_close", "project_leadin",
         "ambiguous", "offtopic"]
CLASS_KIND = {c: "plain" for c in CLASSES}
CLASS_KIND.update({"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"})
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
MOVE_WORDS = re.compile(r"\b(перенеси|move|push|postpone|reschedule)\b")


def main():
    n_self = self_test()

    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # projects
    pkeys = []
    for n, p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"projects:{n}: fields {sorted(p)}")
        if not re.fullmatch(r"[A-Z]+", str(p.get("key"))):
            problem(f"projects:{n}: key {p.get('key')!r}")
        if p.get("key") == "INBOX":
            problem(f"projects:{n}: INBOX must stay implicit")
        pkeys.append(p.get("key"))
    if len(set(pkeys)) != len(pkeys):
        problem("projects: duplicate keys")
    if not 4 <= len(projects) <= 6:
        problem(f"projects: {len(projects)} (want 4-6)")
    pset = set(pkeys)

    # tasks
    task = {}
    per = Counter()
    titles = set()
    for n, t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"tasks:{n}: fields {sorted(t)}")
            continue
        proj = t["project"]
        if proj is not None and proj not in pset:
            problem(f"tasks:{n}: unknown project {proj}")
        pk = proj or "INBOX"
        per[pk] += 1
        if t["key"] != f"{pk}-{per[pk]}":
            problem(f"tasks:{n}: key {t['key']} but file order gives {pk}-{per[pk]}")
        if t["key"] in task:
            problem(f"tasks:{n}: duplicate key {t['key']}")
        if norm(t["title"]) in titles:
            problem(f"tasks:{n}: duplicate title")
        titles.add(norm(t["title"]))
        if t["due_kind"] == "none":
            if t["due"] is not None:
                problem(f"tasks:{n}: due_kind none with a due")
        elif t["due_kind"] in ("day", "week"):
            d = iso(t["due"])
            if d is None:
                problem(f"tasks:{n}: bad due {t['due']!r}")
            elif t["due_kind"] == "week" and d.weekday() != 6:
                problem(f"tasks:{n}: week due {d} is not a Sunday")
        else:
            problem(f"tasks:{n}: due_kind {t['due_kind']!r}")
        task[t["key"]] = t
    if not 50 <= len(task) <= 60:
        problem(f"tasks: {len(task)} (want 50-60)")

    def due_of(k):
        t = task[k]
        return (t["due_kind"], iso(t["due"]) if t["due"] else None)

    # phrases
    seen = set()
    by = Counter()
    tools = Counter()
    filters = Counter()
    dates_checked = 0
    for n, ph in phrases:
        where = f"phrases:{n}"
        cls = ph.get("class")
        base = {"text", "lang", "kind", "class", "expect"}
        want_fields = base | ({"typo"} if cls == "typo" else set())
        if set(ph) != want_fields:
            problem(f"{where}: fields {sorted(ph)} (want {sorted(want_fields)})")
            continue
        text, lang, kind, e = ph["text"], ph["lang"], ph["kind"], ph["expect"]
        if not isinstance(text, str) or not text.strip():
            problem(f"{where}: empty text")
            continue
        if norm(text) in seen:
            problem(f"{where}: duplicate text")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            problem(f"{where}: lang {lang!r}")
        if cls not in CLASSES:
            problem(f"{where}: class {cls!r}")
            continue
        if kind != CLASS_KIND[cls]:
            problem(f"{where}: kind {kind} does not fit class {cls}")
        cyr = bool(re.search(r"[а-яё]", text.lower()))
        if (lang == "ru") != cyr:
            problem(f"{where}: lang {lang} but text {'has' if cyr else 'lacks'} Cyrillic")
        by[(cls, lang)] += 1

        fixed = text
        if cls == "typo":
            ty = ph["typo"]
            if not (isinstance(ty, dict) and set(ty) == {"wrote", "meant", "in"}):
                problem(f"{where}: typo shape")
                continue
            if ty["in"] not in ("verb", "date", "title"):
                problem(f"{where}: typo.in {ty['in']!r}")
            if ty["wrote"] == ty["meant"]:
                problem(f"{where}: typo wrote == meant")
            if len(re.findall(r"\b" + re.escape(ty["wrote"]) + r"\b", text)) != 1:
                problem(f"{where}: typo.wrote not once as a word in text")
            fixed = re.sub(r"\b" + re.escape(ty["wrote"]) + r"\b", ty["meant"], text)
            if ty["in"] == "title" and e.get("id") in task:
                if norm(ty["meant"]) not in norm(task[e["id"]]["title"]):
                    problem(f"{where}: typo.meant not in the title of {e['id']}")
            if ty["in"] == "date":
                if ref_date(text) == ref_date(fixed) or ref_date(fixed) is None:
                    problem(f"{where}: date typo does not touch a date word")

        if not isinstance(e, dict) or "tool" not in e:
            problem(f"{where}: expect shape")
            continue
        tool = e["tool"]
        tools[tool] += 1
        if kind == "ambiguous" and tool != "clarify":
            problem(f"{where}: ambiguous must expect clarify")
        if kind == "unknown" and tool != "none":
            problem(f"{where}: unknown must expect none")
        if kind == "plain" and tool in ("clarify", "none"):
            problem(f"{where}: plain cannot expect {tool}")

        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"} or e["id"] not in task:
                problem(f"{where}: {tool} {e}")
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task:
                problem(f"{where}: update shape {e}")
                continue
            d = iso(e["deadline"])
            if e["deadline_kind"] not in ("day", "week") or d is None:
                problem(f"{where}: update deadline {e}")
                continue
            if (e["deadline_kind"], d) == due_of(e["id"]):
                problem(f"{where}: update does not change the due of {e['id']}")
            got = ref_date(fixed)
            dates_checked += 1
            if got != (e["deadline_kind"], d):
                problem(f"{where}: date: reference {got} vs expect {e['deadline_kind']} {d}")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(e) <= allowed or "text" not in e or "deadline_kind" not in e:
                problem(f"{where}: create shape {e}")
                continue
            if "project" in e and e["project"] not in pset:
                problem(f"{where}: create project {e['project']}")
            if cls == "project_leadin" and "project" not in e:
                problem(f"{where}: project_leadin without project")
            if not is_subsequence(tokens(e["text"]), tokens(fixed)):
                problem(f"{where}: create text is not taken from the phrase")
            if ref_date(e["text"]) is not None:
                problem(f"{where}: create text still holds a date phrase")
            got = ref_date(fixed)
            dates_checked += 1
            if e["deadline_kind"] == "none":
                if "deadline" in e or got is not None:
                    problem(f"{where}: create none but reference finds {got}")
            else:
                d = iso(e.get("deadline"))
                if e["deadline_kind"] not in ("day", "week") or d is None:
                    problem(f"{where}: create deadline {e}")
                elif got != (e["deadline_kind"], d):
                    problem(f"{where}: date: reference {got} vs expect {e['deadline_kind']} {d}")
        elif tool == "list_tasks":
            if set(e) - {"tool", "filter", "period"} or e.get("filter") not in FILTERS:
                problem(f"{where}: list {e}")
            else:
                filters[e["filter"]] += 1
        elif tool == "clarify":
            opts = e.get("options")
            if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                problem(f"{where}: clarify shape {e}")
                continue
            if len(set(opts)) != len(opts):
                problem(f"{where}: clarify repeats an option")
            for o in opts:
                if o not in task:
                    problem(f"{where}: clarify option {o} does not exist")
            if MOVE_WORDS.search(norm(text)):
                got = ref_date(text)
                dates_checked += 1
                if got is None or got[0] == "error":
                    problem(f"{where}: ambiguous move without a readable date")
                else:
                    for o in opts:
                        if o in task and due_of(o) == got:
                            problem(f"{where}: move date equals the due of option {o}")
        elif tool == "none":
            if set(e) != {"tool"}:
                problem(f"{where}: none shape")
            for k in re.findall(r"\b([A-Za-z]+-\d+)\b", text):
                if k.upper() in task:
                    problem(f"{where}: none phrase names an existing key {k}")
        else:
            problem(f"{where}: unknown tool {tool}")

        # explicit keys in a plain phrase must be the acted-on task
        if kind == "plain":
            for k in re.findall(r"\b([A-Za-z]+-\d+)\b", text):
                if k.upper() != e.get("id"):
                    problem(f"{where}: names {k} but acts on {e.get('id')}")

    # coverage
    total = sum(by.values())
    langs = Counter()
    kinds = Counter()
    for (cls, lang), c in by.items():
        langs[lang] += c
        kinds[(CLASS_KIND[cls], lang)] += c
    if total < 270:
        problem(f"phrases: {total} (want >= 270)")
    for cls in CLASSES:
        for lang in ("ru", "en"):
            if by[(cls, lang)] == 0:
                problem(f"class {cls} has no {lang} phrase")
        if cls in MAJOR and by[(cls, "ru")] + by[(cls, "en")] < 20:
            problem(f"major class {cls} has fewer than 20 phrases")
    if abs(langs["ru"] - langs["en"]) > 0.1 * total:
        problem(f"languages unbalanced: {dict(langs)}")

    # report
    print(f"date reference self-test: {n_self} cases passed")
    print(f"projects {len(projects)}, tasks {len(task)} ({', '.join(f'{k} {v}' for k, v in per.items())}), phrases {total}")
    print(f"{'class':<20}{'ru':>5}{'en':>5}{'all':>6}")
    for cls in CLASSES:
        r, en = by[(cls, 'ru')], by[(cls, 'en')]
        print(f"{cls:<20}{r:>5}{en:>5}{r + en:>6}")
    print(f"{'kind':<20}{'ru':>5}{'en':>5}{'all':>6}")
    for k in ("plain", "ambiguous", "unknown"):
        r, en = kinds[(k, 'ru')], kinds[(k, 'en')]
        print(f"{k:<20}{r:>5}{en:>5}{r + en:>6}")
    print(f"{'all':<20}{langs['ru']:>5}{langs['en']:>5}{total:>6}")
    print("tools: " + ", ".join(f"{k} {v}" for k, v in sorted(tools.items())))
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(filters.items())))
    print(f"date answers re-derived: {dates_checked}")
    if PROBLEMS:
        for p in PROBLEMS:
            print("PROBLEM:", p)
        print(f"{len(PROBLEMS)} problem(s)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
