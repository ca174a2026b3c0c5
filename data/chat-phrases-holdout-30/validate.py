#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-30 (stdlib only).

Checks JSON shapes, keys, creation-order keys, class/kind consistency, counts per
class and language, and recomputes every expected date from the phrase text with a
small reference of the house date rules written for this set only.
Prints counts; exits 1 on any problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2037, 4, 4, 15, 30, tzinfo=dt.timezone.utc)
ZONE = "Australia/Sydney"
AEDT = dt.timezone(dt.timedelta(hours=11))

problems = []


def bad(msg):
    problems.append(msg)


# ------------------------------------------------------------------ TODAY
local = NOW_UTC.astimezone(AEDT)
try:  # cross-check with the tz database when it is installed
    from zoneinfo import ZoneInfo

    z = NOW_UTC.astimezone(ZoneInfo(ZONE))
    if z.replace(tzinfo=None) != local.replace(tzinfo=None) or z.utcoffset() != dt.timedelta(hours=11):
        bad(f"zone check: {z} != {local}")
    after = (NOW_UTC + dt.timedelta(hours=1)).astimezone(ZoneInfo(ZONE))
    if after.utcoffset() != dt.timedelta(hours=10):
        bad("zone check: summer time should end within the hour")
except Exception:  # no tz database: the fixed offset alone is used
    pass
TODAY = local.date()
if TODAY != dt.date(2037, 4, 5) or TODAY.weekday() != 6 or (local.hour, local.minute) != (2, 30):
    bad(f"TODAY is {TODAY} {local.time()}, expected Sunday 2037-04-05 02:30")
if NOW_UTC.date() == TODAY:
    bad("UTC date should differ from the local date (the trap of this set)")


# ------------------------------------------------------------------ date reference
def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def add_months(d, n):
    m = d.month - 1 + n
    return d.year + m // 12, m % 12 + 1


def this_sunday(d):
    return d + dt.timedelta(days=6 - d.weekday())


def next_monday(d):
    return d + dt.timedelta(days=7 - d.weekday())


def plain_weekday(d, wd):
    delta = (wd - d.weekday()) % 7
    return d + dt.timedelta(days=delta or 7)


def day_month(d, day, month):
    try:
        c = dt.date(d.year, month, day)
    except ValueError:
        return None
    if (d - c).days > 30:
        c = dt.date(d.year + 1, month, day)
    return c


def day_alone(d, n):
    if not 1 <= n <= 31:
        return None
    c = min(n, last_day(d.year, d.month).day)
    if c >= d.day:
        return dt.date(d.year, d.month, c)
    y, m = add_months(d, 1)
    return dt.date(y, m, min(n, last_day(y, m).day))


WD = [
    ("monday|mon|понедельник\\w*", 0),
    ("tuesday|tues|tue|вторник\\w*", 1),
    ("wednesday|wed|сред[аеуы]", 2),
    ("thursday|thurs|thu|четверг\\w*", 3),
    ("friday|fri|пятниц[аеуы]", 4),
    ("saturday|sat|суббот[аеуы]", 5),
    ("sunday|воскресень[ея]", 6),
]
RU_MONTHS = ["январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август", "сентябр", "октябр", "ноябр", "декабр"]
EN_MONTHS = ["jan(?:uary)?", "feb(?:ruary)?", "mar(?:ch)?", "apr(?:il)?", "may", "june?", "july?",
             "aug(?:ust)?", "sep(?:t|tember)?", "oct(?:ober)?", "nov(?:ember)?", "dec(?:ember)?"]
RU_MONTH_RE = "(" + "|".join(s + ("я" if s != "ма" else "я") if s not in ("март", "август") else s + "а" for s in RU_MONTHS) + ")"
EN_MONTH_RE = "(" + "|".join(EN_MONTHS) + ")"
NUMWORD = {"two": 2, "две": 2, "два": 2, "three": 3, "три": 3}


def ru_month_index(word):
    for i, s in enumerate(RU_MONTHS):
        if word.startswith(s) and (s != "ма" or word == "мая"):
            return i + 1


