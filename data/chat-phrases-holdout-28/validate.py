#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-28 (stdlib only).

Checks the JSON shapes of projects.jsonl / tasks.jsonl / phrases.jsonl, that every
referenced key exists, that keys are reproduced by loading tasks in file order,
class/kind consistency, counts per class and language, and recomputes every expected
date from the phrase text with a small reference of the house date rules written for
this set only.  Prints counts; exits 1 on any problem.

TODAY: now = 2036-10-26T00:30:00Z, zone Europe/London (BST, UTC+1; clocks go back
to GMT at 02:00 local this night) -> local Sunday 2036-10-26 01:30.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2036, 10, 26, 0, 30, tzinfo=dt.timezone.utc)
# Europe/London summer time in 2036 ends at 01:00 UTC on 26 Oct (last Sunday of
# October); before that the offset is +1h.  Computed by hand, no tz database.
_last_sun_oct = max(d for d in range(25, 32) if dt.date(2036, 10, d).weekday() == 6)
_dst_end = dt.datetime(2036, 10, _last_sun_oct, 1, 0, tzinfo=dt.timezone.utc)
OFFSET = dt.timedelta(hours=1) if NOW_UTC < _dst_end else dt.timedelta(0)
LOCAL = (NOW_UTC + OFFSET).replace(tzinfo=None)
TODAY = LOCAL.date()

PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)


def load(name):
    out = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                problem(f"{name}:{i}: empty line")
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                problem(f"{name}:{i}: bad JSON: {e}")
    return out


# ---------------------------------------------------------------- house date rules
D = dt.timedelta


def sunday_of_week(d):
    return d + D(days=6 - d.weekday())


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def plain_weekday(wd, today=TODAY):
    """Next such weekday strictly after today."""
    delta = (wd - today.weekday()) % 7
    return today + D(days=delta or 7)


def next_weekday(wd, today=TODAY):
    """That weekday in the next Monday-Sunday week."""
    next_monday = today + D(days=7 - today.weekday())
    return next_monday + D(days=wd)


def day_month(day, month, today=TODAY):
    """Day + month without a year: this year's unless > 30 days in the past."""
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


def day_of_month(day, today=TODAY):
    """Day of month alone: next such day on or after today; short month -> last day."""
    if day < 1 or day > 31:
        return None
    y, m = today.year, today.month
    while True:
        ld = last_day(y, m)
        d = dt.date(y, m, min(day, ld.day))
        if d >= today:
            return d
        m += 1
        if m == 13:
            y, m = y + 1, 1


RU_WD = [
    (0, r"понедельник\w*"), (1, r"вторник\w*"), (2, r"сред[аеуы]"),
    (3, r"четверг\w*"), (4, r"пятниц\w*"), (5, r"суббот\w*"), (6, r"воскресень\w*"),
]
EN_WD = [
    (0, r"monday|mon"), (1, r"tuesday|tues|tue"), (2, r"wednesday|wed"),
    (3, r"thursday|thurs|thu"), (4, r"friday|fri"), (5, r"saturday|sat"), (6, r"sunday|sun"),
]
RU_MONTHS = ["январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август",
             "сентябр", "октябр", "ноябр", "декабр"]
EN_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
EN_MONTH_RE = (r"(january|february|march|april|may|june|july|august|september|october|"
               r"november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)")
RU_MONTH_RE = (r"(января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|"
               r"ноября|декабря)")
KEY_RE = re.compile(r"\b[a-z]+-\d+\b")


def _en_month(name):
    return EN_MONTHS.index(name[:3]) + 1


def _ru_month(name):
    for i, stem in enumerate(RU_MONTHS):
        if name.startswith(stem) and (stem != "ма" or name == "мая"):
            return i + 1
    return None


