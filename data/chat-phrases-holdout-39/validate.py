#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-39 (stdlib only).

Checks the JSON shapes of projects.jsonl, tasks.jsonl and phrases.jsonl, that task
keys are reproduced by creation order, that every referenced key exists, class/kind
consistency, counts per class and language, and RECOMPUTES every expected date
(updates, dated creates, the dates of ambiguous moves) from the phrase text with a
small reference of the house date rules written for this set only.

TODAY: now = 2039-12-31T21:30:00Z, zone Europe/Moscow (UTC+3, no DST), so the local
date is Sunday 2040-01-01, 00:30. All relative dates use the LOCAL date.

Prints counts; exits 1 on any problem.
"""
import calendar
import json
import os
import re
import sys
from collections import Counter
from datetime import date, datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = datetime(2039, 12, 31, 21, 30, tzinfo=timezone.utc)
MSK = timezone(timedelta(hours=3))
TODAY = NOW_UTC.astimezone(MSK).date()

problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


# ---------------------------------------------------------------- date reference

RU_WD = {
    0: ["понедельник", "понедельника", "понедельнику"],
    1: ["вторник", "вторника", "вторнику"],
    2: ["среда", "среду", "среды", "среде"],
    3: ["четверг", "четверга", "четвергу"],
    4: ["пятница", "пятницу", "пятницы", "пятнице"],
    5: ["суббота", "субботу", "субботы", "субботе"],
    6: ["воскресенье", "воскресенья", "воскресенью"],
}
EN_WD = {0: ["monday"], 1: ["tuesday"], 2: ["wednesday"], 3: ["thursday"],
         4: ["friday"], 5: ["saturday"], 6: ["sunday"]}
ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6,
        "mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
        "fri": 4, "sat": 5, "sun": 6}
PREPS = {"в", "во", "до", "к", "на", "on", "by", "to", "till", "until", "for"}
RU_MON = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
          "сентября", "октября", "ноября", "декабря"]
EN_MON = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
EN_MON3 = {m[:3]: i + 1 for i, m in enumerate(EN_MON)}
EN_MON3["sept"] = 9

# canonical word -> meaning (used for exact and for one-letter-off reading)
CANON = {}
for wd, forms in list(RU_WD.items()) + list(EN_WD.items()):
    for w in forms:
        CANON[w] = ("wd", wd)
for w in ["сегодня", "today"]:
    CANON[w] = ("rel", 0)
for w in ["завтра", "tomorrow"]:
    CANON[w] = ("rel", 1)
CANON["послезавтра"] = ("rel", 2)
for w in ["неделя", "неделю", "недели", "неделе", "недель", "week", "weeks"]:
    CANON[w] = ("unit", "week")
for w in ["месяц", "месяца", "месяце", "month", "months"]:
    CANON[w] = ("unit", "month")
for w in ["год", "года", "году", "year"]:
    CANON[w] = ("unit", "year")
for w in ["день", "дня", "дней", "day", "days"]:
    CANON[w] = ("unit", "day")
for w in ["следующий", "следующую", "следующей", "следующем", "следующему",
          "следующая", "следующее", "next"]:
    CANON[w] = ("next", None)
for w in ["этот", "эту", "этой", "этом", "этого", "this"]:
    CANON[w] = ("this", None)
for w in ["конец", "конца", "концу", "end"]:
    CANON[w] = ("end", None)
for w in ["выходные", "выходных", "weekend"]:
    CANON[w] = ("weekend", None)
CANON["через"] = ("in", None)
CANON["in"] = ("in", None)
for w in ["tmrw", "tmr"]:
    CANON[w] = ("rel", 1)
CANON["eod"] = ("rel", 0)
CANON["eom"] = ("eom", None)
CANON["числа"] = ("chisla", None)
CANON["числу"] = ("chisla", None)
for i, m in enumerate(RU_MON):
    CANON[m] = ("mon", i + 1)
for i, m in enumerate(EN_MON):
    CANON[m] = ("mon", i + 1)
for m3, i in EN_MON3.items():
    CANON.setdefault(m3, ("mon", i))

# words eligible for the one-letter-off reading: weekdays and relative date words
FUZZY_TARGETS = {w: v for w, v in CANON.items()
                 if v[0] in ("wd", "rel", "unit", "next", "weekend") and len(w) >= 5}


def osa(a, b):
    """Optimal string alignment distance (insert, delete, substitute, swap)."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            c = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + c)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def norm(s):
    s = s.lower().replace("ё", "е")
    return s