def en_month_index(word):
    for i, s in enumerate(EN_MONTHS):
        if re.fullmatch(s, word):
            return i + 1


def rules(d):
    """(regex, function(match) -> (kind, date) | 'error')"""
    r = []
    add = lambda pat, fn: r.append((re.compile(pat), fn))
    add(r"\b(?:the )?day after tomorrow\b|\bпослезавтра\b|\bпослезавра\b", lambda m: ("day", d + dt.timedelta(2)))
    add(r"\b(?:tomorrow|tomorow|tommorow|tmrw|tmr|завтра|завтар|завтро)\b", lambda m: ("day", d + dt.timedelta(1)))
    add(r"\b(?:today|eod|сегодня)\b", lambda m: ("day", d))
    add(r"\b(?:next|nex|nxt) week\b|\bследу?ю?щ(?:ую|ей) недел[еюи]\b", lambda m: ("week", this_sunday(d) + dt.timedelta(7)))
    add(r"\bthis week\b|\bend of (?:the )?week\b|\bконц[аеу] недели\b|\bэтой неделе\b", lambda m: ("week", this_sunday(d)))
    add(r"\bend of (?:the )?month\b|\bконц[аеу] месяца\b", lambda m: ("day", last_day(d.year, d.month)))
    add(r"\bnext month\b|\bследующем месяце\b", lambda m: ("day", last_day(*add_months(d, 1))))
    add(r"\bend of (?:the )?year\b|\bконц[аеу] года\b", lambda m: ("day", dt.date(d.year, 12, 31)))
    add(r"\b(?:the )?weekend\b|\bвыходны[еx]\b|\bвыходных\b", lambda m: ("day", plain_weekday(d, 5) if d.weekday() != 5 else d))
    add(r"\bin (\d+) days?\b|\bчерез (\d+) (?:день|дня|дней)\b",
        lambda m: ("day", d + dt.timedelta(int(m.group(1) or m.group(2)))))
    add(r"\bin a week\b|\bчерез неделю\b", lambda m: ("day", d + dt.timedelta(7)))
    add(r"\bin (\d+|two|three) weeks\b|\bчерез (\d+|две|три) недели\b",
        lambda m: ("day", d + dt.timedelta(7 * int(NUMWORD.get(m.group(1) or m.group(2), m.group(1) or m.group(2))))))
    for pat, wd in WD:
        def f(m, wd=wd):
            q = (m.group(1) or "").strip()
            if q.startswith("next") or q.startswith("следующ"):
                return ("day", next_monday(d) + dt.timedelta(wd))
            return ("day", plain_weekday(d, wd))
        add(r"\b(next |this |следующ\w+ )?(?:" + pat + r")\b", f)
    add(r"\b(?:fryday|satruday|pyatnitsa|пятницк|пятнидцу)\b", lambda m: "error")
    add(r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: ("day", dt.date(*map(int, m.groups()))))

    def ru_dm(m):
        c = day_month(d, int(m.group(1)), ru_month_index(m.group(2)))
        return ("day", c) if c else "error"

    add(r"\b(\d{1,2}) " + RU_MONTH_RE + r"\b", ru_dm)

    def en_dm(m):
        day = int(m.group(1) or m.group(4))
        mon = en_month_index(m.group(2) or m.group(3))
        c = day_month(d, day, mon)
        return ("day", c) if c else "error"

    add(r"\b(?:(\d{1,2})(?:st|nd|rd|th)? (?:of )?" + EN_MONTH_RE + r"|" + EN_MONTH_RE + r" (\d{1,2})(?:st|nd|rd|th)?)\b", en_dm)

    def numeric(m):
        a, b, y, sep = int(m.group(1)), int(m.group(2)), m.group(3), m.group(0)[len(m.group(1))]
        if sep == "/" and a <= 12:
            return "error"  # could be mm/dd
        try:
            return ("day", dt.date(int(y), b, a)) if y else (("day", day_month(d, a, b)) if day_month(d, a, b) else "error")
        except ValueError:
            return "error"

    add(r"(?<![\w.])(\d{1,2})[./](\d{1,2})(?:[./](\d{4}))?(?![\w./])", numeric)

    def alone(m):
        c = day_alone(d, int(m.group(1) or m.group(2)))
        return ("day", c) if c else "error"

    add(r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th)\b|\b(\d{1,2}) числ[аоу]\b", alone)
    return r