def _rules():
    """(regex, function(match) -> (kind, date)) in priority order."""
    t = TODAY
    R = []

    def add(rx, fn):
        R.append((re.compile(rx), fn))

    # absolute dates
    add(r"\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b",
        lambda m: ("day", dt.date(int(m[1]), int(m[2]), int(m[3]))))
    add(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b",
        lambda m: ("day", dt.date(int(m[3]), int(m[2]), int(m[1]))))
    add(r"\b(\d{1,2})\.(\d{1,2})\b",
        lambda m: ("day", day_month(int(m[1]), int(m[2]))))
    add(r"\b(\d{1,2})/(\d{1,2})\b",
        lambda m: ("day", day_month(int(m[1]), int(m[2])) if int(m[1]) > 12 else None))
    add(r"\b(\d{1,2}) " + RU_MONTH_RE + r"\b",
        lambda m: ("day", day_month(int(m[1]), _ru_month(m[2]))))
    add(r"\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?" + EN_MONTH_RE + r"\b",
        lambda m: ("day", day_month(int(m[1]), _en_month(m[2]))))
    add(r"\b" + EN_MONTH_RE + r" (\d{1,2})(?:st|nd|rd|th)?\b",
        lambda m: ("day", day_month(int(m[2]), _en_month(m[1]))))
    # day of month alone
    add(r"\b(?:до|к|на) (\d{1,2})(?:-?го)? числа\b", lambda m: ("day", day_of_month(int(m[1]))))
    add(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m[1]))))
    # weeks
    add(r"\b(?:на |к |до )?(?:следу[юу]?щ(?:ей|ую|ая) недел[еюи]|next week|nxt week|nex week)\b",
        lambda m: ("week", sunday_of_week(t) + D(days=7)))
    add(r"\b(?:до конца недели|к концу недели|на этой неделе|this week|"
        r"(?:by )?(?:the )?end of (?:the |this )?week)\b",
        lambda m: ("week", sunday_of_week(t)))
    # months / year
    add(r"\b(?:до конца месяца|к концу месяца|(?:the )?end of (?:the |this )?month)\b",
        lambda m: ("day", last_day(t.year, t.month)))
    add(r"\b(?:в следующем месяце|next month)\b",
        lambda m: ("day", last_day(t.year + (t.month == 12), t.month % 12 + 1)))
    add(r"\b(?:к концу года|до конца года|до нового года|(?:the )?end of (?:the |this )?year)\b",
        lambda m: ("day", dt.date(t.year, 12, 31)))
    # weekend = coming Saturday (today if Saturday)
    add(r"\b(?:выходн\w+|(?:the )?weekend)\b",
        lambda m: ("day", t if t.weekday() == 5 else plain_weekday(5)))
    # relative days
    add(r"\b(?:через|in) (\d+) (?:дн(?:я|ей)|days?)\b", lambda m: ("day", t + D(days=int(m[1]))))
    add(r"\b(?:через|in) (\d+) (?:недел[иь]|weeks?)\b", lambda m: ("day", t + D(days=7 * int(m[1]))))
    add(r"\b(?:через неделю|in a week)\b", lambda m: ("day", t + D(days=7)))
    add(r"\b(?:послезавтра|послезавро|послезавра|day after tomorrow)\b", lambda m: ("day", t + D(days=2)))
    add(r"\b(?:завтра|завтар|завтро|tomorrow|tomorow|tommorow|tmrw|tmr)\b", lambda m: ("day", t + D(days=1)))
    add(r"\b(?:сегодня|today|tonight|eod)\b", lambda m: ("day", t))
    # weekdays: "next <wd>" / «в следующую <wd>» first, then plain (and "this <wd>")
    for wd, rx in RU_WD:
        add(r"\b(?:в |на |к |до )?следу[юу]?щ\w* (?:" + rx + r")\b",
            lambda m, wd=wd: ("day", next_weekday(wd)))
    for wd, rx in EN_WD:
        add(r"\bnext (?:" + rx + r")\b", lambda m, wd=wd: ("day", next_weekday(wd)))
    for wd, rx in RU_WD:
        add(r"\b(?:в|во|на|к|до|ко) (?:эт\w+ )?(?:" + rx + r")\b",
            lambda m, wd=wd: ("day", plain_weekday(wd)))
    ru_abbr = ["пн", "вт", "ср", "чт", "пт", "сб", "вс"]
    for wd, ab in enumerate(ru_abbr):
        add(r"\b(?:в|на|к|до) " + ab + r"\b", lambda m, wd=wd: ("day", plain_weekday(wd)))
    for wd, rx in EN_WD:
        add(r"\b(?:(?:on|by|to|till|until|before|for) )?(?:this )?(?:" + rx + r")\b",
            lambda m, wd=wd: ("day", plain_weekday(wd)))
    return R


RULES = _rules()
# title words that look like dates but are not (masked before parsing)
MASKS = [r"saturday (?:shift|swap)", r"november rota", r"monday sync"]


