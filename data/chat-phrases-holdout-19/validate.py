#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-19 (stdlib only).

Checks the shape of every line of projects.jsonl, tasks.jsonl and phrases.jsonl,
that keys are numbered per project in creation order, that every referenced task
exists, and recomputes every expected date from the house date rules with a small
reference written for this set only. Prints counts; exits 1 on any problem.

    python3 data/chat-phrases-holdout-19/validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2033, 5, 12)          # local date in Asia/Krasnoyarsk at 2033-05-11T21:40Z
NOW_UTC = dt.datetime(2033, 5, 11, 21, 40)
ZONE_OFFSET = dt.timedelta(hours=7)

CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
CLASS_KIND = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
CYR = re.compile(r"[а-яё]", re.I)

problems = []


def bad(where, msg):
    problems.append(f"{where}: {msg}")


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{n}", "empty line")
                continue
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}", f"not JSON: {e}")
    return rows


# ---------------------------------------------------------------- date reference
WD_EN = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
         "sunday": 6, "sun": 6}
WD_RU = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3), ("пятниц", 4),
         ("суббот", 5), ("воскресень", 6)]
MON_EN = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}
MON_RU = {"январ": 1, "феврал": 2, "март": 3, "апрел": 4, "ма": 5, "июн": 6, "июл": 7,
          "август": 8, "сентябр": 9, "октябр": 10, "ноябр": 11, "декабр": 12}


def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def weekday_after(today, wd):
    """the next such weekday strictly after today"""
    delta = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=delta or 7)


def next_week_weekday(today, wd):
    monday_next = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday_next + dt.timedelta(days=wd)


def month_end(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def day_month(today, d, m, y=None):
    if y is not None:
        return dt.date(y, m, d)
    cand = dt.date(today.year, m, d)
    if (today - cand).days > 30:
        cand = dt.date(today.year + 1, m, d)
    return cand


def day_of_month(today, d):
    y, m = today.year, today.month
    for _ in range(3):
        last = calendar.monthrange(y, m)[1]
        cand = dt.date(y, m, min(d, last))
        if cand >= today:
            return cand
        m += 1
        if m == 13:
            y, m = y + 1, 1
    raise ValueError("day of month")


def ru_weekday(word):
    for stem, n in WD_RU:
        if word.startswith(stem):
            return n
    return None


def ru_month(word):
    for stem, n in sorted(MON_RU.items(), key=lambda kv: -len(kv[0])):
        if word.startswith(stem) and (stem != "ма" or word in ("мая", "май", "мае")):
            return n
    return None


# (regex, function(match) -> (kind, date)); earlier rules win, their spans are masked
RULES = [
    (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m, t: ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))),
    (r"\b(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?\b",
     lambda m, t: ("day", day_month(t, int(m[1]), int(m[2]), int(m[3]) if m[3] else None))),
    (r"\b(\d{1,2})/(\d{1,2})\b",
     lambda m, t: ("day", day_month(t, int(m[1]), int(m[2]))) if int(m[1]) > 12 else ("error", None)),
    (r"\b(\d{1,2})\s+(января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря)\b",
     lambda m, t: ("day", day_month(t, int(m[1]), ru_month(m[2])))),
    (r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b",
     lambda m, t: ("day", day_month(t, int(m[2]), MON_EN[m[1]]))),
    (r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
     lambda m, t: ("day", day_month(t, int(m[1]), MON_EN[m[2]]))),
    (r"\b(\d{1,2})\s+числа\b", lambda m, t: ("day", day_of_month(t, int(m[1])))),
    (r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", lambda m, t: ("day", day_of_month(t, int(m[1])))),
    # послезавтра before завтра; a dropped letter (послезавра) is read as meant
    (r"\bпослезав?т?р?а\b|\bday after tomorrow\b", lambda m, t: ("day", t + dt.timedelta(days=2))),
    (r"\bзавтр?а\b|\bзавтар\b|\btomm?orr?ow\b|\btmrw\b|\btmr\b",
     lambda m, t: ("day", t + dt.timedelta(days=1))),
    (r"\bсегодня\b|\btoday\b|\beod\b", lambda m, t: ("day", t)),
    (r"\bчерез\s+(\d+)\s+(?:день|дня|дней)\b|\bin\s+(\d+)\s+days?\b",
     lambda m, t: ("day", t + dt.timedelta(days=int(m[1] or m[2])))),
    (r"\bчерез\s+неделю\b|\bin\s+a\s+week\b", lambda m, t: ("day", t + dt.timedelta(days=7))),
    (r"\bчерез\s+(\d+)\s+недел[иь]\b|\bin\s+(\d+)\s+weeks\b",
     lambda m, t: ("day", t + dt.timedelta(days=7 * int(m[1] or m[2])))),
    (r"\bend of (?:the )?month\b|\bконц[аеу]? месяца\b", lambda m, t: ("day", month_end(t.year, t.month))),
    (r"\bnext month\b|\bследующем месяце\b",
     lambda m, t: ("day", month_end(t.year + (t.month == 12), t.month % 12 + 1))),
    (r"\bnext\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun)\b",
     lambda m, t: ("day", next_week_weekday(t, WD_EN[m[1]]))),
    (r"\bследующ\w*\s+(понедельник|вторник|среду|четверг|пятницу|субботу|воскресенье)\b",
     lambda m, t: ("day", next_week_weekday(t, ru_weekday(m[1])))),
    (r"\bnext week\b|\bследующ\w* нед\w*\b", lambda m, t: ("week", sunday_of(t) + dt.timedelta(days=7))),
    (r"\bthis week\b|\bend of (?:the )?week\b|\bконц[аеу]? недели\b|\bэтой неделе\b",
     lambda m, t: ("week", sunday_of(t))),
    (r"\bweekend\b|\bвыходн\w*\b",
     lambda m, t: ("day", t if t.weekday() == 5 else weekday_after(t, 5))),
    (r"\b(?:this\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
     lambda m, t: ("day", weekday_after(t, WD_EN[m[1]]))),
    (r"\b(понедельник\w*|вторник\w*|сред[уаые]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*)\b",
     lambda m, t: ("day", weekday_after(t, ru_weekday(m[1])))),
]
RULES = [(re.compile(rx), fn) for rx, fn in RULES]


