#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-58 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and keys,
recomputes every date answer with a small reference of the house date rules written
for this set only, prints the counts and exits 1 on any problem.

    python3 data/chat-phrases-holdout-58/validate.py          # check + counts
    python3 data/chat-phrases-holdout-58/validate.py --table  # what the rules give on TODAY
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
# TODAY: now = 2042-11-30T21:05:00Z, zone Europe/Istanbul (UTC+3, no DST)
NOW_UTC = dt.datetime(2042, 11, 30, 21, 5, tzinfo=dt.timezone.utc)
ZONE = dt.timezone(dt.timedelta(hours=3), "Europe/Istanbul")
TODAY = NOW_UTC.astimezone(ZONE).date()

PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)


# --------------------------------------------------------------------- date reference
def norm(s):
    s = s.lower().replace("ё", "е").replace("’", "'")
    s = re.sub(r"[«»\"!?,;:()]", " ", s)
    return re.sub(r"\s+", " ", s).strip()


WEEKDAYS = {
    0: "monday понедельник понедельника понедельнику lundi maandag montag lunes",
    1: "tuesday вторник вторника вторнику mardi dinsdag dienstag martes",
    2: "wednesday среда среду среды среде mercredi woensdag mittwoch miercoles",
    3: "thursday четверг четверга четвергу jeudi donderdag donnerstag jueves",
    4: "friday пятница пятницу пятницы пятнице vendredi vrijdag freitag viernes",
    5: "saturday суббота субботу субботы субботе samedi zaterdag samstag sabado",
    6: "sunday воскресенье воскресенья воскресенью dimanche zondag sonntag domingo",
}
WD = {w: i for i, ws in WEEKDAYS.items() for w in ws.split()}
NEXT_WORDS = {"next", "следующий", "следующую", "следующей", "следующего", "следующему"}
REL = {  # single-token relative days
    "today": 0, "tonight": 0, "eod": 0, "сегодня": 0, "hoy": 0, "hoje": 0,
    "tomorrow": 1, "tmrw": 1, "tmr": 1, "завтра": 1, "demain": 1, "morgen": 1,
    "manana": 1, "mañana": 1, "amanha": 1, "amanhã": 1,
    "послезавтра": 2, "apres-demain": 2, "après-demain": 2, "overmorgen": 2, "übermorgen": 2,
    "yesterday": -1, "вчера": -1,
}
MONTHS = {}
for i, ws in enumerate([
        "january jan января январь", "february feb февраля февраль", "march mar марта март",
        "april apr апреля апрель", "may мая май", "june jun июня июнь", "july jul июля июль",
        "august aug августа август", "september sep sept сентября сентябрь",
        "october oct октября октябрь", "november nov ноября ноябрь",
        "december dec декабря декабрь"], start=1):
    for w in ws.split():
        MONTHS[w] = i
RU_NUM = {"две": 2, "два": 2, "три": 3, "пять": 5}
FUZZY_VOCAB = [w for w in list(WD) + list(REL) if len(w) >= 5]


def osa(a, b):
    """Optimal string alignment distance (a transposition counts 1)."""
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


def meaning(w):
    if w in WD:
        return ("wd", WD[w])
    if w in REL:
        return ("rel", REL[w])
    return None


def fuzzy(tok):
    """A date word one letter off reads as the word it is closest to, if only one meaning is that close."""
    if len(tok) < 5 or meaning(tok):
        return meaning(tok)
    hits = {meaning(w) for w in FUZZY_VOCAB if osa(tok, w) == 1}
    return hits.pop() if len(hits) == 1 else None


def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def day_month(day, month, today):
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


def day_of_month(n, today):
    y, m = today.year, today.month
    for _ in range(2):
        d = last_day(y, m) if n > calendar.monthrange(y, m)[1] else dt.date(y, m, n)
        if d >= today:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


def weekday_date(i, nxt, today):
    if nxt:
        return today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7 + i)
    delta = (i - today.weekday()) % 7 or 7
    return today + dt.timedelta(days=delta)


