#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-38 (stdlib only).

Checks the JSON shapes, that every referenced key exists, that the keys are
reproduced by loading tasks.jsonl in creation order, class/kind consistency,
counts per class and language, and RECOMPUTES every expected date (updates,
dated creates, the date named in ambiguous moves) from the phrase text with a
small reference of the house date rules written for this set only.

Prints counts; exits 1 on any problem.
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
PROBLEMS = []


def bad(msg):
    PROBLEMS.append(msg)


# ---------------------------------------------------------------- TODAY ----
# now = 2039-03-13T09:40:00Z, zone America/Los_Angeles.  US summer time starts
# on the second Sunday of March at 02:00 local standard time (PST, UTC-8).
NOW_UTC = dt.datetime(2039, 3, 13, 9, 40)


def second_sunday_of_march(year):
    d = dt.date(year, 3, 1)
    d += dt.timedelta(days=(6 - d.weekday()) % 7)  # first Sunday
    return d + dt.timedelta(days=7)


_switch_local_std = dt.datetime.combine(second_sunday_of_march(NOW_UTC.year), dt.time(2, 0))
_local_std = NOW_UTC - dt.timedelta(hours=8)
if _local_std < _switch_local_std:
    LOCAL_NOW = _local_std                       # still PST
else:
    LOCAL_NOW = NOW_UTC - dt.timedelta(hours=7)  # PDT
TODAY = LOCAL_NOW.date()
assert TODAY == dt.date(2039, 3, 13) and TODAY.weekday() == 6, TODAY
assert LOCAL_NOW.strftime("%H:%M") == "01:40", LOCAL_NOW

# ------------------------------------------------------- date reference ----
WD_EN = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
         "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5,
         "sunday": 6, "sun": 6}
WD_RU_FORMS = {
    0: ["понедельник", "понедельника", "понедельнику"],
    1: ["вторник", "вторника", "вторнику"],
    2: ["среда", "среду", "среды", "среде"],
    3: ["четверг", "четверга", "четвергу"],
    4: ["пятница", "пятницу", "пятницы", "пятнице"],
    5: ["суббота", "субботу", "субботы", "субботе"],
    6: ["воскресенье", "воскресенья", "воскресенью"],
}
WD_RU = {f: n for n, fs in WD_RU_FORMS.items() for f in fs}
WD_RU_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
MONTHS = {}
for i, names in enumerate([
        ("january", "jan", "января"), ("february", "feb", "февраля"), ("march", "mar", "марта"),
        ("april", "apr", "апреля"), ("may", "мая"), ("june", "jun", "июня"),
        ("july", "jul", "июля"), ("august", "aug", "августа"), ("september", "sep", "sept", "сентября"),
        ("october", "oct", "октября"), ("november", "nov", "ноября"), ("december", "dec", "декабря")], 1):
    for n in names:
        MONTHS[n] = i
NUMWORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "один": 1, "два": 2, "две": 2,
            "три": 3, "четыре": 4, "пять": 5, "a": 1}

# words a one-letter slip is corrected to (only words of 5+ letters are corrected)
VOCAB = set(WD_EN) | set(WD_RU) | {m for m in MONTHS if len(m) > 3} | {
    "tomorrow", "today", "weekend", "week", "weeks", "month", "next", "this", "days",
    "завтра", "послезавтра", "сегодня", "неделе", "неделю", "недели", "недель", "месяца",
    "месяц", "месяце", "следующей", "следующую", "следующий", "следующем", "следующее",
    "выходные", "выходных", "выходным", "конца", "концу", "конец", "через", "числа", "числу"}
# ordinary words that sit one letter away from a date word and must stay as they are
KEEP = {"weekly", "months", "mouth", "sundae", "среди", "завтрак", "завтраки", "todays"}


