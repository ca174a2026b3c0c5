#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-8 (stdlib only).

Loads projects.jsonl, tasks.jsonl, phrases.jsonl; checks shapes, keys, references,
clarify options; re-derives every date answer from the phrase text with a small
reference of the house date rules written for this set only (self-tested first).
Prints counts and OK; exits 1 on any problem.

    python3 data/chat-phrases-holdout-8/validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2028, 9, 19)  # Tuesday, 21:15 Asia/Almaty

LANGS = {"ru", "en"}
KINDS = {"plain", "ambiguous", "unknown"}
CLASSES = {"typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"}
MAJOR = {"typo", "report", "explicit_form", "deadline_not_close", "project_leadin",
         "ambiguous", "offtopic"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
TYPO_IN = {"verb", "date", "title"}

problems = []


def bad(msg):
    problems.append(msg)


# --------------------------------------------------------------------------
# Reference of the house date rules (independent, for this set only)
# --------------------------------------------------------------------------
class DateError(Exception):
    pass


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months(y, m, n):
    m0 = m - 1 + n
    return y + m0 // 12, m0 % 12 + 1


def this_sunday(today):
    return today + dt.timedelta(days=6 - today.weekday())


def weekday_plain(today, wd):
    delta = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=delta or 7)


def weekday_next(today, wd):
    monday_next = today + dt.timedelta(days=7 - today.weekday())
    return monday_next + dt.timedelta(days=wd)


def weekend(today):
    return today + dt.timedelta(days=(5 - today.weekday()) % 7)


def day_month(today, d, m, y=None):
    try:
        if y is not None:
            return dt.date(y, m, d)
        cand = dt.date(today.year, m, d)
    except ValueError:
        if y is None and m == 2 and d == 29:
            # no 29 Feb this year: only valid if a later leap year is meant; treat as error
            raise DateError("no such day this year")
        raise DateError("impossible date")
    if cand < today - dt.timedelta(days=30):
        try:
            cand = dt.date(today.year + 1, m, d)
        except ValueError:
            raise DateError("impossible date")
    return cand


def day_of_month(today, d):
    if d < 1 or d > 31:
        raise DateError("impossible day of month")
    y, m = today.year, today.month
    for _ in range(3):
        ld = last_day(y, m)
        cand = dt.date(y, m, d) if d <= ld.day else ld
        if cand >= today:
            return cand
        y, m = add_months(y, m, 1)
    raise DateError("unreachable")


RU_WD = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
         ("пятниц", 4), ("суббот", 5), ("воскресень", 6)]
EN_WD = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
         "sunday": 6, "sun": 6}
RU_MON = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6, "июля": 7,
          "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
EN_MON = {"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
          "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
          "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11,
          "nov": 11, "december": 12, "dec": 12}

RU_WD_RE = r"(понедельник\w*|вторник\w*|сред[уыеа]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*)"
EN_WD_RE = r"(" + "|".join(sorted(EN_WD, key=len, reverse=True)) + r")"
RU_MON_RE = r"(" + "|".join(RU_MON) + r")"
EN_MON_RE = r"(" + "|".join(sorted(EN_MON, key=len, reverse=True)) + r")"
ORD = r"(?:st|nd|rd|th)?"


def ru_wd(word):
    for stem, n in RU_WD:
        if word.startswith(stem):
            return n
    raise DateError("weekday?")


