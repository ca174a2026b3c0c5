#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-55 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and
references, recomputes every date answer with a small independent reference of the
house date rules (written for this set only, not taken from the parser), prints the
counts and exits 1 on any problem.

    python3 data/chat-phrases-holdout-55/validate.py
"""
import calendar
import collections
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# now = 2042-05-31T15:20:00Z, zone Asia/Tokyo (UTC+9) -> local Sunday 2042-06-01 00:20
NOW_UTC = dt.datetime(2042, 5, 31, 15, 20, tzinfo=dt.timezone.utc)
TOKYO = dt.timezone(dt.timedelta(hours=9))
TODAY = NOW_UTC.astimezone(TOKYO).date()

CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain",
    "project_leadin": "plain", "offtopic": "unknown", "plain_other": "plain",
    "ambiguous": "ambiguous", "unknown_other": "unknown",
}
TOOLS = {"close_task", "cancel_task", "update_task", "create_task", "list_tasks",
         "clarify", "none"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CYR = re.compile(r"[а-яё]", re.I)

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
            except ValueError as e:
                bad(f"{name}:{i}: bad json: {e}")
    return rows


# ---------------------------------------------------------------- house date rules
def add_days(n):
    return TODAY + dt.timedelta(days=n)


def week_sunday(offset_weeks=0):
    """Sunday ending the Monday-Sunday week of TODAY (+ offset weeks)."""
    return TODAY + dt.timedelta(days=6 - TODAY.weekday() + 7 * offset_weeks)


def next_weekday(wd):
    """The next such weekday strictly after TODAY."""
    d = (wd - TODAY.weekday()) % 7
    return TODAY + dt.timedelta(days=d or 7)


def weekday_next_week(wd):
    monday = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def month_end(year, month):
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def end_of_month():
    return month_end(TODAY.year, TODAY.month)


def end_of_next_month():
    y, m = (TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)
    return month_end(y, m)


def coming_saturday():
    return TODAY if TODAY.weekday() == 5 else next_weekday(5)


def day_month(day, month):
    """Day + month without a year: this year's unless > 30 days in the past."""
    d = dt.date(TODAY.year, month, day)
    if (TODAY - d).days > 30:
        d = dt.date(TODAY.year + 1, month, day)
    return d


def day_of_month(day):
    """Next such day of month on or after TODAY; a short month gives its last day."""
    y, m = TODAY.year, TODAY.month
    for _ in range(13):
        last = calendar.monthrange(y, m)[1]
        d = dt.date(y, m, min(day, last))
        if d >= TODAY:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    raise ValueError(day)


WD_EN = [r"monday|mon", r"tuesday|tues|tue", r"wednesday|wed", r"thursday|thurs|thu",
         r"friday|fri", r"saturday|sat", r"sunday|sun"]
WD_RU = [r"понедельник\w*|пн", r"вторник\w*|вт", r"сред[аыуе]|ср", r"четверг\w*|чт",
         r"пятниц[аыуе]|пт", r"суббот[аыуе]|сб", r"воскресень[еяю]|вс"]
WD = [rf"(?:{e}|{r})" for e, r in zip(WD_EN, WD_RU)]
MON_EN = ["january|jan", "february|feb", "march|mar", "april|apr", "may", "june|jun",
          "july|jul", "august|aug", "september|sept|sep", "october|oct",
          "november|nov", "december|dec"]
MON_RU = ["январ\\w*", "феврал\\w*", "март\\w*", "апрел\\w*", "ма[яйе]", "июн\\w*",
          "июл\\w*", "август\\w*", "сентябр\\w*", "октябр\\w*", "ноябр\\w*",
          "декабр\\w*"]
MON = [rf"(?:{e}|{r})" for e, r in zip(MON_EN, MON_RU)]
DATEWORD = re.compile(r"^(?:" + "|".join(WD + MON) + r")$")

# misspelt / local date words met in this set -> the word they are closest to
# (chat rule: a date word one letter off is read as that word)
TYPOS = {"fridya": "friday", "tomorow": "tomorrow", "thrusday": "thursday",
         "пятницк": "пятницу", "срду": "среду", "неделб": "неделю",
         "tmrw": "tomorrow", "tmr": "tomorrow", "ashita": "tomorrow",
         "raishuu": "next week", "недельку": "неделю"}


def month_idx(word):
    for i, p in enumerate(MON):
        if re.fullmatch(p, word):
            return i + 1
    raise ValueError(word)


def wd_idx(word):
    for i, p in enumerate(WD):
        if re.fullmatch(p, word):
            return i
    raise ValueError(word)