def tokens(s):
    return re.findall(r"[a-zа-я0-9]+(?:[./-][a-zа-я0-9]+)*", norm(s))


def meaning(tok):
    if tok in CANON:
        return CANON[tok]
    if len(tok) >= 4 and not tok.isdigit():
        hits = {v for w, v in FUZZY_TARGETS.items() if osa(tok, w) == 1}
        if len(hits) == 1:
            return hits.pop()
    return None


def last_day(y, m):
    return date(y, m, calendar.monthrange(y, m)[1])


def this_sunday(d):
    return d + timedelta(days=6 - d.weekday())


def plain_weekday(wd, today):
    delta = (wd - today.weekday()) % 7
    return today + timedelta(days=delta or 7)


def next_week_weekday(wd, today):
    monday = this_sunday(today) + timedelta(days=1)
    return monday + timedelta(days=wd)


def day_month(d, m, today):
    try:
        c = date(today.year, m, d)
    except ValueError:
        return None
    if c < today - timedelta(days=30):
        try:
            c = date(today.year + 1, m, d)
        except ValueError:
            return None
    return c


def day_of_month(d, today):
    y, m = today.year, today.month
    if d < today.day:
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return date(y, m, min(d, calendar.monthrange(y, m)[1]))


def parse_dates(text, today=TODAY):
    """Return a list of (kind, date, consumed token indices) found in text."""
    toks = tokens(text)
    mean = [meaning(t) for t in toks]
    out = []
    i = 0
    n = len(toks)

    def typ(j):
        return mean[j][0] if 0 <= j < n and mean[j] else None

    def num(j):
        if 0 <= j < n and re.fullmatch(r"\d{1,2}", toks[j]):
            return int(toks[j])
        if 0 <= j < n and toks[j] in ("a", "одну", "один"):
            return 1
        return None

    while i < n:
        t = toks[i]
        # task keys like thtr-1 are not dates
        if re.fullmatch(r"[a-z]+-\d+", t):
            i += 1
            continue
        # day after tomorrow
        if toks[i:i + 3] == ["day", "after", "tomorrow"]:
            out.append(("day", today + timedelta(days=2), [i, i + 1, i + 2]))
            i += 3
            continue
        # через N дней / in N days / через неделю / in a week
        if typ(i) == "in":
            k = num(i + 1)
            if k is not None and typ(i + 2) == "unit" and mean[i + 2][1] in ("day", "week"):
                mul = 1 if mean[i + 2][1] == "day" else 7
                out.append(("day", today + timedelta(days=k * mul), [i, i + 1, i + 2]))
                i += 3
                continue
            if typ(i + 1) == "unit" and mean[i + 1][1] == "week":
                out.append(("day", today + timedelta(days=7), [i, i + 1]))
                i += 2
                continue
        # end (of) (the/this) week|month|year
        if typ(i) == "end":
            j = i + 1
            while j < n and (toks[j] in ("of", "the") or typ(j) == "this"):
                j += 1
            if typ(j) == "unit":
                u = mean[j][1]
                if u == "week":
                    out.append(("week", this_sunday(today), list(range(i, j + 1))))
                elif u == "month":
                    out.append(("day", last_day(today.year, today.month), list(range(i, j + 1))))
                elif u == "year":
                    out.append(("day", date(today.year, 12, 31), list(range(i, j + 1))))
                i = j + 1
                continue
        if typ(i) == "eom":
            out.append(("day", last_day(today.year, today.month), [i]))
            i += 1
            continue
        # next week / next month / next <weekday>
        if typ(i) == "next":
            if typ(i + 1) == "unit" and mean[i + 1][1] == "week":
                out.append(("week", this_sunday(today) + timedelta(days=7), [i, i + 1]))
                i += 2
                continue
            if typ(i + 1) == "unit" and mean[i + 1][1] == "month":
                y, m = (today.year, today.month + 1) if today.month < 12 else (today.year + 1, 1)
                out.append(("day", last_day(y, m), [i, i + 1]))
                i += 2
                continue
            wd = mean[i + 1][1] if typ(i + 1) == "wd" else ABBR.get(toks[i + 1] if i + 1 < n else "")
            if wd is not None:
                out.append(("day", next_week_weekday(wd, today), [i, i + 1]))
                i += 2
                continue
        # this week / this <weekday>
        if typ(i) == "this":
            if typ(i + 1) == "unit" and mean[i + 1][1] == "week":
                out.append(("week", this_sunday(today), [i, i + 1]))
                i += 2
                continue
            if typ(i + 1) == "wd":
                out.append(("day", plain_weekday(mean[i + 1][1], today), [i, i + 1]))
                i += 2
                continue
        if typ(i) == "wd":
            out.append(("day", plain_weekday(mean[i][1], today), [i]))
            i += 1
            continue
        if t in ABBR and i > 0 and toks[i - 1] in PREPS:
            out.append(("day", plain_weekday(ABBR[t], today), [i]))
            i += 1
            continue
        if typ(i) == "weekend":
            sat = today + timedelta(days=(5 - today.weekday()) % 7)
            out.append(("day", sat, [i]))
            i += 1
            continue
        if typ(i) == "rel":
            out.append(("day", today + timedelta(days=mean[i][1]), [i]))
            i += 1
            continue
        # N month / month N
        if num(i) is not None and toks[i].isdigit() and typ(i + 1) == "mon":
            out.append(("day", day_month(int(toks[i]), mean[i + 1][1], today), [i, i + 1]))
            i += 2
            continue
        if typ(i) == "mon" and i + 1 < n and re.fullmatch(r"\d{1,2}(st|nd|rd|th)?", toks[i + 1]):
            d = int(re.match(r"\d+", toks[i + 1]).group())
            out.append(("day", day_month(d, mean[i][1], today), [i, i + 1]))
            i += 2
            continue
        # dd.mm(.yyyy), dd/mm (day > 12)
        m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?", t)
        if m:
            d, mo = int(m.group(1)), int(m.group(2))
            if m.group(3):
                try:
                    out.append(("day", date(int(m.group(3)), mo, d), [i]))
                except ValueError:
                    out.append(("error", None, [i]))
            else:
                out.append(("day", day_month(d, mo, today), [i]))
            i += 1
            continue
        m = re.fullmatch(r"(\d{1,2})/(\d{1,2})", t)
        if m:
            d, mo = int(m.group(1)), int(m.group(2))
            out.append(("day", day_month(d, mo, today) if d > 12 else None, [i]))
            i += 1
            continue
        m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", t)
        if m:
            out.append(("day", date(*map(int, m.groups())), [i]))
            i += 1
            continue
        # N числа / the Nth
        if t.isdigit() and typ(i + 1) == "chisla":
            out.append(("day", day_of_month(int(t), today), [i, i + 1]))
            i += 2
            continue
        m = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)", t)
        if m:
            out.append(("day", day_of_month(int(m.group(1)), today), [i]))
            i += 1
            continue
        i += 1
    return out


