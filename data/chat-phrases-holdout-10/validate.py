#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-10 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl next to this file, checks
shapes, keys and references, and re-derives every date answer from the phrase
text with a small reference of the house date rules written for this set only
(self-tested on fixed values first). Prints counts and OK; exits 1 on a problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2029, 11, 6)          # Tuesday, 18:05 Asia/Tbilisi
PROBLEMS = []


def bad(msg):
    PROBLEMS.append(msg)


# --------------------------------------------------------------------------
# reference of the house date rules (only what this set needs, plus tests)
# --------------------------------------------------------------------------
EN_WD = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
         "sunday": 6, "sun": 6}
RU_WD_FULL = [(r"понедельник\w*", 0), (r"вторник\w*", 1), (r"сред[аеуы]", 2), (r"четверг\w*", 3),
              (r"пятниц\w*", 4), (r"суббот\w*", 5), (r"воскресень\w*", 6)]
RU_WD_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
EN_MON = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
EN_MON.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
EN_MON["sept"] = 9
RU_MON = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6, "июля": 7,
          "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
NUM = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
       "один": 1, "одну": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6,
       "семь": 7}


class DateError(Exception):
    pass


def num(s):
    return int(s) if s.isdigit() else NUM[s]


def sunday(d):
    return d + dt.timedelta(days=6 - d.weekday())


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def weekday_plain(today, wd):          # strictly after today
    delta = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=delta or 7)


def weekday_next(today, wd):           # that weekday in the next Mon-Sun week
    next_monday = today + dt.timedelta(days=7 - today.weekday())
    return next_monday + dt.timedelta(days=wd)


def day_month(today, d, m):
    try:
        cand = dt.date(today.year, m, d)
    except ValueError:
        raise DateError("impossible day/month")
    if (today - cand).days > 30:
        cand = dt.date(today.year + 1, m, d)
    return cand


def day_of_month(today, n):
    if not 1 <= n <= 31:
        raise DateError("impossible day of month")
    y, m = today.year, today.month
    cand = dt.date(y, m, min(n, calendar.monthrange(y, m)[1]))
    if cand < today:
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
        cand = dt.date(y, m, min(n, calendar.monthrange(y, m)[1]))
    return cand


def next_month_end(today):
    y, m = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return last_day(y, m)


def saturday(today):
    return today + dt.timedelta(days=(5 - today.weekday()) % 7)


W = r"(?<![\w-])"     # left word edge (keys like BAL-7 are not dates)
E = r"(?![\w-])"      # right word edge
EN_WD_RE = "|".join(sorted(EN_WD, key=len, reverse=True))
RU_WD_RE = "|".join(p for p, _ in RU_WD_FULL)
RU_PREP = r"(?:в|во|на|до|к|ко|по)"
NUM_RE = r"(\d+|one|two|three|four|five|six|seven|a)"
RU_NUM_RE = r"(\d+|один|одну|два|две|три|четыре|пять|шесть|семь)"


def ru_wd(word):
    for p, i in RU_WD_FULL:
        if re.fullmatch(p, word):
            return i
    raise DateError(word)