def norm(s):
    return s.lower().replace("ё", "е")


def find_dates(text, today=TODAY):
    """all date expressions in text -> list of (kind, date, matched text)"""
    t = norm(text)
    # explicit task keys (BIND-13, LIB-10) are not dates
    t = re.sub(r"\b[a-z]+-\d+\b", lambda m: " " * len(m[0]), t)
    found = []
    for rx, fn in RULES:
        for m in rx.finditer(t):
            kind, d = fn(m, today)
            found.append((kind, d, m[0]))
        t = rx.sub(lambda m: " " * len(m[0]), t)
    return found


def self_test():
    T = dt.date(2026, 3, 11)  # the format README's examples (a Wednesday)
    cases = [("friday", "day", dt.date(2026, 3, 13)), ("next friday", "day", dt.date(2026, 3, 20)),
             ("this week", "week", dt.date(2026, 3, 15)), ("на следующей неделе", "week", dt.date(2026, 3, 22)),
             ("9.02", "day", dt.date(2026, 2, 9)), ("8.02", "day", dt.date(2027, 2, 8)),
             ("до конца месяца", "day", dt.date(2026, 3, 31)), ("на выходных", "day", dt.date(2026, 3, 14)),
             ("через 3 дня", "day", dt.date(2026, 3, 14)), ("19/03", "day", dt.date(2026, 3, 19)),
             ("в среду", "day", dt.date(2026, 3, 18)), ("послезавтра", "day", dt.date(2026, 3, 13))]
    for text, kind, d in cases:
        got = find_dates(text, T)
        if got != [(kind, d, got[0][2] if got else None)] or not got:
            bad("self-test", f"{text!r} -> {got}, want {kind} {d}")
    if day_of_month(dt.date(2026, 1, 31), 30) != dt.date(2026, 2, 28):
        bad("self-test", "day of month 30 on 2026-01-31")
    if day_of_month(dt.date(2026, 4, 30), 31) != dt.date(2026, 4, 30):
        bad("self-test", "day of month 31 on 2026-04-30")