def one_date(text):
    found = parse_dates(text)
    uniq = {(k, d) for k, d, _ in found}
    if len(uniq) > 1:
        bad(f"phrase {text!r}: several dates read: {sorted(uniq)}")
    if not found:
        return None
    k, d, _ = found[0]
    return (k, d)


def self_test():
    t = TODAY
    assert t == date(2040, 1, 1) and t.weekday() == 6, t
    cases = {
        "завтра": ("day", "2040-01-02"), "послезавтра": ("day", "2040-01-03"),
        "в пятницу": ("day", "2040-01-06"), "в воскресенье": ("day", "2040-01-08"),
        "next monday": ("day", "2040-01-02"), "next week": ("week", "2040-01-08"),
        "до конца недели": ("week", "2040-01-01"), "end of month": ("day", "2040-01-31"),
        "в следующем месяце": ("day", "2040-02-29"), "end of the year": ("day", "2040-12-31"),
        "на выходных": ("day", "2040-01-07"), "через неделю": ("day", "2040-01-08"),
        "in 2 weeks": ("day", "2040-01-15"), "30 декабря": ("day", "2040-12-30"),
        "29.02": ("day", "2040-02-29"), "до 5 числа": ("day", "2040-01-05"),
        "до 31 числа": ("day", "2040-01-31"), "15/01": ("day", "2040-01-15"),
        "fryday": ("day", "2040-01-06"), "в пятнидцу": ("day", "2040-01-06"),
    }
    for text, (k, d) in cases.items():
        got = one_date(text)
        if got != (k, date.fromisoformat(d)):
            bad(f"self-test: {text!r} -> {got}, expected {k} {d}")
    if one_date("03/04") not in (None, ("day", None)):
        bad("self-test: 03/04 must not be read as a date")


