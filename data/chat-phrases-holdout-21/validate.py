#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-21 (stdlib only).

Checks the shape of every line of projects.jsonl, tasks.jsonl and phrases.jsonl,
that task keys reproduce when tasks.jsonl is loaded in order, that every key an
expectation names exists, the class/kind/lang/tool counts, and recomputes every
expected date from the house date rules (data/chat-phrases/README.md) with a small
reference written for this set only. Prints counts; exits 1 on any problem.

TODAY: 2034-02-14 (Tuesday), 09:05 local, Europe/Lisbon.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2034, 2, 14)
PROBLEMS = []


def bad(msg):
    PROBLEMS.append(msg)


def load(name):
    out = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                out.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: not JSON ({e})")
    return out


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


# ---------------------------------------------------------------- date reference
def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months(y, m, k):
    m0 = m - 1 + k
    return y + m0 // 12, m0 % 12 + 1


def this_sunday(t):
    return t + dt.timedelta(days=6 - t.weekday())


def next_weekday(t, wd):  # strictly after today
    d = (wd - t.weekday()) % 7
    return t + dt.timedelta(days=d or 7)


def weekday_next_week(t, wd):  # that weekday in the next Monday-Sunday week
    monday_next = t + dt.timedelta(days=7 - t.weekday())
    return monday_next + dt.timedelta(days=wd)


def coming_saturday(t):
    return t + dt.timedelta(days=(5 - t.weekday()) % 7)


def day_month(t, day, month):
    try:
        d = dt.date(t.year, month, day)
    except ValueError:
        return None
    if (t - d).days > 30:
        try:
            d = dt.date(t.year + 1, month, day)
        except ValueError:
            return None
    return d


def day_of_month(t, day):
    if not 1 <= day <= 31:
        return None
    y, m = t.year, t.month
    for _ in range(3):
        d = dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))
        if d >= t:
            return d
        y, m = add_months(y, m, 1)
    return None


RU_MONTHS = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
             "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11,
             "декабря": 12}
EN_MONTHS = {"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
             "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
             "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9, "october": 10,
             "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12}
EN_WD = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2,
         "wed": 2, "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4,
         "saturday": 5, "sat": 5, "sunday": 6, "sun": 6}
RU_WD = [(r"понедельник\w*", 0), (r"вторник\w*", 1), (r"сред[аеуы]", 2),
         (r"четверг\w*", 3), (r"пятниц\w*", 4), (r"суббот\w*", 5),
         (r"воскресень\w*", 6)]
EN_WD_RE = "|".join(sorted(EN_WD, key=len, reverse=True))
RU_WD_RE = "|".join(p for p, _ in RU_WD)
RU_MON_RE = "|".join(RU_MONTHS)
EN_MON_RE = "|".join(sorted(EN_MONTHS, key=len, reverse=True))


def ru_wd(word):
    for p, n in RU_WD:
        if re.fullmatch(p, word):
            return n
    return None


def day(d):
    return ("day", d) if d else ("error", None)