def _rules(today):
    D = lambda n: ("day", today + dt.timedelta(days=n))
    return [
        # week kind
        (r"\b(до|к) конц\w* (этой )?недел\w*", lambda m: ("week", this_sunday(today))),
        (r"\bна этой неделе\b", lambda m: ("week", this_sunday(today))),
        (r"\b(на|в) следующ\w* недел\w*", lambda m: ("week", this_sunday(today) + dt.timedelta(days=7))),
        (r"\b(by )?(the )?end of (the )?week\b", lambda m: ("week", this_sunday(today))),
        (r"\bthis week\b", lambda m: ("week", this_sunday(today))),
        (r"\bnext week\b", lambda m: ("week", this_sunday(today) + dt.timedelta(days=7))),
        # months
        (r"\b(в|до|к) конц\w* месяца\b", lambda m: ("day", last_day(today.year, today.month))),
        (r"\b(by |at )?(the )?end of (the )?month\b", lambda m: ("day", last_day(today.year, today.month))),
        (r"\bв следующем месяце\b", lambda m: ("day", last_day(*add_months(today.year, today.month, 1)))),
        (r"\bnext month\b", lambda m: ("day", last_day(*add_months(today.year, today.month, 1)))),
        # relative days
        (r"\bчерез (\d+) (дн\w*|день)\b", lambda m: D(int(m.group(1)))),
        (r"\bчерез неделю\b", lambda m: D(7)),
        (r"\bчерез (\d+) недел\w*", lambda m: D(7 * int(m.group(1)))),
        (r"\bin (\d+) days?\b", lambda m: D(int(m.group(1)))),
        (r"\bin (a|1|one) week\b", lambda m: D(7)),
        (r"\bin (\d+) weeks\b", lambda m: D(7 * int(m.group(1)))),
        (r"\bпослезавтра\b", lambda m: D(2)),
        (r"\bday after tomorrow\b", lambda m: D(2)),
        (r"\bзавтра\b", lambda m: D(1)),
        (r"\b(tomorrow|tmrw|tmr)\b", lambda m: D(1)),
        (r"\bсегодня\b", lambda m: D(0)),
        (r"\b(today|eod)\b", lambda m: D(0)),
        (r"\bна выходн\w*", lambda m: ("day", weekend(today))),
        (r"\b(on |at |over )?(the )?weekend\b", lambda m: ("day", weekend(today))),
        # weekdays
        (r"\b(в|во) следующ\w* " + RU_WD_RE, lambda m: ("day", weekday_next(today, ru_wd(m.group(2))))),
        (r"\b(в|во|на|до|к|ко) " + RU_WD_RE, lambda m: ("day", weekday_plain(today, ru_wd(m.group(2))))),
        (r"\bnext " + EN_WD_RE + r"\b(?!'s)", lambda m: ("day", weekday_next(today, EN_WD[m.group(1)]))),
        (r"\b" + EN_WD_RE + r"\b(?!'s)", lambda m: ("day", weekday_plain(today, EN_WD[m.group(1)]))),
        # explicit dates
        (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: ("day", day_month(today, int(m.group(3)), int(m.group(2)), int(m.group(1))))),
        (r"\b(\d{1,2}) " + RU_MON_RE, lambda m: ("day", day_month(today, int(m.group(1)), RU_MON[m.group(2)]))),
        (r"\b" + EN_MON_RE + r" (\d{1,2})" + ORD + r"\b", lambda m: ("day", day_month(today, int(m.group(2)), EN_MON[m.group(1)]))),
        (r"\b(\d{1,2})" + ORD + r" (of )?" + EN_MON_RE + r"\b", lambda m: ("day", day_month(today, int(m.group(1)), EN_MON[m.group(3)]))),
        # dotted day.month: month written with two digits ("12.10"); "3.2" is a version, not a date
        (r"(?<![\d.])(\d{1,2})\.(\d{2})(?![\d.])", lambda m: ("day", day_month(today, int(m.group(1)), int(m.group(2))))),
        (r"(?<![\d/])(\d{1,2})/(\d{1,2})(?![\d/])", lambda m: _slash(today, m)),
        (r"\b(до|к|на) (\d{1,2}) числ\w*", lambda m: ("day", day_of_month(today, int(m.group(2))))),
        (r"\bthe (\d{1,2})(st|nd|rd|th)\b", lambda m: ("day", day_of_month(today, int(m.group(1))))),
    ]


def _slash(today, m):
    a, b = int(m.group(1)), int(m.group(2))
    if a <= 12:
        raise DateError("dd/mm only when the day is > 12")
    return ("day", day_month(today, a, b))


