#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-46 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and the
keys they name, recomputes every date answer with a small reference of the house
date rules written for this set only, prints the counts and exits 1 on any problem.
TODAY: 2040-06-14T05:20:00Z = Wednesday 2040-06-13 23:20 in America/Denver.
"""
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2040, 6, 13)  # local date in America/Denver
NOW_UTC = dt.datetime(2040, 6, 14, 5, 20, tzinfo=dt.timezone.utc)
MDT = dt.timezone(dt.timedelta(hours=-6))

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
            except json.JSONDecodeError as e:
                bad(f"{name}:{i}: bad JSON ({e})")
    return rows


# ---------------------------------------------------------------- date reference
def plus(d, n):
    return d + dt.timedelta(days=n)


def sunday_of(d):
    return plus(d, 6 - d.weekday())


def last_of_month(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return plus(nxt, -1)


def weekday_after(d, wd):
    """next such weekday strictly after d"""
    k = (wd - d.weekday()) % 7
    return plus(d, k or 7)


def weekday_next_week(d, wd):
    monday_next = plus(d, 7 - d.weekday())
    return plus(monday_next, wd)


def day_month(d, day, month):
    try:
        cand = dt.date(d.year, month, day)
    except ValueError:
        return None
    if (d - cand).days > 30:
        cand = dt.date(d.year + 1, month, day)
    return cand


def day_of_month(d, day):
    y, m = d.year, d.month
    if day >= d.day:
        return dt.date(y, m, min(day, last_of_month(y, m).day))
    y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return dt.date(y, m, min(day, last_of_month(y, m).day))


WEEKDAYS = {  # word -> 0..6 (Monday = 0)
    0: "monday mon пн понедельник понедельника понедельнику lunes",
    1: "tuesday tue tues вт вторник вторника вторнику martes",
    2: "wednesday wed ср среда среду среды среде miercoles miércoles",
    3: "thursday thu thurs чт четверг четверга четвергу jueves",
    4: "friday fri пт пятница пятницу пятницы пятнице viernes",
    5: "saturday sat сб суббота субботу субботы субботе sabado sábado",
    6: "sunday sun вс воскресенье воскресенья воскресенью domingo",
}
WD = {w: i for i, ws in WEEKDAYS.items() for w in ws.split()}
MONTHS = {
    1: "january jan января январь", 2: "february feb февраля февраль",
    3: "march mar марта март", 4: "april apr апреля апрель", 5: "may мая май",
    6: "june jun июня июнь", 7: "july jul июля июль", 8: "august aug августа август",
    9: "september sep sept сентября сентябрь", 10: "october oct октября октябрь",
    11: "november nov ноября ноябрь", 12: "december dec декабря декабрь",
}
MON = {w: i for i, ws in MONTHS.items() for w in ws.split()}
SINGLE = {
    "today": 0, "eod": 0, "сегодня": 0, "hoy": 0,
    "tomorrow": 1, "tmrw": 1, "tmr": 1, "завтра": 1, "mañana": 1, "manana": 1,
    "послезавтра": 2,
}
# long words a one-letter slip may be read as (house rule for conversations)
FUZZY_TARGETS = sorted({w for w in list(WD) + list(SINGLE) + list(MON) +
                        ["следующую", "следующей", "следующий", "неделю", "недели",
                         "выходные", "выходным", "выходных", "weekend", "month", "месяца"]
                        if len(w) >= 5})


def damerau1(a, b):
    """True when a and b differ by one insertion, deletion, substitution or swap."""
    if a == b:
        return False
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if la > lb:
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


KNOWN_WORDS = set()  # filled from task titles: real words are never "typos"

# words that are part of task titles and are not dates
TITLE_DATE_WORDS = ["sunday crew", "saturday sunrise", "field day", "this morning",
                    "last night", "this year", "this month"]


def norm(text):
    t = text.lower().replace("ё", "е")
    t = re.sub(r"[!?,:;\"«»()]", " ", t)
    return re.sub(r"\s+", " ", t).strip()


def meaning(w):
    if w in WD:
        return ("wd", WD[w])
    if w in MON:
        return ("mon", MON[w])
    if w in SINGLE:
        return ("rel", SINGLE[w])
    if w.startswith("следующ"):
        return ("next",)
    if w.startswith("недел"):
        return ("week",)
    if w.startswith("выходн"):
        return ("weekend",)
    return (w,)


def fix_typos(tokens):
    out = []
    for tok in tokens:
        if (len(tok) >= 5 and tok not in FUZZY_TARGETS and tok not in KNOWN_WORDS
                and not tok.isdigit()):
            hits = [w for w in FUZZY_TARGETS if damerau1(tok, w)]
            # forms of one word (пятницу / пятницы) count as one word
            meanings = {meaning(w) for w in hits}
            if len(meanings) == 1:
                tok = hits[0]
        out.append(tok)
    return out


def ref_date(text, today=TODAY):
    """(kind, date) for the first date phrase in text, or None."""
    t = norm(text)
    for w in TITLE_DATE_WORDS:
        t = t.replace(w, " ")
    toks = fix_typos(t.split())
    t = " " + " ".join(toks) + " "

    def has(*phrases):
        return any(f" {p} " in t for p in phrases)

    if has("pasado mañana", "pasado manana", "day after tomorrow", "послезавтра"):
        return ("day", plus(today, 2))
    if has("next week", "на следующей неделе", "на следующую неделю", "следующую неделю",
           "la proxima semana", "la próxima semana"):
        return ("week", plus(sunday_of(today), 7))
    if has("this week", "end of week", "end of the week", "до конца недели",
           "к концу недели", "на этой неделе"):
        return ("week", sunday_of(today))
    if has("end of month", "end of the month", "конец месяца", "конца месяца",
           "концу месяца"):
        return ("day", last_of_month(today.year, today.month))
    if has("next month", "в следующем месяце"):
        y, m = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        return ("day", last_of_month(y, m))
    if has("end of year", "конец года", "конца года"):
        return ("day", dt.date(today.year, 12, 31))
    m = re.search(r" (?:in|через) (\d+) (?:days?|дня|дней|день) ", t)
    if m:
        return ("day", plus(today, int(m.group(1))))
    m = re.search(r" (?:in|через) (\d+) (?:weeks?|недели|недель) ", t)
    if m:
        return ("day", plus(today, 7 * int(m.group(1))))
    if has("in a week", "через неделю"):
        return ("day", plus(today, 7))
    if has("weekend", "выходные", "выходных", "выходным"):
        return ("day", weekday_after(plus(today, -1), 5))
    m = re.search(r" (?:next|следующую|следующий|следующей|следующему|следующая) (\w+) ", t)
    if m and m.group(1) in WD:
        return ("day", weekday_next_week(today, WD[m.group(1)]))
    # day + month
    m = re.search(r" (\d{1,2}) (\w+) ", t)
    if m and m.group(2) in MON:
        return ("day", day_month(today, int(m.group(1)), MON[m.group(2)]))
    m = re.search(r" (\w+) (\d{1,2})(?:st|nd|rd|th)? ", t)
    if m and m.group(1) in MON:
        return ("day", day_month(today, int(m.group(2)), MON[m.group(1)]))
    m = re.search(r" (\d{1,2})\.(\d{1,2}) ", t)
    if m:
        return ("day", day_month(today, int(m.group(1)), int(m.group(2))))
    # day of month alone
    m = re.search(r" (?:до|к|на) (\d{1,2}) числа ", t) or re.search(
        r" the (\d{1,2})(?:st|nd|rd|th) ", t)
    if m:
        return ("day", day_of_month(today, int(m.group(1))))
    for tok in t.split():
        if tok in SINGLE:
            return ("day", plus(today, SINGLE[tok]))
    for tok in t.split():
        if tok in WD:
            return ("day", weekday_after(today, WD[tok]))
    return None


def self_test():
    cases = [
        ("tomorrow", ("day", "2040-06-14")), ("послезавтра", ("day", "2040-06-15")),
        ("friday", ("day", "2040-06-15")), ("в среду", ("day", "2040-06-20")),
        ("в четверг", ("day", "2040-06-14")), ("next friday", ("day", "2040-06-22")),
        ("next monday", ("day", "2040-06-18")), ("this week", ("week", "2040-06-17")),
        ("next week", ("week", "2040-06-24")), ("end of month", ("day", "2040-06-30")),
        ("next month", ("day", "2040-07-31")), ("weekend", ("day", "2040-06-16")),
        ("in 3 days", ("day", "2040-06-16")), ("через неделю", ("day", "2040-06-20")),
        ("через 2 недели", ("day", "2040-06-27")), ("20 июня", ("day", "2040-06-20")),
        ("до 1 числа", ("day", "2040-07-01")), ("by the 13th", ("day", "2040-06-13")),
        ("10 мая", ("day", "2041-05-10")), ("1 июня", ("day", "2040-06-01")),
        ("в пятницк", ("day", "2040-06-15")), ("wednsday", ("day", "2040-06-20")),
        ("pasado mañana", ("day", "2040-06-15")), ("el viernes", ("day", "2040-06-15")),
    ]
    for text, (k, d) in cases:
        got = ref_date(text)
        if got != (k, dt.date.fromisoformat(d)):
            bad(f"date reference self-test: {text!r} gave {got}, want {k} {d}")
    if NOW_UTC.astimezone(MDT).date() != TODAY or TODAY.weekday() != 2:
        bad("TODAY is not Wednesday 2040-06-13 local")


# ---------------------------------------------------------------- checks
CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain", "project_leadin": "plain",
    "offtopic": "unknown", "plain_other": "plain", "ambiguous": "ambiguous",
    "unknown_other": "unknown",
}
CLASS_TOOLS = {
    "report": {"close_task"}, "negated_cancel": {"cancel_task"},
    "explicit_form": {"close_task", "cancel_task", "update_task"},
    "deadline_not_close": {"update_task", "create_task"},
    "project_leadin": {"create_task"}, "offtopic": {"none"}, "ambiguous": {"clarify"},
    "unknown_other": {"none"},
    "typo": {"close_task", "cancel_task", "update_task", "create_task"},
    "plain_other": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
MOVE_WORDS = re.compile(r"\b(move|push|перенеси|сдвинь|отложи)\b|на следующую|to next week")
CYR = re.compile(r"[а-яё]", re.I)


def words(s):
    return re.findall(r"[\wñ']+", norm(s))


def main():
    self_test()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"project fields: {p}")
            continue
        if not re.fullmatch(r"[A-Z]{2,6}", p["key"]) or p["key"] == "INBOX":
            bad(f"project key: {p['key']}")
        if not p["name"].strip() or len(p["description"]) < 20:
            bad(f"project name/description: {p}")
        pkeys.append(p["key"])
    if len(projects) != 5 or len(set(pkeys)) != 5:
        bad("need 5 distinct projects")

    task = {}
    counters = {}
    for i, t in enumerate(tasks, 1):
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"task {i} fields: {t}")
            continue
        proj = t["project"]
        if proj not in pkeys and proj != "INBOX":
            bad(f"task {t['key']}: unknown project {proj}")
        counters[proj] = counters.get(proj, 0) + 1
        if t["key"] != f"{proj}-{counters[proj]}":
            bad(f"task {i}: key {t['key']} should be {proj}-{counters[proj]}")
        if t["key"] in task:
            bad(f"duplicate key {t['key']}")
        for w in words(t["title"]):
            KNOWN_WORDS.add(w)
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"{t['key']}: undated task with a due")
        elif t["due_kind"] in ("day", "week"):
            try:
                d = dt.date.fromisoformat(t["due"])
            except (TypeError, ValueError):
                bad(f"{t['key']}: bad due {t['due']}")
                d = None
            if d and t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"{t['key']}: week due is not a Sunday")
        else:
            bad(f"{t['key']}: bad due_kind {t['due_kind']}")
        task[t["key"]] = t
    # words of title-phrases may not be "corrected" to date words
    KNOWN_WORDS.difference_update(set(WD) | set(SINGLE) | set(MON))

    due_of = {k: t["due"] for k, t in task.items()}
    seen = set()
    by_cls, by_kind, by_tool = {}, {}, {}
    for i, ph in enumerate(phrases, 1):
        where = f"phrases:{i} {ph.get('text')!r}"
        if set(ph) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(ph)}")
            continue
        text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
        if text in seen:
            bad(f"{where}: duplicate text")
        seen.add(text)
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        if lang == "ru" and not CYR.search(text):
            bad(f"{where}: ru without Cyrillic")
        if lang == "en" and CYR.search(text):
            bad(f"{where}: en with Cyrillic")
        if cls not in CLASSES:
            bad(f"{where}: class {cls}")
            continue
        if CLASSES[cls] != kind:
            bad(f"{where}: kind {kind} for class {cls}")
        tool = exp.get("tool")
        if tool not in CLASS_TOOLS[cls]:
            bad(f"{where}: tool {tool} not allowed in class {cls}")
        by_cls[(cls, lang)] = by_cls.get((cls, lang), 0) + 1
        by_kind[(kind, lang)] = by_kind.get((kind, lang), 0) + 1
        tk = tool
        if tool == "list_tasks":
            tk = f"list_tasks:{exp.get('filter')}"
        by_tool[tk] = by_tool.get(tk, 0) + 1

        ref = None if cls in ("offtopic", "unknown_other") else ref_date(text)
        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"} or exp["id"] not in task:
                bad(f"{where}: bad {tool} {exp}")
            if ref is not None and tool == "close_task":
                bad(f"{where}: close with a date phrase {ref}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in task:
                bad(f"{where}: bad update {exp}")
                continue
            want = (exp["deadline_kind"], dt.date.fromisoformat(exp["deadline"]))
            if ref != want:
                bad(f"{where}: date reference gives {ref}, expect has {want}")
            if exp["deadline"] == due_of[exp["id"]] and exp["deadline_kind"] == task[exp["id"]]["due_kind"]:
                bad(f"{where}: move to the date the task already has")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(exp) <= allowed or not exp.get("text"):
                bad(f"{where}: bad create {exp}")
                continue
            if exp.get("project") is not None and exp["project"] not in pkeys:
                bad(f"{where}: unknown project {exp['project']}")
            if cls == "project_leadin" and "project" not in exp:
                bad(f"{where}: lead-in create without project")
            dk = exp.get("deadline_kind")
            if dk == "none":
                if "deadline" in exp:
                    bad(f"{where}: none with a deadline")
                if ref is not None:
                    bad(f"{where}: undated create but reference finds {ref}")
            elif dk in ("day", "week"):
                want = (dk, dt.date.fromisoformat(exp["deadline"]))
                if ref != want:
                    bad(f"{where}: date reference gives {ref}, expect has {want}")
            else:
                bad(f"{where}: bad deadline_kind {dk}")
            ntext = norm(exp["text"])
            if ntext not in norm(text):
                bad(f"{where}: create text is not a piece of the phrase")
            if exp.get("deadline") and ref_date(exp["text"]) is not None:
                bad(f"{where}: create text still holds the date phrase")
        elif tool == "list_tasks":
            if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in FILTERS:
                bad(f"{where}: bad list {exp}")
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                bad(f"{where}: bad clarify {exp}")
                continue
            if len(set(opts)) != len(opts) or any(o not in task for o in opts):
                bad(f"{where}: clarify options {opts}")
            if MOVE_WORDS.search(norm(text)) or ref is not None:
                if ref is None:
                    bad(f"{where}: ambiguous move without a readable date")
                else:
                    for o in opts:
                        if due_of.get(o) == ref[1].isoformat():
                            bad(f"{where}: {o} already has the move's date")
        elif tool == "none":
            if set(exp) != {"tool"}:
                bad(f"{where}: bad none {exp}")
        else:
            bad(f"{where}: unknown tool {tool}")

    # ------------------------------------------------------------ report
    langs = ("ru", "en")
    print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
    per = {}
    for t in tasks:
        per[t["project"]] = per.get(t["project"], 0) + 1
    print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in per.items()))
    dated = [t for t in tasks if t["due"]]
    print("dues: overdue %d, today %d, week %d, later day %d, undated %d" % (
        sum(1 for t in dated if t["due"] < TODAY.isoformat() and t["due_kind"] == "day"),
        sum(1 for t in dated if t["due"] == TODAY.isoformat()),
        sum(1 for t in dated if t["due_kind"] == "week"),
        sum(1 for t in dated if t["due"] > TODAY.isoformat() and t["due_kind"] == "day"),
        len(tasks) - len(dated)))
    print()
    print("| class | ru | en | total |")
    print("|---|---|---|---|")
    for c in CLASSES:
        r, e = by_cls.get((c, "ru"), 0), by_cls.get((c, "en"), 0)
        print(f"| {c} | {r} | {e} | {r + e} |")
    r = sum(v for (c, l), v in by_cls.items() if l == "ru")
    e = sum(v for (c, l), v in by_cls.items() if l == "en")
    print(f"| **all** | {r} | {e} | **{r + e}** |")
    print()
    print("| kind | ru | en | total |")
    print("|---|---|---|---|")
    for k in ("plain", "ambiguous", "unknown"):
        r, e = by_kind.get((k, "ru"), 0), by_kind.get((k, "en"), 0)
        print(f"| {k} | {r} | {e} | {r + e} |")
    print()
    print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
    for c in CLASSES:
        r, e = by_cls.get((c, "ru"), 0), by_cls.get((c, "en"), 0)
        if abs(r - e) > 2:
            bad(f"class {c} is unbalanced: ru {r}, en {e}")
    if len(phrases) < 300:
        bad("fewer than 300 phrases")
    if problems:
        print(f"\n{len(problems)} problem(s):")
        for p in problems:
            print("  - " + p)
        return 1
    print("\nOK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