RULES = rules(TODAY)


def norm(s):
    return s.lower().replace("ё", "е")


def find_date(text, d_rules=RULES):
    """Return (result, span_text) for the single date phrase in text, or (None, None).
    result is ('day'|'week', date) or 'error'; several distinct dates -> 'error'."""
    t = norm(text)
    hits = []
    for rx, fn in d_rules:
        for m in rx.finditer(t):
            hits.append((m.start(), m.end(), fn(m)))
    # keep the longest of overlapping matches
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    kept = []
    for h in hits:
        if kept and h[0] < kept[-1][1]:
            if h[1] - h[0] > kept[-1][1] - kept[-1][0]:
                kept[-1] = h
            continue
        kept.append(h)
    if not kept:
        return None, None
    results = {repr(h[2]) for h in kept}
    if len(results) > 1:
        return "error", " / ".join(t[h[0]:h[1]] for h in kept)
    return kept[0][2], t[kept[0][0]:kept[0][1]]


# self-test of the reference on the house examples (README of data/chat-phrases)
def _selftest():
    w = dt.date(2026, 3, 11)  # a Wednesday
    R = rules(w)
    cases = [
        ("friday", ("day", dt.date(2026, 3, 13))), ("next friday", ("day", dt.date(2026, 3, 20))),
        ("this week", ("week", dt.date(2026, 3, 15))), ("next week", ("week", dt.date(2026, 3, 22))),
        ("9.02", ("day", dt.date(2026, 2, 9))), ("8.02", ("day", dt.date(2027, 2, 8))),
        ("03/04", "error"), ("19/03", ("day", dt.date(2026, 3, 19))), ("до 5 числа", ("day", dt.date(2026, 4, 5))),
        ("end of month", ("day", dt.date(2026, 3, 31))), ("next month", ("day", dt.date(2026, 4, 30))),
        ("weekend", ("day", dt.date(2026, 3, 14))), ("через 3 дня", ("day", dt.date(2026, 3, 14))),
        ("next fryday", "error"), ("20 мая", ("day", dt.date(2026, 5, 20))), ("apr 28", ("day", dt.date(2026, 4, 28))),
    ]
    for text, want in cases:
        got, _ = find_date(text, R)
        if got != want:
            bad(f"date reference self-test: {text!r} on {w}: got {got}, want {want}")
    for today, text, want in [(dt.date(2026, 1, 31), "до 30 числа", dt.date(2026, 2, 28)),
                              (dt.date(2026, 4, 30), "до 31 числа", dt.date(2026, 4, 30)),
                              (dt.date(2026, 3, 13), "friday", dt.date(2026, 3, 20)),
                              (dt.date(2026, 3, 15), "this week", dt.date(2026, 3, 15))]:
        got, _ = find_date(text, rules(today))
        if got is None or got == "error" or got[1] != want:
            bad(f"date reference self-test: {text!r} on {today}: got {got}, want {want}")


_selftest()


# ------------------------------------------------------------------ load
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

# ------------------------------------------------------------------ projects
pkeys = []
for i, p in enumerate(projects, 1):
    if set(p) != {"key", "name", "description"}:
        bad(f"projects:{i}: fields {sorted(p)}")
        continue
    if not re.fullmatch(r"[A-Z]{2,10}", p["key"]) or p["key"] == "INBOX":
        bad(f"projects:{i}: bad key {p['key']}")
    if not p["name"].strip() or len(p["description"]) < 20:
        bad(f"projects:{i}: empty name or short description")
    pkeys.append(p["key"])
if len(projects) != 5 or len(set(pkeys)) != 5:
    bad(f"need 5 distinct projects, have {pkeys}")
names = [p.get("name", "") for p in projects]
if not any(re.search("[а-я]", n.lower()) for n in names) or not any(re.fullmatch("[A-Za-z ]+", n) for n in names):
    bad("project names should mix Russian and English")

