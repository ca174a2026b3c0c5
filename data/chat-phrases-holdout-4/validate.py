#!/usr/bin/env python3
"""Self-check of data/chat-phrases-holdout-4 (stdlib only).

    python3 data/chat-phrases-holdout-4/validate.py

Prints counts and `OK`; exits 1 and lists the problems otherwise.
Holds its own small reference of the house date rules (self-tested first on fixed
values) and re-derives the date of every dated move / create from the phrase's own
words (for a typo phrase: after putting `typo.meant` in place of `typo.wrote`).
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2027, 10, 21)  # Thursday; local time 19:40, Asia/Yekaterinburg
problems = []


def bad(msg):
    problems.append(msg)


# ----------------------------------------------------------------------------
# house date rules — independent reference
# ----------------------------------------------------------------------------
def add_days(d, n):
    return d + dt.timedelta(days=n)


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def weekday_plain(today, wd):  # next such day strictly after today
    n = (wd - today.weekday()) % 7
    return add_days(today, n or 7)


def weekday_next(today, wd):  # that weekday in the next Monday-Sunday week
    next_monday = add_days(today, 7 - today.weekday())
    return add_days(next_monday, wd)


def this_sunday(today):
    return add_days(today, 6 - today.weekday())


def weekend(today):  # the coming Saturday, today if Saturday
    return add_days(today, (5 - today.weekday()) % 7)


def next_month_end(today):
    y, m = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return last_day(y, m)


def day_month(today, day, month):  # this year's unless > 30 days in the past
    d = dt.date(today.year, month, day)
    if (today - d).days > 30:
        d = dt.date(today.year + 1, month, day)
    return d


def day_alone(today, day):  # next such day on or after today; short month -> last day
    y, m = today.year, today.month
    if day < today.day:
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return dt.date(y, m, min(day, calendar.monthrange(y, m)[1]))


RU_WD = [r"понедельник\w*", r"вторник\w*", r"сред[ауеы]", r"четверг\w*", r"пятниц\w*", r"суббот\w*", r"воскресень\w*"]
RU_WD_ABBR = ["пн", "вт", "ср", "чт", "пт", "сб", "вс"]
EN_WD = [r"monday|mon", r"tuesday|tues|tue", r"wednesday|wed", r"thursday|thurs|thu", r"friday|fri", r"saturday|sat", r"sunday|sun"]
RU_MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"]
EN_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
EN_MON_RE = "|".join([m for m in EN_MONTHS] + ["jan", "feb", "mar", "apr", "jun", "jul", "aug", "sept", "sep", "oct", "nov", "dec"])
NUMW = {"один": 1, "одну": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7, "десять": 10,
        "one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}


def num(s):
    return int(s) if s.isdigit() else NUMW[s]


def en_month(s):
    s = s.rstrip(".")
    for i, m in enumerate(EN_MONTHS):
        if m.startswith(s) and len(s) >= 3:
            return i + 1
    raise ValueError(s)


def build_rules():
    R = []  # (regex, fn(match, today) -> (kind, date))
    N = r"(\d+|один|одну|два|две|три|четыре|пять|шесть|семь|десять|one|two|three|four|five|six|seven|ten)"
    R.append((r"\bday after tomorrow\b|\bпослезавтра\b", lambda m, t: ("day", add_days(t, 2))))
    R.append((r"\bзавтра\b|\btomorrow\b|\btmrw?\b", lambda m, t: ("day", add_days(t, 1))))
    R.append((r"\bсегодня\b|\btoday\b|\btonight\b|\beod\b", lambda m, t: ("day", t)))
    for i, w in enumerate(RU_WD):
        R.append((r"\bследующ\w*\s+(?:" + w + r")\b", lambda m, t, i=i: ("day", weekday_next(t, i))))
    for i, w in enumerate(EN_WD):
        R.append((r"\bnext\s+(?:" + w + r")\b", lambda m, t, i=i: ("day", weekday_next(t, i))))
    R.append((r"\bкон(?:ец|ца|цу|це)\s+(?:этой\s+)?недели\b|\bна\s+этой\s+неделе\b|\bend\s+of\s+(?:the\s+)?week\b|\bthis\s+week\b",
              lambda m, t: ("week", this_sunday(t))))
    R.append((r"\bследующ(?:ей|ую|ая)\s+недел\w*|\bnext\s+week\b", lambda m, t: ("week", add_days(this_sunday(t), 7))))
    R.append((r"\bчерез\s+(?:две|2)\s+недели\b|\bin\s+(?:two|2)\s+weeks\b", lambda m, t: ("day", add_days(t, 14))))
    R.append((r"\bчерез\s+неделю\b|\bin\s+(?:a|one)\s+week\b", lambda m, t: ("day", add_days(t, 7))))
    R.append((r"\bчерез\s+" + N + r"\s+(?:день|дня|дней)\b", lambda m, t: ("day", add_days(t, num(m.group(1))))))
    R.append((r"\bin\s+" + N + r"\s+days?\b", lambda m, t: ("day", add_days(t, num(m.group(1))))))
    R.append((r"\bследующ\w*\s+месяц\w*|\bnext\s+month\b", lambda m, t: ("day", next_month_end(t))))
    R.append((r"\bкон(?:ец|ца|цу|це)\s+месяца\b|\bend\s+of\s+(?:the\s+)?month\b", lambda m, t: ("day", last_day(t.year, t.month))))
    R.append((r"\bкон(?:ец|ца|цу|це)\s+года\b|\bend\s+of\s+(?:the\s+)?year\b", lambda m, t: ("day", dt.date(t.year, 12, 31))))
    R.append((r"\bвыходн(?:ые|ых|ым|ыми)\b|\bweekend\b", lambda m, t: ("day", weekend(t))))
    R.append((r"\b(\d{1,2})\s+(" + "|".join(RU_MONTHS) + r")\b",
              lambda m, t: ("day", day_month(t, int(m.group(1)), RU_MONTHS.index(m.group(2)) + 1))))
    R.append((r"\b(" + EN_MON_RE + r")\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b",
              lambda m, t: ("day", day_month(t, int(m.group(2)), en_month(m.group(1))))))
    R.append((r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + EN_MON_RE + r")\b",
              lambda m, t: ("day", day_month(t, int(m.group(1)), en_month(m.group(2))))))
    R.append((r"\b(\d{1,2})\.(\d{1,2})\b(?!\.\d)", lambda m, t: ("day", day_month(t, int(m.group(1)), int(m.group(2))))))
    R.append((r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b|\b(\d{1,2})-?го\b|\b(\d{1,2})\s+числа\b",
              lambda m, t: ("day", day_alone(t, int(next(g for g in m.groups() if g))))))
    for i, w in enumerate(RU_WD):
        R.append((r"\b(?:" + w + r")\b", lambda m, t, i=i: ("day", weekday_plain(t, i))))
    for i, a in enumerate(RU_WD_ABBR):
        R.append((r"\b(?:в|во|на|до|к|ко)\s+" + a + r"\b", lambda m, t, i=i: ("day", weekday_plain(t, i))))
    for i, w in enumerate(EN_WD):
        R.append((r"\b(?:this\s+)?(?:" + w + r")\b", lambda m, t, i=i: ("day", weekday_plain(t, i))))
    return [(re.compile(rx), fn) for rx, fn in R]


RULES = build_rules()


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def find_dates(text, today):
    """All date expressions in text: list of (matched words, kind, date)."""
    s = norm(text)
    out = []
    for rx, fn in RULES:
        for m in rx.finditer(s):
            if m.group(0).strip() == "":
                continue
            kind, d = fn(m, today)
            out.append((m.group(0), kind, d))
        s = rx.sub(lambda m: " " * len(m.group(0)), s)
    return out


def self_test():
    D = dt.date
    W = D(2026, 3, 11)  # Wednesday
    cases = [
        (W, "в пятницу", ("day", D(2026, 3, 13))), (W, "friday", ("day", D(2026, 3, 13))),
        (W, "next friday", ("day", D(2026, 3, 20))), (W, "в следующую пятницу", ("day", D(2026, 3, 20))),
        (W, "next monday", ("day", D(2026, 3, 16))), (W, "wednesday", ("day", D(2026, 3, 18))),
        (D(2026, 3, 13), "friday", ("day", D(2026, 3, 20))),
        (W, "до конца недели", ("week", D(2026, 3, 15))), (W, "this week", ("week", D(2026, 3, 15))),
        (D(2026, 3, 15), "end of week", ("week", D(2026, 3, 15))),
        (W, "next week", ("week", D(2026, 3, 22))), (W, "на следующей неделе", ("week", D(2026, 3, 22))),
        (W, "end of month", ("day", D(2026, 3, 31))), (W, "в следующем месяце", ("day", D(2026, 4, 30))),
        (D(2026, 12, 30), "next month", ("day", D(2027, 1, 31))), (W, "end of year", ("day", D(2026, 12, 31))), (W, "к концу года", ("day", D(2026, 12, 31))),
        (W, "до конца месяца", ("day", D(2026, 3, 31))), (W, "к концу недели", ("week", D(2026, 3, 15))),
        (W, "на выходных", ("day", D(2026, 3, 14))), (D(2026, 3, 14), "weekend", ("day", D(2026, 3, 14))),
        (W, "сегодня", ("day", W)), (W, "tomorrow", ("day", D(2026, 3, 12))), (W, "послезавтра", ("day", D(2026, 3, 13))),
        (W, "the day after tomorrow", ("day", D(2026, 3, 13))),
        (W, "через 3 дня", ("day", D(2026, 3, 14))), (W, "in 5 days", ("day", D(2026, 3, 16))),
        (W, "через неделю", ("day", D(2026, 3, 18))), (W, "in 2 weeks", ("day", D(2026, 3, 25))),
        (W, "9.02", ("day", D(2026, 2, 9))), (W, "8.02", ("day", D(2027, 2, 8))),
        (W, "20 мая", ("day", D(2026, 5, 20))), (W, "apr 28", ("day", D(2026, 4, 28))), (W, "28 april", ("day", D(2026, 4, 28))),
        (D(2026, 1, 31), "до 30 числа", ("day", D(2026, 2, 28))), (D(2026, 4, 30), "до 31 числа", ("day", D(2026, 4, 30))),
        (W, "on the 20th", ("day", D(2026, 3, 20))), (W, "before the 5th", ("day", D(2026, 4, 5))),
        (D(2028, 2, 28), "tomorrow", ("day", D(2028, 2, 29))),
    ]
    for today, text, want in cases:
        got = [(k, d) for _, k, d in find_dates(text, today)]
        if got != [want]:
            bad(f"date self-test: {text!r} on {today}: got {got}, want {want}")
    # the values on TODAY quoted in README.md
    T = TODAY
    on_today = {
        "today": "2027-10-21", "tomorrow": "2027-10-22", "послезавтра": "2027-10-23",
        "friday": "2027-10-22", "saturday": "2027-10-23", "sunday": "2027-10-24", "monday": "2027-10-25",
        "tuesday": "2027-10-26", "wednesday": "2027-10-27", "thursday": "2027-10-28",
        "next monday": "2027-10-25", "next wednesday": "2027-10-27", "next friday": "2027-10-29",
        "this week": "2027-10-24", "next week": "2027-10-31", "end of month": "2027-10-31",
        "next month": "2027-11-30", "end of year": "2027-12-31", "weekend": "2027-10-23",
        "in 3 days": "2027-10-24", "через 10 дней": "2027-10-31", "через неделю": "2027-10-28", "in 2 weeks": "2027-11-04",
        "3 ноября": "2027-11-03", "15 ноября": "2027-11-15", "december 1": "2027-12-01", "november 3": "2027-11-03",
        "june 3": "2028-06-03", "1 октября": "2027-10-01", "21 сентября": "2027-09-21", "20 сентября": "2028-09-20", "5 сентября": "2028-09-05",
        "the 20th": "2027-11-20", "the 25th": "2027-10-25", "до 5 числа": "2027-11-05", "до 31 числа": "2027-10-31",
    }
    for text, want in on_today.items():
        got = [d.isoformat() for _, _, d in find_dates(text, T)]
        if got != [want]:
            bad(f"date self-test on TODAY: {text!r}: got {got}, want {want}")


# ----------------------------------------------------------------------------
# typo reference: one edit, in a word of five letters or more
# ----------------------------------------------------------------------------
ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm", "йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю"]


def neighbours(a, b):
    pos = {}
    for r, row in enumerate(ROWS):
        for i, ch in enumerate(row):
            pos[ch] = (r, i)
    if a not in pos or b not in pos:
        return False
    (ra, ia), (rb, ib) = pos[a], pos[b]
    if (ra < 3) != (rb < 3):
        return False
    if ra == rb:
        return abs(ia - ib) == 1
    if rb == ra + 1:
        return ib in (ia - 1, ia)
    if ra == rb + 1:
        return ia in (ib - 1, ib)
    return False


def typo_kind(wrote, meant):
    if wrote == meant:
        return None
    if len(wrote) == len(meant) - 1:
        for i in range(len(meant)):
            if meant[:i] + meant[i + 1:] == wrote:
                # a doubled letter losing one copy is still a dropped letter
                return "dropped"
    if len(wrote) == len(meant) + 1:
        for i in range(len(meant)):
            if meant[:i + 1] + meant[i] + meant[i + 1:] == wrote:
                return "doubled"
    if len(wrote) == len(meant):
        diff = [i for i in range(len(meant)) if wrote[i] != meant[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and wrote[diff[0]] == meant[diff[1]] and wrote[diff[1]] == meant[diff[0]]:
            return "swapped"
        if len(diff) == 1 and neighbours(wrote[diff[0]], meant[diff[0]]):
            return "neighbour key"
    return None


def typo_self_test():
    for w, m, k in [("завтар", "завтра", "swapped"), ("суботу", "субботу", "dropped"), ("пятниццу", "пятницу", "doubled"),
                    ("пятницк", "пятницу", "neighbour key"), ("postpine", "postpone", "neighbour key"),
                    ("tomorow", "tomorrow", "dropped"), ("завтро", "завтра", None), ("fryday", "friday", None),
                    ("tommorow", "tomorrow", None)]:
        if typo_kind(w, m) != k:
            bad(f"typo self-test: {w}/{m}: got {typo_kind(w, m)}, want {k}")


# ----------------------------------------------------------------------------
def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: {e}")
    return rows


CLASSES = {  # class -> minimum per language
    "typo": 20, "report": 15, "negated_cancel": 12, "explicit_form": 12, "deadline_not_close": 6,
    "project_leadin": 10, "offtopic": 15, "plain_other": 25, "ambiguous": 20, "unknown_other": 12,
}
SHAPES = {
    "close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
    "update_task": {"tool", "id", "deadline_kind", "deadline"},
    "create_task": None, "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"},
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
KEY_RX = re.compile(r"\b[A-Za-z]+-\d+\b")
CYR = re.compile(r"[а-яА-ЯёЁ]")
PUNCT = set(".,!?:;—–\"'«»()")


def main():
    self_test()
    typo_self_test()
    if TODAY.weekday() == 0:
        bad("TODAY must not be a Monday")

    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # --- projects
    pkeys = set()
    if not 4 <= len(projects) <= 6:
        bad(f"projects: {len(projects)} (want 4-6)")
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"project fields: {p}")
            continue
        if not re.fullmatch(r"[A-Z]+", p["key"]) or p["key"] == "INBOX":
            bad(f"project key: {p['key']}")
        if p["key"] in pkeys:
            bad(f"duplicate project {p['key']}")
        pkeys.add(p["key"])
        if not p["name"].strip() or len(p["description"].split()) < 5:
            bad(f"project name/description: {p}")

    # --- tasks
    tmap = {}
    counter = Counter()
    if not 45 <= len(tasks) <= 60:
        bad(f"tasks: {len(tasks)} (want 45-60)")
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"task fields: {t}")
            continue
        pr = t["project"]
        if pr != "INBOX" and pr not in pkeys:
            bad(f"task {t['key']}: unknown project {pr}")
        counter[pr] += 1
        if t["key"] != f"{pr}-{counter[pr]}":
            bad(f"task key {t['key']} not consecutive (want {pr}-{counter[pr]})")
        if t["due_kind"] not in ("none", "day", "week"):
            bad(f"task {t['key']}: due_kind {t['due_kind']}")
        if (t["due_kind"] == "none") != (t["due"] is None):
            bad(f"task {t['key']}: due/due_kind mismatch")
        if t["due"] is not None:
            d = dt.date.fromisoformat(t["due"])
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"task {t['key']}: week due is not a Sunday")
        tmap[t["key"]] = t
    titles = Counter(norm(t["title"]) for t in tasks)
    for k, v in titles.items():
        if v > 1:
            bad(f"duplicate task title {k}")

    # --- phrases
    seen = {}
    by_kind = defaultdict(Counter)
    by_tool = defaultdict(Counter)
    by_class = defaultdict(Counter)
    by_filter = Counter()
    typo_in = defaultdict(Counter)
    typo_kinds = Counter()
    for n, p in enumerate(phrases, 1):
        where = f"phrases:{n} {p.get('text')!r}"
        extra = set(p) - {"text", "lang", "kind", "expect", "class", "typo"}
        if extra or not {"text", "lang", "kind", "expect"} <= set(p):
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, e = p["text"], p["lang"], p["kind"], p["expect"]
        cls = p.get("class")
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        if lang == "ru" and not CYR.search(text):
            bad(f"{where}: ru without Cyrillic")
        if lang == "en" and CYR.search(text):
            bad(f"{where}: en with Cyrillic")
        key = re.sub(r"[^\w\s-]", "", norm(text)).strip()
        if key in seen:
            bad(f"{where}: duplicate of line {seen[key]}")
        seen[key] = n
        tool = e.get("tool")
        if tool not in SHAPES:
            bad(f"{where}: tool {tool}")
            continue
        want_kind = "ambiguous" if tool == "clarify" else "unknown" if tool == "none" else "plain"
        if kind != want_kind:
            bad(f"{where}: kind {kind} but tool {tool}")
        if cls not in CLASSES:
            bad(f"{where}: class {cls}")
        if (cls == "ambiguous") != (tool == "clarify"):
            bad(f"{where}: class ambiguous <-> clarify")
        if cls in ("offtopic", "unknown_other") and tool != "none":
            bad(f"{where}: {cls} must expect none")
        if cls == "negated_cancel" and tool not in ("cancel_task", "none"):
            bad(f"{where}: negated_cancel expects cancel_task or none")
        if cls == "report" and tool != "close_task":
            bad(f"{where}: report expects close_task")
        if cls == "deadline_not_close" and tool != "update_task":
            bad(f"{where}: deadline_not_close expects update_task")
        if cls == "project_leadin" and (tool != "create_task" or "project" not in e):
            bad(f"{where}: project_leadin expects create_task with project")
        if cls == "explicit_form" and tool not in ("close_task", "update_task"):
            bad(f"{where}: explicit_form expects close_task or update_task")
        shape = SHAPES[tool]
        if shape is not None and set(e) != shape:
            bad(f"{where}: expect keys {sorted(e)}")
            continue
        by_kind[kind][lang] += 1
        by_tool[tool][lang] += 1
        by_class[cls][lang] += 1

        # typo: fix the phrase before reading dates
        words = text
        if "typo" in p:
            ty = p["typo"]
            if set(ty) != {"wrote", "meant", "in"} or ty["in"] not in ("verb", "date", "title"):
                bad(f"{where}: typo field {ty}")
            else:
                tk = typo_kind(ty["wrote"], ty["meant"])
                if tk is None:
                    bad(f"{where}: {ty['wrote']} -> {ty['meant']} is not one edit of an allowed sort")
                if len(ty["meant"]) < 5:
                    bad(f"{where}: typo in a word shorter than five letters")
                if not re.search(r"(?<!\w)" + re.escape(ty["wrote"]) + r"(?!\w)", text):
                    bad(f"{where}: typo word {ty['wrote']} not in text")
                words = re.sub(r"(?<!\w)" + re.escape(ty["wrote"]) + r"(?!\w)", ty["meant"], text)
                typo_in[ty["in"]][lang] += 1
                typo_kinds[tk] += 1
                if cls != "typo":
                    bad(f"{where}: typo field outside class typo")
        elif cls == "typo":
            bad(f"{where}: class typo without typo field")

        if cls == "plain_other":
            bare = KEY_RX.sub("", text)
            if bare != bare.lower() or "ё" in bare or PUNCT & set(bare):
                bad(f"{where}: plain_other must be messenger style (lower case, no punctuation, е for ё)")

        found = find_dates(words, TODAY)

        if tool in ("close_task", "cancel_task", "update_task"):
            if e["id"] not in tmap:
                bad(f"{where}: no task {e['id']}")
                continue
        if tool == "update_task":
            if e["deadline_kind"] not in ("day", "week"):
                bad(f"{where}: deadline_kind {e['deadline_kind']}")
            title = norm(tmap[e["id"]]["title"])
            cand = [(w, k, d) for (w, k, d) in found if norm(w) not in title] or found
            vals = {(k, d.isoformat()) for _, k, d in cand}
            if vals != {(e["deadline_kind"], e["deadline"])}:
                bad(f"{where}: date words give {sorted(vals)}, expect {(e['deadline_kind'], e['deadline'])}")
            if tmap[e["id"]]["due"] == e["deadline"]:
                bad(f"{where}: move to the task's current due {e['deadline']}")
        elif tool == "create_task":
            keys = set(e)
            if not {"tool", "text", "deadline_kind"} <= keys or keys - {"tool", "text", "deadline_kind", "deadline", "project"}:
                bad(f"{where}: create keys {sorted(keys)}")
                continue
            if "project" in e and e["project"] not in pkeys:
                bad(f"{where}: unknown project {e['project']}")
            if not e["text"].strip():
                bad(f"{where}: empty create text")
            if norm(e["text"]) not in norm(words):
                bad(f"{where}: create text {e['text']!r} is not a piece of the phrase")
            if "typo" in p and p["typo"]["wrote"] in e["text"]:
                bad(f"{where}: typo kept in the created text")
            if found and any(norm(w) in norm(e["text"]) for w, _, _ in found):
                bad(f"{where}: date words left in the created text")
            if e["deadline_kind"] == "none":
                if "deadline" in e:
                    bad(f"{where}: deadline with kind none")
                if found:
                    bad(f"{where}: undated create but the phrase has date words {[w for w, _, _ in found]}")
            else:
                vals = {(k, d.isoformat()) for _, k, d in found}
                if vals != {(e["deadline_kind"], e.get("deadline"))}:
                    bad(f"{where}: date words give {sorted(vals)}, expect {(e['deadline_kind'], e.get('deadline'))}")
        elif tool == "clarify":
            opts = e["options"]
            if not isinstance(opts, list) or len(set(opts)) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: clarify needs >= 2 distinct options")
            for o in opts:
                if o not in tmap:
                    bad(f"{where}: no task {o}")
            if found:
                for _, k, d in found:
                    for o in opts:
                        if o in tmap and tmap[o]["due"] == d.isoformat():
                            bad(f"{where}: ambiguous move to {d}, which is the current due of {o}")
        elif tool == "list_tasks":
            if e["filter"] not in FILTERS:
                bad(f"{where}: filter {e['filter']}")
            by_filter[e["filter"]] += 1

    # --- set-level requirements
    ru = sum(by_kind[k]["ru"] for k in by_kind)
    en = sum(by_kind[k]["en"] for k in by_kind)
    if len(phrases) < 260:
        bad(f"only {len(phrases)} phrases")
    if abs(ru - en) > 0.1 * max(ru, en):
        bad(f"ru {ru} / en {en} differ by more than 10%")
    for c, mn in CLASSES.items():
        for lang in ("ru", "en"):
            if by_class[c][lang] < mn:
                bad(f"class {c}/{lang}: {by_class[c][lang]} < {mn}")
    for lang in ("ru", "en"):
        if by_class["typo"][lang] < 20:
            bad(f"typo/{lang} < 20")

    # --- report
    def table(title, rows, order):
        print(f"\n{title}")
        print(f"  {'':22} {'ru':>4} {'en':>4} {'all':>5}")
        for r in order:
            if r in rows:
                print(f"  {r:22} {rows[r]['ru']:>4} {rows[r]['en']:>4} {rows[r]['ru'] + rows[r]['en']:>5}")
        print(f"  {'all':22} {ru:>4} {en:>4} {ru + en:>5}")

    print(f"TODAY {TODAY} ({TODAY.strftime('%A')}); projects {len(projects)}, tasks {len(tasks)} "
          f"({', '.join(f'{k} {v}' for k, v in counter.items())}), phrases {len(phrases)}")
    table("by kind", by_kind, ["plain", "ambiguous", "unknown"])
    table("by tool", by_tool, ["close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none"])
    table("by class", by_class, list(CLASSES))
    print("\nlist filters:", dict(by_filter))
    print("typo in:", {k: dict(v) for k, v in typo_in.items()}, "edits:", dict(typo_kinds))
    if problems:
        print(f"\n{len(problems)} PROBLEM(S):")
        for m in problems:
            print("  -", m)
        sys.exit(1)
    print("\nOK")


if __name__ == "__main__":
    main()