def derive(text, today):
    """Return None, or (kind, date) for the single date phrase in text. Raises DateError."""
    s = text.lower().replace("ё", "е")
    found = []
    taken = [False] * len(s)
    for pat, fn in _rules(today):
        for m in re.finditer(pat, s):
            if any(taken[m.start():m.end()]):
                continue
            for i in range(m.start(), m.end()):
                taken[i] = True
            found.append(fn(m))
    if not found:
        return None
    if len(set(found)) > 1:
        raise DateError("several dates: %r" % (found,))
    return found[0]


def self_test():
    W = dt.date(2026, 3, 11)  # Wednesday
    d = dt.date
    cases = [
        (W, "в пятницу", ("day", d(2026, 3, 13))),
        (d(2026, 3, 13), "friday", ("day", d(2026, 3, 20))),
        (W, "next friday", ("day", d(2026, 3, 20))),
        (W, "в следующую пятницу", ("day", d(2026, 3, 20))),
        (W, "this week", ("week", d(2026, 3, 15))),
        (d(2026, 3, 15), "до конца недели", ("week", d(2026, 3, 15))),
        (W, "на следующей неделе", ("week", d(2026, 3, 22))),
        (W, "end of month", ("day", d(2026, 3, 31))),
        (W, "next month", ("day", d(2026, 4, 30))),
        (W, "на выходных", ("day", d(2026, 3, 14))),
        (d(2026, 3, 14), "weekend", ("day", d(2026, 3, 14))),
        (W, "через 3 дня", ("day", d(2026, 3, 14))),
        (W, "in 2 weeks", ("day", d(2026, 3, 25))),
        (W, "9.02", ("day", d(2026, 2, 9))),
        (W, "8.02", ("day", d(2027, 2, 8))),
        (W, "20 мая", ("day", d(2026, 5, 20))),
        (W, "apr 28", ("day", d(2026, 4, 28))),
        (W, "19/03", ("day", d(2026, 3, 19))),
        (d(2026, 1, 31), "до 30 числа", ("day", d(2026, 2, 28))),
        (d(2026, 4, 30), "до 31 числа", ("day", d(2026, 4, 30))),
        (W, "on the 20th", ("day", d(2026, 3, 20))),
        (W, "послезавтра", ("day", d(2026, 3, 13))),
        (W, "завтра", ("day", d(2026, 3, 12))),
        # this set's TODAY
        (TODAY, "в среду", ("day", d(2028, 9, 20))),
        (TODAY, "on tuesday", ("day", d(2028, 9, 26))),
        (TODAY, "next monday", ("day", d(2028, 9, 25))),
        (TODAY, "next thursday", ("day", d(2028, 9, 28))),
        (TODAY, "finalize the setlist for saturday's gig", None),
        (TODAY, "regression for 3.2", None),
        (TODAY, "на октябрь", None),
        (TODAY, "next week", ("week", d(2028, 10, 1))),
        (TODAY, "в конце месяца", ("day", d(2028, 9, 30))),
        (TODAY, "в следующем месяце", ("day", d(2028, 10, 31))),
    ]
    for today, text, want in cases:
        got = derive(text, today)
        if got != want:
            print("date self-test failed:", today, text, got, "!=", want)
            sys.exit(1)
    for today, text in [(W, "03/04"), (W, "31.02"), (W, "35 марта"), (W, "до 0 числа")]:
        try:
            derive(text, today)
        except DateError:
            continue
        print("date self-test: expected an error for", text)
        sys.exit(1)


# --------------------------------------------------------------------------
def load(name):
    rows = []
    path = os.path.join(HERE, name)
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{i}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad json: {e}")
    return rows


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def words(s):
    return re.findall(r"[\w'-]+", norm(s))