# ------------------------------------------------------------------ tasks
task_by_key = {}
counters = Counter()
due_class = defaultdict(list)
for i, t in enumerate(tasks, 1):
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"tasks:{i}: fields {sorted(t)}")
        continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys:
        bad(f"tasks:{i}: unknown project {proj}")
    counters[proj] += 1
    if t["key"] != f"{proj}-{counters[proj]}":
        bad(f"tasks:{i}: key {t['key']} is not reproduced by creation order ({proj}-{counters[proj]})")
    if t["key"] in task_by_key:
        bad(f"tasks:{i}: duplicate key {t['key']}")
    if not t["title"].strip():
        bad(f"tasks:{i}: empty title")
    task_by_key[t["key"]] = t
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"tasks:{i}: due_kind none with a due")
        due_class["undated"].append(t["key"])
        continue
    if t["due_kind"] not in ("day", "week"):
        bad(f"tasks:{i}: bad due_kind {t['due_kind']}")
        continue
    try:
        d = dt.date.fromisoformat(t["due"])
    except (TypeError, ValueError):
        bad(f"tasks:{i}: bad due {t['due']}")
        continue
    if t["due_kind"] == "week":
        if d.weekday() != 6:
            bad(f"tasks:{i}: week due {d} is not a Sunday")
        due_class["week"].append(t["key"])
    if d < TODAY:
        due_class["overdue"].append(t["key"])
    elif d == TODAY:
        due_class["today"].append(t["key"])
    else:
        due_class["later"].append(t["key"])
titles = [t["title"].lower() for t in tasks if "title" in t]
if len(set(titles)) != len(titles):
    bad("duplicate task titles")
if not 55 <= len(tasks) <= 65:
    bad(f"tasks: {len(tasks)} (want 55-65)")
for cls_, lo in (("overdue", 4), ("today", 3), ("week", 2), ("undated", 12)):
    if len(due_class[cls_]) < lo:
        bad(f"tasks: only {len(due_class[cls_])} {cls_}")
if not any(re.search("[а-я]", x) for x in titles) or not any(re.fullmatch(r"[^а-я]+", x) for x in titles):
    bad("task titles should be in both languages")

# ------------------------------------------------------------------ phrases
CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
              "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
              "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown"}
TARGET = {"typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28, "deadline_not_close": 26,
          "project_leadin": 24, "offtopic": 22, "plain_other": 54, "ambiguous": 52, "unknown_other": 24}
PROJECT_ALIASES = {"JOBS": ["заказы", "jobs"], "BIZ": ["business", "бизнес"], "HOME": ["дом", "home"],
                   "FAM": ["семья", "семью", "fam", "family"], "SAIL": ["sailing"]}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
KEY_RE = re.compile(r"\b([a-z]{2,6})-(\d+)\b", re.I)
NEG_RE = re.compile(r"\b(?:не|нет|no|not|dont|doesnt|don't|doesn't|we're not|никак)\b")
CANCEL_RE = re.compile(r"\b(?:отмени\w*|отменя\w*|удали\w*|убери|cancel|delete|scrap|drop|remove)\b")
DONEISH_RE = re.compile(r"(?:сдела|законч|доделат|доделаю|готов|done|finish|complete|wrap up|sorted|should be|has to be)")