def find_dates(text):
    """All (kind, date) found in the text, in order of the rules; spans consumed."""
    s = text.lower().replace("ё", "е")
    s = KEY_RE.sub(lambda m: " " * len(m[0]), s)
    for mk in MASKS:
        s = re.sub(mk, lambda m: " " * len(m[0]), s)
    found = []
    for rx, fn in RULES:
        while True:
            m = rx.search(s)
            if not m:
                break
            try:
                r = fn(m)
            except ValueError:
                r = ("error", None)
            if r is None:
                r = ("error", None)
            if r[1] is None:
                r = ("error", None)
            found.append((m.start(), r))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    found.sort()
    return [r for _, r in found]


def the_date(text):
    """Exactly one date expected: returns (kind, 'YYYY-MM-DD') or an error string."""
    ds = list(dict.fromkeys(find_dates(text)))
    if len(ds) != 1:
        return f"found {len(ds)} date phrases {ds}"
    kind, d = ds[0]
    if kind == "error":
        return "date phrase is an error under the house rules"
    return kind, d.isoformat()


def selftest():
    cases = {
        "tomorrow": ("day", "2036-10-27"), "послезавтра": ("day", "2036-10-28"),
        "on friday": ("day", "2036-10-31"), "next friday": ("day", "2036-10-31"),
        "this sunday": ("day", "2036-11-02"), "в воскресенье": ("day", "2036-11-02"),
        "next monday": ("day", "2036-10-27"), "до конца недели": ("week", "2036-10-26"),
        "next week": ("week", "2036-11-02"), "на выходных": ("day", "2036-11-01"),
        "end of month": ("day", "2036-10-31"), "next month": ("day", "2036-11-30"),
        "in 2 weeks": ("day", "2036-11-09"), "через неделю": ("day", "2036-11-02"),
        "до 26 числа": ("day", "2036-10-26"), "до 25 числа": ("day", "2036-11-25"),
        "on the 31st": ("day", "2036-10-31"), "20.09": ("day", "2037-09-20"),
        "1 октября": ("day", "2036-10-01"), "20/11": ("day", "2036-11-20"),
        "к концу года": ("day", "2036-12-31"), "Nov 14": ("day", "2036-11-14"),
    }
    for text, want in cases.items():
        got = the_date(text)
        if got != want:
            problem(f"date reference self-test: {text!r} -> {got}, want {want}")
    if the_date("03/04") == ("day", "2036-04-03"):
        problem("date reference self-test: 03/04 must be an error")