def resolve(text, today=TODAY):
    """Every date reading found in text: list of (kind, date)."""
    s = norm(text)
    out = []

    def take(pattern, fn):
        nonlocal s
        m = re.search(pattern, s)
        while m:
            r = fn(m)
            if r:
                out.append(r)
            s = s[:m.start()] + " # " + s[m.end():]
            m = re.search(pattern, s)

    D = lambda d: ("day", d) if d else None
    take(r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: D(dt.date(int(m[1]), int(m[2]), int(m[3]))))
    take(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: D(dt.date(int(m[3]), int(m[2]), int(m[1]))))
    take(r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: D(day_month(int(m[1]), int(m[2]), today)))
    take(r"\b(\d{1,2})/(\d{1,2})\b",
         lambda m: D(day_month(int(m[1]), int(m[2]), today)) if int(m[1]) > 12 else None)
    mon = "|".join(sorted(MONTHS, key=len, reverse=True))
    take(r"\b(\d{1,2})(?:st|nd|rd|th)? (%s)\b" % mon, lambda m: D(day_month(int(m[1]), MONTHS[m[2]], today)))
    take(r"\b(%s) (\d{1,2})(?:st|nd|rd|th)?\b" % mon, lambda m: D(day_month(int(m[2]), MONTHS[m[1]], today)))
    take(r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th)\b", lambda m: D(day_of_month(int(m[1]), today)))
    take(r"\b(\d{1,2})(?:-?го)? числа\b", lambda m: D(day_of_month(int(m[1]), today)))
    # amounts
    take(r"\b(?:через|in) (\d+|две|два|три|пять) (?:дня|дней|день|days?)\b",
         lambda m: D(today + dt.timedelta(days=int(RU_NUM.get(m[1], m[1]) if m[1] in RU_NUM else m[1]))))
    take(r"\b(?:через|in) (2|две|two) (?:недели|weeks)\b|\b(?:in )?a fortnight\b",
         lambda m: D(today + dt.timedelta(days=14)))
    take(r"\bчерез неделю\b|\bin a week\b", lambda m: D(today + dt.timedelta(days=7)))
    take(r"\bday after tomorrow\b|\bpasado manana\b|\bdepois de amanha\b",
         lambda m: D(today + dt.timedelta(days=2)))
    # weeks
    take(r"\b(?:на |в )?следующ(?:ей|ую|ая) недел[еюя]\b|\bnext week\b|\bla semaine prochaine\b"
         r"|\bvolgende week\b|\bnächste woche\b|\bla proxima semana\b|\braishuu\b",
         lambda m: ("week", sunday_of(today) + dt.timedelta(days=7)))
    take(r"\b(?:до |к )?конц[ау] недели\b|\bна этой неделе\b|\bthis week\b|\bend of (?:the )?week\b",
         lambda m: ("week", sunday_of(today)))
    # months, year
    take(r"\b(?:в |до |к )?(?:следующем|следующий) месяц[е]?\b|\bnext month\b",
         lambda m: D(last_day(today.year + (today.month == 12), today.month % 12 + 1)))
    take(r"\b(?:в |до |к )?конц[еау] месяца\b|\bend of (?:the )?month\b|\beom\b",
         lambda m: D(last_day(today.year, today.month)))
    take(r"\b(?:в |до |к )?конц[еау] года\b|\bend of (?:the )?year\b",
         lambda m: D(dt.date(today.year, 12, 31)))
    take(r"\b(?:this |the )?weekend\b|\bвыходн(?:ые|ых|ым)\b",
         lambda m: D(today + dt.timedelta(days=(5 - today.weekday()) % 7)))
    # single words: weekdays (with next/this), relative days, fuzzy
    toks = s.split()
    for i, tok in enumerate(toks):
        mtok = fuzzy(tok)
        if not mtok:
            continue
        if mtok[0] == "rel":
            out.append(("day", today + dt.timedelta(days=mtok[1])))
        else:
            nxt = i > 0 and toks[i - 1] in NEXT_WORDS
            out.append(("day", weekday_date(mtok[1], nxt, today)))
    return out


# --------------------------------------------------------------------- loading
def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                problem(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                problem(f"{name}:{n}: bad JSON: {e}")
    return rows


CLASS_KIND = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
    "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
    "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown",
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}


def iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


def words(s):
    return re.findall(r"[\w'-]+", norm(s))


