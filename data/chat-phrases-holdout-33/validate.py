#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-33 (stdlib only).

Checks JSON shapes, keys (reproduced by creation order), class/kind consistency,
counts per class and language, and recomputes every expected date from the phrase
text with a small reference of the house date rules written for this set only.
Prints counts; exits 1 on any problem.
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2038, 3, 1)          # local date: now = 2038-02-28T20:30Z, Asia/Tbilisi (UTC+4) -> Mon 00:30
NOW_LOCAL = dt.datetime(2038, 3, 1, 0, 30)

CLASS_KIND = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
    "deadline_not_close": "plain", "project_leadin": "plain", "plain_other": "plain",
    "ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown",
}
TARGET = {  # class -> (ru, en)
    "typo": (15, 15), "report": (17, 16), "negated_cancel": (12, 11), "explicit_form": (14, 14),
    "deadline_not_close": (13, 13), "project_leadin": (12, 12), "offtopic": (11, 11),
    "plain_other": (27, 27), "ambiguous": (26, 26), "unknown_other": (12, 12),
}
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
                rows.append((i, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad JSON: {e}")
    return rows


def pdate(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- house date rules
def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def last_day(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def add_months_end(d, n):
    m = d.month - 1 + n
    return last_day(d.year + m // 12, m % 12 + 1)


def day_month(today, day, month):
    try:
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
    if day < today.day:
        y, m = (y + (m == 12), m % 12 + 1)
    return dt.date(y, m, min(day, last_day(y, m).day))


WD_EN = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WD_RU = [r"понедельник\w*", r"вторник\w*", r"сред[уаые]", r"четверг\w*", r"пятниц[уаые]",
         r"суббот[уаые]", r"воскресень[еяю]"]
MON_EN = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
MON_RU = ["январ", "феврал", "март", "апрел", "ма[йя]", "июн", "июл", "август", "сентябр",
          "октябр", "ноябр", "декабр"]
# typos in date words used by this set (weekday misspellings are errors in the house
# rules, so the set uses none)
ALIASES = {"завтро": "завтра", "послезавтро": "послезавтра", "tomorow": "tomorrow",
           "tmrw": "tomorrow", "tmr": "tomorrow", "nxt": "next"}


def wd_index(word):
    for i, w in enumerate(WD_EN):
        if word == w:
            return i
    for i, w in enumerate(WD_RU):
        if re.fullmatch(w, word):
            return i
    return None


def month_index(word):
    for i, w in enumerate(MON_EN):
        if word == w:
            return i + 1
    for i, w in enumerate(MON_RU):
        if re.fullmatch(w + r"\w*", word):
            return i + 1
    return None


WD_ALT = "|".join(WD_EN + WD_RU)
MON_ALT = "|".join(MON_EN + [m + r"\w*" for m in MON_RU])


def rules(today):
    d = lambda n: ("day", today + dt.timedelta(days=n))
    this_sun = sunday_of(today)
    next_mon = today + dt.timedelta(days=7 - today.weekday())
    sat = today + dt.timedelta(days=(5 - today.weekday()) % 7)
    return [
        (r"послезавтра|day after tomorrow", lambda m: d(2)),
        (r"завтра|tomorrow", lambda m: d(1)),
        (r"сегодня|today|eod", lambda m: d(0)),
        (r"end of (?:the )?month|конц\w* месяца", lambda m: ("day", last_day(today.year, today.month))),
        (r"next month|следующ\w* месяц\w*", lambda m: ("day", add_months_end(today, 1))),
        (r"end of (?:the )?year|конц\w* года", lambda m: ("day", dt.date(today.year, 12, 31))),
        (r"end of (?:the )?week|this week|конц\w* недели|этой неделе", lambda m: ("week", this_sun)),
        (r"next week|следующ\w* недел\w*", lambda m: ("week", this_sun + dt.timedelta(days=7))),
        (r"(?:через|in) (\d+) (?:недел\w*|weeks?)", lambda m: d(7 * int(m.group(1)))),
        (r"через неделю|in a week", lambda m: d(7)),
        (r"(?:через|in) (\d+) (?:дн\w*|дня|days?)", lambda m: d(int(m.group(1)))),
        (r"weekend|выходн\w*", lambda m: ("day", sat)),
        (rf"(?:next|следующ\w*) ({WD_ALT})",
         lambda m: ("day", next_mon + dt.timedelta(days=wd_index(m.group(1))))),
        (rf"({WD_ALT})",
         lambda m: ("day", today + dt.timedelta(days=(wd_index(m.group(1)) - today.weekday() - 1) % 7 + 1))),
        (rf"(\d{{1,2}}) ({MON_ALT})", lambda m: ("day", day_month(today, int(m.group(1)), month_index(m.group(2))))),
        (rf"({MON_ALT}) (\d{{1,2}})", lambda m: ("day", day_month(today, int(m.group(2)), month_index(m.group(1))))),
        (r"(\d{1,2})\.(\d{1,2})(?![.\d])", lambda m: ("day", day_month(today, int(m.group(1)), int(m.group(2))))),
        (r"(\d{1,2}) ?(?:-?го )?числ\w*", lambda m: ("day", day_of_month(today, int(m.group(1))))),
        (r"the (\d{1,2})(?:st|nd|rd|th)", lambda m: ("day", day_of_month(today, int(m.group(1))))),
    ]


def norm(s):
    s = s.lower().replace("ё", "е")
    return " ".join(ALIASES.get(w, w) for w in s.split())


def ref_date(text, today=TODAY):
    """All date expressions in text -> list of (kind, date)."""
    s = norm(text)
    found = []
    for pat, fn in rules(today):
        rx = re.compile(r"(?<![\w-])(?:" + pat + r")(?![\w])")
        while True:
            m = rx.search(s)
            if not m:
                break
            found.append(fn(m))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return found


def self_test():
    cases = [  # (text, today, kind, date) — spot checks of the reference itself
        ("завтра", TODAY, "day", "2038-03-02"), ("в пятницу", TODAY, "day", "2038-03-05"),
        ("в понедельник", TODAY, "day", "2038-03-08"), ("next monday", TODAY, "day", "2038-03-08"),
        ("next tuesday", TODAY, "day", "2038-03-09"), ("this week", TODAY, "week", "2038-03-07"),
        ("next week", TODAY, "week", "2038-03-14"), ("до конца месяца", TODAY, "day", "2038-03-31"),
        ("next month", TODAY, "day", "2038-04-30"), ("на выходных", TODAY, "day", "2038-03-06"),
        ("до 1 числа", TODAY, "day", "2038-03-01"), ("25 января", TODAY, "day", "2039-01-25"),
        ("20 февраля", TODAY, "day", "2038-02-20"), ("in 2 weeks", TODAY, "day", "2038-03-15"),
        ("friday", dt.date(2038, 3, 5), "day", "2038-03-12"),
        ("this week", dt.date(2038, 3, 7), "week", "2038-03-07"),
        ("до 31 числа", dt.date(2038, 4, 30), "day", "2038-04-30"),
        ("до 30 числа", dt.date(2038, 1, 31), "day", "2038-02-28"),
    ]
    for text, today, kind, date in cases:
        got = ref_date(text, today)
        if got != [(kind, dt.date.fromisoformat(date))]:
            bad(f"date reference self-test: {text!r} on {today} -> {got}, want {kind} {date}")


# ---------------------------------------------------------------- projects / tasks
def check_world():
    projects = {}
    for i, p in load("projects.jsonl"):
        if set(p) != {"key", "name", "description"} or not all(isinstance(v, str) and v for v in p.values()):
            bad(f"projects.jsonl:{i}: bad shape {p}")
            continue
        if p["key"] in projects or p["key"] == "INBOX" or not re.fullmatch(r"[A-Z]+", p["key"]):
            bad(f"projects.jsonl:{i}: bad or duplicate key {p['key']}")
        projects[p["key"]] = p
    if len(projects) != 5:
        bad(f"expected 5 projects, got {len(projects)}")
    tasks, counter = {}, Counter()
    for i, t in load("tasks.jsonl"):
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"tasks.jsonl:{i}: bad fields {sorted(t)}")
            continue
        p = t["project"]
        if p != "INBOX" and p not in projects:
            bad(f"tasks.jsonl:{i}: unknown project {p}")
        counter[p] += 1
        if t["key"] != f"{p}-{counter[p]}":
            bad(f"tasks.jsonl:{i}: key {t['key']} is not reproduced by creation order ({p}-{counter[p]})")
        if not isinstance(t["title"], str) or not t["title"].strip():
            bad(f"tasks.jsonl:{i}: empty title")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"tasks.jsonl:{i}: due_kind none with a due")
        elif t["due_kind"] in ("day", "week"):
            d = pdate(t["due"])
            if d is None:
                bad(f"tasks.jsonl:{i}: bad due {t['due']}")
            elif t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"tasks.jsonl:{i}: week due {d} is not a Sunday")
        else:
            bad(f"tasks.jsonl:{i}: bad due_kind {t['due_kind']}")
        if t["key"] in tasks:
            bad(f"tasks.jsonl:{i}: duplicate key")
        tasks[t["key"]] = t
    titles = Counter(t["title"].lower() for t in tasks.values())
    for k, v in titles.items():
        if v > 1:
            bad(f"duplicate task title {k!r}")
    if not 55 <= len(tasks) <= 65:
        bad(f"expected 55-65 tasks, got {len(tasks)}")
    return projects, tasks, counter


# ---------------------------------------------------------------- phrases
def check_phrases(projects, tasks):
    rows = load("phrases.jsonl")
    seen = set()
    by_cls, by_kind, by_tool, by_filter = Counter(), Counter(), Counter(), Counter()
    dated = 0
    for i, ph in rows:
        where = f"phrases.jsonl:{i}"
        if set(ph) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: bad fields {sorted(ph)}")
            continue
        text, lang, kind, ex, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
        if not isinstance(text, str) or not text.strip() or text != text.strip():
            bad(f"{where}: bad text {text!r}")
            continue
        if norm(text) in seen:
            bad(f"{where}: duplicate text {text!r}")
        seen.add(norm(text))
        if re.search(r"[,!?;]|[.]$", text):
            bad(f"{where}: messenger style wants no punctuation: {text!r}")
        if lang not in ("ru", "en"):
            bad(f"{where}: bad lang {lang}")
        if cls not in CLASS_KIND:
            bad(f"{where}: bad class {cls}")
            continue
        if CLASS_KIND[cls] != kind:
            bad(f"{where}: class {cls} needs kind {CLASS_KIND[cls]}, got {kind}")
        by_cls[(cls, lang)] += 1
        by_kind[(kind, lang)] += 1
        tool = ex.get("tool") if isinstance(ex, dict) else None
        by_tool[tool] += 1
        dates = ref_date(text)

        def need_key(k):
            if k not in tasks:
                bad(f"{where}: unknown task key {k}")

        if tool in ("close_task", "cancel_task"):
            if set(ex) != {"tool", "id"}:
                bad(f"{where}: bad expect shape {ex}")
            need_key(ex.get("id"))
        elif tool == "update_task":
            if set(ex) != {"tool", "id", "deadline_kind", "deadline"} or ex["deadline_kind"] not in ("day", "week"):
                bad(f"{where}: bad expect shape {ex}")
                continue
            need_key(ex["id"])
            want = (ex["deadline_kind"], pdate(ex["deadline"]))
            if dates != [want]:
                bad(f"{where}: {text!r}: reference dates {dates} != expected {want}")
            dated += 1
            t = tasks.get(ex["id"])
            if t and t["due"] == ex["deadline"] and t["due_kind"] == ex["deadline_kind"]:
                bad(f"{where}: update to the task's current due")
        elif tool == "create_task":
            keys = set(ex)
            if not {"tool", "text", "deadline_kind"} <= keys <= {"tool", "text", "deadline_kind", "deadline", "project"}:
                bad(f"{where}: bad expect shape {ex}")
                continue
            if ex["deadline_kind"] == "none":
                if "deadline" in ex or dates:
                    bad(f"{where}: {text!r}: create without deadline but reference sees {dates}")
            else:
                want = (ex["deadline_kind"], pdate(ex.get("deadline")))
                if dates != [want]:
                    bad(f"{where}: {text!r}: reference dates {dates} != expected {want}")
                dated += 1
            if "project" in ex and ex["project"] not in projects:
                bad(f"{where}: unknown project {ex['project']}")
            if cls == "project_leadin" and "project" not in ex:
                bad(f"{where}: project_leadin without a project")
            if norm(ex["text"]) not in norm(text):
                bad(f"{where}: create text {ex['text']!r} is not taken from the phrase")
            if ref_date(ex["text"]):
                bad(f"{where}: create text {ex['text']!r} still holds a date phrase")
        elif tool == "list_tasks":
            if set(ex) != {"tool", "filter"} or ex["filter"] not in FILTERS:
                bad(f"{where}: bad expect shape {ex}")
            else:
                by_filter[ex["filter"]] += 1
        elif tool == "clarify":
            opts = ex.get("options")
            if set(ex) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: bad clarify {ex}")
                continue
            for k in opts:
                need_key(k)
            if len(dates) > 1:
                bad(f"{where}: more than one date in an ambiguous phrase: {dates}")
            if dates:  # an ambiguous move: the date must differ from every candidate's due
                dated += 1
                kind_d, d = dates[0]
                for k in opts:
                    t = tasks.get(k)
                    if t and t["due"] == d.isoformat():
                        bad(f"{where}: ambiguous move to {d} equals the due of {k}")
        elif tool == "none":
            if set(ex) != {"tool"}:
                bad(f"{where}: bad expect shape {ex}")
        else:
            bad(f"{where}: bad tool {tool}")
        if kind == "plain" and tool in ("clarify", "none"):
            bad(f"{where}: plain phrase expects {tool}")
        if kind == "ambiguous" and tool != "clarify":
            bad(f"{where}: ambiguous phrase expects {tool}")
        if kind == "unknown" and tool != "none":
            bad(f"{where}: unknown phrase expects {tool}")
        if cls == "report" and tool != "close_task":
            bad(f"{where}: report should close")
        if cls == "negated_cancel" and tool != "cancel_task":
            bad(f"{where}: negated_cancel should cancel")
        if cls == "deadline_not_close" and tool not in ("update_task", "create_task"):
            bad(f"{where}: deadline_not_close must not close")
        if cls == "project_leadin" and tool != "create_task":
            bad(f"{where}: project_leadin should create")
        if cls == "explicit_form" and not re.search(r"\b[A-Za-z]+-\d+\b", text):
            bad(f"{where}: explicit_form without a key")
    return rows, by_cls, by_kind, by_tool, by_filter, dated


def main():
    self_test()
    projects, tasks, per_project = check_world()
    rows, by_cls, by_kind, by_tool, by_filter, dated = check_phrases(projects, tasks)

    for cls, (ru, en) in TARGET.items():
        if (by_cls[(cls, "ru")], by_cls[(cls, "en")]) != (ru, en):
            bad(f"class {cls}: ru {by_cls[(cls, 'ru')]} en {by_cls[(cls, 'en')]}, want {ru}/{en}")
    n_ru = sum(v for (c, l), v in by_cls.items() if l == "ru")
    n_en = sum(v for (c, l), v in by_cls.items() if l == "en")
    if len(rows) < 300:
        bad(f"fewer than 300 phrases ({len(rows)})")
    if abs(n_ru - n_en) > 0.05 * (n_ru + n_en):
        bad(f"languages unbalanced: ru {n_ru} en {n_en}")

    today = TODAY.isoformat()
    overdue = [k for k, t in tasks.items() if t["due"] and t["due"] < today]
    due_today = [k for k, t in tasks.items() if t["due"] == today]
    week = [k for k, t in tasks.items() if t["due_kind"] == "week"]
    undated = [k for k, t in tasks.items() if t["due_kind"] == "none"]
    later = len(tasks) - len(overdue) - len(due_today) - len(week) - len(undated)
    print(f"TODAY {today} ({TODAY.strftime('%A')}), local now {NOW_LOCAL:%Y-%m-%d %H:%M} Asia/Tbilisi")
    print(f"projects {len(projects)}; tasks {len(tasks)}: " + ", ".join(f"{p} {n}" for p, n in per_project.items()))
    print(f"  overdue {len(overdue)} {overdue}")
    print(f"  due today {len(due_today)} {due_today}")
    print(f"  week dues {len(week)} {week}")
    print(f"  later (day) {later}; undated {len(undated)}")
    print(f"phrases {len(rows)}: ru {n_ru}, en {n_en}")
    print(f"{'class':20} {'ru':>4} {'en':>4} {'all':>4}")
    for cls in TARGET:
        ru, en = by_cls[(cls, "ru")], by_cls[(cls, "en")]
        print(f"{cls:20} {ru:4} {en:4} {ru + en:4}")
    print(f"{'kind':20} {'ru':>4} {'en':>4} {'all':>4}")
    for kind in ("plain", "ambiguous", "unknown"):
        ru, en = by_kind[(kind, "ru")], by_kind[(kind, "en")]
        print(f"{kind:20} {ru:4} {en:4} {ru + en:4}")
    print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items(), key=lambda x: -x[1])))
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
    print(f"dates recomputed from text: {dated}")
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