# ---------------------------------------------------------------- checks
def main():
    self_test()
    local_now = NOW_UTC + ZONE_OFFSET
    if local_now.date() != TODAY or TODAY.weekday() != 3:
        bad("TODAY", f"local now {local_now} should be Thursday {TODAY}")

    projects = {}
    for n, p in load("projects.jsonl"):
        w = f"projects.jsonl:{n}"
        if list(p) != ["key", "name", "description"]:
            bad(w, f"fields {list(p)}")
        if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p.get("key") == "INBOX":
            bad(w, f"bad key {p.get('key')}")
        if p.get("key") in projects:
            bad(w, "duplicate key")
        if not p.get("name") or not p.get("description"):
            bad(w, "empty name/description")
        projects[p.get("key")] = p
    if not 4 <= len(projects) <= 6:
        bad("projects.jsonl", f"{len(projects)} projects, want 4-6")

    tasks, counters = {}, Counter()
    for n, t in load("tasks.jsonl"):
        w = f"tasks.jsonl:{n}"
        if list(t) != ["key", "title", "project", "due", "due_kind"]:
            bad(w, f"fields {list(t)}")
            continue
        pr = t["project"]
        if pr != "INBOX" and pr not in projects:
            bad(w, f"unknown project {pr}")
        counters[pr] += 1
        if t["key"] != f"{pr}-{counters[pr]}":
            bad(w, f"key {t['key']} but creation order gives {pr}-{counters[pr]}")
        if not t["title"].strip():
            bad(w, "empty title")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(w, "due_kind none with a due")
        elif t["due_kind"] in ("day", "week"):
            try:
                d = dt.date.fromisoformat(t["due"])
                if t["due_kind"] == "week" and d.weekday() != 6:
                    bad(w, "week due is not a Sunday")
            except (TypeError, ValueError):
                bad(w, f"bad due {t['due']}")
        else:
            bad(w, f"bad due_kind {t['due_kind']}")
        tasks[t["key"]] = t
    if not 50 <= len(tasks) <= 65:
        bad("tasks.jsonl", f"{len(tasks)} tasks, want 50-65")
    titles = Counter(norm(t["title"]) for t in tasks.values())
    for ti, c in titles.items():
        if c > 1:
            bad("tasks.jsonl", f"duplicate title {ti}")

    def due_of(k):
        t = tasks[k]
        return None if t["due"] is None else dt.date.fromisoformat(t["due"])

    phrases = load("phrases.jsonl")
    by_class = Counter()
    by_kind = Counter()
    by_tool = Counter()
    by_lang = Counter()
    by_list = Counter()
    seen = set()
    for n, p in phrases:
        w = f"phrases.jsonl:{n}"
        if list(p) != ["text", "lang", "kind", "expect", "class"]:
            bad(w, f"fields {list(p)}")
            continue
        text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if norm(text.strip()) in seen:
            bad(w, "duplicate text")
        seen.add(norm(text.strip()))
        if text != text.strip() or not text:
            bad(w, "untrimmed/empty text")
        if lang not in ("ru", "en"):
            bad(w, f"lang {lang}")
        elif (lang == "ru") != bool(CYR.search(text)):
            bad(w, f"lang {lang} does not fit the script of {text!r}")
        if cls not in CLASSES:
            bad(w, f"class {cls}")
            continue
        if kind != CLASS_KIND.get(cls, "plain"):
            bad(w, f"kind {kind} for class {cls}")
        by_class[(cls, lang)] += 1
        by_kind[(kind, lang)] += 1
        by_lang[lang] += 1
        tool = e.get("tool")
        by_tool[tool] += 1
        dates = find_dates(text)

        def need_task(k):
            if k not in tasks:
                bad(w, f"unknown task {k}")
                return False
            return True

        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"}:
                bad(w, f"fields {sorted(e)}")
            need_task(e.get("id"))
            if kind != "plain":
                bad(w, "close/cancel must be plain")
            if cls == "negated_cancel" and tool != "cancel_task":
                bad(w, "negated_cancel must expect cancel_task")
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"}:
                bad(w, f"fields {sorted(e)}")
            if need_task(e.get("id")):
                if len(dates) != 1:
                    bad(w, f"want exactly one date expression, found {dates}")
                else:
                    k2, d2, _ = dates[0]
                    if (k2, d2.isoformat() if d2 else None) != (e["deadline_kind"], e["deadline"]):
                        bad(w, f"expect {e['deadline_kind']} {e['deadline']}, reference says {k2} {d2}")
                    if d2 == due_of(e["id"]) and e["deadline_kind"] == tasks[e["id"]]["due_kind"]:
                        bad(w, "update to the date the task already has")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(e) <= allowed or not {"tool", "text", "deadline_kind"} <= set(e):
                bad(w, f"fields {sorted(e)}")
            if e.get("project") is not None and e["project"] not in projects and e["project"] != "INBOX":
                bad(w, f"unknown project {e['project']}")
            if cls == "project_leadin" and "project" not in e:
                bad(w, "project lead-in without project")
            if e["deadline_kind"] == "none":
                if "deadline" in e or dates:
                    bad(w, f"no deadline expected but found {dates}")
            else:
                if len(dates) != 1:
                    bad(w, f"want exactly one date expression, found {dates}")
                else:
                    k2, d2, span = dates[0]
                    if (k2, d2.isoformat()) != (e["deadline_kind"], e.get("deadline")):
                        bad(w, f"expect {e['deadline_kind']} {e.get('deadline')}, reference says {k2} {d2}")
            # every word of the expected text is in the phrase, in order
            words_text = re.findall(r"[\w-]+", norm(e["text"]))
            words_phrase = re.findall(r"[\w-]+", norm(text))
            it = iter(words_phrase)
            if not all(any(x == y for y in it) for x in words_text):
                bad(w, f"create text {e['text']!r} is not a subsequence of the phrase")
            if find_dates(e["text"]):
                bad(w, "create text still holds a date phrase")
        elif tool == "list_tasks":
            if set(e) - {"tool", "filter", "period"} or e.get("filter") not in LIST_FILTERS:
                bad(w, f"bad list {e}")
            by_list[e.get("filter")] += 1
        elif tool == "clarify":
            opts = e.get("options", [])
            if set(e) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
                bad(w, f"bad clarify {e}")
            for k in opts:
                if need_task(k) and dates:
                    if len(dates) != 1:
                        bad(w, f"several dates {dates}")
                    elif dates[0][1] == due_of(k):
                        bad(w, f"move date equals {k}'s current due (tie could be broken)")
            if kind != "ambiguous":
                bad(w, "clarify must be kind ambiguous")
        elif tool == "none":
            if set(e) != {"tool"}:
                bad(w, f"fields {sorted(e)}")
            if kind != "unknown":
                bad(w, "none must be kind unknown")
        else:
            bad(w, f"unknown tool {tool}")
        if kind == "ambiguous" and tool != "clarify":
            bad(w, "ambiguous must expect clarify")
        if kind == "unknown" and tool != "none":
            bad(w, "unknown must expect none")

    # ------------------------------------------------------------ volume floors
    total = len(phrases)
    if total < 290:
        bad("phrases", f"{total} phrases, want >= 290")
    for cls in CLASSES:
        c = by_class[(cls, "ru")] + by_class[(cls, "en")]
        if by_class[(cls, "ru")] < 8 or by_class[(cls, "en")] < 8:
            bad("phrases", f"class {cls} thin in one language")
        if c < 20:
            bad("phrases", f"class {cls} has {c} < 20")
    amb = by_kind[("ambiguous", "ru")] + by_kind[("ambiguous", "en")]
    unk = by_kind[("unknown", "ru")] + by_kind[("unknown", "en")]
    if amb < 40:
        bad("phrases", f"ambiguous {amb} < 40")
    if unk < 40:
        bad("phrases", f"unknown {unk} < 40")
    if abs(by_lang["ru"] - by_lang["en"]) > 0.1 * total:
        bad("phrases", f"languages unbalanced {dict(by_lang)}")

    # ------------------------------------------------------------ report
    print(f"TODAY {TODAY} ({TODAY:%A}), local now {local_now:%Y-%m-%d %H:%M} Asia/Krasnoyarsk")
    print(f"projects {len(projects)}: {', '.join(projects)}")
    per = Counter(t["project"] for t in tasks.values())
    print(f"tasks {len(tasks)}: " + ", ".join(f"{k} {per[k]}" for k in list(projects) + ["INBOX"]))
    dues = Counter()
    for k, t in tasks.items():
        d = due_of(k)
        if d is None:
            dues["undated"] += 1
        elif t["due_kind"] == "week":
            dues["week"] += 1
        elif d < TODAY:
            dues["overdue"] += 1
        elif d == TODAY:
            dues["today"] += 1
        elif d == TODAY + dt.timedelta(days=1):
            dues["tomorrow"] += 1
        else:
            dues["later"] += 1
    print("due: " + ", ".join(f"{k} {dues[k]}" for k in ["overdue", "today", "tomorrow", "later", "week", "undated"]))
    print(f"phrases {total}: ru {by_lang['ru']}, en {by_lang['en']}")
    print(f"{'class':20} {'ru':>4} {'en':>4} {'all':>5}")
    for cls in CLASSES:
        r, en = by_class[(cls, 'ru')], by_class[(cls, 'en')]
        print(f"{cls:20} {r:4} {en:4} {r + en:5}")
    print(f"{'kind':20} {'ru':>4} {'en':>4} {'all':>5}")
    for kind in ("plain", "ambiguous", "unknown"):
        r, en = by_kind[(kind, 'ru')], by_kind[(kind, 'en')]
        print(f"{kind:20} {r:4} {en:4} {r + en:5}")
    print("tools: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_list.items())))
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