# ---------------------------------------------------------------- checks

CLASS_KIND = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain", "project_leadin": "plain",
    "offtopic": "unknown", "plain_other": "plain", "ambiguous": "ambiguous",
    "unknown_other": "unknown",
}
AIM = {"typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28,
       "deadline_not_close": 26, "project_leadin": 24, "offtopic": 22,
       "plain_other": 54, "ambiguous": 52, "unknown_other": 24}

# how the phrases name a project (lead-ins); used to check `project` in creates
PROJECT_WORDS = {
    "THTR": {"театр", "театре"}, "TOUR": {"tour", "туру"}, "FAM": {"семью", "fam"},
    "HOME": {"дом", "home"}, "SWIM": {"моржи"},
}
LEADIN_WORDS = {
    "добавь", "задачу", "задача", "новая", "напомни", "в", "проект", "по", "add", "to",
    "remind", "me", "todo", "new", "task", "in", "edinburgh", "до", "к", "на", "во",
    "on", "by", "the", "of", "a", "через",
}


def main():
    self_test()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = []
    for n, p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"projects.jsonl:{n}: fields {sorted(p)}")
            continue
        if not re.fullmatch(r"[A-Z][A-Z0-9]{1,9}", p["key"]) or p["key"] == "INBOX":
            bad(f"projects.jsonl:{n}: bad key {p['key']}")
        if not (p["name"].strip() and p["description"].strip()):
            bad(f"projects.jsonl:{n}: empty name/description")
        pkeys.append(p["key"])
    if len(pkeys) != 5 or len(set(pkeys)) != 5:
        bad(f"projects: need 5 distinct, got {pkeys}")

    task = {}
    counters = Counter()
    buckets = Counter()
    for n, t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"tasks.jsonl:{n}: fields {sorted(t)}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad(f"tasks.jsonl:{n}: unknown project {proj}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            bad(f"tasks.jsonl:{n}: key {t['key']} but creation order gives {want}")
        if t["key"] in task:
            bad(f"tasks.jsonl:{n}: duplicate key {t['key']}")
        if not t["title"].strip():
            bad(f"tasks.jsonl:{n}: empty title")
        dk, due = t["due_kind"], t["due"]
        if dk not in ("none", "day", "week"):
            bad(f"tasks.jsonl:{n}: due_kind {dk}")
        if (dk == "none") != (due is None):
            bad(f"tasks.jsonl:{n}: due {due} with kind {dk}")
        d = None
        if due is not None:
            try:
                d = date.fromisoformat(due)
            except (TypeError, ValueError):
                bad(f"tasks.jsonl:{n}: bad due {due}")
            if d and dk == "week" and d.weekday() != 6:
                bad(f"tasks.jsonl:{n}: week due {due} is not a Sunday")
        if d is None:
            buckets["undated"] += 1
        elif d < TODAY:
            buckets["overdue"] += 1
        elif d == TODAY:
            buckets["due today"] += 1
        else:
            buckets["later"] += 1
        if dk == "week":
            buckets["week kind"] += 1
        task[t["key"]] = (t, d)
    if not 55 <= len(task) <= 65:
        bad(f"tasks: {len(task)} not in 55..65")

    by_class = Counter()
    by_class_lang = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    seen = set()
    for n, p in phrases:
        where = f"phrases.jsonl:{n}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if not isinstance(text, str) or not text.strip():
            bad(f"{where}: empty text")
            continue
        if norm(text) in seen:
            bad(f"{where}: duplicate text {text!r}")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        cy = len(re.findall(r"[а-яё]", text.lower()))
        la = len(re.findall(r"[a-z]", text.lower()))
        if (lang == "ru") != (cy > la):
            bad(f"{where}: lang {lang} but letters cyr={cy} lat={la}")
        if cls not in CLASS_KIND:
            bad(f"{where}: class {cls}")
            continue
        if CLASS_KIND[cls] != kind:
            bad(f"{where}: class {cls} needs kind {CLASS_KIND[cls]}, got {kind}")
        by_class[cls] += 1
        by_class_lang[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        if not isinstance(e, dict) or "tool" not in e:
            bad(f"{where}: expect {e}")
            continue
        tool = e["tool"]
        by_tool[tool] += 1
        shape = {
            "close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
            "update_task": {"tool", "id", "deadline_kind", "deadline"},
            "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"},
            "none": {"tool"},
        }
        if tool == "create_task":
            if not {"tool", "text", "deadline_kind"} <= set(e) or \
                    set(e) - {"tool", "text", "deadline_kind", "deadline", "project"}:
                bad(f"{where}: create shape {sorted(e)}")
                continue
        elif tool in shape:
            if set(e) != shape[tool]:
                bad(f"{where}: {tool} shape {sorted(e)}")
                continue
        else:
            bad(f"{where}: tool {tool}")
            continue
        # kind vs tool
        if kind == "ambiguous" and tool != "clarify":
            bad(f"{where}: ambiguous must be clarify")
        if kind == "unknown" and tool != "none":
            bad(f"{where}: unknown must be none")
        if kind == "plain" and tool in ("clarify", "none"):
            bad(f"{where}: plain cannot be {tool}")
        if tool in ("close_task", "cancel_task", "update_task"):
            if e["id"] not in task:
                bad(f"{where}: unknown key {e['id']}")
                continue
        if tool == "list_tasks":
            if e["filter"] not in ("today", "inbox", "overdue", "done", "all_by_project"):
                bad(f"{where}: filter {e['filter']}")
            by_filter[e["filter"]] += 1
        got = one_date(text)
        if tool == "update_task":
            if e["deadline_kind"] not in ("day", "week"):
                bad(f"{where}: update kind {e['deadline_kind']}")
            want = (e["deadline_kind"], date.fromisoformat(e["deadline"]))
            if got != want:
                bad(f"{where}: {text!r}: reference reads {got}, expect says {want}")
            cur = task[e["id"]][1]
            if cur == want[1] and task[e["id"]][0]["due_kind"] == want[0]:
                bad(f"{where}: update to the task's current due")
        if tool == "create_task":
            dk = e["deadline_kind"]
            if dk not in ("none", "day", "week"):
                bad(f"{where}: create kind {dk}")
            if (dk == "none") != ("deadline" not in e):
                bad(f"{where}: create deadline vs kind")
            want = None if dk == "none" else (dk, date.fromisoformat(e["deadline"]))
            if got != want:
                bad(f"{where}: {text!r}: reference reads {got}, expect says {want}")
            ntext = " ".join(tokens(e["text"]))
            nphrase = " ".join(tokens(text))
            if ntext not in nphrase:
                bad(f"{where}: create text {e['text']!r} is not in the phrase")
            else:
                dated = set()
                for _, _, idx in parse_dates(nphrase.replace(ntext, " ", 1)):
                    dated |= set(idx)
                rtoks = tokens(nphrase.replace(ntext, " ", 1))
                named = set()
                for j, w in enumerate(rtoks):
                    if j in dated:
                        continue
                    hit = [k for k, ws in PROJECT_WORDS.items() if w in ws]
                    if hit:
                        named |= set(hit)
                    elif w not in LEADIN_WORDS:
                        bad(f"{where}: leftover word {w!r} outside the create text")
                proj = e.get("project")
                if proj is not None and proj not in pkeys:
                    bad(f"{where}: unknown project {proj}")
                if named != ({proj} if proj else set()):
                    bad(f"{where}: phrase names {named or 'no project'}, expect {proj}")
        if tool == "clarify":
            opts = e["options"]
            if len(opts) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: clarify options {opts}")
            for k in opts:
                if k not in task:
                    bad(f"{where}: unknown key {k}")
            if got is not None:  # an ambiguous move
                for k in opts:
                    if k in task and task[k][1] == got[1]:
                        bad(f"{where}: move date {got[1]} equals the due of option {k}")
                by_tool["clarify (moves)"] += 1
        if cls == "deadline_not_close" and tool in ("close_task", "cancel_task"):
            bad(f"{where}: deadline_not_close must not close/cancel")

    total = sum(by_class.values())
    if total < 300:
        bad(f"phrases: {total} < 300")
    ru = sum(v for (k, l), v in by_class_lang.items() if l == "ru")
    en = total - ru
    if total and not 0.45 <= ru / total <= 0.55:
        bad(f"language balance ru {ru} / en {en}")
    for c, aim in AIM.items():
        if not aim * 0.8 <= by_class[c] <= aim * 1.25:
            bad(f"class {c}: {by_class[c]} far from aim {aim}")

    # ---- report
    print(f"TODAY local {TODAY} ({TODAY.strftime('%A')}), zone Europe/Moscow, "
          f"now {NOW_UTC.isoformat()}")
    print(f"projects {len(pkeys)}: {', '.join(pkeys)} (+ INBOX implicit)")
    print(f"tasks {len(task)}: " + ", ".join(f"{k} {v}" for k, v in sorted(counters.items())))
    print("  by due: " + ", ".join(f"{k} {v}" for k, v in buckets.items()))
    print(f"phrases {total}: ru {ru}, en {en}")
    print("| class | kind | ru | en | total |")
    print("|---|---|---|---|---|")
    for c in AIM:
        print(f"| {c} | {CLASS_KIND[c]} | {by_class_lang[(c, 'ru')]} | "
              f"{by_class_lang[(c, 'en')]} | {by_class[c]} |")
    print(f"| **all** | | {ru} | {en} | **{total}** |")
    print("| kind | ru | en | total |")
    print("|---|---|---|---|")
    for k in ("plain", "ambiguous", "unknown"):
        r, g = by_kind_lang[(k, "ru")], by_kind_lang[(k, "en")]
        print(f"| {k} | {r} | {g} | {r + g} |")
    print("by tool: " + ", ".join(f"{k} {v}" for k, v in by_tool.items()))
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in by_filter.items()))
    if problems:
        print(f"\n{len(problems)} PROBLEM(S):")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