# (regex, function(match, today) -> (kind, date)), highest priority first
RULES = [
    (r"\b(\d{4})-(\d{2})-(\d{2})\b",
     lambda m, t: day(_safe(int(m[1]), int(m[2]), int(m[3])))),
    (r"\b(\d{1,2})/(\d{1,2})\b",
     lambda m, t: day(day_month(t, int(m[1]), int(m[2])) if int(m[1]) > 12 else None)),
    (rf"\b(\d{{1,2}})\s+({RU_MON_RE})\b",
     lambda m, t: day(day_month(t, int(m[1]), RU_MONTHS[m[2]]))),
    (rf"\b({EN_MON_RE})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b",
     lambda m, t: day(day_month(t, int(m[2]), EN_MONTHS[m[1]]))),
    (rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({EN_MON_RE})\b",
     lambda m, t: day(day_month(t, int(m[1]), EN_MONTHS[m[2]]))),
    (r"\b(?:до|к|на)\s+(\d{1,2})(?:-?го)?\s+числ\w*",
     lambda m, t: day(day_of_month(t, int(m[1])))),
    (r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b",
     lambda m, t: day(day_of_month(t, int(m[1])))),
    (r"\b(?:day after tomorrow|послезавтра|послезавтро)\b",
     lambda m, t: ("day", t + dt.timedelta(days=2))),
    (r"\b(?:tomorrow|tomorow|tmrw|tmr|завтра|завтро)\b",
     lambda m, t: ("day", t + dt.timedelta(days=1))),
    (r"\b(?:today|eod|сегодня)\b", lambda m, t: ("day", t)),
    (r"\b(?:через|in)\s+(\d+)\s+(?:день|дня|дней|days?)\b",
     lambda m, t: ("day", t + dt.timedelta(days=int(m[1])))),
    (r"\b(?:через\s+неделю|in\s+a\s+week)\b",
     lambda m, t: ("day", t + dt.timedelta(days=7))),
    (r"\b(?:через|in)\s+(\d+)\s+(?:недел\w*|weeks?)\b",
     lambda m, t: ("day", t + dt.timedelta(days=7 * int(m[1])))),
    (r"\b(?:next\s+week|nxt\s+week|на\s+следу(?:ю)?щ\w*\s+недел\w*)\b",
     lambda m, t: ("week", this_sunday(t) + dt.timedelta(days=7))),
    (r"\b(?:this\s+week|end\s+of\s+(?:the\s+)?week|до\s+конца\s+недели|к\s+концу\s+недели|на\s+этой\s+неделе)\b",
     lambda m, t: ("week", this_sunday(t))),
    (r"\b(?:end\s+of\s+(?:the\s+)?month|до\s+конца\s+месяца|к\s+концу\s+месяца)\b",
     lambda m, t: ("day", last_day(t.year, t.month))),
    (r"\b(?:next\s+month|в\s+следующем\s+месяце)\b",
     lambda m, t: ("day", last_day(*add_months(t.year, t.month, 1)))),
    (r"\b(?:end\s+of\s+(?:the\s+)?year|до\s+конца\s+года|к\s+концу\s+года)\b",
     lambda m, t: ("day", dt.date(t.year, 12, 31))),
    (r"\b(?:weekend|выходны\w*)\b", lambda m, t: ("day", coming_saturday(t))),
    (rf"\bnext\s+({EN_WD_RE})\b",
     lambda m, t: ("day", weekday_next_week(t, EN_WD[m[1]]))),
    (rf"\b(?:в|на|до|к)\s+следующ\w*\s+({RU_WD_RE})\b",
     lambda m, t: ("day", weekday_next_week(t, ru_wd(m[1])))),
    (rf"\b(?:this\s+)?({EN_WD_RE})\b",
     lambda m, t: ("day", next_weekday(t, EN_WD[m[1]]))),
    (rf"\b({RU_WD_RE})\b", lambda m, t: ("day", next_weekday(t, ru_wd(m[1])))),
]


def _safe(y, m, d):
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def find_dates(text, today=TODAY):
    """All date expressions in text: list of (matched text, kind, date)."""
    s = norm(text)
    found = []
    for rx, fn in RULES:
        for m in list(re.finditer(rx, s)):
            kind, d = fn(m, today)
            found.append((m.group(0), kind, d))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return found


