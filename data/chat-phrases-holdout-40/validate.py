#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-40 (stdlib only).

Checks the JSON shapes of projects.jsonl, tasks.jsonl and phrases.jsonl, that every
key referenced exists, that loading tasks in file order reproduces the keys, that
class and kind agree, the counts per class and language, and RECOMPUTES every
expected date (updates, dated creates, the dates named in ambiguous moves) from the
phrase text with a small reference of the house date rules written for this set
only. Prints the counts; exits 1 on any problem.

TODAY: now = 2039-11-06T06:40:00Z, zone America/Chicago (CDT, UTC-5) -> local
Sunday 2039-11-06 01:40 (the first one; clocks fall back at 02:00 CDT).
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2039, 11, 6, 6, 40, tzinfo=dt.timezone.utc)
LOCAL_OFFSET = dt.timedelta(hours=-5)          # CDT until 02:00 local this night
TODAY = (NOW_UTC + LOCAL_OFFSET).date()         # 2039-11-06, a Sunday

problems = []


def bad(msg):
    problems.append(msg)


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
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


def iso(d):
    return d.isoformat()


def parse_iso(s):
    try:
        return dt.date.fromisoformat(s)
    except Exception:
        return None


# ---------------------------------------------------------------- house date rules
def this_sunday(today):
    return today + dt.timedelta(days=(6 - today.weekday()))


def next_sunday(today):
    return this_sunday(today) + dt.timedelta(days=7)


def plain_weekday(today, wd):
    """The next such day strictly after today."""
    delta = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=delta or 7)


def next_week_weekday(today, wd):
    """That weekday in the next Monday-Sunday week."""
    monday_next = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday_next + dt.timedelta(days=wd)


def end_of_month(today):
    return today.replace(day=calendar.monthrange(today.year, today.month)[1])


def end_of_next_month(today):
    y, m = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def coming_saturday(today):
    return today + dt.timedelta(days=(5 - today.weekday()) % 7)


def day_month(today, day, month):
    """Day + month without a year: this year's unless > 30 days past, then next year's."""
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
    """Day of month alone: the next such day on or after today; a short month gives its last day."""
    if not 1 <= day <= 31:
        return None
    y, m = today.year, today.month
    for _ in range(2):
        last = calendar.monthrange(y, m)[1]
        d = dt.date(y, m, min(day, last))
        if d >= today:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


EN_WD = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
         "saturday": 5, "sunday": 6}
EN_WD_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
              "fri": 4, "sat": 5, "sun": 6}
RU_WD = {}
for forms, wd in [("понедельник понедельника понедельнику", 0),
                  ("вторник вторника вторнику", 1),
                  ("среда среду среды среде", 2),
                  ("четверг четверга четвергу", 3),
                  ("пятница пятницу пятницы пятнице", 4),
                  ("суббота субботу субботы субботе", 5),
                  ("воскресенье воскресенья воскресенью", 6)]:
    for w in forms.split():
        RU_WD[w] = wd
RU_WD_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
EN_MONTHS = {}
for i, names in enumerate(["january jan", "february feb", "march mar", "april apr", "may",
                           "june jun", "july jul", "august aug", "september sep sept",
                           "october oct", "november nov", "december dec"], 1):
    for w in names.split():
        EN_MONTHS[w] = i