# (pattern, resolver(match, today) -> (kind, date)); earlier patterns win on overlap
RULES = [
    # --- ISO and numeric
    (r"(\d{4})-(\d{1,2})-(\d{1,2})", lambda m, t: ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))),
    (r"(\d{1,2})\.(\d{1,2})\.(\d{4})", lambda m, t: ("day", dt.date(int(m[3]), int(m[2]), int(m[1])))),
    (r"(\d{1,2})\.(\d{1,2})", lambda m, t: ("day", day_month(t, int(m[1]), int(m[2])))),
    (r"(\d{1,2})/(\d{1,2})", lambda m, t: ("day", dd_mm_slash(t, int(m[1]), int(m[2])))),
    # --- english
    (r"(?:the )?day after tomorrow", lambda m, t: ("day", t + dt.timedelta(days=2))),
    (r"tomorrow|tmrw|tmr", lambda m, t: ("day", t + dt.timedelta(days=1))),
    (r"today|tonight|eod", lambda m, t: ("day", t)),
    (r"next week", lambda m, t: ("week", sunday(t) + dt.timedelta(days=7))),
    (r"this week|(?:the )?end of (?:the )?week", lambda m, t: ("week", sunday(t))),
    (r"(?:the )?end of (?:the )?month", lambda m, t: ("day", last_day(t.year, t.month))),
    (r"next month", lambda m, t: ("day", next_month_end(t))),
    (r"(?:the )?end of (?:the )?year", lambda m, t: ("day", dt.date(t.year, 12, 31))),
    (r"(?:this |the )?weekend", lambda m, t: ("day", saturday(t))),
    (r"in (?:a|one) week", lambda m, t: ("day", t + dt.timedelta(days=7))),
    (r"in " + NUM_RE + r" weeks", lambda m, t: ("day", t + dt.timedelta(days=7 * num(m[1])))),
    (r"in " + NUM_RE + r" days?", lambda m, t: ("day", t + dt.timedelta(days=num(m[1])))),
    (r"next (" + EN_WD_RE + ")", lambda m, t: ("day", weekday_next(t, EN_WD[m[1]]))),
    (r"(?:this )?(" + EN_WD_RE + ")", lambda m, t: ("day", weekday_plain(t, EN_WD[m[1]]))),
    (r"(" + "|".join(EN_MON) + r")\.? (\d{1,2})(?:st|nd|rd|th)?",
     lambda m, t: ("day", day_month(t, int(m[2]), EN_MON[m[1]]))),
    (r"(\d{1,2})(?:st|nd|rd|th)? (?:of )?(" + "|".join(EN_MON) + ")",
     lambda m, t: ("day", day_month(t, int(m[1]), EN_MON[m[2]]))),
    (r"the (\d{1,2})(?:st|nd|rd|th)", lambda m, t: ("day", day_of_month(t, int(m[1])))),
    # --- russian
    (r"послезавтра", lambda m, t: ("day", t + dt.timedelta(days=2))),
    (r"завтра", lambda m, t: ("day", t + dt.timedelta(days=1))),
    (r"сегодня", lambda m, t: ("day", t)),
    (r"(?:на|в) следующ(?:ей|ую) недел[еюи]", lambda m, t: ("week", sunday(t) + dt.timedelta(days=7))),
    (r"(?:(?:до|к) конц[ау] недели|на этой неделе)", lambda m, t: ("week", sunday(t))),
    (r"(?:до|к|в) конц[аеу] месяца", lambda m, t: ("day", last_day(t.year, t.month))),
    (r"в следующем месяце", lambda m, t: ("day", next_month_end(t))),
    (r"(?:до|к) конц[ау] года", lambda m, t: ("day", dt.date(t.year, 12, 31))),
    (r"(?:на|к|в) выходн(?:ых|ым|ые)", lambda m, t: ("day", saturday(t))),
    (r"через неделю", lambda m, t: ("day", t + dt.timedelta(days=7))),
    (r"через " + RU_NUM_RE + r" недел[иь]", lambda m, t: ("day", t + dt.timedelta(days=7 * num(m[1])))),
    (r"через " + RU_NUM_RE + r" (?:день|дня|дней)", lambda m, t: ("day", t + dt.timedelta(days=num(m[1])))),
    (r"(?:в|на) следующ(?:ий|ую|ее) (" + RU_WD_RE + ")", lambda m, t: ("day", weekday_next(t, ru_wd(m[1])))),
    (RU_PREP + r" (" + "|".join(RU_WD_ABBR) + ")", lambda m, t: ("day", weekday_plain(t, RU_WD_ABBR[m[1]]))),
    (r"(?:" + RU_PREP + r" )?(" + RU_WD_RE + ")", lambda m, t: ("day", weekday_plain(t, ru_wd(m[1])))),
    (r"(\d{1,2}) (" + "|".join(RU_MON) + ")", lambda m, t: ("day", day_month(t, int(m[1]), RU_MON[m[2]]))),
    (r"(\d{1,2}) числа", lambda m, t: ("day", day_of_month(t, int(m[1])))),
]
RULES = [(re.compile(W + "(?:" + p + ")" + E), f) for p, f in RULES]


def dd_mm_slash(today, a, b):
    if a <= 12:
        raise DateError("dd/mm only when the day is > 12")
    return day_month(today, a, b)


def norm(text):
    return re.sub(r"\s+", " ", text.lower().replace("ё", "е")).strip()


def find_dates(text, today):
    """All date expressions in text -> list of (kind, iso-date); raises DateError."""
    s = norm(text)
    taken = [False] * len(s)
    found = []
    for rx, fn in RULES:
        for m in rx.finditer(s):
            if any(taken[m.start():m.end()]):
                continue
            for i in range(m.start(), m.end()):
                taken[i] = True
            kind, d = fn(m, today)
            found.append((m.start(), kind, d.isoformat()))
    return [(k, d) for _, k, d in sorted(found)]