def dl1(a, b):
    """True when a and b are one edit apart (insert, delete, substitute, swap)."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    if la > lb:
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


def meaning(word):
    if word in WD_EN:
        return ("wd", WD_EN[word])
    if word in WD_RU:
        return ("wd", WD_RU[word])
    if word in MONTHS:
        return ("mon", MONTHS[word])
    return ("w", word[:5])


def correct(text):
    """Lower-case, ё→е, and fix one-letter slips in date words (unique reading only)."""
    t = text.lower().replace("ё", "е").replace("ñ", "n")
    out = []
    for tok in re.split(r"(\W+)", t):
        if len(tok) >= 5 and tok.isalpha() and tok not in VOCAB and tok not in KEEP:
            cands = sorted(v for v in VOCAB if dl1(tok, v))
            if cands and len({meaning(c) for c in cands}) == 1:
                tok = cands[0]
        out.append(tok)
    return "".join(out)


def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def last_day(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def next_weekday(n):  # strictly after today
    k = (n - TODAY.weekday()) % 7
    return TODAY + dt.timedelta(days=k or 7)


def weekday_next_week(n):  # that weekday in the next Monday–Sunday week
    monday = TODAY - dt.timedelta(days=TODAY.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=n)


def day_month(d, m):
    try:
        cand = dt.date(TODAY.year, m, d)
    except ValueError:
        return None
    if (TODAY - cand).days > 30:
        cand = dt.date(TODAY.year + 1, m, d)
    return cand


def day_of_month(d):
    y, m = TODAY.year, TODAY.month
    if d < TODAY.day:
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return min(dt.date(y, m, min(d, last_day(y, m).day)), last_day(y, m))


WD_ALL = "|".join(sorted(list(WD_EN) + list(WD_RU), key=len, reverse=True))
MON_ALL = "|".join(sorted(MONTHS, key=len, reverse=True))
NUM = r"(\d+|" + "|".join(NUMWORDS) + r")"


def num(s):
    return int(s) if s.isdigit() else NUMWORDS[s]


def wd(s):
    return WD_EN.get(s, WD_RU.get(s, WD_RU_ABBR.get(s)))


RULES = [  # (regex, function(match) -> (kind, date))
    (r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))),
    (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: ("day", dt.date(int(m[3]), int(m[2]), int(m[1])))),
    (r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: ("day", day_month(int(m[1]), int(m[2])))),
    (r"\b(\d{1,2})\s+(" + MON_ALL + r")\b", lambda m: ("day", day_month(int(m[1]), MONTHS[m[2]]))),
    (r"\b(" + MON_ALL + r")\s+(\d{1,2})(?:st|nd|rd|th)?\b", lambda m: ("day", day_month(int(m[2]), MONTHS[m[1]]))),
    (r"\b(?:до|к|на)\s+(\d{1,2})(?:\s*(?:числа|числу|число)|-го)\b", lambda m: ("day", day_of_month(int(m[1])))),
    (r"\b(?:by|on|before|until)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(int(m[1])))),
    (r"\bend\s+of\s+(?:the\s+)?month\b|\b(?:конца|концу|конец)\s+месяца\b|\beom\b",
     lambda m: ("day", last_day(TODAY.year, TODAY.month))),
    (r"\bnext\s+month\b|\bследующ(?:ем|ий)\s+месяц[е]?\b",
     lambda m: ("day", last_day(TODAY.year + (TODAY.month == 12), TODAY.month % 12 + 1))),
    (r"\bend\s+of\s+(?:the\s+)?week\b|\bthis\s+week\b|\b(?:конца|концу|конец)\s+недели\b|\bэтой\s+неделе\b",
     lambda m: ("week", sunday_of(TODAY))),
    (r"\bnext\s+week\b|\bследующ(?:ей|ую)\s+недел[ею]\b",
     lambda m: ("week", sunday_of(TODAY) + dt.timedelta(days=7))),
    (r"\bчерез\s+неделю\b|\bin\s+a\s+week\b", lambda m: ("day", TODAY + dt.timedelta(days=7))),
    (r"\bчерез\s+" + NUM + r"\s+(?:недели|недель)\b|\bin\s+" + NUM + r"\s+weeks\b",
     lambda m: ("day", TODAY + dt.timedelta(days=7 * num(m[1] or m[2])))),
    (r"\bчерез\s+" + NUM + r"\s+(?:день|дня|дней)\b|\bin\s+" + NUM + r"\s+days?\b",
     lambda m: ("day", TODAY + dt.timedelta(days=num(m[1] or m[2])))),
    (r"\bпослезавтра\b|\bday\s+after\s+tomorrow\b|\bpasado\s+manana\b",
     lambda m: ("day", TODAY + dt.timedelta(days=2))),
    (r"\bзавтра\b|\btomorrow\b|\btmrw\b|\btmr\b|\bmanana\b", lambda m: ("day", TODAY + dt.timedelta(days=1))),
    (r"\bсегодня\b|\btoday\b|\beod\b|\bhoy\b", lambda m: ("day", TODAY)),
    (r"\bweekend\b|\bвыходн(?:ые|ых|ым)\b", lambda m: ("day", TODAY + dt.timedelta(days=(5 - TODAY.weekday()) % 7))),
    (r"\bnext\s+(" + WD_ALL + r")\b|\bследующ(?:ий|ую|ее|ей)\s+(" + WD_ALL + r")\b",
     lambda m: ("day", weekday_next_week(wd(m[1] or m[2])))),
    (r"\bthis\s+(" + WD_ALL + r")\b", lambda m: ("day", next_weekday(wd(m[1])))),
    (r"\b(" + WD_ALL + r")\b", lambda m: ("day", next_weekday(wd(m[1])))),
    (r"\b(?:в|во|на|до|к|by|on)\s+(пн|вт|ср|чт|пт|сб|вс)\b", lambda m: ("day", next_weekday(wd(m[1])))),
]


def find_dates(text):
    """All date expressions in text: list of (kind, date, span text)."""
    t = correct(text)
    found = []
    for rx, fn in RULES:
        while True:
            m = re.search(rx, t)
            if not m:
                break
            kind, d = fn(m)
            found.append((m.start(), kind, d, m.group(0)))
            t = t[:m.start()] + " " * (m.end() - m.start()) + t[m.end():]
    return [(k, d, s) for _, k, d, s in sorted(found)]


def self_test():
    cases = [("friday", "day", "2039-03-18"), ("next friday", "day", "2039-03-18"),
             ("next monday", "day", "2039-03-14"), ("sunday", "day", "2039-03-20"),
             ("в воскресенье", "day", "2039-03-20"), ("до конца недели", "week", "2039-03-13"),
             ("this week", "week", "2039-03-13"), ("next week", "week", "2039-03-20"),
             ("на следующей неделе", "week", "2039-03-20"), ("weekend", "day", "2039-03-19"),
             ("end of month", "day", "2039-03-31"), ("next month", "day", "2039-04-30"),
             ("послезавтра", "day", "2039-03-15"), ("через неделю", "day", "2039-03-20"),
             ("in 2 weeks", "day", "2039-03-27"), ("через 10 дней", "day", "2039-03-23"),
             ("до 5 числа", "day", "2039-04-05"), ("к 13 числу", "day", "2039-03-13"),
             ("by the 31st", "day", "2039-03-31"), ("9.02", "day", "2040-02-09"),
             ("11.02", "day", "2039-02-11"), ("на пятнидцу", "day", "2039-03-18"),
             ("to fryday", "day", "2039-03-18"), ("tmrw", "day", "2039-03-14"),
             ("в пт", "day", "2039-03-18"), ("30 апреля", "day", "2039-04-30")]
    for text, kind, date in cases:
        got = find_dates(text)
        if len(got) != 1 or got[0][0] != kind or got[0][1].isoformat() != date:
            bad(f"date reference self-test: {text!r} -> {got}, want {kind} {date}")


# ------------------------------------------------------------ loading ----
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


def iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


CLASS_TARGET = {"typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28,
                "deadline_not_close": 26, "project_leadin": 24, "offtopic": 22,
                "plain_other": 54, "ambiguous": 52, "unknown_other": 24}
CLASS_KIND = {c: "plain" for c in CLASS_TARGET}
CLASS_KIND.update({"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"})
CLASS_TOOLS = {"report": {"close_task"}, "negated_cancel": {"cancel_task"},
               "deadline_not_close": {"update_task"}, "offtopic": {"none"},
               "unknown_other": {"none"}, "ambiguous": {"clarify"}}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
KEY_RX = re.compile(r"\b(truck|cater|home|vb|mama|inbox)-(\d+)\b", re.I)
# words allowed around a create's text: command words, lead-ins, prepositions, date words
CREATE_FRAME = {
    "add", "todo", "new", "task", "remind", "me", "to", "добавь", "задача", "задачу", "новая",
    "напомни", "в", "проект", "on", "by", "in", "до", "к", "на", "через", "the", "of",
    "truck", "фургон", "catering", "кейтеринг", "home", "дом", "volleyball", "волейбол",
    "mom", "мама", "week", "next", "weeks", "days", "дней", "дня", "end", "month", "конца",
    "концу", "месяца", "числа", "числу", "следующей", "неделе"}


def main():
    self_test()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for i, p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"projects:{i}: fields {sorted(p)}")
            continue
        if not re.fullmatch(r"[A-Z]+", p["key"]) or p["key"] == "INBOX":
            bad(f"projects:{i}: key {p['key']!r}")
        if p["key"] in pkeys:
            bad(f"projects:{i}: duplicate key {p['key']}")
        pkeys.add(p["key"])
        if not p["name"].strip() or len(p["description"]) < 20:
            bad(f"projects:{i}: name/description too thin")
    if len(projects) != 5:
        bad(f"projects: {len(projects)} projects, want 5")
    names = [p["name"] for _, p in projects]
    if not any(re.search("[а-яА-Я]", n) for n in names) or not any(re.fullmatch("[A-Za-z ]+", n) for n in names):
        bad("projects: names should mix Russian and English")

    # tasks: keys reproduced by creation order
    task = {}
    counter = Counter()
    buckets = Counter()
    for i, t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"tasks:{i}: fields {sorted(t)}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad(f"tasks:{i}: unknown project {proj}")
        counter[proj] += 1
        want = f"{proj}-{counter[proj]}"
        if t["key"] != want:
            bad(f"tasks:{i}: key {t['key']} but creation order gives {want}")
        if t["key"] in task:
            bad(f"tasks:{i}: duplicate key {t['key']}")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"tasks:{i}: due_kind none with a due")
            buckets["undated"] += 1
        elif t["due_kind"] in ("day", "week"):
            d = iso(t["due"])
            if d is None:
                bad(f"tasks:{i}: bad due {t['due']!r}")
            else:
                if t["due_kind"] == "week":
                    buckets["week"] += 1
                    if d.weekday() != 6:
                        bad(f"tasks:{i}: week due {d} is not a Sunday")
                elif d < TODAY:
                    buckets["overdue"] += 1
                elif d == TODAY:
                    buckets["today"] += 1
                else:
                    buckets["later"] += 1
        else:
            bad(f"tasks:{i}: due_kind {t['due_kind']!r}")
        task[t["key"]] = t
    if not 55 <= len(task) <= 65:
        bad(f"tasks: {len(task)} tasks, want 55-65")
    for b in ("overdue", "today", "week", "later", "undated"):
        if not buckets[b]:
            bad(f"tasks: no {b} tasks")

    # phrases
    by_class = Counter()
    by_kind_lang = Counter()
    by_class_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    dates_checked = 0
    seen = set()
    for i, ph in phrases:
        where = f"phrases:{i} {ph.get('text')!r}"
        if set(ph) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(ph)}")
            continue
        text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
        if text in seen:
            bad(f"{where}: duplicate text")
        seen.add(text)
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang!r}")
        if cls not in CLASS_TARGET:
            bad(f"{where}: class {cls!r}")
            continue
        if kind != CLASS_KIND[cls]:
            bad(f"{where}: kind {kind} but class {cls} needs {CLASS_KIND[cls]}")
        if re.search(r"[.,!?;]", re.sub(r"\d\.\d", "", text)):
            bad(f"{where}: punctuation")
        if re.sub(KEY_RX, "", text) != re.sub(KEY_RX, "", text).lower():
            bad(f"{where}: capitals outside a key")
        by_class[cls] += 1
        by_kind_lang[(kind, lang)] += 1
        by_class_lang[(cls, lang)] += 1
        tool = exp.get("tool") if isinstance(exp, dict) else None
        by_tool[tool] += 1
        if cls in CLASS_TOOLS and tool not in CLASS_TOOLS[cls]:
            bad(f"{where}: class {cls} with tool {tool}")
        if cls not in ("offtopic", "unknown_other", "ambiguous") and tool in ("none", "clarify"):
            bad(f"{where}: plain class {cls} with tool {tool}")
        if cls == "deadline_not_close" and tool == "close_task":
            bad(f"{where}: deadline talk must never close")
        if kind == "ambiguous" and tool != "clarify":
            bad(f"{where}: ambiguous kind must clarify")
        if kind == "unknown" and tool != "none":
            bad(f"{where}: unknown kind must be none")

        # explicit keys named in the text
        named = [f"{m[1].upper()}-{m[2]}" for m in KEY_RX.finditer(text)]
        for k in named:
            if k not in task and tool != "none":
                bad(f"{where}: names missing key {k} but expects {tool}")
            if k in task and exp.get("id") != k:
                bad(f"{where}: names {k} but expects {exp}")
        if cls == "explicit_form" and not named and not re.match(
                r"^(todo:|new task:|новая задача:|задача:|remind me to|напомни|show|list|покажи|что сделано)", text):
            bad(f"{where}: explicit_form without a key or explicit form")

        found = find_dates(text)
        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"} or exp["id"] not in task:
                bad(f"{where}: bad {tool} {exp}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in task:
                bad(f"{where}: bad update {exp}")
                continue
            if exp["deadline_kind"] not in ("day", "week") or iso(exp["deadline"]) is None:
                bad(f"{where}: bad update date {exp}")
                continue
            if len(found) != 1:
                bad(f"{where}: date reference finds {found}")
            else:
                k, d, _ = found[0]
                dates_checked += 1
                if (k, d.isoformat()) != (exp["deadline_kind"], exp["deadline"]):
                    bad(f"{where}: date reference gives {k} {d}, expected {exp['deadline_kind']} {exp['deadline']}")
            t = task[exp["id"]]
            if (t["due"], t["due_kind"]) == (exp["deadline"], exp["deadline_kind"]):
                bad(f"{where}: update leaves {exp['id']} as it is")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(exp) <= allowed or not {"tool", "text", "deadline_kind"} <= set(exp):
                bad(f"{where}: bad create {exp}")
                continue
            if "project" in exp and exp["project"] not in pkeys:
                bad(f"{where}: create into unknown project {exp['project']}")
            norm = lambda s: " ".join(s.lower().replace("ё", "е").split())
            body = norm(exp["text"])
            if body not in norm(text):
                bad(f"{where}: create text {exp['text']!r} is not in the phrase")
            else:
                rest = norm(text).replace(body, " ", 1)
                span_words = set()
                for _, _, s in found:
                    span_words |= set(re.findall(r"\w+", s))
                for w in re.findall(r"[\w']+", correct(rest)):
                    if w not in CREATE_FRAME and w not in span_words and not w.isdigit():
                        bad(f"{where}: word {w!r} left outside the create text")
            if exp["deadline_kind"] == "none":
                if "deadline" in exp:
                    bad(f"{where}: kind none with a deadline")
                if found:
                    bad(f"{where}: undated create but the reference finds {found}")
            else:
                if exp["deadline_kind"] not in ("day", "week") or iso(exp.get("deadline")) is None:
                    bad(f"{where}: bad create date {exp}")
                elif len(found) != 1:
                    bad(f"{where}: date reference finds {found}")
                else:
                    k, d, _ = found[0]
                    dates_checked += 1
                    if (k, d.isoformat()) != (exp["deadline_kind"], exp["deadline"]):
                        bad(f"{where}: date reference gives {k} {d}, expected {exp['deadline_kind']} {exp['deadline']}")
            has_leadin = re.match(r"^(фургон|truck|catering|кейтеринг|дом|home|волейбол|volleyball|мама|mom|add to \w+|в проект \w+):", text)
            if bool(has_leadin) != ("project" in exp):
                bad(f"{where}: project expected exactly when the phrase names it")
        elif tool == "list_tasks":
            if set(exp) != {"tool", "filter"} or exp["filter"] not in FILTERS:
                bad(f"{where}: bad list {exp}")
            else:
                by_filter[exp["filter"]] += 1
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                    or len(set(opts)) != len(opts) or any(o not in task for o in opts):
                bad(f"{where}: bad clarify {exp}")
                continue
            if re.search(r"перенеси|move|push|to next|на понедельник", text) and not found:
                bad(f"{where}: ambiguous move without a date the reference can read")
            if found:
                if len(found) != 1:
                    bad(f"{where}: date reference finds {found}")
                else:
                    k, d, _ = found[0]
                    dates_checked += 1
                    for o in opts:
                        if task[o]["due"] == d.isoformat():
                            bad(f"{where}: moved date {d} equals the due of option {o}")
        elif tool == "none":
            if set(exp) != {"tool"}:
                bad(f"{where}: bad none {exp}")
        else:
            bad(f"{where}: unknown tool {tool}")

    # counts
    for c, n in CLASS_TARGET.items():
        if by_class[c] != n:
            bad(f"class {c}: {by_class[c]} phrases, want {n}")
    ru = sum(v for (k, l), v in by_kind_lang.items() if l == "ru")
    en = sum(v for (k, l), v in by_kind_lang.items() if l == "en")
    total = ru + en
    if total < 300:
        bad(f"{total} phrases, want at least 300")
    if abs(ru - en) > total * 0.05:
        bad(f"languages unbalanced: ru {ru}, en {en}")
    for c in CLASS_TARGET:
        r, e = by_class_lang[(c, "ru")], by_class_lang[(c, "en")]
        if min(r, e) < (r + e) // 3:
            bad(f"class {c}: languages unbalanced (ru {r}, en {e})")

    # report
    print(f"TODAY {TODAY} ({TODAY:%A}), local now {LOCAL_NOW:%H:%M} America/Los_Angeles (PST, UTC-8)")
    print(f"projects {len(projects)}, tasks {len(task)}: " +
          ", ".join(f"{p} {counter[p]}" for p in sorted(counter)) +
          "; " + ", ".join(f"{b} {buckets[b]}" for b in ("overdue", "today", "week", "later", "undated")))
    print(f"phrases {total}: ru {ru}, en {en}")
    print("| kind | ru | en | total |")
    for k in ("plain", "ambiguous", "unknown"):
        r, e = by_kind_lang[(k, "ru")], by_kind_lang[(k, "en")]
        print(f"| {k} | {r} | {e} | {r + e} |")
    print(f"| **all** | {ru} | {en} | **{total}** |")
    print("| class | kind | ru | en | total |")
    for c in CLASS_TARGET:
        r, e = by_class_lang[(c, "ru")], by_class_lang[(c, "en")]
        print(f"| {c} | {CLASS_KIND[c]} | {r} | {e} | {r + e} |")
    print("by tool: " + ", ".join(f"{t} {by_tool[t]}" for t in
          ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")) +
          " (list: " + ", ".join(f"{f} {by_filter[f]}" for f in sorted(FILTERS)) + ")")
    print(f"dates recomputed from the text: {dates_checked}")
    if PROBLEMS:
        for p in PROBLEMS:
            print("PROBLEM:", p)
        print(f"{len(PROBLEMS)} problem(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