by_class = defaultdict(Counter)
by_kind = defaultdict(Counter)
by_tool = Counter()
by_filter = Counter()
texts = Counter()
date_checked = Counter()
for i, ph in enumerate(phrases, 1):
    where = f"phrases:{i} {ph.get('text')!r}"
    if set(ph) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(ph)}")
        continue
    text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
    nt = norm(text)
    texts[nt] += 1
    if lang not in ("ru", "en"):
        bad(f"{where}: lang {lang}")
    has_cyr = bool(re.search("[а-яё]", text.lower()))
    if (lang == "ru") != has_cyr:
        bad(f"{where}: lang {lang} but Cyrillic={has_cyr}")
    if cls not in CLASS_KIND:
        bad(f"{where}: class {cls}")
        continue
    if kind != CLASS_KIND[cls]:
        bad(f"{where}: kind {kind} for class {cls}")
    if text != text.lower() and not KEY_RE.search(text) and "BAS" not in text:
        bad(f"{where}: capital letters outside keys")
    by_class[cls][lang] += 1
    by_kind[kind][lang] += 1
    tool = exp.get("tool") if isinstance(exp, dict) else None
    by_tool[tool] += 1

    # shape of expect
    shapes = {"close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
              "update_task": {"tool", "id", "deadline_kind", "deadline"},
              "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"}}
    if tool == "create_task":
        if not {"tool", "text", "deadline_kind"} <= set(exp) <= {"tool", "text", "deadline_kind", "deadline", "project"}:
            bad(f"{where}: create shape {sorted(exp)}")
        if (exp.get("deadline_kind") == "none") != ("deadline" not in exp):
            bad(f"{where}: create deadline/deadline_kind mismatch")
    elif tool in shapes:
        if set(exp) != shapes[tool]:
            bad(f"{where}: {tool} shape {sorted(exp)}")
    else:
        bad(f"{where}: unknown tool {tool}")
        continue

    # keys exist
    for k in ([exp["id"]] if "id" in exp else []) + list(exp.get("options", [])):
        if k not in task_by_key:
            bad(f"{where}: unknown key {k}")

    # class vs tool
    if kind == "unknown" and tool != "none":
        bad(f"{where}: unknown kind must expect none")
    if kind != "unknown" and tool == "none":
        bad(f"{where}: none is only for unknown kind")
    if (kind == "ambiguous") != (tool == "clarify"):
        bad(f"{where}: ambiguous <-> clarify")
    if tool == "clarify":
        opts = exp["options"]
        if len(opts) < 2 or len(set(opts)) != len(opts):
            bad(f"{where}: clarify needs 2+ distinct options")
    if cls == "report" and tool != "close_task":
        bad(f"{where}: a report closes")
    if cls == "negated_cancel":
        if tool != "cancel_task":
            bad(f"{where}: negated_cancel must cancel")
        if not NEG_RE.search(nt) or not CANCEL_RE.search(nt):
            bad(f"{where}: negated_cancel needs a negation and a cancel verb")
    if cls == "deadline_not_close":
        if tool not in ("update_task", "create_task"):
            bad(f"{where}: deadline_not_close must update or create")
        if not DONEISH_RE.search(nt):
            bad(f"{where}: deadline_not_close needs a done-ish word")
    if cls == "project_leadin":
        if tool != "create_task" or "project" not in exp:
            bad(f"{where}: project_leadin is a create with a project")
        elif not any(re.search(r"\b" + a + r"\b", nt) for a in PROJECT_ALIASES[exp["project"]]):
            bad(f"{where}: project {exp['project']} not named in the phrase")
    if tool == "create_task" and "project" in exp and cls != "project_leadin":
        bad(f"{where}: project given without a lead-in")
    if tool == "list_tasks":
        if exp["filter"] not in FILTERS:
            bad(f"{where}: filter {exp['filter']}")
        by_filter[exp["filter"]] += 1

    # explicit keys
    keys_in_text = [f"{a.upper()}-{b}" for a, b in KEY_RE.findall(text)]
    if cls == "explicit_form":
        if len(keys_in_text) != 1 or keys_in_text[0] not in task_by_key or exp.get("id") != keys_in_text[0]:
            bad(f"{where}: explicit form must name exactly the existing expected key")
    elif keys_in_text:
        if any(k in task_by_key for k in keys_in_text):
            bad(f"{where}: names an existing key outside explicit_form")

    # dates
    found, span = find_date(text)
    if tool in ("update_task", "create_task") and exp.get("deadline_kind") != "none":
        if found is None or found == "error":
            bad(f"{where}: no readable date (reference says {found})")
        else:
            k, d = found
            if (k, d.isoformat()) != (exp["deadline_kind"], exp["deadline"]):
                bad(f"{where}: date is {k} {d}, expected {exp['deadline_kind']} {exp['deadline']}")
            date_checked[tool] += 1
        if tool == "update_task":
            cur = task_by_key.get(exp["id"], {})
            if (cur.get("due"), cur.get("due_kind")) == (exp["deadline"], exp["deadline_kind"]):
                bad(f"{where}: move to the task's current due")
    elif tool == "create_task":
        if found is not None:
            bad(f"{where}: create without deadline but the reference reads {found} from {span!r}")
    elif tool == "clarify":
        if found == "error":
            bad(f"{where}: unreadable date in an ambiguous move")
        elif found is not None:
            k, d = found
            for o in exp["options"]:
                cur = task_by_key.get(o, {})
                if (cur.get("due"), cur.get("due_kind")) == (d.isoformat(), k):
                    bad(f"{where}: move date equals {o}'s current due (tie could be broken)")
            date_checked["clarify"] += 1
    elif tool in ("close_task", "cancel_task"):
        if found is not None and not (span and span in norm(task_by_key.get(exp["id"], {}).get("title", ""))):
            bad(f"{where}: a close/cancel phrase carries a date {span!r}")
    if cls == "unknown_other" and found == "error":
        date_checked["error (misspelt weekday)"] += 1

    # create text: the phrase minus command words and the date phrase
    if tool == "create_task":
        ct = norm(exp["text"]).strip()
        flat = re.sub(r"\s+", " ", nt.replace(":", " "))
        if not ct or ct not in flat:
            bad(f"{where}: create text {ct!r} is not a piece of the phrase")
        if span and span in ct:
            bad(f"{where}: create text keeps the date phrase {span!r}")
        if re.match(r"(?:add|todo|remind me to|добавь|напомни|new task)\b", ct):
            bad(f"{where}: create text keeps a command word")