def self_test():
    t = TODAY
    cases = {  # the README's own examples, moved to this set's TODAY where they are relative
        "в пятницу": ("day", dt.date(2034, 2, 17)),
        "next friday": ("day", dt.date(2034, 2, 24)),
        "в следующую пятницу": ("day", dt.date(2034, 2, 24)),
        "on tuesday": ("day", dt.date(2034, 2, 21)),
        "this week": ("week", dt.date(2034, 2, 19)),
        "на следующей неделе": ("week", dt.date(2034, 2, 26)),
        "end of month": ("day", dt.date(2034, 2, 28)),
        "next month": ("day", dt.date(2034, 3, 31)),
        "на выходных": ("day", dt.date(2034, 2, 18)),
        "через 3 дня": ("day", dt.date(2034, 2, 17)),
        "in 2 weeks": ("day", dt.date(2034, 2, 28)),
        "до 5 числа": ("day", dt.date(2034, 3, 5)),
        "до 30 числа": ("day", dt.date(2034, 2, 28)),
        "к 14 числу": ("day", dt.date(2034, 2, 14)),
        "15 января": ("day", dt.date(2034, 1, 15)),
        "14 января": ("day", dt.date(2035, 1, 14)),
        "19/03": ("day", dt.date(2034, 3, 19)),
        "03/04": ("error", None),
        "30 feb": ("error", None),
        "2034-02-30": ("error", None),
    }
    for text, want in cases.items():
        got = find_dates(text, t)
        if len(got) != 1 or got[0][1:] != want:
            bad(f"date reference self-test: {text!r} -> {got}, want {want}")
    # README examples on their own dates
    if find_dates("до 30 числа", dt.date(2026, 1, 31))[0][2] != dt.date(2026, 2, 28):
        bad("self-test: до 30 числа on 2026-01-31")
    if find_dates("до 31 числа", dt.date(2026, 4, 30))[0][2] != dt.date(2026, 4, 30):
        bad("self-test: до 31 числа on 2026-04-30")
    if find_dates("9 февраля", dt.date(2026, 3, 11))[0][2] != dt.date(2026, 2, 9):
        bad("self-test: 9.02 on 2026-03-11")
    if find_dates("8 февраля", dt.date(2026, 3, 11))[0][2] != dt.date(2027, 2, 8):
        bad("self-test: 8.02 on 2026-03-11")
    if find_dates("friday", dt.date(2026, 3, 13))[0][2] != dt.date(2026, 3, 20):
        bad("self-test: friday on a friday")


