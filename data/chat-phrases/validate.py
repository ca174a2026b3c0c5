#!/usr/bin/env python3
"""Self-check of the chat-phrases test set (stdlib only).

Run from anywhere:  python3 data/chat-phrases/validate.py

Checks:
  * every line of every *.jsonl file is a JSON object with the expected fields;
  * task keys are <PROJECT>-<n>, consecutive per project in file order,
    projects exist (INBOX is implicit);
  * every key referenced by phrases.jsonl exists in tasks.jsonl, clarify has >= 2
    options, no duplicate phrase texts;
  * counts meet the minimums of the brief;
  * every date in dates.jsonl / phrases.jsonl is a valid calendar date;
  * a small independent reference of the house date rules (below) recomputes
    every dates.jsonl answer and every deadline in phrases.jsonl.
The reference is NOT the product's parser; it only knows the wording used in this
set and exists to catch arithmetic slips in the hand-written answers.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
PHRASE_TODAY = dt.date(2026, 3, 11)
PHRASE_NOW = "10:00"
errors = []


def err(msg):
    errors.append(msg)


def load(name):
    out = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"{name}:{n}: blank line")
                continue
            try:
                v = json.loads(line)
            except json.JSONDecodeError as e:
                err(f"{name}:{n}: bad JSON: {e}")
                continue
            if not isinstance(v, dict):
                err(f"{name}:{n}: not an object")
                continue
            out.append((n, v))
    return out


def valid_date(s):
    try:
        return dt.date.fromisoformat(s) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", s) else None
    except ValueError:
        return None


# ---------------------------------------------------------------- reference dates
WD = {}
for i, names in enumerate([
    "понедельник понедельника понедельнику пн monday mon lunes",
    "вторник вторника вторнику вт tuesday tue tues martes",
    "среда среду среды среде ср wednesday wed miercoles",
    "четверг четверга четвергу чт thursday thu thurs jueves",
    "пятница пятницу пятницы пятнице пт friday fri viernes",
    "суббота субботу субботы субботе сб saturday sat sabado",
    "воскресенье воскресенья воскресенью вс sunday sun domingo",
]):
    for nm in names.split():
        WD[nm] = i
MONTHS = {}
for i, names in enumerate([
    "января январь jan january", "февраля февраль feb february", "марта март mar march",
    "апреля апрель apr april", "мая май may", "июня июнь jun june", "июля июль jul july",
    "августа август aug august", "сентября сентябрь sep sept september",
    "октября октябрь oct october", "ноября ноябрь nov november", "декабря декабрь dec december",
], 1):
    for nm in names.split():
        MONTHS[nm] = i
NUMWORDS = {"a": 1, "one": 1, "one day": 1}


class Bad(Exception):
    pass


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def next_wd(today, wd):  # strictly after today
    k = (wd - today.weekday()) % 7
    return today + dt.timedelta(days=k or 7)


def next_week_wd(today, wd):
    monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def week_sunday(today, weeks_ahead):
    return today + dt.timedelta(days=6 - today.weekday() + 7 * weeks_ahead)


def day_month(today, d, m):
    try:
        x = dt.date(today.year, m, d)
    except ValueError:
        # 29 Feb: try next year per the 30-day rule only if this year's would be past
        raise Bad("no such day")
    if (today - x).days > 30:
        x = dt.date(today.year + 1, m, d)
    return x


def day_of_month(today, d):
    if d < 1 or d > 31:
        raise Bad("day of month")
    y, m = today.year, today.month
    for _ in range(3):
        x = dt.date(y, m, min(d, calendar.monthrange(y, m)[1]))
        if x >= today:
            return x
        m += 1
        if m == 13:
            y, m = y + 1, 1
    raise Bad("unreachable")


def norm(t):
    t = t.lower().replace("ё", "е").replace("ñ", "n").replace("ó", "o")
    t = re.sub(r"[,:!?]+$", "", t.strip())
    return re.sub(r"\s+", " ", t)


DAY_PREP = r"(?:(?:на|в|во|до|к|by|before|on|till|until|el|this|to|the) )*"


def ref_day(t, today):
    """-> (kind, date) or raise Bad."""
    t = re.sub(r"^" + DAY_PREP, "", t) if not re.match(r"^(this week|this weekend)$", t) else t
    if t in ("завтра", "tomorrow", "tmrw", "tmr", "manana"):
        return "day", today + dt.timedelta(days=1)
    if t in ("сегодня", "today", "eod", "hoy"):
        return "day", today
    if t in ("послезавтра", "day after tomorrow", "pasado manana"):
        return "day", today + dt.timedelta(days=2)
    if t in WD:
        return "day", next_wd(today, WD[t])
    m = re.fullmatch(r"(?:next|следующую|следующий|следующее|следующая) (\S+)", t)
    if m and m.group(1) in WD:
        return "day", next_week_wd(today, WD[m.group(1)])
    if m and m.group(1) not in WD and m.group(1) not in ("week", "month", "неделю", "неделе", "месяце"):
        raise Bad("unknown weekday")
    if t in ("этой неделе", "эту неделю", "this week", "конца недели", "концу недели", "end of week",
             "end of the week", "the end of the week"):
        return "week", week_sunday(today, 0)
    if t in ("next week", "следующей неделе", "следующую неделю", "след неделе", "la proxima semana", "proxima semana"):
        return "week", week_sunday(today, 1)
    if t in ("end of month", "конца месяца", "концу месяца", "the end of the month",
             "end of the month", "конец месяца"):
        return "day", last_day(today.year, today.month)
    if t in ("next month", "следующем месяце"):
        y, mo = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return "day", last_day(y, mo)
    if t in ("end of year", "конца года"):
        return "day", dt.date(today.year, 12, 31)
    if t in ("weekend", "выходные", "выходных", "this weekend"):
        k = (5 - today.weekday()) % 7
        return "day", today + dt.timedelta(days=k)
    m = re.fullmatch(r"(?:in|через) (-?\d+|a|минус \d+) (days?|weeks?|дня|дней|день|недел[юиь])", t)
    if m:
        n = m.group(1)
        n = -int(n.split()[1]) if n.startswith("минус") else (1 if n == "a" else int(n))
        if n <= 0:
            raise Bad("negative")
        mult = 7 if m.group(2).startswith(("week", "недел")) else 1
        return "day", today + dt.timedelta(days=n * mult)
    if t in ("через неделю", "in a week"):
        return "day", today + dt.timedelta(days=7)
    m = re.fullmatch(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})", t)
    if m:
        try:
            return "day", dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            raise Bad("iso")
    m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", t)
    if m:
        try:
            return "day", dt.date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        except ValueError:
            raise Bad("dd.mm.yyyy")
    m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})", t)
    if m:
        d, mo = int(m.group(1)), int(m.group(2))
        if not 1 <= mo <= 12:
            raise Bad("month")
        return "day", day_month(today, d, mo)
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})", t)
    if m:
        d, mo = int(m.group(1)), int(m.group(2))
        if d <= 12:
            raise Bad("mm/dd ambiguous")
        return "day", day_month(today, d, mo)
    m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)? (\S+)", t) or None
    if m and m.group(2) in MONTHS:
        return "day", day_month(today, int(m.group(1)), MONTHS[m.group(2)])
    m = re.fullmatch(r"(\S+) (\d{1,2})(?:st|nd|rd|th)?", t)
    if m and m.group(1) in MONTHS:
        return "day", day_month(today, int(m.group(2)), MONTHS[m.group(1)])
    m = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th|-го)?(?: (?:числа|числу))?", t)
    if m and (t.endswith(("st", "nd", "rd", "th", "числа", "числу", "-го"))):
        d = int(m.group(1))
        if d == 0:
            raise Bad("zero")
        return "day", day_of_month(today, d)
    raise Bad("not understood: " + t)


def parse_clock(s):
    s = s.strip()
    if s in ("noon", "полдень"):
        return 12, 0
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", s)
    if m:
        h, mi = int(m.group(1)), int(m.group(2))
    else:
        m = re.fullmatch(r"(\d{1,2}) ?(am|pm|утра|вечера|дня)", s)
        if not m:
            raise Bad("clock")
        h, mi = int(m.group(1)), 0
        if m.group(2) in ("pm", "вечера", "дня") and h < 12:
            h += 12
        if m.group(2) in ("am", "утра") and h == 12:
            h = 0
    if h > 23 or mi > 59:
        raise Bad("clock range")
    return h, mi


def ref(text, today, now):
    t = norm(text)
    nh, nm = map(int, now.split(":"))
    nowdt = dt.datetime.combine(today, dt.time(nh, nm))
    m = re.fullmatch(r"(?:in|через) (\d+) (hours?|часа|часов|час|minutes?|минут[уы]?)", t)
    if m:
        n = int(m.group(1))
        delta = dt.timedelta(hours=n) if m.group(2).startswith(("h", "час")) else dt.timedelta(minutes=n)
        return {"kind": "time", "at": (nowdt + delta).strftime("%Y-%m-%dT%H:%M")}
    if re.match(r"(in|через) ", t) and not re.search(r"(hour|minute|час|минут)", t):
        kind, d = ref_day(t, today)
        return {"kind": kind, "date": d.isoformat()}
    m = re.fullmatch(r"(.*?)\s*(?:at |в )?(noon|\d{1,2}:\d{2}|\d{1,2} ?(?:am|pm|утра|вечера|дня))", t)
    if m:
        day_part = m.group(1).strip()
        h, mi = parse_clock(m.group(2))
        if day_part in ("", "at", "в"):
            at = dt.datetime.combine(today, dt.time(h, mi))
            if at <= nowdt:
                at += dt.timedelta(days=1)
        else:
            kind, d = ref_day(day_part, today)
            at = dt.datetime.combine(d, dt.time(h, mi))
        return {"kind": "time", "at": at.strftime("%Y-%m-%dT%H:%M")}
    kind, d = ref_day(t, today)
    return {"kind": kind, "date": d.isoformat()}


def ref_or_error(text, today, now):
    try:
        return ref(text, today, now)
    except (Bad, ValueError):
        return {"error": True}


# ---------------------------------------------------------------- checks
projects = load("projects.jsonl")
pkeys = set()
for n, p in projects:
    k = p.get("key", "")
    if not re.fullmatch(r"[A-Z]{2,6}", k) or k == "INBOX":
        err(f"projects.jsonl:{n}: bad key {k!r}")
    if not p.get("name") or not p.get("description"):
        err(f"projects.jsonl:{n}: name/description missing")
    pkeys.add(k)
if not 3 <= len(projects) <= 5:
    err(f"projects: {len(projects)} (want 3-5)")

tasks = load("tasks.jsonl")
tkeys = {}
counter = Counter()
for n, t in tasks:
    k, proj = t.get("key", ""), t.get("project")
    if proj != "INBOX" and proj not in pkeys:
        err(f"tasks.jsonl:{n}: unknown project {proj}")
    counter[proj] += 1
    if k != f"{proj}-{counter[proj]}":
        err(f"tasks.jsonl:{n}: key {k} should be {proj}-{counter[proj]}")
    if k in tkeys:
        err(f"tasks.jsonl:{n}: duplicate key {k}")
    tkeys[k] = t
    if t.get("due_kind") not in ("none", "day", "week"):
        err(f"tasks.jsonl:{n}: due_kind")
    if t.get("due_kind") == "none" and t.get("due") is not None:
        err(f"tasks.jsonl:{n}: due with kind none")
    if t.get("due_kind") != "none":
        d = valid_date(t.get("due") or "")
        if not d:
            err(f"tasks.jsonl:{n}: bad due")
        elif t["due_kind"] == "week" and d.weekday() != 6:
            err(f"tasks.jsonl:{n}: week due is not a Sunday")
if not 40 <= len(tasks) <= 60:
    err(f"tasks: {len(tasks)} (want 40-60)")
dues = [dt.date.fromisoformat(t["due"]) for _, t in tasks if t.get("due")]
if not any(d < PHRASE_TODAY for d in dues) or not any(d == PHRASE_TODAY for d in dues):
    err("tasks: need overdue and today's tasks")

phrases = load("phrases.jsonl")
seen = set()
kinds = Counter()
langs = Counter()
tools = Counter()
date_checks = 0
for n, p in phrases:
    where = f"phrases.jsonl:{n}"
    text, e = p.get("text"), p.get("expect") or {}
    if not text or p.get("lang") not in ("ru", "en") or p.get("kind") not in ("plain", "ambiguous", "unknown"):
        err(f"{where}: fields")
    if text in seen:
        err(f"{where}: duplicate text {text!r}")
    seen.add(text)
    kinds[p.get("kind")] += 1
    langs[(p.get("kind"), p.get("lang"))] += 1
    tool = e.get("tool")
    tools[tool] += 1
    kind = p.get("kind")
    if tool == "clarify":
        opts = e.get("options", [])
        if len(opts) < 2 or len(set(opts)) != len(opts) or kind != "ambiguous":
            err(f"{where}: clarify options / kind")
        for o in opts:
            if o not in tkeys:
                err(f"{where}: unknown key {o}")
    elif tool == "none":
        if kind != "unknown":
            err(f"{where}: none must be kind unknown")
    elif tool in ("close_task", "cancel_task", "update_task"):
        if e.get("id") not in tkeys or kind != "plain":
            err(f"{where}: id {e.get('id')} / kind")
    elif tool == "list_tasks":
        if e.get("filter") not in ("today", "inbox", "overdue", "done", "all_by_project"):
            err(f"{where}: filter")
    elif tool == "create_task":
        if not e.get("text") or e.get("deadline_kind") not in ("none", "day", "week"):
            err(f"{where}: create fields")
        if e.get("project") and e["project"] not in pkeys:
            err(f"{where}: create project")
    else:
        err(f"{where}: unknown tool {tool}")
    if tool in ("update_task", "create_task") and e.get("deadline_kind", "none") != "none":
        d = valid_date(e.get("deadline", ""))
        if not d:
            err(f"{where}: bad deadline")
            continue
        if e["deadline_kind"] == "week" and d.weekday() != 6:
            err(f"{where}: week deadline not a Sunday")
        # find the longest word span the reference understands; it must agree
        words = re.sub(r"[:,]", " ", text).split()
        best = None
        for i in range(len(words)):
            for j in range(len(words), i, -1):
                if best and j - i <= best[0]:
                    break
                r = ref_or_error(" ".join(words[i:j]), PHRASE_TODAY, PHRASE_NOW)
                if "error" not in r and r.get("kind") != "time":
                    best = (j - i, " ".join(words[i:j]), r)
                    break
        want = {"kind": e["deadline_kind"], "date": e["deadline"]}
        if not best or best[2] != want:
            err(f"{where}: deadline {want} vs reference {best}")
        date_checks += 1
    if tool == "update_task" and e.get("deadline_kind") is None:
        err(f"{where}: update without a change")
    if tool == "create_task" and e.get("deadline_kind") == "none" and "deadline" in e:
        err(f"{where}: none with deadline")

dates = load("dates.jsonl")
dk = Counter()
dlang = Counter()
todays = set()
for n, x in dates:
    where = f"dates.jsonl:{n}"
    today = valid_date(x.get("today", ""))
    if not today or not re.fullmatch(r"\d{2}:\d{2}", x.get("now", "")):
        err(f"{where}: today/now")
        continue
    todays.add(today)
    e = x.get("expect") or {}
    if e.get("error") is True:
        dk["error"] += 1
    elif e.get("kind") in ("day", "week"):
        d = valid_date(e.get("date", ""))
        if not d:
            err(f"{where}: bad date {e.get('date')}")
        elif e["kind"] == "week" and d.weekday() != 6:
            err(f"{where}: week date not a Sunday")
        dk[e["kind"]] += 1
    elif e.get("kind") == "time":
        try:
            dt.datetime.strptime(e.get("at", ""), "%Y-%m-%dT%H:%M")
        except ValueError:
            err(f"{where}: bad time {e.get('at')}")
        dk["time"] += 1
    else:
        err(f"{where}: expect shape")
    r = ref_or_error(x["text"], today, x["now"])
    if r != e:
        err(f"{where}: {x['text']!r} today={x['today']} now={x['now']}: expect {e}, reference {r}")
    dlang["ru" if re.search(r"[а-яё]", x["text"], re.I) else
          ("es" if x["text"] in ("mañana", "manana", "el viernes", "pasado mañana", "la próxima semana", "hoy") else "en/num")] += 1

# ---------------------------------------------------------------- minimums
if len(phrases) < 170: err(f"phrases: {len(phrases)} < 170")
if kinds["plain"] < 100: err("plain < 100")
if kinds["ambiguous"] < 30: err("ambiguous < 30")
if kinds["unknown"] < 30: err("unknown < 30")
if len(dates) < 130: err(f"dates: {len(dates)} < 130")
if dk["error"] < 10: err("date errors < 10")
for k in ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none"):
    for lang in ("ru", "en"):
        if not any(p.get("expect", {}).get("tool") == k and p.get("lang") == lang for _, p in phrases):
            err(f"no {k} phrase in {lang}")

print(f"projects {len(projects)}, tasks {len(tasks)} {dict(counter)}")
print(f"phrases {len(phrases)}: kinds {dict(kinds)}")
print(f"  by kind/lang {dict(sorted(langs.items()))}")
print(f"  by tool {dict(tools)}; deadlines cross-checked: {date_checks}")
print(f"dates {len(dates)}: {dict(dk)}; todays {sorted(str(t) for t in todays)}; lang {dict(dlang)}")
if errors:
    print(f"\n{len(errors)} problem(s):")
    for e in errors:
        print("  " + e)
    sys.exit(1)
print("OK")