RULES = [
    (r"\b(?:next week|следующ\w* недел\w*)\b", lambda m: ("week", week_sunday(1))),
    (r"\b(?:this week|end of (?:the )?week|(?:до|к) конц\w* недели|на этой неделе)\b",
     lambda m: ("week", week_sunday(0))),
    (r"\b(?:next month|следующ\w* месяц\w*)\b", lambda m: ("day", end_of_next_month())),
    (r"\b(?:end of (?:the )?month|конц\w* месяца)\b", lambda m: ("day", end_of_month())),
    (r"\b(?:end of (?:the )?year|конц\w* года)\b",
     lambda m: ("day", dt.date(TODAY.year, 12, 31))),
    (r"\b(?:weekend|выходны\w*)\b", lambda m: ("day", coming_saturday())),
    (r"\b(?:day after tomorrow|послезавтра)\b", lambda m: ("day", add_days(2))),
    (r"\b(?:tomorrow|завтра)\b", lambda m: ("day", add_days(1))),
    (r"\b(?:today|eod|сегодня)\b", lambda m: ("day", add_days(0))),
    (r"\b(?:in|через) (\d+) (?:days?|дн\w*|дня)\b",
     lambda m: ("day", add_days(int(m.group(1))))),
    (r"\b(?:in|через) (\d+) (?:weeks?|недел\w*)\b",
     lambda m: ("day", add_days(7 * int(m.group(1))))),
    (r"\b(?:in a week|через неделю)\b", lambda m: ("day", add_days(7))),
    (r"\b(\d{4})-(\d{2})-(\d{2})\b",
     lambda m: ("day", dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))),
    (r"\b(\d{1,2})\.(\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
    (r"\b(\d{1,2})/(\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))
     if int(m.group(1)) > 12 else ("error", None)),
    (r"\b(\d{1,2}) (" + "|".join(MON) + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), month_idx(m.group(2))))),
    (r"\b(" + "|".join(MON) + r") (\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(2)), month_idx(m.group(1))))),
    (r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th)\b|\b(\d{1,2}) (?:числ\w*)\b",
     lambda m: ("day", day_of_month(int(m.group(1) or m.group(2))))),
    (r"\b(?:next|следующ\w*) (" + "|".join(WD) + r")\b",
     lambda m: ("day", weekday_next_week(wd_idx(m.group(1))))),
    (r"\bthis (" + "|".join(WD) + r")\b",
     lambda m: ("day", next_weekday(wd_idx(m.group(1))))),
    (r"\b(" + "|".join(WD) + r")\b", lambda m: ("day", next_weekday(wd_idx(m.group(1))))),
]
RULES = [(re.compile(p), f) for p, f in RULES]


def normalise(text):
    t = text.lower().replace("ё", "е")
    t = re.sub(r"[^\w\s./-]", " ", t)
    words = [TYPOS.get(w, w) for w in t.split()]
    return " ".join(words)


def extract_dates(text, exempt_words=()):
    """All date expressions in text, as (kind, date), left to right."""
    t = normalise(text)
    if exempt_words:
        t = " ".join("_" if w in exempt_words else w for w in t.split())
    taken = [False] * len(t)
    found = []
    for rx, fn in RULES:
        for m in rx.finditer(t):
            if any(taken[m.start():m.end()]):
                continue
            for i in range(m.start(), m.end()):
                taken[i] = True
            found.append((m.start(), fn(m)))
    return [r for _, r in sorted(found)]


def title_date_words(title):
    """Weekday / month words that are part of a task title (not dates)."""
    return {w for w in normalise(title).split() if DATEWORD.match(w)}


# ---------------------------------------------------------------- self-test of rules
def rules_selftest():
    exp = {
        "tomorrow": ("day", "2042-06-02"), "послезавтра": ("day", "2042-06-03"),
        "today": ("day", "2042-06-01"), "friday": ("day", "2042-06-06"),
        "в воскресенье": ("day", "2042-06-08"), "в пн": ("day", "2042-06-02"),
        "next friday": ("day", "2042-06-06"), "this week": ("week", "2042-06-01"),
        "до конца недели": ("week", "2042-06-01"), "next week": ("week", "2042-06-08"),
        "end of month": ("day", "2042-06-30"), "в следующем месяце": ("day", "2042-07-31"),
        "weekend": ("day", "2042-06-07"), "через неделю": ("day", "2042-06-08"),
        "in 2 weeks": ("day", "2042-06-15"), "2 мая": ("day", "2042-05-02"),
        "1 мая": ("day", "2043-05-01"), "до 31 числа": ("day", "2042-06-30"),
        "к 1 числу": ("day", "2042-06-01"), "20/06": ("day", "2042-06-20"),
    }
    for text, (kind, date) in exp.items():
        got = extract_dates(text)
        want = [(kind, dt.date.fromisoformat(date))]
        if got != want:
            bad(f"date rule self-test: {text!r} -> {got}, want {want}")