def main():
    self_test()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # projects
    pkeys = set()
    if not 4 <= len(projects) <= 6:
        bad(f"projects: {len(projects)} (want 4-6)")
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"project fields: {p}")
        if not re.fullmatch(r"[A-Z]+", p.get("key", "")) or p.get("key") == "INBOX":
            bad(f"project key: {p.get('key')}")
        if p.get("key") in pkeys:
            bad(f"duplicate project {p.get('key')}")
        pkeys.add(p.get("key"))

    # tasks
    tk = {}
    counters = Counter()
    if not 50 <= len(tasks) <= 60:
        bad(f"tasks: {len(tasks)} (want 50-60)")
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"task fields: {t}")
            continue
        proj = t["project"]
        if proj is not None and proj not in pkeys:
            bad(f"task {t['key']}: unknown project {proj}")
        pk = proj or "INBOX"
        counters[pk] += 1
        if t["key"] != f"{pk}-{counters[pk]}":
            bad(f"task key {t['key']} should be {pk}-{counters[pk]}")
        if t["key"] in tk:
            bad(f"duplicate task {t['key']}")
        if t["due_kind"] not in ("none", "day", "week"):
            bad(f"{t['key']}: due_kind {t['due_kind']}")
        if (t["due_kind"] == "none") != (t["due"] is None):
            bad(f"{t['key']}: due/due_kind mismatch")
        if t["due"] is not None:
            dd = dt.date.fromisoformat(t["due"])
            if t["due_kind"] == "week" and dd.weekday() != 6:
                bad(f"{t['key']}: week due is not a Sunday")
            t["_due"] = dd
        else:
            t["_due"] = None
        if not t["title"].strip():
            bad(f"{t['key']}: empty title")
        tk[t["key"]] = t

    # phrases
    by = Counter()
    by_tool = Counter()
    seen_text = set()
    for i, p in enumerate(phrases, 1):
        where = f"phrases:{i} {p.get('text')!r}"
        need = {"text", "lang", "kind", "class", "expect"}
        extra = set(p) - need - {"typo"}
        if not need <= set(p) or extra:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, cls, e = p["text"], p["lang"], p["kind"], p["class"], p["expect"]
        if norm(text) in seen_text:
            bad(f"{where}: duplicate text")
        seen_text.add(norm(text))
        if lang not in LANGS:
            bad(f"{where}: lang")
        if kind not in KINDS:
            bad(f"{where}: kind")
        if cls not in CLASSES:
            bad(f"{where}: class")
        if not re.search(r"[а-яё]", text.lower()) and lang == "ru":
            bad(f"{where}: ru phrase without cyrillic")
        if re.search(r"[а-яё]", text.lower()) and lang == "en":
            bad(f"{where}: en phrase with cyrillic")
        tool = e.get("tool")
        by_tool[tool] += 1
        # kind <-> expect
        want_kind = "ambiguous" if tool == "clarify" else ("unknown" if tool == "none" else "plain")
        if kind != want_kind:
            bad(f"{where}: kind {kind} but expect {tool}")
        if cls == "ambiguous" and tool != "clarify":
            bad(f"{where}: ambiguous class without clarify")
        if cls in ("offtopic", "unknown_other") and tool != "none":
            bad(f"{where}: {cls} must expect none")
        # typo
        fixed = text
        if cls == "typo" or "typo" in p:
            ty = p.get("typo")
            if not isinstance(ty, dict) or set(ty) != {"wrote", "meant", "in"}:
                bad(f"{where}: typo field")
            else:
                if cls != "typo":
                    bad(f"{where}: typo field on a non-typo class")
                if ty["in"] not in TYPO_IN:
                    bad(f"{where}: typo.in {ty['in']}")
                if ty["wrote"] not in text or ty["wrote"] == ty["meant"]:
                    bad(f"{where}: typo wrote/meant")
                fixed = text.replace(ty["wrote"], ty["meant"])
                if ty["in"] == "date":
                    try:
                        if derive(fixed, TODAY) is None:
                            bad(f"{where}: typo in date but no date after fixing")
                    except DateError as ex:
                        bad(f"{where}: {ex}")
        # expect shapes
        try:
            got = derive(fixed, TODAY)
        except DateError as ex:
            got = ("error", str(ex))
        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"} or e["id"] not in tk:
                bad(f"{where}: bad {tool} {e}")
            if got is not None:
                bad(f"{where}: a close/cancel phrase carries a date {got}")
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in tk:
                bad(f"{where}: bad update {e}")
                continue
            want = (e["deadline_kind"], dt.date.fromisoformat(e["deadline"]))
            if got != want:
                bad(f"{where}: date re-derived {got} != expected {want}")
            cur = tk[e["id"]]
            if (cur["due_kind"], cur["_due"]) == want:
                bad(f"{where}: moves {e['id']} to the due it already has")
        elif tool == "create_task":
            if not {"tool", "text", "deadline_kind"} <= set(e) or set(e) - {"tool", "text", "deadline_kind", "deadline", "project"}:
                bad(f"{where}: bad create {e}")
                continue
            if e.get("project") is not None and e["project"] not in pkeys:
                bad(f"{where}: unknown project {e['project']}")
            if cls == "project_leadin" and "project" not in e:
                bad(f"{where}: lead-in without project")
            if e["deadline_kind"] == "none":
                if "deadline" in e:
                    bad(f"{where}: deadline with kind none")
                if got is not None:
                    bad(f"{where}: phrase has a date {got} but create expects none")
            else:
                want = (e["deadline_kind"], dt.date.fromisoformat(e["deadline"]))
                if got != want:
                    bad(f"{where}: date re-derived {got} != expected {want}")
            pw = set(words(fixed))
            for w in words(e["text"]):
                if w not in pw:
                    bad(f"{where}: create text word {w!r} not in phrase")
            if norm(e["text"]) == norm(fixed):
                bad(f"{where}: create text equals the whole phrase (command word kept?)")
        elif tool == "list_tasks":
            if set(e) - {"tool", "filter", "period"} or e.get("filter") not in FILTERS:
                bad(f"{where}: bad list {e}")
        elif tool == "clarify":
            opts = e.get("options")
            if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                bad(f"{where}: bad clarify {e}")
                continue
            if len(set(opts)) != len(opts):
                bad(f"{where}: repeated clarify option")
            for k in opts:
                if k not in tk:
                    bad(f"{where}: clarify option {k} does not exist")
            if got is not None and not (isinstance(got, tuple) and got[0] == "error"):
                for k in opts:
                    if k in tk and (tk[k]["due_kind"], tk[k]["_due"]) == got:
                        bad(f"{where}: ambiguous move to {got} equals the due of option {k}")
            elif got is not None:
                bad(f"{where}: {got}")
        elif tool == "none":
            if set(e) != {"tool"}:
                bad(f"{where}: bad none {e}")
        else:
            bad(f"{where}: unknown tool {tool}")
        by[(cls, lang, kind)] += 1

    # coverage
    n = len(phrases)
    if n < 270:
        bad(f"only {n} phrases (want >= 270)")
    lang_n = Counter(p["lang"] for p in phrases)
    if abs(lang_n["ru"] - lang_n["en"]) > 0.1 * n:
        bad(f"languages unbalanced: {dict(lang_n)}")
    for c in CLASSES:
        for l in LANGS:
            if sum(v for (cc, ll, _), v in by.items() if cc == c and ll == l) == 0:
                bad(f"class {c} has no {l} phrase")
        tot = sum(v for (cc, _, _), v in by.items() if cc == c)
        if c in MAJOR and tot < 20:
            bad(f"major class {c} has only {tot}")

    # report
    print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {n}")
    print("tasks by project:", dict(sorted(counters.items())))
    overdue = sorted(k for k, t in tk.items() if t["_due"] and t["due_kind"] == "day" and t["_due"] < TODAY)
    today = sorted(k for k, t in tk.items() if t["_due"] == TODAY)
    week = sorted(k for k, t in tk.items() if t["due_kind"] == "week")
    print("overdue:", overdue, "| today:", today, "| week:", week,
          "| undated:", sum(1 for t in tk.values() if t["due_kind"] == "none"))
    print("by lang:", dict(lang_n))
    print("by kind:", dict(Counter(p["kind"] for p in phrases)))
    print("by tool:", dict(by_tool))
    print(f"{'class':20} {'ru':>4} {'en':>4} {'all':>4}")
    for c in sorted(CLASSES):
        ru = sum(v for (cc, ll, _), v in by.items() if cc == c and ll == "ru")
        en = sum(v for (cc, ll, _), v in by.items() if cc == c and ll == "en")
        print(f"{c:20} {ru:4} {en:4} {ru + en:4}")
    if problems:
        for m in problems:
            print("PROBLEM:", m)
        print(f"{len(problems)} problem(s)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