def read_date(text, today):
    found = find_dates(text, today)
    if not found:
        return None
    if len(set(found)) > 1:
        raise DateError("several dates: %r" % (found,))
    return found[0]


def self_test():
    cases = [
        # (today, text, expected (kind, date) | None | "error")
        ("2026-03-11", "friday", ("day", "2026-03-13")),
        ("2026-03-13", "on friday", ("day", "2026-03-20")),
        ("2026-03-11", "next friday", ("day", "2026-03-20")),
        ("2026-03-11", "this friday", ("day", "2026-03-13")),
        ("2026-03-11", "в следующую пятницу", ("day", "2026-03-20")),
        ("2026-03-11", "до пятницы", ("day", "2026-03-13")),
        ("2026-03-11", "в пт", ("day", "2026-03-13")),
        ("2026-03-11", "this week", ("week", "2026-03-15")),
        ("2026-03-15", "до конца недели", ("week", "2026-03-15")),
        ("2026-03-11", "на следующей неделе", ("week", "2026-03-22")),
        ("2026-03-11", "end of month", ("day", "2026-03-31")),
        ("2026-03-11", "в следующем месяце", ("day", "2026-04-30")),
        ("2026-12-30", "next month", ("day", "2027-01-31")),
        ("2026-03-11", "end of year", ("day", "2026-12-31")),
        ("2026-03-11", "на выходных", ("day", "2026-03-14")),
        ("2026-03-14", "weekend", ("day", "2026-03-14")),
        ("2026-03-11", "послезавтра", ("day", "2026-03-13")),
        ("2026-03-11", "через 3 дня", ("day", "2026-03-14")),
        ("2026-03-11", "in a week", ("day", "2026-03-18")),
        ("2026-03-11", "in 2 weeks", ("day", "2026-03-25")),
        ("2026-03-11", "9.02", ("day", "2026-02-09")),
        ("2026-03-11", "8.02", ("day", "2027-02-08")),
        ("2026-03-11", "20 мая", ("day", "2026-05-20")),
        ("2026-03-11", "apr 28", ("day", "2026-04-28")),
        ("2026-03-11", "28 april", ("day", "2026-04-28")),
        ("2026-03-11", "19/03", ("day", "2026-03-19")),
        ("2026-03-11", "03/04", "error"),
        ("2026-03-11", "24.12.2026", ("day", "2026-12-24")),
        ("2026-03-11", "2026-12-24", ("day", "2026-12-24")),
        ("2026-03-11", "до 5 числа", ("day", "2026-04-05")),
        ("2026-01-31", "до 30 числа", ("day", "2026-02-28")),
        ("2026-04-30", "до 31 числа", ("day", "2026-04-30")),
        ("2026-03-11", "on the 20th", ("day", "2026-03-20")),
        ("2026-03-11", "31.02", "error"),
        ("2026-03-11", "close BAL-7 now", None),
        ("2029-11-06", "wednesday", ("day", "2029-11-07")),
        ("2029-11-06", "tuesday", ("day", "2029-11-13")),
        ("2029-11-06", "next monday", ("day", "2029-11-12")),
        ("2029-11-06", "next wednesday", ("day", "2029-11-14")),
        ("2029-11-06", "jan 10", ("day", "2030-01-10")),
        ("2029-11-06", "до 31 числа", ("day", "2029-11-30")),
        ("2029-11-06", "sololaki 14 done", None),
    ]
    for today, text, want in cases:
        t = dt.date.fromisoformat(today)
        try:
            got = read_date(text, t)
        except DateError:
            got = "error"
        except ValueError:
            got = "error"
        if got != want:
            bad("date reference self-test: %s %r -> %r, want %r" % (today, text, got, want))


# --------------------------------------------------------------------------
def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad("%s:%d empty line" % (name, n))
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                bad("%s:%d not JSON: %s" % (name, n, e))
    return rows


def iso_ok(s):
    try:
        return dt.date.fromisoformat(s).isoformat() == s
    except (TypeError, ValueError):
        return False


CYR = re.compile(r"[а-яё]", re.I)
CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
CLASS_KIND = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
MAJOR = ["typo", "report", "explicit_form", "deadline_not_close", "project_leadin",
         "ambiguous", "offtopic"]
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}