# ---------------------------------------------------------------- checks
def main():
    if TODAY != dt.date(2042, 6, 1) or TODAY.weekday() != 6:
        bad(f"TODAY is {TODAY}, expected Sunday 2042-06-01")
    rules_selftest()

    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for i, p in enumerate(projects, 1):
        if set(p) != {"key", "name", "description"}:
            bad(f"projects:{i}: fields {sorted(p)}")
            continue
        if not re.fullmatch(r"[A-Z]{2,10}", p["key"]) or p["key"] == "INBOX":
            bad(f"projects:{i}: bad key {p['key']}")
        if p["key"] in pkeys:
            bad(f"projects:{i}: duplicate key {p['key']}")
        if not p["name"].strip() or len(p["description"]) < 20:
            bad(f"projects:{i}: empty name or too short description")
        pkeys.add(p["key"])
    if len(projects) != 5:
        bad(f"expected 5 projects, got {len(projects)}")

    tmap, counters = {}, collections.Counter()
    for i, t in enumerate(tasks, 1):
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"tasks:{i}: fields {sorted(t)}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad(f"tasks:{i}: unknown project {proj}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            bad(f"tasks:{i}: key {t['key']}, creation order gives {want}")
        if t["key"] in tmap:
            bad(f"tasks:{i}: duplicate key {t['key']}")
        if not t["title"].strip():
            bad(f"tasks:{i}: empty title")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"tasks:{i}: due with kind none")
        elif t["due_kind"] in ("day", "week"):
            if not isinstance(t["due"], str) or not ISO.match(t["due"]):
                bad(f"tasks:{i}: bad due {t['due']}")
            else:
                d = dt.date.fromisoformat(t["due"])
                if t["due_kind"] == "week" and d.weekday() != 6:
                    bad(f"tasks:{i}: week due {d} is not a Sunday")
        else:
            bad(f"tasks:{i}: bad due_kind {t['due_kind']}")
        tmap[t["key"]] = t

    seen = set()
    by_cls = collections.Counter()
    by_kind = collections.Counter()
    by_tool = collections.Counter()
    by_filter = collections.Counter()
    dated = 0
    for i, p in enumerate(phrases, 1):
        where = f"phrases:{i} {p.get('text')!r}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if not text.strip():
            bad(f"{where}: empty text")
        norm = " ".join(text.lower().replace("ё", "е").split())
        if norm in seen:
            bad(f"{where}: duplicate text")
        seen.add(norm)
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        if lang == "ru" and not CYR.search(text):
            bad(f"{where}: ru phrase without Cyrillic")
        if lang == "en" and CYR.search(text):
            bad(f"{where}: en phrase with Cyrillic")
        if cls not in CLASSES:
            bad(f"{where}: class {cls}")
            continue
        if kind != CLASSES[cls]:
            bad(f"{where}: kind {kind} but class {cls} needs {CLASSES[cls]}")
        tool = e.get("tool")
        if tool not in TOOLS:
            bad(f"{where}: tool {tool}")
            continue
        by_cls[(cls, lang)] += 1
        by_kind[(kind, lang)] += 1
        by_tool[tool] += 1
        if (kind == "ambiguous") != (tool == "clarify"):
            bad(f"{where}: kind {kind} with tool {tool}")
        if (kind == "unknown") != (tool == "none"):
            bad(f"{where}: kind {kind} with tool {tool}")

        exempt = ()
        if tool in ("close_task", "cancel_task", "update_task"):
            if set(e) - {"tool", "id", "deadline_kind", "deadline"}:
                bad(f"{where}: extra fields {sorted(e)}")
            if e.get("id") not in tmap:
                bad(f"{where}: unknown id {e.get('id')}")
                continue
            exempt = title_date_words(tmap[e["id"]]["title"])
        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"}:
                bad(f"{where}: fields {sorted(e)}")
            if cls != "explicit_form" and e["id"].lower() in text.lower():
                pass
            if extract_dates(text, exempt):
                bad(f"{where}: a close/cancel holds a date {extract_dates(text, exempt)}")
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"}:
                bad(f"{where}: fields {sorted(e)}")
                continue
            cur = tmap[e["id"]]
            if (e["deadline_kind"], e["deadline"]) == (cur["due_kind"], cur["due"]):
                bad(f"{where}: move to the task's current due")
            dated += 1
            check_date(where, text, e, exempt)
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if set(e) - allowed or "text" not in e or "deadline_kind" not in e:
                bad(f"{where}: fields {sorted(e)}")
                continue
            ct = " ".join(e["text"].lower().replace("ё", "е").split())
            if not ct or ct not in norm:
                bad(f"{where}: create text {e['text']!r} is not part of the phrase")
            if "project" in e and e["project"] not in pkeys:
                bad(f"{where}: unknown project {e['project']}")
            if cls == "project_leadin" and "project" not in e:
                bad(f"{where}: project lead-in without project")
            if cls != "project_leadin" and "project" in e:
                bad(f"{where}: project outside project_leadin")
            if e["deadline_kind"] == "none":
                if "deadline" in e:
                    bad(f"{where}: deadline with kind none")
                if extract_dates(text):
                    bad(f"{where}: undated create holds a date {extract_dates(text)}")
            else:
                dated += 1
                check_date(where, text, e, ())
                if extract_dates(e["text"]):
                    bad(f"{where}: create text still holds its date")
        elif tool == "list_tasks":
            if e.get("filter") not in FILTERS or set(e) - {"tool", "filter", "period"}:
                bad(f"{where}: bad list {e}")
            by_filter[e.get("filter")] += 1
        elif tool == "clarify":
            opts = e.get("options")
            if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                bad(f"{where}: bad clarify {e}")
                continue
            if len(set(opts)) != len(opts):
                bad(f"{where}: repeated option")
            for k in opts:
                if k not in tmap:
                    bad(f"{where}: unknown option {k}")
            if opts and all(k in tmap for k in opts):
                ex = set()
                for k in opts:
                    ex |= title_date_words(tmap[k]["title"])
                ds = extract_dates(text, ex)
                if len(ds) > 1:
                    bad(f"{where}: several dates {ds}")
                for kind_, d in ds:
                    for k in opts:
                        if tmap[k]["due"] == d.isoformat():
                            bad(f"{where}: ambiguous move to {d}, the current due of {k}")
        elif tool == "none":
            if set(e) != {"tool"}:
                bad(f"{where}: fields {sorted(e)}")

    if len(phrases) < 300:
        bad(f"only {len(phrases)} phrases")

    # ------------------------------------------------------------ report
    print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), zone Asia/Tokyo; "
          f"now {NOW_UTC.isoformat()} UTC")
    print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}, "
          f"date answers recomputed {dated}")
    print("\ntasks per project:", dict(counters))
    buckets = collections.Counter()
    for t in tasks:
        if t["due"] is None:
            b = "undated"
        else:
            d = dt.date.fromisoformat(t["due"])
            b = ("overdue" if d < TODAY else "today" if d == TODAY else "later")
            if t["due_kind"] == "week":
                buckets["week-kind"] += 1
        buckets[b] += 1
    print("dues:", dict(buckets))

    def table(title, counter, rows):
        print(f"\n| {title} | ru | en | total |\n|---|---|---|---|")
        tr = te = 0
        for r in rows:
            a, b = counter[(r, "ru")], counter[(r, "en")]
            tr += a
            te += b
            print(f"| {r} | {a} | {b} | {a + b} |")
        print(f"| **all** | {tr} | {te} | **{tr + te}** |")

    table("class", by_cls, list(CLASSES))
    table("kind", by_kind, ["plain", "ambiguous", "unknown"])
    print("\nby tool:", dict(sorted(by_tool.items())))
    print("list filters:", dict(sorted(by_filter.items())))

    if problems:
        print(f"\n{len(problems)} PROBLEM(S):")
        for m in problems:
            print(" -", m)
        sys.exit(1)
    print("\nOK")


def check_date(where, text, e, exempt):
    ds = extract_dates(text, exempt)
    if len(ds) != 1:
        bad(f"{where}: expected one date phrase, reference found {ds}")
        return
    kind, d = ds[0]
    if kind == "error" or d is None:
        bad(f"{where}: reference reads an error")
        return
    if (e.get("deadline_kind"), e.get("deadline")) != (kind, d.isoformat()):
        bad(f"{where}: expect {e.get('deadline_kind')} {e.get('deadline')}, "
            f"reference gives {kind} {d.isoformat()}")


if __name__ == "__main__":
    main()