# ---------------------------------------------------------------- checks
CLASSES = {"typo": "plain", "report": "plain", "negated_cancel": "plain",
           "explicit_form": "plain", "deadline_not_close": "plain",
           "project_leadin": "plain", "plain_other": "plain",
           "ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
TOOLS = {"close_task", "cancel_task", "update_task", "create_task", "list_tasks",
         "clarify", "none"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
MOVE_WORDS = re.compile(r"\b(перенеси|перенести|назначь|move|push|reschedule|schedule)\b")
COMMAND_START = re.compile(r"^(добавь|добавить|напомни|создай|новая задача|add|remind|todo|create|new task)\b")


def main():
    self_test()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for n, p in projects:
        if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
            bad(f"projects.jsonl:{n}: bad shape {p}")
            continue
        if not re.fullmatch(r"[A-Z]+", p["key"]) or p["key"] == "INBOX":
            bad(f"projects.jsonl:{n}: bad key {p['key']}")
        pkeys.add(p["key"])
    if not 4 <= len(projects) <= 6:
        bad(f"projects.jsonl: {len(projects)} projects, want 4-6")

    by_key = {}
    counters = Counter()
    for n, t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"tasks.jsonl:{n}: bad shape {t}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad(f"tasks.jsonl:{n}: unknown project {proj}")
        counters[proj] += 1
        if t["key"] != f"{proj}-{counters[proj]}":
            bad(f"tasks.jsonl:{n}: key {t['key']} does not reproduce ({proj}-{counters[proj]})")
        if t["key"] in by_key:
            bad(f"tasks.jsonl:{n}: duplicate key {t['key']}")
        if not isinstance(t["title"], str) or not t["title"].strip():
            bad(f"tasks.jsonl:{n}: empty title")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"tasks.jsonl:{n}: due_kind none with a due")
        elif t["due_kind"] in ("day", "week"):
            try:
                d = dt.date.fromisoformat(t["due"])
            except (TypeError, ValueError):
                bad(f"tasks.jsonl:{n}: bad due {t['due']}")
                d = None
            if d and t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"tasks.jsonl:{n}: week due {d} is not a Sunday")
        else:
            bad(f"tasks.jsonl:{n}: bad due_kind {t['due_kind']}")
        by_key[t["key"]] = t
    if not 50 <= len(tasks) <= 65:
        bad(f"tasks.jsonl: {len(tasks)} tasks, want 50-65")

    def due_of(k):
        t = by_key[k]
        return (t["due_kind"], t["due"])

    texts = set()
    by_class = Counter()
    by_class_lang = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    dates_checked = 0
    for n, p in phrases:
        where = f"phrases.jsonl:{n}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: bad shape {sorted(p)}")
            continue
        text, lang, kind, exp, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if not isinstance(text, str) or not text.strip():
            bad(f"{where}: empty text")
            continue
        if norm(text) in texts:
            bad(f"{where}: duplicate text {text!r}")
        texts.add(norm(text))
        if lang not in ("ru", "en"):
            bad(f"{where}: bad lang {lang}")
        has_cyr = bool(re.search(r"[а-яё]", text.lower()))
        if (lang == "ru") != has_cyr:
            bad(f"{where}: lang {lang} does not fit the script of {text!r}")
        if cls not in CLASSES:
            bad(f"{where}: bad class {cls}")
            continue
        if CLASSES[cls] != kind:
            bad(f"{where}: class {cls} needs kind {CLASSES[cls]}, got {kind}")
        if text.rstrip().endswith("."):
            bad(f"{where}: final dot")
        tool = exp.get("tool") if isinstance(exp, dict) else None
        if tool not in TOOLS:
            bad(f"{where}: bad tool {exp}")
            continue
        by_class[cls] += 1
        by_class_lang[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        by_tool[tool] += 1
        if (kind == "ambiguous") != (tool == "clarify"):
            bad(f"{where}: kind {kind} with tool {tool}")
        if (kind == "unknown") != (tool == "none"):
            bad(f"{where}: kind {kind} with tool {tool}")
        found = find_dates(text)
        valid = [f for f in found if f[1] != "error"]

        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"}:
                bad(f"{where}: bad expect shape {exp}")
            elif exp["id"] not in by_key:
                bad(f"{where}: unknown task {exp['id']}")
            if found:
                bad(f"{where}: {tool} but the phrase holds a date {found}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"}:
                bad(f"{where}: bad expect shape {exp}")
                continue
            if exp["id"] not in by_key:
                bad(f"{where}: unknown task {exp['id']}")
                continue
            if len(valid) != 1 or len(found) != 1:
                bad(f"{where}: want exactly one date expression, found {found}")
                continue
            _, k, d = valid[0]
            dates_checked += 1
            if (exp["deadline_kind"], exp["deadline"]) != (k, d.isoformat()):
                bad(f"{where}: expect {exp['deadline_kind']} {exp['deadline']}, reference {k} {d}")
            if due_of(exp["id"]) == (exp["deadline_kind"], exp["deadline"]):
                bad(f"{where}: move to the date {exp['id']} already has")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(exp) <= allowed or "text" not in exp or "deadline_kind" not in exp:
                bad(f"{where}: bad expect shape {exp}")
                continue
            t = norm(exp["text"])
            if not t or t not in norm(text):
                bad(f"{where}: create text {exp['text']!r} is not a part of the phrase")
            if COMMAND_START.match(t):
                bad(f"{where}: create text starts with a command word")
            if find_dates(exp["text"]):
                bad(f"{where}: create text holds a date phrase")
            if "project" in exp and exp["project"] not in pkeys | {"INBOX"}:
                bad(f"{where}: unknown project {exp['project']}")
            if cls == "project_leadin" and "project" not in exp:
                bad(f"{where}: project lead-in without an expected project")
            if exp["deadline_kind"] == "none":
                if "deadline" in exp:
                    bad(f"{where}: kind none with a deadline")
                if found:
                    bad(f"{where}: no deadline expected but the phrase holds {found}")
            else:
                if len(valid) != 1 or len(found) != 1:
                    bad(f"{where}: want exactly one date expression, found {found}")
                    continue
                _, k, d = valid[0]
                dates_checked += 1
                if (exp["deadline_kind"], exp.get("deadline")) != (k, d.isoformat()):
                    bad(f"{where}: expect {exp['deadline_kind']} {exp.get('deadline')}, reference {k} {d}")
        elif tool == "list_tasks":
            if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in FILTERS:
                bad(f"{where}: bad list expect {exp}")
            else:
                by_filter[exp["filter"]] += 1
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                    or len(set(opts)) != len(opts):
                bad(f"{where}: bad clarify {exp}")
                continue
            for k in opts:
                if k not in by_key:
                    bad(f"{where}: unknown task {k}")
            if MOVE_WORDS.search(norm(text)):
                if len(valid) != 1:
                    bad(f"{where}: ambiguous move needs one date, found {found}")
                else:
                    _, k, d = valid[0]
                    dates_checked += 1
                    for o in opts:
                        if o in by_key and due_of(o) == (k, d.isoformat()):
                            bad(f"{where}: the move date equals the due of option {o}")
        elif tool == "none":
            if set(exp) != {"tool"}:
                bad(f"{where}: bad none expect {exp}")

    # counts and balance
    total = len(phrases)
    if total < 290:
        bad(f"phrases: {total} lines, want >= 290")
    for cls in CLASSES:
        for lang in ("ru", "en"):
            if by_class_lang[(cls, lang)] < 8:
                bad(f"class {cls}/{lang}: only {by_class_lang[(cls, lang)]}")
        if cls not in ("offtopic", "unknown_other") and by_class[cls] < 20:
            bad(f"class {cls}: only {by_class[cls]}")
    if by_class["ambiguous"] < 40:
        bad("ambiguous < 40")
    if by_class["offtopic"] + by_class["unknown_other"] < 40:
        bad("unknown (offtopic + unknown_other) < 40")
    ru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
    en = sum(v for (c, l), v in by_class_lang.items() if l == "en")
    if abs(ru - en) > total * 0.1:
        bad(f"ru {ru} / en {en} not about equal")

    # report
    print(f"projects {len(projects)}, tasks {len(tasks)}: " +
          ", ".join(f"{k} {v}" for k, v in counters.items()))
    today_iso = TODAY.isoformat()
    overdue = [t["key"] for t in by_key.values() if t["due_kind"] == "day" and t["due"] < today_iso]
    due_today = [t["key"] for t in by_key.values() if t["due_kind"] == "day" and t["due"] == today_iso]
    week = [t["key"] for t in by_key.values() if t["due_kind"] == "week"]
    undated = [t["key"] for t in by_key.values() if t["due_kind"] == "none"]
    print(f"overdue {len(overdue)} {overdue}")
    print(f"due today {len(due_today)} {due_today}")
    print(f"week {len(week)} {week}; undated {len(undated)}; later {len(tasks) - len(overdue) - len(due_today) - len(week) - len(undated)}")
    print(f"phrases {total}: ru {ru}, en {en}")
    print(f"{'class':<20}{'ru':>5}{'en':>5}{'all':>6}")
    for cls in CLASSES:
        print(f"{cls:<20}{by_class_lang[(cls, 'ru')]:>5}{by_class_lang[(cls, 'en')]:>5}{by_class[cls]:>6}")
    print(f"{'kind':<20}{'ru':>5}{'en':>5}{'all':>6}")
    for kind in ("plain", "ambiguous", "unknown"):
        r, e = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
        print(f"{kind:<20}{r:>5}{e:>5}{r + e:>6}")
    print("tools: " + ", ".join(f"{k} {v}" for k, v in by_tool.most_common()))
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
    print(f"dates recomputed: {dates_checked}")
    if PROBLEMS:
        print(f"\n{len(PROBLEMS)} problem(s):")
        for p in PROBLEMS:
            print("  " + p)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