def main():
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            problem(f"project fields: {p}")
        if not re.fullmatch(r"[A-Z]{2,6}", p.get("key", "")) or p.get("key") == "INBOX":
            problem(f"project key: {p.get('key')}")
        if p.get("key") in pkeys:
            problem(f"duplicate project {p.get('key')}")
        pkeys.add(p.get("key"))
    if len(projects) != 5:
        problem(f"expected 5 projects, got {len(projects)}")

    by_key, counter = {}, Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"task fields: {t}")
            continue
        pk = t["project"]
        if pk != "INBOX" and pk not in pkeys:
            problem(f"{t['key']}: unknown project {pk}")
        counter[pk] += 1
        if t["key"] != f"{pk}-{counter[pk]}":
            problem(f"{t['key']}: expected key {pk}-{counter[pk]} in creation order")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                problem(f"{t['key']}: due_kind none but due set")
        elif t["due_kind"] in ("day", "week"):
            d = iso(t["due"])
            if not d:
                problem(f"{t['key']}: bad due {t['due']}")
            elif t["due_kind"] == "week" and d.weekday() != 6:
                problem(f"{t['key']}: week due {d} is not a Sunday")
        else:
            problem(f"{t['key']}: bad due_kind {t['due_kind']}")
        by_key[t["key"]] = t
    if not 55 <= len(tasks) <= 70:
        problem(f"tasks: {len(tasks)} lines, expected about 60")

    seen = set()
    for n, p in enumerate(phrases, 1):
        where = f"phrases:{n} {p.get('text')!r}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            problem(f"{where}: fields {sorted(p)}")
            continue
        text, e, cls = p["text"], p["expect"], p["class"]
        if text in seen:
            problem(f"{where}: duplicate text")
        seen.add(text)
        if p["lang"] not in ("ru", "en"):
            problem(f"{where}: lang {p['lang']}")
        if cls not in CLASS_KIND:
            problem(f"{where}: class {cls}")
            continue
        if p["kind"] != CLASS_KIND[cls]:
            problem(f"{where}: kind {p['kind']} for class {cls}")
        tool = e.get("tool")
        # shape of expect
        allowed = {
            "close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
            "update_task": {"tool", "id", "deadline_kind", "deadline"},
            "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"},
        }
        if tool == "create_task":
            if not {"tool", "text", "deadline_kind"} <= set(e) or set(e) - {"tool", "text", "deadline_kind", "deadline", "project"}:
                problem(f"{where}: create fields {sorted(e)}")
        elif tool not in allowed or set(e) != allowed[tool]:
            problem(f"{where}: expect {e}")
            continue
        for k in ([e["id"]] if "id" in e else []) + e.get("options", []):
            if k not in by_key:
                problem(f"{where}: no task {k}")
        # kind vs tool
        if p["kind"] == "ambiguous" and tool != "clarify":
            problem(f"{where}: ambiguous must clarify")
        if p["kind"] == "unknown" and tool != "none":
            problem(f"{where}: unknown must be none")
        if p["kind"] == "plain" and tool in ("clarify", "none"):
            problem(f"{where}: plain cannot be {tool}")
        if cls == "report" and tool != "close_task":
            problem(f"{where}: report must close")
        if cls == "negated_cancel" and tool != "cancel_task":
            problem(f"{where}: negated_cancel must cancel")
        if cls == "deadline_not_close" and not (tool == "update_task" or (tool == "create_task" and e["deadline_kind"] != "none")):
            problem(f"{where}: deadline_not_close must move or make a dated task")
        if cls == "project_leadin" and not (tool == "create_task" and e.get("project")):
            problem(f"{where}: project_leadin must create with a project")
        if cls == "explicit_form":
            tgt = by_key.get(e.get("id"))
            keyish = re.search(r"\b([a-z]+)[- ](\d+)\b", text.lower())
            ok = False
            if keyish and tgt and f"{keyish[1].upper()}-{keyish[2]}" == tgt["key"]:
                ok = True
            if tgt and norm(tgt["title"]) in norm(text):
                ok = True
            if not ok:
                problem(f"{where}: explicit_form names neither the key nor the exact title of {e.get('id')}")
        if tool == "list_tasks" and e["filter"] not in FILTERS:
            problem(f"{where}: filter {e['filter']}")
        if tool == "clarify":
            if len(e["options"]) < 2 or len(set(e["options"])) != len(e["options"]):
                problem(f"{where}: clarify needs 2+ distinct options")
        # project of a create
        if tool == "create_task":
            if e.get("project") and e["project"] not in pkeys:
                problem(f"{where}: unknown project {e['project']}")
            tw, pw = words(e["text"]), words(text)
            i = 0
            for w in tw:  # create text words appear, in order, in the phrase
                while i < len(pw) and pw[i] != w:
                    i += 1
                if i == len(pw):
                    problem(f"{where}: create text {e['text']!r} is not taken from the phrase")
                    break
                i += 1
            if resolve(e["text"]):
                problem(f"{where}: create text still holds a date phrase")
        # dates: recompute
        found = resolve(text)
        if tool == "update_task" or (tool == "create_task" and e["deadline_kind"] != "none"):
            want = (e["deadline_kind"], iso(e.get("deadline")))
            if e["deadline_kind"] not in ("day", "week") or not want[1]:
                problem(f"{where}: bad deadline {e}")
            elif e["deadline_kind"] == "week" and want[1].weekday() != 6:
                problem(f"{where}: week deadline not a Sunday")
            if len(set(found)) != 1 or found[0] != want:
                problem(f"{where}: reference reads {found}, expect says {want}")
            if tool == "update_task":
                t = by_key.get(e["id"])
                if t and t["due"] == e["deadline"] and t["due_kind"] == e["deadline_kind"]:
                    problem(f"{where}: move to the task's current due")
        elif tool == "create_task":
            if found:
                problem(f"{where}: undated create but the reference reads {found}")
        elif tool == "clarify" and found:
            if len(set(found)) != 1:
                problem(f"{where}: several dates {found}")
            for k in e["options"]:
                t = by_key.get(k)
                if t and t["due"] == found[0][1].isoformat():
                    problem(f"{where}: ambiguous move to {k}'s current due")
        elif tool in ("close_task", "cancel_task") and found and cls != "explicit_form":
            # a date word inside a close/cancel must come from the target title
            t = by_key.get(e["id"])
            if t and not set(w for w in words(text) if fuzzy(w) or w in MONTHS) <= set(words(t["title"])):
                problem(f"{where}: date word in a close/cancel that is not part of the title: {found}")

    # counts
    by_cl = Counter((p["class"], p["lang"]) for p in phrases)
    by_kd = Counter((p["kind"], p["lang"]) for p in phrases)
    by_tool = Counter(p["expect"]["tool"] for p in phrases)
    classes = list(CLASS_KIND)
    print(f"projects {len(projects)}, tasks {len(tasks)} "
          + ", ".join(f"{k} {v}" for k, v in sorted(counter.items())) + f", phrases {len(phrases)}")
    print("\n| class | ru | en | total |\n|---|---|---|---|")
    for c in classes:
        print(f"| {c} | {by_cl[(c, 'ru')]} | {by_cl[(c, 'en')]} | {by_cl[(c, 'ru')] + by_cl[(c, 'en')]} |")
    ru = sum(v for (c, l), v in by_cl.items() if l == "ru")
    en = sum(v for (c, l), v in by_cl.items() if l == "en")
    print(f"| **all** | {ru} | {en} | **{ru + en}** |")
    print("\n| kind | ru | en | total |\n|---|---|---|---|")
    for k in ("plain", "ambiguous", "unknown"):
        print(f"| {k} | {by_kd[(k, 'ru')]} | {by_kd[(k, 'en')]} | {by_kd[(k, 'ru')] + by_kd[(k, 'en')]} |")
    print(f"| **all** | {ru} | {en} | **{ru + en}** |")
    print("\nby tool: " + ", ".join(f"{k} {v}" for k, v in by_tool.most_common()))
    lf = Counter(p["expect"]["filter"] for p in phrases if p["expect"]["tool"] == "list_tasks")
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(lf.items())))
    if len(phrases) < 300:
        problem(f"only {len(phrases)} phrases")
    if abs(ru - en) > len(phrases) * 0.1:
        problem(f"ru {ru} / en {en} not about equal")

    if PROBLEMS:
        print(f"\n{len(PROBLEMS)} problem(s):")
        for m in PROBLEMS:
            print("  - " + m)
        return 1
    print("\nOK")
    return 0


TABLE = ["today", "сегодня", "tomorrow", "завтра", "послезавтра", "day after tomorrow",
         "yesterday", "в пятницу", "friday", "в следующую пятницу", "next friday",
         "в понедельник", "monday", "next monday", "к субботе", "weekend", "на выходных",
         "this week", "до конца недели", "next week", "на следующей неделе", "через 3 дня",
         "in a week", "in 2 weeks", "end of month", "в следующем месяце", "end of year",
         "до 1 числа", "by the 15th", "20 декабря", "15.12", "10 января", "5 ноября", "31 октября"]

if __name__ == "__main__":
    if "--table" in sys.argv:
        print(f"TODAY {TODAY} ({TODAY:%A}), now {NOW_UTC:%Y-%m-%dT%H:%MZ} = "
              f"{NOW_UTC.astimezone(ZONE):%Y-%m-%d %H:%M} Europe/Istanbul\n")
        print("| phrase | kind | date | weekday |\n|---|---|---|---|")
        for w in TABLE:
            r = resolve(w)
            k, d = r[0] if r else ("-", None)
            print(f"| {w} | {k} | {d} | {d:%a} |" if d else f"| {w} | - | - | - |")
        sys.exit(0)
    sys.exit(main())
