#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-24 (stdlib only).

Checks the JSON shapes, that every referenced key exists, that loading tasks.jsonl
in file order reproduces the keys, class/kind consistency, counts per class and
language, and RECOMPUTES every expected date (updates, dated creates, the dates
named in ambiguous moves) from the phrase text with a small reference of the house
date rules written for this set only. Prints counts; exits 1 on any problem.

    python3 validate.py
"""
import calendar
import json
import os
import re
import sys
from collections import Counter, defaultdict
from datetime import date, datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
PROBLEMS = []


def bad(msg):
    PROBLEMS.append(msg)


# --------------------------------------------------------------------------
# TODAY: 2035-03-27T22:10:00Z seen from Europe/Helsinki.
# EU summer time: from the last Sunday of March 01:00 UTC to the last Sunday of
# October 01:00 UTC the offset is +3 (EEST), otherwise +2 (EET).
# --------------------------------------------------------------------------
NOW_UTC = datetime(2035, 3, 27, 22, 10, tzinfo=timezone.utc)


def last_sunday(year, month):
    d = date(year, month, calendar.monthrange(year, month)[1])
    return d - timedelta(days=(d.weekday() - 6) % 7)


def helsinki_offset(utc):
    y = utc.year
    start = datetime.combine(last_sunday(y, 3), datetime.min.time(), timezone.utc) + timedelta(hours=1)
    end = datetime.combine(last_sunday(y, 10), datetime.min.time(), timezone.utc) + timedelta(hours=1)
    return timedelta(hours=3 if start <= utc < end else 2)


LOCAL = NOW_UTC + helsinki_offset(NOW_UTC)
TODAY = LOCAL.date()
assert helsinki_offset(NOW_UTC) == timedelta(hours=3)
assert last_sunday(2035, 3) == date(2035, 3, 25)
assert TODAY == date(2035, 3, 28) and TODAY.weekday() == 2  # Wednesday
assert NOW_UTC.date() == date(2035, 3, 27)  # the UTC date is still the 27th

# --------------------------------------------------------------------------
# The house date rules (reference for this set only)
# --------------------------------------------------------------------------
WD = [  # (pattern, weekday); longer words first
    (r"понедельник\w*|monday|пн|mon", 0),
    (r"вторник\w*|tuesday|tues|tue|вт", 1),
    (r"сред[ауеы]|wednesday|wed|ср", 2),
    (r"четверг\w*|thursday|thurs|thur|thu|чт", 3),
    (r"пятниц\w*|friday|fri|пт", 4),
    (r"суббот\w*|saturday|sat|сб", 5),
    (r"воскресень\w*|sunday|sun|вс", 6),
]
RU_MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля",
             "августа", "сентября", "октября", "ноября", "декабря"]
EN_MONTHS = [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
             ("may", "may"), ("june", "jun"), ("july", "jul"), ("august", "aug"),
             ("september", "sept", "sep"), ("october", "oct"), ("november", "nov"),
             ("december", "dec")]
MONTH_NUM = {}
for i, w in enumerate(RU_MONTHS):
    MONTH_NUM[w] = i + 1
for i, ws in enumerate(EN_MONTHS):
    for w in ws:
        MONTH_NUM[w] = i + 1
MONTH_RE = "|".join(sorted(MONTH_NUM, key=len, reverse=True))
NUMW = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
        "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5, "шесть": 6, "семь": 7}
NUM_RE = r"\d+|" + "|".join(NUMW)


def num(s):
    return int(s) if s.isdigit() else NUMW[s]


def end_of_month(d):
    return date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])


def this_sunday(t):
    return t + timedelta(days=6 - t.weekday())


def next_weekday(t, wd):  # strictly after today
    return t + timedelta(days=((wd - t.weekday()) % 7) or 7)


def weekday_next_week(t, wd):  # that weekday in the next Monday-Sunday week
    return t - timedelta(days=t.weekday()) + timedelta(days=7 + wd)


def day_month(t, d, m):
    """Day + month without a year: this year's unless > 30 days past, then next year's."""
    c = date(t.year, m, d)
    if (t - c).days > 30:
        c = date(t.year + 1, m, d)
    return c


def day_of_month(t, d):
    """Day of month alone: the next such day on or after today; a month without it -> its last day."""
    y, m = t.year, t.month
    for _ in range(2):
        last = calendar.monthrange(y, m)[1]
        c = date(y, m, min(d, last))
        if c >= t:
            return c
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    raise ValueError


def rules(t):
    """(regex, fn(match) -> (kind, date)) pairs."""
    R = []
    wd_alt = "|".join(p for p, _ in WD)

    def wd_of(word):
        for p, n in WD:
            if re.fullmatch(p, word):
                return n
        raise ValueError(word)

    R.append((r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b",
              lambda m: ("day", date(int(m[1]), int(m[2]), int(m[3])))))
    R.append((r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b",
              lambda m: ("day", date(int(m[3]), int(m[2]), int(m[1])))))
    R.append((r"\b(\d{1,2})\.(\d{1,2})\b",
              lambda m: ("day", day_month(t, int(m[1]), int(m[2])))))

    def slash(m):
        d, mo = int(m[1]), int(m[2])
        if d <= 12:
            raise ValueError("dd/mm with day <= 12 could be mm/dd: error")
        return ("day", day_month(t, d, mo))
    R.append((r"\b(\d{1,2})/(\d{1,2})\b", slash))
    R.append((r"\b(\d{1,2})\s+(" + MONTH_RE + r")\b",
              lambda m: ("day", day_month(t, int(m[1]), MONTH_NUM[m[2]]))))
    R.append((r"\b(" + MONTH_RE + r")\s+(\d{1,2})\b",
              lambda m: ("day", day_month(t, int(m[2]), MONTH_NUM[m[1]]))))
    R.append((r"\b(\d{1,2})(?:-?го)?\s+(?:числа|числу|число)\b",
              lambda m: ("day", day_of_month(t, int(m[1])))))
    R.append((r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b",
              lambda m: ("day", day_of_month(t, int(m[1])))))
    # weeks (kind week, the Sunday ending the week)
    R.append((r"до конца недели|к концу недели|на этой неделе|конец недели|\bthis week\b|"
              r"\bend of (?:the )?week\b|\beow\b",
              lambda m: ("week", this_sunday(t))))
    R.append((r"\bсле\w*\s+недел\w*|\bnext week\b|\bnxt week\b",
              lambda m: ("week", this_sunday(t) + timedelta(days=7))))
    # month / year ends
    R.append((r"\bкон(?:ец|ц\w*) месяца|\bend of (?:the )?month\b|\beom\b",
              lambda m: ("day", end_of_month(t))))
    R.append((r"\bследующем месяце|\bnext month\b",
              lambda m: ("day", end_of_month(end_of_month(t) + timedelta(days=1)))))
    R.append((r"\bкон(?:ец|ц\w*) года|\bend of (?:the )?year\b",
              lambda m: ("day", date(t.year, 12, 31))))
    R.append((r"\bweekend\b|\bвыходн\w*",
              lambda m: ("day", t + timedelta(days=(5 - t.weekday()) % 7))))
    # relative days (with the few slips this set uses: tomorow, tommorow, завтро)
    R.append((r"\bday after tomorrow\b|\bпослезавтр[ао]\b",
              lambda m: ("day", t + timedelta(days=2))))
    R.append((r"\b(?:tomorrow|tomorow|tommorow|tmrw|tmr|завтра|завтро)\b",
              lambda m: ("day", t + timedelta(days=1))))
    R.append((r"\b(?:today|eod|сегодня)\b", lambda m: ("day", t)))
    R.append((r"\b(?:in|через)\s+(" + NUM_RE + r")\s+(?:days?|дня|дней|день)\b",
              lambda m: ("day", t + timedelta(days=num(m[1])))))
    R.append((r"\b(?:in|через)\s+(?:(" + NUM_RE + r")\s+)?(?:weeks?|недел[юиь])\b",
              lambda m: ("day", t + timedelta(days=7 * (num(m[1]) if m[1] else 1)))))
    # weekdays
    R.append((r"\b(?:next|следующ\w*)\s+(" + wd_alt + r")\b",
              lambda m: ("day", weekday_next_week(t, wd_of(m[1])))))
    R.append((r"\b(?:this\s+)?(" + wd_alt + r")\b",
              lambda m: ("day", next_weekday(t, wd_of(m[1])))))
    return R


RULES = rules(TODAY)


def norm(s):
    return s.lower().replace("ё", "е")


def dates_in(text, t=TODAY):
    """All date phrases found in text: list of (kind, 'YYYY-MM-DD', matched words)."""
    s = norm(text)
    hits = []
    for pat, fn in (RULES if t == TODAY else rules(t)):
        for m in re.finditer(pat, s):
            hits.append((m.start(), m.end(), fn, m))
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    out, last = [], -1
    for st, en, fn, m in hits:
        if st < last:
            continue
        kind, d = fn(m)
        out.append((kind, d.isoformat(), m.group(0)))
        last = en
    return out


def self_test():
    t = TODAY
    cases = {
        "сегодня": ("day", "2035-03-28"), "tomorrow": ("day", "2035-03-29"),
        "послезавтра": ("day", "2035-03-30"), "day after tomorrow": ("day", "2035-03-30"),
        "в четверг": ("day", "2035-03-29"), "next thursday": ("day", "2035-04-05"),
        "в среду": ("day", "2035-04-04"), "this friday": ("day", "2035-03-30"),
        "в следующую пятницу": ("day", "2035-04-06"), "next monday": ("day", "2035-04-02"),
        "до конца недели": ("week", "2035-04-01"), "next week": ("week", "2035-04-08"),
        "на следующую неделю": ("week", "2035-04-08"), "до конца месяца": ("day", "2035-03-31"),
        "в следующем месяце": ("day", "2035-04-30"), "end of year": ("day", "2035-12-31"),
        "на выходных": ("day", "2035-03-31"), "через неделю": ("day", "2035-04-04"),
        "in 2 weeks": ("day", "2035-04-11"), "in 3 days": ("day", "2035-03-31"),
        "20.02": ("day", "2036-02-20"), "1 марта": ("day", "2035-03-01"),
        "до 5 числа": ("day", "2035-04-05"), "к 28 числу": ("day", "2035-03-28"),
        "19/04": ("day", "2035-04-19"), "apr 28": ("day", "2035-04-28"),
    }
    for txt, want in cases.items():
        got = [(k, d) for k, d, _ in dates_in(txt, t)]
        if got != [want]:
            bad(f"date reference self-test: {txt!r} -> {got}, want {want}")
    # the rule examples from data/chat-phrases/README.md (TODAY 2026-03-11)
    t0 = date(2026, 3, 11)
    for txt, want in {"9.02": "2026-02-09", "8.02": "2027-02-08"}.items():
        got = dates_in(txt, t0)
        if [d for _, d, _ in got] != [want]:
            bad(f"date reference self-test: {txt!r} on {t0} -> {got}, want {want}")
    for t1, txt, want in [(date(2026, 1, 31), "до 30 числа", "2026-02-28"),
                          (date(2026, 4, 30), "до 31 числа", "2026-04-30")]:
        got = dates_in(txt, t1)
        if [d for _, d, _ in got] != [want]:
            bad(f"date reference self-test: {txt!r} on {t1} -> {got}, want {want}")
    try:
        dates_in("03/04")
        bad("date reference self-test: 03/04 must be an error")
    except ValueError:
        pass


# --------------------------------------------------------------------------
# Load
# --------------------------------------------------------------------------
def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{i}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad JSON: {e}")
    return rows


projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

# --------------------------------------------------------------------------
# Projects and tasks
# --------------------------------------------------------------------------
PKEYS = set()
for p in projects:
    if set(p) != {"key", "name", "description"}:
        bad(f"project fields: {p}")
    if not re.fullmatch(r"[A-Z]+", p.get("key", "")):
        bad(f"project key: {p}")
    if p.get("key") == "INBOX":
        bad("INBOX is implicit and must not be listed")
    if not p.get("name") or not p.get("description"):
        bad(f"project name/description empty: {p}")
    PKEYS.add(p.get("key"))
if len(projects) != 5:
    bad(f"expected 5 projects, got {len(projects)}")
names = [p["name"] for p in projects]
if not any(re.search("[а-я]", n.lower()) for n in names) or not any(re.search("[a-z]", n.lower()) for n in names):
    bad("project names should mix Russian and English")

TASK = {}
counter = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task fields: {t}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in PKEYS:
        bad(f"task {t['key']}: unknown project {proj}")
    counter[proj] += 1
    want = f"{proj}-{counter[proj]}"
    if t["key"] != want:
        bad(f"task key {t['key']} is not reproduced by creation order (would be {want})")
    if t["key"] in TASK:
        bad(f"duplicate task key {t['key']}")
    TASK[t["key"]] = t
    if t["due_kind"] not in ("day", "week", "none"):
        bad(f"task {t['key']}: due_kind {t['due_kind']}")
    if (t["due"] is None) != (t["due_kind"] == "none"):
        bad(f"task {t['key']}: due/due_kind mismatch")
    if t["due"] is not None:
        try:
            d = date.fromisoformat(t["due"])
            if t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"task {t['key']}: week due {d} is not a Sunday")
        except ValueError:
            bad(f"task {t['key']}: bad due {t['due']}")
if len({norm(t["title"]) for t in tasks}) != len(tasks):
    bad("task titles must be unique")
if not 55 <= len(tasks) <= 65:
    bad(f"tasks: {len(tasks)} not in 55..65")


def due_bucket(t):
    if t["due"] is None:
        return "undated"
    d = date.fromisoformat(t["due"])
    if d < TODAY:
        return "overdue"
    if t["due_kind"] == "week":
        return "week"
    if d == TODAY:
        return "today"
    return "later"


buckets = Counter(due_bucket(t) for t in tasks)
if not 12 <= buckets["undated"] <= 18:
    bad(f"undated tasks: {buckets['undated']} (want about 15)")
for b in ("overdue", "today", "week"):
    if buckets[b] < 3:
        bad(f"too few {b} tasks: {buckets[b]}")

# --------------------------------------------------------------------------
# Phrases
# --------------------------------------------------------------------------
AIM = {"typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28,
       "deadline_not_close": 26, "project_leadin": 24, "offtopic": 22,
       "plain_other": 54, "ambiguous": 52, "unknown_other": 24}
KIND_OF = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
ALIASES = {"DOM": ["дом", "home", "dom"], "SHIP": ["ship", "работу", "work"],
           "KIDS": ["дети", "kids"], "TEAM": ["team", "команду"], "DOCS": ["бумаги", "docs"]}
DONEISH = ["готов", "законч", "сделат", "сделан", "закрыт", "сдать", "доделат", "выполн",
           "разделат", "done", "mark", "finish", "complete", "closed", "sent", "wrap"]
NEG = r"\bне\b|\bнет\b|\bno\b|\bnot\b|n't|\bdont\b|\bnever\b"
CANCEL = r"удали|убери|отмени|вычеркни|delete|remove|cancel|drop|scrap|nuke|kill"
MOVE = r"перенеси|сдвинь|\bmove\b|\bpush\b|reschedule|postpone"
CMD_START = r"^(add|добавь|напомни|remind|todo|new task|новая задача)\b"
KEY_RE = r"\b([a-z]+)-(\d+)\b"


def toks(s):
    return re.findall(r"[\w']+", norm(s))


def check_date(field_kind, field_date, text, where):
    try:
        found = dates_in(text)
    except ValueError as e:
        bad(f"{where}: date error in text: {e}")
        return
    if len(found) != 1:
        bad(f"{where}: expected exactly one date phrase, found {found}")
        return
    kind, d, _ = found[0]
    if (kind, d) != (field_kind, field_date):
        bad(f"{where}: expect {field_kind} {field_date}, the reference reads {kind} {d}")


seen = set()
by_class_lang = defaultdict(Counter)
by_kind_lang = defaultdict(Counter)
tools = Counter()
filters = Counter()
moves_checked = 0
dates_checked = 0
for i, ph in enumerate(phrases, 1):
    where = f"phrases.jsonl:{i} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(ph)}")
        continue
    text, lang, kind, e, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    if norm(text) in seen:
        bad(f"{where}: duplicate text")
    seen.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    if lang == "ru" and not re.search("[а-яё]", text.lower()):
        bad(f"{where}: lang ru without Cyrillic")
    if lang == "en" and not re.search("[a-z]", text.lower()):
        bad(f"{where}: lang en without Latin letters")
    if cls not in AIM:
        bad(f"{where}: class {cls}")
        continue
    if kind != KIND_OF.get(cls, "plain"):
        bad(f"{where}: class {cls} needs kind {KIND_OF.get(cls, 'plain')}, not {kind}")
    by_class_lang[cls][lang] += 1
    by_kind_lang[kind][lang] += 1
    tool = e.get("tool")
    tools[tool] += 1

    # kind <-> tool
    if kind == "ambiguous" and tool != "clarify":
        bad(f"{where}: ambiguous must expect clarify")
    if kind == "unknown" and tool != "none":
        bad(f"{where}: unknown must expect none")
    if kind == "plain" and tool in ("clarify", "none"):
        bad(f"{where}: plain must expect one clear action")

    # shapes
    shapes = {"close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
              "update_task": {"tool", "id", "deadline_kind", "deadline"},
              "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"}}
    if tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(e) <= allowed or not {"tool", "text", "deadline_kind"} <= set(e):
            bad(f"{where}: create shape {e}")
    elif tool in shapes:
        if set(e) != shapes[tool]:
            bad(f"{where}: {tool} shape {e}")
    else:
        bad(f"{where}: unknown tool {tool}")
        continue

    if "id" in e and e["id"] not in TASK:
        bad(f"{where}: unknown key {e['id']}")

    # explicit keys written in the text
    keys_in_text = [f"{a.upper()}-{b}" for a, b in re.findall(KEY_RE, norm(text))]
    if cls == "explicit_form":
        tid = e.get("id")
        if keys_in_text:
            if keys_in_text != [tid]:
                bad(f"{where}: key in text {keys_in_text} != expect {tid}")
        elif tid in TASK and norm(TASK[tid]["title"]) not in norm(text):
            bad(f"{where}: explicit form names neither the key nor the exact title")
    elif cls == "unknown_other":
        for k in keys_in_text:
            if k in TASK:
                bad(f"{where}: {k} exists, so 'none' would be wrong")
    elif keys_in_text:
        bad(f"{where}: explicit key outside explicit_form/unknown_other")

    if tool == "update_task":
        if e["deadline_kind"] not in ("day", "week"):
            bad(f"{where}: update deadline_kind {e['deadline_kind']}")
        check_date(e["deadline_kind"], e["deadline"], text, where)
        dates_checked += 1
        cur = TASK.get(e["id"], {})
        if cur.get("due") == e["deadline"] and cur.get("due_kind") == e["deadline_kind"]:
            bad(f"{where}: update moves {e['id']} to its current due")
    elif tool == "create_task":
        dk = e["deadline_kind"]
        if dk not in ("none", "day", "week"):
            bad(f"{where}: create deadline_kind {dk}")
        if dk == "none":
            if "deadline" in e:
                bad(f"{where}: kind none with a deadline")
            if dates_in(text):
                bad(f"{where}: undated create but the text has a date {dates_in(text)}")
        else:
            if "deadline" not in e:
                bad(f"{where}: dated create without deadline")
            else:
                check_date(dk, e["deadline"], text, where)
                dates_checked += 1
        if dates_in(e["text"]):
            bad(f"{where}: create text still holds a date phrase")
        if re.search(CMD_START, norm(e["text"])):
            bad(f"{where}: create text still starts with a command word")
        missing = [w for w in toks(e["text"]) if w not in toks(text)]
        if missing:
            bad(f"{where}: create text words not in the phrase: {missing}")
        if "project" in e and e["project"] not in PKEYS:
            bad(f"{where}: unknown project {e['project']}")
        if norm(e["text"]) in {norm(t["title"]) for t in tasks}:
            bad(f"{where}: create text equals an open task")
    elif tool == "list_tasks":
        filters[e["filter"]] += 1
        if e["filter"] not in FILTERS:
            bad(f"{where}: filter {e['filter']}")
    elif tool == "clarify":
        opts = e["options"]
        if len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify needs 2+ distinct options")
        for k in opts:
            if k not in TASK:
                bad(f"{where}: unknown option {k}")
        found = dates_in(text)
        if re.search(MOVE, norm(text)) and not found:
            bad(f"{where}: ambiguous move without a date")
        if found:
            if len(found) != 1:
                bad(f"{where}: ambiguous move with {found}")
            else:
                kind_, d, _ = found[0]
                moves_checked += 1
                dates_checked += 1
                for k in opts:
                    if TASK.get(k, {}).get("due") == d:
                        bad(f"{where}: move date {d} equals the current due of {k}, so the tie could be broken")

    # class-specific
    if cls == "report" and tool != "close_task":
        bad(f"{where}: report must close")
    if cls == "negated_cancel":
        if tool != "cancel_task":
            bad(f"{where}: negated_cancel must cancel")
        if not re.search(NEG, norm(text)) or not re.search(CANCEL, norm(text)):
            bad(f"{where}: negated_cancel needs a negation and a cancel verb")
    if cls == "deadline_not_close":
        if tool not in ("update_task", "create_task") or e.get("deadline_kind") in (None, "none"):
            bad(f"{where}: deadline_not_close must move or create with a deadline, never close")
        if not any(w in norm(text) for w in DONEISH):
            bad(f"{where}: deadline_not_close without a done-ish word")
    if cls == "project_leadin":
        if tool != "create_task" or "project" not in e:
            bad(f"{where}: project_leadin must create with a project")
        elif not any(re.search(r"(?<!\w)" + a + r"(?!\w)", norm(text)) for a in ALIASES.get(e["project"], [])):
            bad(f"{where}: the phrase does not name project {e['project']}")
    if cls == "typo" and kind != "plain":
        bad(f"{where}: typo must be plain")
    if tool == "create_task" and "project" in e and cls != "project_leadin":
        bad(f"{where}: project given outside project_leadin")

self_test()

# counts
total = len(phrases)
ru = sum(c["ru"] for c in by_class_lang.values())
en = sum(c["en"] for c in by_class_lang.values())
if total < 300:
    bad(f"only {total} phrases")
if abs(ru - en) > 0.1 * total:
    bad(f"languages unbalanced: ru {ru}, en {en}")
for cls, aim in AIM.items():
    n = sum(by_class_lang[cls].values())
    if not 0.8 * aim <= n <= 1.25 * aim:
        bad(f"class {cls}: {n}, aim {aim}")
    if by_class_lang[cls]["ru"] == 0 or by_class_lang[cls]["en"] == 0:
        bad(f"class {cls}: one language missing")

# --------------------------------------------------------------------------
print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local {LOCAL.strftime('%Y-%m-%d %H:%M')} "
      f"Europe/Helsinki (UTC+{int(helsinki_offset(NOW_UTC).total_seconds() // 3600)}), "
      f"now {NOW_UTC.strftime('%Y-%m-%dT%H:%M')}Z")
print(f"projects {len(projects)}; tasks {len(tasks)}: " +
      ", ".join(f"{p} {counter[p]}" for p in [*sorted(PKEYS), "INBOX"]))
print("tasks by due: " + ", ".join(f"{b} {buckets[b]}" for b in ("overdue", "today", "week", "later", "undated")))
print()
print("| class | kind | ru | en | total |")
print("|---|---|---|---|---|")
for cls in AIM:
    c = by_class_lang[cls]
    print(f"| {cls} | {KIND_OF.get(cls, 'plain')} | {c['ru']} | {c['en']} | {c['ru'] + c['en']} |")
print(f"| **all** | | {ru} | {en} | **{total}** |")
print()
print("| kind | ru | en | total |")
print("|---|---|---|---|")
for k in ("plain", "ambiguous", "unknown"):
    c = by_kind_lang[k]
    print(f"| {k} | {c['ru']} | {c['en']} | {c['ru'] + c['en']} |")
print()
print("by tool: " + ", ".join(f"{t} {tools[t]}" for t in
      ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")))
print("list filters: " + ", ".join(f"{f} {filters[f]}" for f in ("today", "inbox", "overdue", "done", "all_by_project")))
print(f"dates recomputed: {dates_checked} (of them ambiguous moves: {moves_checked})")
print()
if PROBLEMS:
    for p in PROBLEMS:
        print("PROBLEM:", p)
    print(f"{len(PROBLEMS)} problem(s)")
    sys.exit(1)
print("OK")
