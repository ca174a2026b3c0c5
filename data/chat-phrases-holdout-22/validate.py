#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-22 (stdlib only).

Checks the shape of every line of projects.jsonl, tasks.jsonl and phrases.jsonl,
that every referenced task key exists, that the keys reproduce when tasks.jsonl
is loaded in order, the class/kind/expect conventions, and recomputes every
expected date from a small independent reference of the house date rules
(written for this set only). Prints counts; exits 1 on any problem.

TODAY: 2034-06-21T18:45:00Z in Asia/Vladivostok (UTC+10) = Thursday 2034-06-22, 04:45.
"""
import json
import re
import sys
from collections import Counter
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOW_UTC = datetime(2034, 6, 21, 18, 45, tzinfo=timezone.utc)
TODAY = (NOW_UTC + timedelta(hours=10)).date()  # Vladivostok has no DST

problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(HERE / name, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


# ---------------------------------------------------------------- house date rules
def add_days(n):
    return TODAY + timedelta(days=n)


def this_sunday():
    return TODAY + timedelta(days=(6 - TODAY.weekday()))


def next_sunday():
    return this_sunday() + timedelta(days=7)


def plain_weekday(wd):
    """Next such weekday strictly after today."""
    d = (wd - TODAY.weekday()) % 7
    return TODAY + timedelta(days=d or 7)


def next_week_weekday(wd):
    monday_next = TODAY - timedelta(days=TODAY.weekday()) + timedelta(days=7)
    return monday_next + timedelta(days=wd)


def weekend():
    d = (5 - TODAY.weekday()) % 7
    return TODAY + timedelta(days=d)


def last_day(y, m):
    nxt = date(y + (m == 12), m % 12 + 1, 1)
    return nxt - timedelta(days=1)


def end_of_month():
    return last_day(TODAY.year, TODAY.month)


def end_of_next_month():
    y, m = (TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)
    return last_day(y, m)


def day_month(d, m):
    cand = date(TODAY.year, m, d)  # raises on impossible dates
    if (TODAY - cand).days > 30:
        cand = date(TODAY.year + 1, m, d)
    return cand


def day_of_month(n):
    y, m = TODAY.year, TODAY.month
    while True:
        ld = last_day(y, m)
        cand = date(y, m, min(n, ld.day))
        if cand >= TODAY:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)


RU_WD = [("понедельник", 0), ("вторник", 1), ("сред", 2), ("четверг", 3),
         ("пятниц", 4), ("суббот", 5), ("воскресень", 6)]
EN_WD = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3,
         "friday": 4, "saturday": 5, "sunday": 6}
RU_MONTHS = {"января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6,
             "июля": 7, "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12}
EN_MONTHS = {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
             "july": 7, "august": 8, "september": 9, "october": 10, "november": 11,
             "december": 12}

# slips a careful human reads through (this set uses them on purpose)
TYPO = {"звтра": "завтра", "завтар": "завтра", "послезавра": "послезавтра",
        "следуюшую": "следующую", "tomorow": "tomorrow", "nxt": "next",
        "tmrw": "tomorrow", "tmr": "tomorrow"}

RU_WD_RE = r"(понедельник\w*|вторник\w*|сред[уыеа]|четверг\w*|пятниц\w*|суббот\w*|воскресень\w*)"
EN_WD_RE = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"


def ru_wd(word):
    for stem, n in RU_WD:
        if word.startswith(stem):
            return n
    raise ValueError(word)


PATTERNS = [
    # (regex, function(match) -> (kind, date))
    (r"послезавтра|day after tomorrow", lambda m: ("day", add_days(2))),
    (r"\bзавтра\b|\btomorrow\b", lambda m: ("day", add_days(1))),
    (r"\bсегодня\b|\btoday\b|\btonight\b|\beod\b", lambda m: ("day", add_days(0))),
    (r"(?:до|к)\s+конц[ау]\s+недели|на\s+этой\s+неделе|(?:by\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?week|\bthis\s+week\b",
     lambda m: ("week", this_sunday())),
    (r"на\s+следующ(?:ей|ую)\s+недел[еию]|\bnext\s+week\b", lambda m: ("week", next_sunday())),
    (r"(?:до|к)\s+конц[ау]\s+месяца|(?:by\s+)?(?:the\s+)?end\s+of\s+(?:the\s+)?month|\beom\b",
     lambda m: ("day", end_of_month())),
    (r"в\s+следующем\s+месяце|\bnext\s+month\b", lambda m: ("day", end_of_next_month())),
    (r"через\s+(\d+)\s+(?:дня|дней|день)|\bin\s+(\d+)\s+days?\b",
     lambda m: ("day", add_days(int(m.group(1) or m.group(2))))),
    (r"через\s+неделю|\bin\s+a\s+week\b", lambda m: ("day", add_days(7))),
    (r"через\s+(\d+)\s+недел[иь]|\bin\s+(\d+)\s+weeks\b",
     lambda m: ("day", add_days(7 * int(m.group(1) or m.group(2))))),
    (r"(?<!по )(?:на|к|до)\s+выходн(?:ые|ых|ым)|дедлайн\s+выходные|(?:this\s+|the\s+)?weekend\b",
     lambda m: ("day", weekend())),
    (r"(?:на|в|во|к|до)\s+следующ(?:ий|ую|ее|ему|ей)\s+" + RU_WD_RE,
     lambda m: ("day", next_week_weekday(ru_wd(m.group(1))))),
    (r"\bnext\s+" + EN_WD_RE, lambda m: ("day", next_week_weekday(EN_WD[m.group(1)]))),
    (r"(?:(?:на|в|во|к|до)\s+)?\b" + RU_WD_RE, lambda m: ("day", plain_weekday(ru_wd(m.group(1))))),
    (r"(?:this\s+)?\b" + EN_WD_RE, lambda m: ("day", plain_weekday(EN_WD[m.group(1)]))),
    (r"(?:до\s+)?(\d{1,2})\s+числа|\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b",
     lambda m: ("day", day_of_month(int(m.group(1) or m.group(2))))),
    (r"\b(\d{1,2})\s+(" + "|".join(RU_MONTHS) + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), RU_MONTHS[m.group(2)]))),
    (r"\b(" + "|".join(EN_MONTHS) + r")\s+(\d{1,2})\b",
     lambda m: ("day", day_month(int(m.group(2)), EN_MONTHS[m.group(1)]))),
    (r"\b(\d{1,2})\s+(" + "|".join(EN_MONTHS) + r")\b",
     lambda m: ("day", day_month(int(m.group(1)), EN_MONTHS[m.group(2)]))),
    (r"(?<![\w.-])(\d{1,2})\.(\d{1,2})(?![\w.])",
     lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
]


def norm(s):
    s = s.lower().replace("ё", "е")
    return re.sub(r"\s+", " ", s).strip()


def find_dates(text):
    """Every date expression in text -> list of (kind, date, matched text)."""
    s = norm(text)
    s = re.sub(r"[a-zа-я]+", lambda m: TYPO.get(m.group(0), m.group(0)), s)
    found = []
    for rx, fn in PATTERNS:
        while True:
            m = re.search(rx, s)
            if not m:
                break
            kind, d = fn(m)
            found.append((kind, d.isoformat(), m.group(0)))
            s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    return found


# ---------------------------------------------------------------- projects / tasks
projects = load("projects.jsonl")
pkeys = set()
for n, p in projects:
    if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
        bad(f"projects.jsonl:{n}: bad shape {p}")
        continue
    if not re.fullmatch(r"[A-Z]{2,10}", p["key"]) or p["key"] == "INBOX":
        bad(f"projects.jsonl:{n}: bad key {p['key']}")
    pkeys.add(p["key"])
if not 4 <= len(projects) <= 6:
    bad(f"projects.jsonl: {len(projects)} projects, want 4-6")

tasks = load("tasks.jsonl")
tk = {}
counters = Counter()
for n, t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks.jsonl:{n}: bad fields {sorted(t)}")
        continue
    if t["project"] not in pkeys | {"INBOX"}:
        bad(f"tasks.jsonl:{n}: unknown project {t['project']}")
    counters[t["project"]] += 1
    want = f"{t['project']}-{counters[t['project']]}"
    if t["key"] != want:
        bad(f"tasks.jsonl:{n}: key {t['key']} but loading in order gives {want}")
    if t["key"] in tk:
        bad(f"tasks.jsonl:{n}: duplicate key {t['key']}")
    tk[t["key"]] = t
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"tasks.jsonl:{n}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        try:
            d = date.fromisoformat(t["due"])
        except (TypeError, ValueError):
            bad(f"tasks.jsonl:{n}: bad due {t['due']}")
            continue
        if t["due_kind"] == "week" and d.weekday() != 6:
            bad(f"tasks.jsonl:{n}: week due {d} is not a Sunday")
    else:
        bad(f"tasks.jsonl:{n}: bad due_kind {t['due_kind']}")
if not 50 <= len(tasks) <= 65:
    bad(f"tasks.jsonl: {len(tasks)} tasks, want 50-65")
titles = Counter(norm(t["title"]) for t in tk.values())
for ttl, c in titles.items():
    if c > 1:
        bad(f"tasks.jsonl: title repeated {c}x: {ttl}")

# ---------------------------------------------------------------- phrases
CLASSES = ["typo", "report", "negated_cancel", "explicit_form", "deadline_not_close",
           "project_leadin", "offtopic", "plain_other", "ambiguous", "unknown_other"]
KIND_OF = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
CYR = re.compile(r"[а-яё]", re.I)

phrases = load("phrases.jsonl")
seen = set()
by_class = Counter()
by_kind = Counter()
by_tool = Counter()
by_list = Counter()
dates_checked = 0


def check_key(n, k):
    if k not in tk:
        bad(f"phrases.jsonl:{n}: unknown task key {k}")
        return False
    return True


for n, p in phrases:
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"phrases.jsonl:{n}: bad fields {sorted(p)}")
        continue
    text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if not isinstance(text, str) or not text.strip():
        bad(f"phrases.jsonl:{n}: empty text")
        continue
    if norm(text) in seen:
        bad(f"phrases.jsonl:{n}: duplicate text {text!r}")
    seen.add(norm(text))
    if lang not in ("ru", "en"):
        bad(f"phrases.jsonl:{n}: bad lang {lang}")
    elif (lang == "ru") != bool(CYR.search(text)):
        bad(f"phrases.jsonl:{n}: lang {lang} does not fit the script of {text!r}")
    if cls not in CLASSES:
        bad(f"phrases.jsonl:{n}: bad class {cls}")
        continue
    if kind != KIND_OF.get(cls, "plain"):
        bad(f"phrases.jsonl:{n}: class {cls} with kind {kind}")
    by_class[(cls, lang)] += 1
    by_kind[(kind, lang)] += 1
    if not isinstance(e, dict) or "tool" not in e:
        bad(f"phrases.jsonl:{n}: bad expect {e}")
        continue
    tool = e["tool"]
    by_tool[tool] += 1
    found = find_dates(text)

    def want_keys(keys):
        if set(e) != keys:
            bad(f"phrases.jsonl:{n}: {tool} with fields {sorted(e)}")

    if tool in ("close_task", "cancel_task"):
        want_keys({"tool", "id"})
        check_key(n, e.get("id"))
        if found:
            bad(f"phrases.jsonl:{n}: {tool} but a date phrase is present: {found}")
    elif tool == "update_task":
        want_keys({"tool", "id", "deadline_kind", "deadline"})
        if check_key(n, e.get("id")):
            t = tk[e["id"]]
            if (t["due"], t["due_kind"]) == (e.get("deadline"), e.get("deadline_kind")):
                bad(f"phrases.jsonl:{n}: update to the task's current due")
        if e.get("deadline_kind") not in ("day", "week"):
            bad(f"phrases.jsonl:{n}: bad deadline_kind")
        if len(found) != 1:
            bad(f"phrases.jsonl:{n}: want exactly one date phrase, found {found}")
        elif (found[0][0], found[0][1]) != (e.get("deadline_kind"), e.get("deadline")):
            bad(f"phrases.jsonl:{n}: expect {e.get('deadline_kind')} {e.get('deadline')}, "
                f"house rules give {found[0][0]} {found[0][1]} for {found[0][2]!r}")
        else:
            dates_checked += 1
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(e) <= allowed or not {"tool", "text", "deadline_kind"} <= set(e):
            bad(f"phrases.jsonl:{n}: create_task with fields {sorted(e)}")
        if norm(e.get("text", "")) not in norm(text):
            bad(f"phrases.jsonl:{n}: create text {e.get('text')!r} is not part of the phrase")
        if found and any(f[2] in norm(e.get("text", "")) for f in found):
            bad(f"phrases.jsonl:{n}: the date phrase is left in the create text")
        if "project" in e and e["project"] not in pkeys:
            bad(f"phrases.jsonl:{n}: unknown project {e['project']}")
        if (cls == "project_leadin") != ("project" in e):
            bad(f"phrases.jsonl:{n}: project expected exactly for project lead-ins")
        dk = e.get("deadline_kind")
        if dk == "none":
            if "deadline" in e:
                bad(f"phrases.jsonl:{n}: deadline with kind none")
            if found:
                bad(f"phrases.jsonl:{n}: kind none but a date phrase is present: {found}")
        elif dk in ("day", "week"):
            if len(found) != 1:
                bad(f"phrases.jsonl:{n}: want exactly one date phrase, found {found}")
            elif (found[0][0], found[0][1]) != (dk, e.get("deadline")):
                bad(f"phrases.jsonl:{n}: expect {dk} {e.get('deadline')}, "
                    f"house rules give {found[0][0]} {found[0][1]}")
            else:
                dates_checked += 1
        else:
            bad(f"phrases.jsonl:{n}: bad deadline_kind {dk}")
    elif tool == "list_tasks":
        want_keys({"tool", "filter"})
        if e.get("filter") not in ("today", "inbox", "overdue", "done", "all_by_project"):
            bad(f"phrases.jsonl:{n}: bad filter")
        by_list[e.get("filter")] += 1
    elif tool == "clarify":
        want_keys({"tool", "options"})
        opts = e.get("options", [])
        if len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"phrases.jsonl:{n}: clarify needs 2+ distinct options")
        if all(check_key(n, k) for k in opts) and found:
            # an ambiguous move: the date must not break the tie
            if len(found) != 1:
                bad(f"phrases.jsonl:{n}: several date phrases {found}")
            for k in opts:
                t = tk[k]
                if t["due"] == found[0][1]:
                    bad(f"phrases.jsonl:{n}: {k} is already due {t['due']}, the date breaks the tie")
            dates_checked += 1
    elif tool == "none":
        want_keys({"tool"})
    else:
        bad(f"phrases.jsonl:{n}: unknown tool {tool}")

    # class conventions
    rule = {
        "ambiguous": {"clarify"}, "offtopic": {"none"}, "unknown_other": {"none"},
        "report": {"close_task"}, "negated_cancel": {"cancel_task"},
        "explicit_form": {"close_task", "update_task"},
        "deadline_not_close": {"update_task", "create_task", "list_tasks"},
        "project_leadin": {"create_task"},
    }.get(cls)
    if rule and tool not in rule:
        bad(f"phrases.jsonl:{n}: class {cls} cannot expect {tool}")
    if tool == "clarify" and cls != "ambiguous":
        bad(f"phrases.jsonl:{n}: clarify outside the ambiguous class")

# ---------------------------------------------------------------- totals
langs = Counter(p["lang"] for _, p in phrases)
if len(phrases) < 290:
    bad(f"phrases.jsonl: {len(phrases)} phrases, want 290+")
for c in CLASSES:
    for lg in ("ru", "en"):
        if by_class[(c, lg)] < 8:
            bad(f"class {c}/{lg}: only {by_class[(c, lg)]}")
    tot = by_class[(c, "ru")] + by_class[(c, "en")]
    if tot < (40 if c == "ambiguous" else 20):
        bad(f"class {c}: only {tot}")
unknown = sum(by_class[(c, lg)] for c in ("offtopic", "unknown_other") for lg in ("ru", "en"))
if unknown < 40:
    bad(f"unknown (offtopic + unknown_other): only {unknown}")
if abs(langs["ru"] - langs["en"]) > 0.1 * len(phrases):
    bad(f"languages unbalanced: {dict(langs)}")

print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), zone Asia/Vladivostok")
print(f"projects {len(projects)}; tasks {len(tasks)}: " +
      ", ".join(f"{k} {v}" for k, v in counters.items()))
dated = [t for t in tk.values() if t["due"]]
print("overdue:", ", ".join(t["key"] for t in dated if t["due_kind"] == "day" and t["due"] < TODAY.isoformat()))
print("due today:", ", ".join(t["key"] for t in dated if t["due_kind"] == "day" and t["due"] == TODAY.isoformat()))
print("week-due:", ", ".join(f"{t['key']} ({t['due']})" for t in dated if t["due_kind"] == "week"))
print(f"undated: {sum(1 for t in tk.values() if not t['due'])}")
print(f"\nphrases {len(phrases)}: ru {langs['ru']}, en {langs['en']}")
print(f"{'class':<20}{'ru':>5}{'en':>5}{'all':>6}")
for c in CLASSES:
    r, en = by_class[(c, 'ru')], by_class[(c, 'en')]
    print(f"{c:<20}{r:>5}{en:>5}{r + en:>6}")
print(f"{'kind':<20}{'ru':>5}{'en':>5}{'all':>6}")
for k in ("plain", "ambiguous", "unknown"):
    r, en = by_kind[(k, 'ru')], by_kind[(k, 'en')]
    print(f"{k:<20}{r:>5}{en:>5}{r + en:>6}")
print("by tool:", ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
print("list filters:", ", ".join(f"{k} {v}" for k, v in sorted(by_list.items())))
print(f"dates recomputed from the house rules: {dates_checked}")

if problems:
    print(f"\n{len(problems)} problem(s):")
    for m in problems:
        print("  " + m)
    sys.exit(1)
print("\nOK")