RU_MONTHS = {w: i for i, w in enumerate(
    "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split(), 1)}
TODAY_WORDS = {"today", "tonight", "eod", "сегодня", "hoy"}
TOMORROW_WORDS = {"tomorrow", "tmrw", "tmr", "завтра", "manana", "mañana"}
ABBR_PREP_EN = {"on", "by", "to", "till", "until", "before", "for", "due"}
ABBR_PREP_RU = {"в", "во", "до", "к", "ко", "на"}
NEXT_RU = {"следующий", "следующую", "следующее", "следующей", "следующем", "следующая"}
NUM_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
             "две": 2, "два": 2, "три": 3, "четыре": 4, "пять": 5}

# one letter off is read as the closest date word when only one meaning is that close
FUZZY_TARGETS = {}
for w, wd in list(EN_WD.items()) + list(RU_WD.items()):
    FUZZY_TARGETS[w] = ("wd", wd)
for w in ("tomorrow", "завтра"):
    FUZZY_TARGETS[w] = ("tomorrow",)
FUZZY_TARGETS["послезавтра"] = ("after",)
for w in ("today", "tonight", "сегодня"):
    FUZZY_TARGETS[w] = ("today",)
for w in ("weekend", "выходные", "выходных"):
    FUZZY_TARGETS[w] = ("weekend",)
KNOWN = set(FUZZY_TARGETS) | set(EN_WD_ABBR) | set(RU_WD_ABBR) | set(EN_MONTHS) | set(RU_MONTHS)


def osa(a, b):
    """Optimal string alignment distance (edit + adjacent swap)."""
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


def fuzzy(tok):
    if tok in KNOWN or len(tok) < 5 or not tok.isalpha():
        return tok, False
    hits = {}
    for w, meaning in FUZZY_TARGETS.items():
        if abs(len(w) - len(tok)) <= 1 and osa(tok, w) == 1:
            hits.setdefault(meaning, w)
    if len(hits) == 1:
        return next(iter(hits.values())), True
    return tok, False


def norm(text):
    t = text.lower().replace("ё", "е")
    t = re.sub(r"[^\w\s.\-+/]", " ", t)
    return t


def tokens(text):
    return [w.strip(".") if not re.fullmatch(r"\d{1,2}\.\d{1,2}(\.\d{4})?", w) else w
            for w in norm(text).split()]


def find_dates(text, today=TODAY):
    """Return (list of (kind, date, (start, end)), corrected tokens)."""
    toks = [fuzzy(t)[0] for t in tokens(text)]
    out = []
    i = 0
    n = len(toks)

    def at(k):
        return toks[k] if 0 <= k < n else ""

    def num(w):
        if w.isdigit():
            return int(w)
        return NUM_WORDS.get(w)

    while i < n:
        w = toks[i]
        hit = None
        # через N дней / через неделю / через 2 недели
        if w == "через":
            k = num(at(i + 1))
            if at(i + 1) in ("неделю", "неделя"):
                hit = ("day", today + dt.timedelta(days=7), 2)
            elif k is not None and at(i + 2) in ("день", "дня", "дней"):
                hit = ("day", today + dt.timedelta(days=k), 3)
            elif k is not None and at(i + 2) in ("недели", "недель", "неделю"):
                hit = ("day", today + dt.timedelta(days=7 * k), 3)
        elif w == "in":
            k = num(at(i + 1))
            if k is not None and at(i + 2) in ("day", "days"):
                hit = ("day", today + dt.timedelta(days=k), 3)
            elif k is not None and at(i + 2) in ("week", "weeks"):
                hit = ("day", today + dt.timedelta(days=7 * k), 3)
        elif w == "day" and at(i + 1) == "after" and at(i + 2) in TOMORROW_WORDS:
            hit = ("day", today + dt.timedelta(days=2), 3)
        elif w == "послезавтра":
            hit = ("day", today + dt.timedelta(days=2), 1)
        elif w in TOMORROW_WORDS:
            hit = ("day", today + dt.timedelta(days=1), 1)
        elif w in TODAY_WORDS:
            hit = ("day", today, 1)
        elif w == "end" and at(i + 1) == "of":
            j = i + 2 + (at(i + 2) in ("the", "this"))
            if at(j) == "month":
                hit = ("day", end_of_month(today), j - i + 1)
            elif at(j) == "week":
                hit = ("week", this_sunday(today), j - i + 1)
            elif at(j) == "year":
                hit = ("day", dt.date(today.year, 12, 31), j - i + 1)
        elif w in ("конца", "концу", "конец"):
            if at(i + 1) == "месяца":
                hit = ("day", end_of_month(today), 2)
            elif at(i + 1) == "недели":
                hit = ("week", this_sunday(today), 2)
            elif at(i + 1) == "года":
                hit = ("day", dt.date(today.year, 12, 31), 2)
        elif w in ("next",) and at(i + 1) == "week":
            hit = ("week", next_sunday(today), 2)
        elif w in ("next",) and at(i + 1) == "month":
            hit = ("day", end_of_next_month(today), 2)
        elif w in NEXT_RU and at(i + 1) in ("неделе", "неделю"):
            hit = ("week", next_sunday(today), 2)
        elif w in NEXT_RU and at(i + 1) in ("месяце", "месяц"):
            hit = ("day", end_of_next_month(today), 2)
        elif w == "this" and at(i + 1) == "week":
            hit = ("week", this_sunday(today), 2)
        elif w == "этой" and at(i + 1) == "неделе":
            hit = ("week", this_sunday(today), 2)
        elif w in ("weekend", "выходные", "выходных"):
            hit = ("day", coming_saturday(today), 1)
        elif (w == "next" or w in NEXT_RU) and (at(i + 1) in EN_WD or at(i + 1) in RU_WD):
            wd = EN_WD.get(at(i + 1), RU_WD.get(at(i + 1)))
            hit = ("day", next_week_weekday(today, wd), 2)
        elif w in EN_WD or w in RU_WD:
            hit = ("day", plain_weekday(today, EN_WD.get(w, RU_WD.get(w))), 1)
        elif w in EN_WD_ABBR and at(i - 1) in ABBR_PREP_EN:
            hit = ("day", plain_weekday(today, EN_WD_ABBR[w]), 1)
        elif w in RU_WD_ABBR and at(i - 1) in ABBR_PREP_RU:
            hit = ("day", plain_weekday(today, RU_WD_ABBR[w]), 1)
        elif re.fullmatch(r"\d{1,2}", w) and (at(i + 1) in RU_MONTHS or at(i + 1) in EN_MONTHS):
            m = RU_MONTHS.get(at(i + 1), EN_MONTHS.get(at(i + 1)))
            hit = ("day", day_month(today, int(w), m), 2)
        elif w in EN_MONTHS and re.fullmatch(r"\d{1,2}(st|nd|rd|th)?", at(i + 1)):
            hit = ("day", day_month(today, int(re.match(r"\d+", at(i + 1)).group()), EN_MONTHS[w]), 2)
        elif re.fullmatch(r"\d{1,2}\.\d{1,2}", w):
            d_, m_ = map(int, w.split("."))
            hit = ("day", day_month(today, d_, m_) if 1 <= m_ <= 12 else None, 1)
        elif re.fullmatch(r"\d{1,2}", w) and at(i + 1) in ("числа", "числу", "число"):
            hit = ("day", day_of_month(today, int(w)), 2)
        elif re.fullmatch(r"\d{1,2}(st|nd|rd|th)", w):
            hit = ("day", day_of_month(today, int(re.match(r"\d+", w).group())), 1)
        if hit:
            kind, d, span = hit
            out.append((kind, d, (i, i + span)))
            i += span
        else:
            i += 1
    return out, toks


def one_date(text):
    found, _ = find_dates(text)
    distinct = {(k, d) for k, d, _ in found}
    if len(distinct) > 1:
        return "many", found
    if not found:
        return None, found
    return found[0][:2], found


# ---------------------------------------------------------------- self-test of the rules
def selftest():
    t = TODAY
    cases = {
        "tomorrow": ("day", "2039-11-07"), "послезавтра": ("day", "2039-11-08"),
        "today": ("day", "2039-11-06"), "tonight": ("day", "2039-11-06"),
        "friday": ("day", "2039-11-11"), "в воскресенье": ("day", "2039-11-13"),
        "next friday": ("day", "2039-11-11"), "в следующий понедельник": ("day", "2039-11-07"),
        "this week": ("week", "2039-11-06"), "до конца недели": ("week", "2039-11-06"),
        "next week": ("week", "2039-11-13"), "на следующей неделе": ("week", "2039-11-13"),
        "через неделю": ("day", "2039-11-13"), "in 2 weeks": ("day", "2039-11-20"),
        "in 3 days": ("day", "2039-11-09"), "end of month": ("day", "2039-11-30"),
        "next month": ("day", "2039-12-31"), "на выходных": ("day", "2039-11-12"),
        "20 ноября": ("day", "2039-11-20"), "1 октября": ("day", "2040-10-01"),
        "15 октября": ("day", "2039-10-15"), "до 5 числа": ("day", "2039-12-05"),
        "by the 6th": ("day", "2039-11-06"), "dec 1": ("day", "2039-12-01"),
        "on fri": ("day", "2039-11-11"), "в пт": ("day", "2039-11-11"),
        "fryday": ("day", "2039-11-11"), "завтар": ("day", "2039-11-07"),
        "в пятнидцу": ("day", "2039-11-11"),
    }
    assert t.weekday() == 6, "TODAY must be a Sunday"
    for text, (k, d) in cases.items():
        got, _ = one_date(text)
        if got is None or got == "many" or got[0] != k or iso(got[1]) != d:
            bad(f"date reference self-test: {text!r} -> {got}, want {(k, d)}")


# ---------------------------------------------------------------- checks
CLASSES = {
    "typo": ("plain", 30), "report": ("plain", 33), "negated_cancel": ("plain", 23),
    "explicit_form": ("plain", 28), "deadline_not_close": ("plain", 26),
    "project_leadin": ("plain", 24), "offtopic": ("unknown", 22),
    "plain_other": ("plain", 54), "ambiguous": ("ambiguous", 52),
    "unknown_other": ("unknown", 24),
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
# words that may stand around a create's text: command words, lead-ins, prepositions
CREATE_FRAME = set("""add todo new task remind me to добавь добавить задачу задача новая напомни
в во на до к ко by on in the to проект project""".split())
PROJECT_ALIASES = {
    "LAB": {"лабу", "лаба", "лабе", "lab"},
    "HOME": {"дом", "дому", "home"},
    "KIDS": {"близнецы", "близнецов", "kids", "twins"},
    "CURL": {"керлинг", "керлинга", "curling"},
    "DOCS": {"бумаги", "docs"},
}


def main():
    selftest()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # projects
    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
            bad(f"project shape: {p}")
            continue
        if not re.fullmatch(r"[A-Z]{2,10}", p["key"]) or p["key"] == "INBOX":
            bad(f"project key: {p['key']}")
        pkeys.append(p["key"])
    if len(pkeys) != 5 or len(set(pkeys)) != 5:
        bad(f"want 5 distinct projects, got {pkeys}")
    if set(PROJECT_ALIASES) != set(pkeys):
        bad("PROJECT_ALIASES out of step with projects.jsonl")

    # tasks
    by_key = {}
    counters = Counter()
    buckets = Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"task shape: {t}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad(f"{t['key']}: unknown project {proj}")
        counters[proj] += 1
        if t["key"] != f"{proj}-{counters[proj]}":
            bad(f"{t['key']}: creation order gives {proj}-{counters[proj]}")
        if t["key"] in by_key:
            bad(f"duplicate key {t['key']}")
        if not isinstance(t["title"], str) or not t["title"].strip():
            bad(f"{t['key']}: empty title")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"{t['key']}: undated task with a due")
            buckets["undated"] += 1
        elif t["due_kind"] in ("day", "week"):
            d = parse_iso(t["due"]) if isinstance(t["due"], str) else None
            if d is None:
                bad(f"{t['key']}: bad due {t['due']}")
            else:
                if t["due_kind"] == "week" and d.weekday() != 6:
                    bad(f"{t['key']}: week due must be a Sunday")
                if t["due_kind"] == "week":
                    buckets["week"] += 1
                elif d < TODAY:
                    buckets["overdue"] += 1
                elif d == TODAY:
                    buckets["today"] += 1
                else:
                    buckets["later"] += 1
        else:
            bad(f"{t['key']}: bad due_kind {t['due_kind']}")
        by_key[t["key"]] = t
    if not 55 <= len(tasks) <= 65:
        bad(f"want 55-65 tasks, got {len(tasks)}")
    if not 12 <= buckets["undated"] <= 18:
        bad(f"want about 15 undated tasks, got {buckets['undated']}")
    for b in ("overdue", "today", "week", "later"):
        if buckets[b] == 0:
            bad(f"no {b} tasks")

    def due_of(k):
        t = by_key[k]
        return (t["due_kind"], parse_iso(t["due"]) if t["due"] else None)

    # phrases
    seen = set()
    cls_lang = defaultdict(Counter)
    kind_lang = defaultdict(Counter)
    tools = Counter()
    filt = Counter()
    for n, ph in enumerate(phrases, 1):
        where = f"phrases.jsonl:{n} {ph.get('text')!r}"
        if set(ph) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: shape {sorted(ph)}")
            continue
        text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
        if not isinstance(text, str) or not text.strip():
            bad(f"{where}: empty text")
            continue
        key_less = re.sub(r"\b[A-Z]+-\d+\b", "", text)
        if key_less != key_less.lower():
            bad(f"{where}: not lowercase (keys aside)")
        if re.search(r"[^\w\s:\-+]", text):
            bad(f"{where}: punctuation")
        if text in seen:
            bad(f"{where}: duplicate text")
        seen.add(text)
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        if cls not in CLASSES:
            bad(f"{where}: class {cls}")
            continue
        if kind != CLASSES[cls][0]:
            bad(f"{where}: class {cls} needs kind {CLASSES[cls][0]}, got {kind}")
        cls_lang[cls][lang] += 1
        kind_lang[kind][lang] += 1
        tool = exp.get("tool") if isinstance(exp, dict) else None
        tools[tool] += 1

        # kind <-> tool
        if kind == "ambiguous" and tool != "clarify":
            bad(f"{where}: ambiguous must expect clarify")
        if kind == "unknown" and tool != "none":
            bad(f"{where}: unknown must expect none")
        if kind == "plain" and tool in ("clarify", "none"):
            bad(f"{where}: plain must expect one clear action")

        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"} or exp["id"] not in by_key:
                bad(f"{where}: bad {tool} {exp}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in by_key:
                bad(f"{where}: bad update {exp}")
                continue
            if exp["deadline_kind"] not in ("day", "week"):
                bad(f"{where}: update deadline_kind")
            got, found = one_date(text)
            want = (exp["deadline_kind"], parse_iso(exp["deadline"]))
            if got != want:
                bad(f"{where}: date reference reads {got}, expect says {want}")
            if want == due_of(exp["id"]):
                bad(f"{where}: update to the task's current due")
            if want[0] == "week" and want[1] and want[1].weekday() != 6:
                bad(f"{where}: week deadline not a Sunday")
        elif tool == "create_task":
            keys = set(exp)
            if not {"tool", "text", "deadline_kind"} <= keys <= {"tool", "text", "deadline_kind", "deadline", "project"}:
                bad(f"{where}: bad create {exp}")
                continue
            got, found = one_date(text)
            if exp["deadline_kind"] == "none":
                if "deadline" in exp or got is not None:
                    bad(f"{where}: create without date, but reference reads {got}")
            else:
                want = (exp["deadline_kind"], parse_iso(exp.get("deadline", "")))
                if got != want:
                    bad(f"{where}: date reference reads {got}, expect says {want}")
            # the text is the phrase minus command words, lead-in and the date phrase
            ptoks = [fuzzy(t)[0] for t in tokens(text)]
            raw = tokens(text)
            ttoks = tokens(exp["text"])
            pos = None
            for s in range(len(raw) - len(ttoks) + 1):
                if raw[s:s + len(ttoks)] == ttoks:
                    pos = s
                    break
            if pos is None:
                bad(f"{where}: create text {exp['text']!r} is not a run of the phrase")
            else:
                date_idx = set()
                for _, _, (a, b) in found:
                    date_idx |= set(range(a, b))
                aliases = set().union(*PROJECT_ALIASES.values())
                for j, w in enumerate(ptoks):
                    if pos <= j < pos + len(ttoks) or j in date_idx:
                        continue
                    if w not in CREATE_FRAME and w not in aliases:
                        bad(f"{where}: word {w!r} left outside the create text")
            if "project" in exp:
                if exp["project"] not in pkeys:
                    bad(f"{where}: unknown project {exp['project']}")
                elif not PROJECT_ALIASES[exp["project"]] & set(tokens(text)):
                    bad(f"{where}: project expected but not named")
        elif tool == "list_tasks":
            if set(exp) != {"tool", "filter"} or exp["filter"] not in FILTERS:
                bad(f"{where}: bad list {exp}")
            else:
                filt[exp["filter"]] += 1
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                    or len(set(opts)) != len(opts) or any(o not in by_key for o in opts):
                bad(f"{where}: bad clarify {exp}")
                continue
            got, found = one_date(text)
            is_move = bool(re.search(r"\b(перенеси|перенести|move|push)\b", text))
            if is_move and got is None:
                bad(f"{where}: a move without a date the reference can read")
            if got == "many":
                bad(f"{where}: more than one date")
            elif got is not None:
                for o in opts:
                    if due_of(o) == got or (due_of(o)[1] == got[1]):
                        bad(f"{where}: move date {got} equals the due of option {o}")
        elif tool == "none":
            if set(exp) != {"tool"}:
                bad(f"{where}: bad none {exp}")
        else:
            bad(f"{where}: unknown tool {tool}")

    # counts
    total = len(phrases)
    ru = sum(c["ru"] for c in cls_lang.values())
    en = sum(c["en"] for c in cls_lang.values())
    if total < 300:
        bad(f"want at least 300 phrases, got {total}")
    if abs(ru - en) > 0.05 * total:
        bad(f"ru/en not about equal: {ru}/{en}")
    for cls, (_, aim) in CLASSES.items():
        got = sum(cls_lang[cls].values())
        if abs(got - aim) > 3:
            bad(f"class {cls}: {got}, aim {aim}")

    print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local 01:40 CDT, America/Chicago")
    print(f"projects {len(projects)}; tasks {len(tasks)}: " +
          ", ".join(f"{p} {counters[p]}" for p in pkeys + ['INBOX']))
    print("tasks by due: " + ", ".join(f"{b} {buckets[b]}" for b in ("overdue", "today", "week", "later", "undated")))
    print()
    print(f"{'class':<20}{'ru':>5}{'en':>5}{'total':>7}")
    for cls in CLASSES:
        c = cls_lang[cls]
        print(f"{cls:<20}{c['ru']:>5}{c['en']:>5}{c['ru'] + c['en']:>7}")
    print(f"{'all':<20}{ru:>5}{en:>5}{total:>7}")
    print()
    print(f"{'kind':<20}{'ru':>5}{'en':>5}{'total':>7}")
    for kind in ("plain", "ambiguous", "unknown"):
        c = kind_lang[kind]
        print(f"{kind:<20}{c['ru']:>5}{c['en']:>5}{c['ru'] + c['en']:>7}")
    print()
    print("by tool: " + ", ".join(f"{t} {tools[t]}" for t in
                                  ("close_task", "cancel_task", "update_task", "create_task",
                                   "list_tasks", "clarify", "none")))
    print("list filters: " + ", ".join(f"{f} {filt[f]}" for f in
                                       ("today", "inbox", "overdue", "done", "all_by_project")))
    print()
    if problems:
        print(f"{len(problems)} problem(s):")
        for p in problems:
            print("  - " + p)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