dups = [t for t, n in texts.items() if n > 1]
if dups:
    bad(f"duplicate phrases: {dups}")
for c, n in TARGET.items():
    got = sum(by_class[c].values())
    if got != n:
        bad(f"class {c}: {got} phrases, target {n}")
ru = sum(v["ru"] for v in by_class.values())
en = sum(v["en"] for v in by_class.values())
if len(phrases) < 300:
    bad(f"only {len(phrases)} phrases")
if abs(ru - en) > 0.05 * (ru + en):
    bad(f"languages unbalanced: ru {ru}, en {en}")
for c in TARGET:
    r_, e_ = by_class[c]["ru"], by_class[c]["en"]
    if abs(r_ - e_) > 2:
        bad(f"class {c}: ru {r_} / en {e_} unbalanced")

# ------------------------------------------------------------------ report
print(f"TODAY {TODAY} ({TODAY:%A}) {local:%H:%M} {ZONE} (UTC {NOW_UTC:%Y-%m-%d %H:%M})")
print(f"projects {len(projects)}: {', '.join(pkeys)} (+ INBOX implicit)")
print(f"tasks {len(tasks)}: " + ", ".join(f"{p} {counters[p]}" for p in pkeys + ['INBOX']))
for c in ("overdue", "today", "week", "later", "undated"):
    print(f"  {c:8} {len(due_class[c]):2}  {' '.join(due_class[c])}")
print(f"phrases {len(phrases)}: ru {ru}, en {en}")
print(f"  {'class':20} {'ru':>4} {'en':>4} {'all':>4}")
for c in TARGET:
    print(f"  {c:20} {by_class[c]['ru']:4} {by_class[c]['en']:4} {sum(by_class[c].values()):4}")
print(f"  {'kind':20} {'ru':>4} {'en':>4} {'all':>4}")
for k in ("plain", "ambiguous", "unknown"):
    print(f"  {k:20} {by_kind[k]['ru']:4} {by_kind[k]['en']:4} {sum(by_kind[k].values()):4}")
print("  by tool: " + ", ".join(f"{t} {n}" for t, n in sorted(by_tool.items(), key=lambda x: -x[1])))
print("  list filters: " + ", ".join(f"{f} {n}" for f, n in sorted(by_filter.items())))
print("  dates recomputed: " + ", ".join(f"{t} {n}" for t, n in sorted(date_checked.items())))
if problems:
    print(f"\n{len(problems)} problem(s):")
    for p in problems:
        print("  - " + p)
    sys.exit(1)
print("OK")