def main():
    self_test()
    if PROBLEMS:
        return finish({}, None, None)

    projects, tasks, phrases = load("projects.jsonl"), load("tasks.jsonl"), load("phrases.jsonl")

    # projects
    pkeys = set()
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad("project fields: %r" % p)
        if p.get("key") in pkeys or p.get("key") == "INBOX":
            bad("project key repeated or INBOX: %r" % p.get("key"))
        pkeys.add(p.get("key"))
        if not re.fullmatch(r"[A-Z]{2,6}", p.get("key", "")):
            bad("project key shape: %r" % p.get("key"))
    if not 4 <= len(projects) <= 6:
        bad("want 4-6 projects, have %d" % len(projects))

    # tasks
    per, byk = Counter(), {}
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad("task fields: %r" % t)
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad("task %s: unknown project %r" % (t["key"], proj))
        per[proj] += 1
        want = "%s-%d" % (proj, per[proj])
        if t["key"] != want:
            bad("task key %s, creation order gives %s" % (t["key"], want))
        if t["key"] in byk:
            bad("task key repeated: %s" % t["key"])
        byk[t["key"]] = t
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad("task %s: due with kind none" % t["key"])
        elif t["due_kind"] in ("day", "week"):
            if not iso_ok(t["due"]):
                bad("task %s: bad due %r" % (t["key"], t["due"]))
            elif t["due_kind"] == "week" and dt.date.fromisoformat(t["due"]).weekday() != 6:
                bad("task %s: week due is not a Sunday" % t["key"])
        else:
            bad("task %s: bad due_kind %r" % (t["key"], t["due_kind"]))
        if not t["title"].strip():
            bad("task %s: empty title" % t["key"])
    if not 50 <= len(tasks) <= 60:
        bad("want 50-60 tasks, have %d" % len(tasks))

    # phrases
    seen = set()
    by = Counter()
    tools = Counter()
    for n, ph in enumerate(phrases, 1):
        where = "phrases.jsonl:%d" % n
        base = {"text", "lang", "kind", "class", "expect"}
        extra = set(ph) - base
        if not base <= set(ph) or extra - {"typo"}:
            bad("%s fields %r" % (where, sorted(ph)))
            continue
        text, lang, kind, cls, ex = ph["text"], ph["lang"], ph["kind"], ph["class"], ph["expect"]
        if text in seen:
            bad("%s repeated text %r" % (where, text))
        seen.add(text)
        if text != text.strip() or not text:
            bad("%s text not trimmed" % where)
        if lang not in ("ru", "en"):
            bad("%s lang %r" % (where, lang))
        if (lang == "ru") != bool(CYR.search(text)):
            bad("%s lang %s does not fit the script of %r" % (where, lang, text))
        if cls not in CLASSES:
            bad("%s class %r" % (where, cls))
        if kind != CLASS_KIND.get(cls, "plain"):
            bad("%s kind %r does not fit class %r" % (where, kind, cls))
        by[(lang, kind, cls)] += 1

        # typo
        date_text = text
        if cls == "typo":
            ty = ph.get("typo")
            if not isinstance(ty, dict) or set(ty) != {"wrote", "meant", "in"}:
                bad("%s typo field %r" % (where, ty))
            else:
                if ty["in"] not in ("verb", "date", "title"):
                    bad("%s typo.in %r" % (where, ty["in"]))
                if ty["wrote"] == ty["meant"] or not re.search(
                        r"(?<!\w)" + re.escape(ty["wrote"]) + r"(?!\w)", text):
                    bad("%s typo.wrote %r not a word of the text" % (where, ty["wrote"]))
                fixed = re.sub(r"(?<!\w)" + re.escape(ty["wrote"]) + r"(?!\w)", ty["meant"], text)
                if ty["in"] == "date":
                    try:
                        if read_date(text, TODAY) == read_date(fixed, TODAY):
                            bad("%s date typo %r is read anyway" % (where, ty["wrote"]))
                    except DateError:
                        pass
                date_text = fixed
        elif "typo" in ph:
            bad("%s typo field on class %s" % (where, cls))

        tool = ex.get("tool") if isinstance(ex, dict) else None
        tools[tool] += 1
        try:
            got = read_date(date_text, TODAY)
        except DateError as e:
            got = "error: %s" % e
        want = None
        if tool in ("close_task", "cancel_task"):
            if set(ex) != {"tool", "id"} or ex["id"] not in byk:
                bad("%s bad expect %r" % (where, ex))
        elif tool == "update_task":
            if set(ex) != {"tool", "id", "deadline_kind", "deadline"} or ex["id"] not in byk:
                bad("%s bad expect %r" % (where, ex))
                continue
            want = (ex["deadline_kind"], ex["deadline"])
            cur = byk[ex["id"]]
            if (cur["due_kind"], cur["due"]) == want:
                bad("%s update to the task's current due" % where)
        elif tool == "create_task":
            keys = set(ex)
            if not {"tool", "text", "deadline_kind"} <= keys or keys - {"tool", "text", "deadline_kind",
                                                                         "deadline", "project"}:
                bad("%s bad expect %r" % (where, ex))
                continue
            if ex["deadline_kind"] == "none":
                if "deadline" in ex:
                    bad("%s create with deadline and kind none" % where)
                want = None
            else:
                want = (ex["deadline_kind"], ex.get("deadline"))
            if "project" in ex and ex["project"] not in pkeys:
                bad("%s create into unknown project %r" % (where, ex["project"]))
            if cls == "project_leadin" and "project" not in ex:
                bad("%s project lead-in without a project" % where)
            if norm(ex["text"]) not in norm(text) or not ex["text"].strip():
                bad("%s create text %r is not part of the phrase" % (where, ex["text"]))
        elif tool == "list_tasks":
            if set(ex) - {"tool", "filter", "period"} or ex.get("filter") not in FILTERS:
                bad("%s bad expect %r" % (where, ex))
        elif tool == "clarify":
            opts = ex.get("options")
            if set(ex) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                    or len(set(opts)) != len(opts) or any(o not in byk for o in opts):
                bad("%s bad clarify %r" % (where, ex))
            elif isinstance(got, tuple):
                for o in opts:       # an ambiguous move must not be broken by "already on that day"
                    if (byk[o]["due_kind"], byk[o]["due"]) == got:
                        bad("%s option %s is already due %r" % (where, o, got))
            if kind != "ambiguous":
                bad("%s clarify on kind %s" % (where, kind))
        elif tool == "none":
            if set(ex) != {"tool"}:
                bad("%s bad expect %r" % (where, ex))
            if kind != "unknown":
                bad("%s none on kind %s" % (where, kind))
        else:
            bad("%s unknown tool %r" % (where, tool))
        if kind == "ambiguous" and tool != "clarify":
            bad("%s ambiguous without clarify" % where)
        if kind == "unknown" and tool != "none":
            bad("%s unknown with a write" % where)

        if tool in ("update_task", "create_task"):
            if want is not None and not iso_ok(want[1]):
                bad("%s bad deadline %r" % (where, want))
            if want is not None and want[0] == "week" and dt.date.fromisoformat(want[1]).weekday() != 6:
                bad("%s week deadline not a Sunday" % where)
            if got != want:
                bad("%s %r: reference reads %r, expect has %r" % (where, text, got, want))

    # coverage
    if len(phrases) < 270:
        bad("want >= 270 phrases, have %d" % len(phrases))
    for cls in CLASSES:
        for lang in ("ru", "en"):
            if sum(v for (l, _, c), v in by.items() if l == lang and c == cls) == 0:
                bad("class %s has no %s phrase" % (cls, lang))
    for cls in MAJOR:
        if sum(v for (_, _, c), v in by.items() if c == cls) < 20:
            bad("major class %s has fewer than 20 phrases" % cls)
    ru = sum(v for (l, _, _), v in by.items() if l == "ru")
    en = len(phrases) - ru
    if abs(ru - en) > 0.1 * len(phrases):
        bad("languages unbalanced: ru %d en %d" % (ru, en))
    return finish(by, tools, (projects, tasks, phrases))


def finish(by, tools, files):
    if files:
        projects, tasks, phrases = files
        print("projects %d, tasks %d, phrases %d" % (len(projects), len(tasks), len(phrases)))
        print("tasks by project:", dict(Counter(t["project"] for t in tasks)))
        print("%-20s %5s %5s %6s" % ("class", "ru", "en", "total"))
        for cls in CLASSES:
            r = sum(v for (l, _, c), v in by.items() if l == "ru" and c == cls)
            e = sum(v for (l, _, c), v in by.items() if l == "en" and c == cls)
            print("%-20s %5d %5d %6d" % (cls, r, e, r + e))
        print("%-20s %5s %5s %6s" % ("kind", "ru", "en", "total"))
        for kind in ("plain", "ambiguous", "unknown"):
            r = sum(v for (l, k, _), v in by.items() if l == "ru" and k == kind)
            e = sum(v for (l, k, _), v in by.items() if l == "en" and k == kind)
            print("%-20s %5d %5d %6d" % (kind, r, e, r + e))
        print("by tool:", dict(tools))
    for p in PROBLEMS:
        print("PROBLEM:", p)
    if PROBLEMS:
        print("FAILED (%d problems)" % len(PROBLEMS))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