# ---------------------------------------------------------------- checks
CLASSES = {
    "typo": ("plain", 30), "report": ("plain", 33), "negated_cancel": ("plain", 23),
    "explicit_form": ("plain", 28), "deadline_not_close": ("plain", 26),
    "project_leadin": ("plain", 24), "offtopic": ("unknown", 22),
    "plain_other": ("plain", 54), "ambiguous": ("ambiguous", 52),
    "unknown_other": ("unknown", 24),
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def valid_date(s):
    if not isinstance(s, str) or not DATE_RE.match(s):
        return False
    try:
        dt.date.fromisoformat(s)
        return True
    except ValueError:
        return False


def main():
    selftest()
    if LOCAL != dt.datetime(2036, 10, 26, 1, 30) or TODAY.weekday() != 6:
        problem(f"local now computed as {LOCAL}, expected Sunday 2036-10-26 01:30")

    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # projects
    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"project fields: {p}")
        if not re.match(r"^[A-Z]+$", str(p.get("key", ""))):
            problem(f"project key: {p.get('key')}")
        if p.get("key") == "INBOX":
            problem("INBOX must not be listed")
        if not p.get("name") or not p.get("description"):
            problem(f"project name/description empty: {p.get('key')}")
        pkeys.append(p.get("key"))
    if len(projects) != 5 or len(set(pkeys)) != 5:
        problem(f"expected 5 distinct projects, got {pkeys}")
    names = [p.get("name", "") for p in projects]
    if not any(re.search("[а-яё]", n, re.I) for n in names) or not any(re.match("^[A-Za-z ]+$", n) for n in names):
        problem("project names should mix Russian and English")

    # tasks
    counters = Counter()
    tmap = {}
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"task fields: {t}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            problem(f"task {t['key']}: unknown project {proj}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            problem(f"task key {t['key']} is not reproduced by creation order (would be {want})")
        if t["key"] in tmap:
            problem(f"duplicate task key {t['key']}")
        tmap[t["key"]] = t
        if not t["title"]:
            problem(f"task {t['key']}: empty title")
        k, d = t["due_kind"], t["due"]
        if k == "none":
            if d is not None:
                problem(f"task {t['key']}: due_kind none but due {d}")
        elif k in ("day", "week"):
            if not valid_date(d):
                problem(f"task {t['key']}: bad due {d}")
            elif k == "week" and dt.date.fromisoformat(d).weekday() != 6:
                problem(f"task {t['key']}: week due {d} is not a Sunday")
        else:
            problem(f"task {t['key']}: bad due_kind {k}")
    if not 55 <= len(tasks) <= 65:
        problem(f"{len(tasks)} tasks, want 55-65")
    undated = sum(1 for t in tasks if t.get("due_kind") == "none")
    overdue = [t["key"] for t in tasks if t.get("due") and dt.date.fromisoformat(t["due"]) < TODAY]
    due_today = [t["key"] for t in tasks if t.get("due") == TODAY.isoformat()]
    week = [t["key"] for t in tasks if t.get("due_kind") == "week"]
    later = [t["key"] for t in tasks if t.get("due") and dt.date.fromisoformat(t["due"]) > TODAY]
    if not overdue or not due_today or not week or not 12 <= undated <= 18:
        problem("task mix: need overdue, due today, week dues and ~15 undated")

    # phrases
    by_class = Counter()
    by_class_lang = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    texts = Counter()
    for i, ph in enumerate(phrases, 1):
        where = f"phrases.jsonl:{i} {ph.get('text')!r}"
        if set(ph) != {"text", "lang", "kind", "expect", "class"}:
            problem(f"{where}: fields {sorted(ph)}")
            continue
        text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
        texts[text] += 1
        if lang not in ("ru", "en"):
            problem(f"{where}: lang {lang}")
        if cls not in CLASSES:
            problem(f"{where}: class {cls}")
            continue
        if CLASSES[cls][0] != kind:
            problem(f"{where}: class {cls} needs kind {CLASSES[cls][0]}, got {kind}")
        if text != text.lower() and not re.search(r"\b[A-Z]+-\d+\b", text):
            problem(f"{where}: not lowercase (only explicit keys may be upper case)")
        if re.search(r"[.!?]$", text):
            problem(f"{where}: ends with punctuation")
        has_cyr = bool(re.search("[а-яё]", text, re.I))
        if lang == "en" and has_cyr and not re.search("[a-z]{3,}.*[a-z]{3,}", text):
            problem(f"{where}: lang en but mostly Cyrillic")
        by_class[cls] += 1
        by_class_lang[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        tool = exp.get("tool") if isinstance(exp, dict) else None
        by_tool[tool] += 1

        # kind <-> tool
        if kind == "ambiguous" and tool != "clarify":
            problem(f"{where}: ambiguous must expect clarify")
        if kind == "unknown" and tool != "none":
            problem(f"{where}: unknown must expect none")
        if kind == "plain" and tool in ("clarify", "none"):
            problem(f"{where}: plain must expect one clear action")

        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"}:
                problem(f"{where}: expect fields {sorted(exp)}")
            if exp.get("id") not in tmap:
                problem(f"{where}: unknown key {exp.get('id')}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"}:
                problem(f"{where}: expect fields {sorted(exp)}")
            tk = exp.get("id")
            if tk not in tmap:
                problem(f"{where}: unknown key {tk}")
            if exp.get("deadline_kind") not in ("day", "week") or not valid_date(exp.get("deadline")):
                problem(f"{where}: bad deadline")
            got = the_date(text)
            if got != (exp.get("deadline_kind"), exp.get("deadline")):
                problem(f"{where}: date recomputed as {got}, expect says "
                        f"{(exp.get('deadline_kind'), exp.get('deadline'))}")
            t = tmap.get(tk)
            if t and (t["due_kind"], t["due"]) == (exp.get("deadline_kind"), exp.get("deadline")):
                problem(f"{where}: update to the task's current due")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(exp) <= allowed or "text" not in exp or "deadline_kind" not in exp:
                problem(f"{where}: expect fields {sorted(exp)}")
            ct = exp.get("text", "")
            if not ct or ct.lower() not in text.lower():
                problem(f"{where}: create text {ct!r} is not taken from the phrase")
            if find_dates(ct):
                problem(f"{where}: create text {ct!r} still holds a date phrase")
            if "project" in exp and exp["project"] not in pkeys:
                problem(f"{where}: unknown project {exp['project']}")
            if cls == "project_leadin" and "project" not in exp and tool == "create_task":
                problem(f"{where}: project lead-in create without project")
            dk = exp.get("deadline_kind")
            if dk == "none":
                if "deadline" in exp:
                    problem(f"{where}: deadline with kind none")
                if find_dates(text):
                    problem(f"{where}: kind none but the text holds {find_dates(text)}")
            elif dk in ("day", "week"):
                got = the_date(text)
                if got != (dk, exp.get("deadline")):
                    problem(f"{where}: date recomputed as {got}, expect says {(dk, exp.get('deadline'))}")
            else:
                problem(f"{where}: bad deadline_kind {dk}")
        elif tool == "list_tasks":
            if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in FILTERS:
                problem(f"{where}: bad list_tasks {exp}")
            by_filter[exp.get("filter")] += 1
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                problem(f"{where}: clarify needs 2+ options")
                opts = []
            if len(set(opts)) != len(opts):
                problem(f"{where}: duplicate options")
            for k in opts:
                if k not in tmap:
                    problem(f"{where}: unknown key {k}")
            ds = find_dates(text)
            if ds:  # an ambiguous move: the date must not break the tie
                got = the_date(text)
                if isinstance(got, str):
                    problem(f"{where}: {got}")
                else:
                    for k in opts:
                        t = tmap.get(k)
                        if t and (t["due_kind"], t["due"]) == got:
                            problem(f"{where}: move date {got} equals the due of option {k}")
        elif tool == "none":
            if set(exp) != {"tool"}:
                problem(f"{where}: none takes no fields")
        else:
            problem(f"{where}: unknown tool {tool}")

        # class-specific checks
        if cls == "explicit_form":
            keys = [k.upper() for k in re.findall(r"\b[A-Za-z]+-\d+\b", text)]
            if len(keys) != 1 or keys[0] != exp.get("id"):
                problem(f"{where}: explicit key in text {keys} != expect id {exp.get('id')}")
        if cls == "deadline_not_close":
            if tool not in ("update_task", "create_task"):
                problem(f"{where}: deadline talk must never close")
            if not find_dates(text):
                problem(f"{where}: deadline_not_close without a date")
        if cls == "negated_cancel" and tool != "cancel_task":
            problem(f"{where}: negated_cancel must expect cancel_task")
        if cls == "report" and tool != "close_task":
            problem(f"{where}: report must expect close_task")

    for t, n in texts.items():
        if n > 1:
            problem(f"phrase text repeated {n}x: {t!r}")

    # counts
    total = len(phrases)
    if total < 300:
        problem(f"{total} phrases, want at least 300")
    for cls, (_, aim) in CLASSES.items():
        if abs(by_class[cls] - aim) > 3:
            problem(f"class {cls}: {by_class[cls]} phrases, aim {aim}")
    ru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
    en = sum(v for (c, l), v in by_class_lang.items() if l == "en")
    if abs(ru - en) > total * 0.05:
        problem(f"languages unbalanced: ru {ru}, en {en}")

    # report
    print(f"TODAY: now {NOW_UTC.isoformat()} -> local {LOCAL:%Y-%m-%d %H:%M} "
          f"({TODAY:%A}), Europe/London UTC+{int(OFFSET.total_seconds() // 3600)}")
    print(f"projects: {len(projects)}  tasks: {len(tasks)}  " +
          " ".join(f"{p} {counters[p]}" for p in pkeys + ["INBOX"]))
    print(f"tasks: overdue {len(overdue)} {overdue}")
    print(f"       due today {len(due_today)} {due_today}")
    print(f"       week dues {len(week)} {week}")
    print(f"       later {len(later)}, undated {undated}")
    print(f"phrases: {total}")
    print(f"{'class':20} {'kind':10} {'ru':>4} {'en':>4} {'all':>4}")
    for cls, (kind, _) in CLASSES.items():
        print(f"{cls:20} {kind:10} {by_class_lang[(cls, 'ru')]:4} {by_class_lang[(cls, 'en')]:4} {by_class[cls]:4}")
    print(f"{'all':20} {'':10} {ru:4} {en:4} {total:4}")
    print(f"{'kind':20} {'ru':>4} {'en':>4} {'all':>4}")
    for kind in ("plain", "ambiguous", "unknown"):
        r, e = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
        print(f"{kind:20} {r:4} {e:4} {r + e:4}")
    print("by tool: " + ", ".join(f"{k} {by_tool[k]}" for k in
          ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")))
    print("list filters: " + ", ".join(f"{k} {by_filter[k]}" for k in
          ("today", "inbox", "overdue", "done", "all_by_project")))
    if PROBLEMS:
        print(f"\n{len(PROBLEMS)} problem(s):")
        for p in PROBLEMS:
            print("  - " + p)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
