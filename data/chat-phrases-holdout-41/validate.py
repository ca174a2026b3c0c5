#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-41 (stdlib only).

Checks JSON shapes, keys (existence and creation order), class/kind consistency,
counts per class and language, and recomputes every expected date from the phrase
text with a small reference of the house date rules written for this set only.
Prints counts; exits 1 on any problem.
"""
import calendar
import json
import os
import re
import sys
from collections import Counter
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = date(2039, 5, 1)  # 2039-04-30T19:10:00Z in Asia/Yekaterinburg (UTC+5) = Sun 2039-05-01 00:10
PROBLEMS = []


def problem(msg):
    PROBLEMS.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                problem(f"{name}:{i}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                problem(f"{name}:{i}: bad JSON: {e}")
    return rows


# ---------------------------------------------------------------- date reference
def eom(y, m):
    return date(y, m, calendar.monthrange(y, m)[1])


def this_sunday(t):
    return t + timedelta(days=6 - t.weekday())


def plain_weekday(t, wd):
    d = t + timedelta(days=1)
    while d.weekday() != wd:
        d += timedelta(days=1)
    return d


def next_week_weekday(t, wd):
    return this_sunday(t) + timedelta(days=1 + wd)


def coming_saturday(t):
    d = t
    while d.weekday() != 5:
        d += timedelta(days=1)
    return d


def day_month(t, d, m):
    try:
        c = date(t.year, m, d)
    except ValueError:
        return None
    if (t - c).days > 30:
        try:
            c = date(t.year + 1, m, d)
        except ValueError:
            return None
    return c


def day_of_month(t, d):
    if not 1 <= d <= 31:
        return None
    y, m = t.year, t.month
    for _ in range(3):
        c = date(y, m, min(d, calendar.monthrange(y, m)[1]))
        if c >= t:
            return c
        m += 1
        if m == 13:
            y, m = y + 1, 1
    return None


WEEKDAYS = {
    0: "monday mon понедельник понедельника понедельнику пн",
    1: "tuesday tue tues вторник вторника вторнику вт",
    2: "wednesday wed среда среду среды среде ср",
    3: "thursday thu thur thurs четверг четверга четвергу чт",
    4: "friday fri пятница пятницу пятницы пятнице пт",
    5: "saturday sat суббота субботу субботы субботе сб",
    6: "sunday sun воскресенье воскресенья воскресенью вс",
}
WD = {w: i for i, ws in WEEKDAYS.items() for w in ws.split()}
WD_RE = "|".join(sorted(WD, key=len, reverse=True))
MONTHS = {
    "января": 1, "февраля": 2, "марта": 3, "апреля": 4, "мая": 5, "июня": 6, "июля": 7,
    "августа": 8, "сентября": 9, "октября": 10, "ноября": 11, "декабря": 12,
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
}
MON_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
NUMW = {"a": 1, "one": 1, "одну": 1, "один": 1, "two": 2, "две": 2, "два": 2, "three": 3, "три": 3,
        "four": 4, "четыре": 4, "five": 5, "пять": 5}
NUM_RE = r"(\d{1,2}|" + "|".join(NUMW) + ")"

# head date words (the only words a one-letter slip is corrected to), by meaning
HEADS = {
    "today": "today", "tonight": "today", "сегодня": "today",
    "tomorrow": "tomorrow", "завтра": "tomorrow", "послезавтра": "dayafter",
    "week": "week", "weeks": "week", "weekend": "weekend", "month": "month",
    "неделе": "week", "неделю": "week", "недели": "week", "недель": "week",
    "месяца": "month", "месяце": "month", "выходных": "weekend", "выходные": "weekend",
}
for w, i in WD.items():
    if len(w) >= 4:
        HEADS[w] = "wd%d" % i
KNOWN = set(HEADS) | set(MONTHS) | {"числа", "через", "конца", "концу", "конце", "следующей",
                                    "следующую", "следующий", "next", "this"}


def damerau1(a, b):
    """True when a and b are exactly one edit apart (sub, ins, del, adjacent swap)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    if len(a) > len(b):
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


def normalize(text):
    t = text.lower().replace("ё", "е").replace("'", "").replace("’", "")
    t = re.sub(r"[^0-9a-zа-я./\- ]+", " ", t)
    t = re.sub(r"(?<![0-9])[./](?![0-9])", " ", t)
    return " ".join(t.split())


def correct(tokens, fixes):
    out = []
    for tok in tokens:
        if len(tok) >= 4 and tok not in KNOWN and tok.isalpha():
            near = {HEADS[h] for h in HEADS if len(h) >= 4 and damerau1(tok, h)}
            if len(near) == 1:
                h = min((h for h in HEADS if damerau1(tok, h)), key=len)
                fixes.append((tok, h))
                tok = h
        out.append(tok)
    return out


def num(s):
    return int(s) if s.isdigit() else NUMW[s]


def B(p):
    return r"(?<!\S)" + p + r"(?!\S)"


def find_dates(text, fixes=None):
    """Return a list of (kind, date) found in the phrase, by the house rules."""
    fixes = [] if fixes is None else fixes
    s = " ".join(correct(normalize(text).split(), fixes))
    t = TODAY
    found = []
    rules = [
        (r"(\d{4})[-/](\d{2})[-/](\d{2})", lambda m: ("day", date(int(m[1]), int(m[2]), int(m[3])))),
        (r"(\d{1,2})\.(\d{1,2})\.(\d{4})", lambda m: ("day", date(int(m[3]), int(m[2]), int(m[1])))),
        (r"(\d{1,2})\.(\d{1,2})", lambda m: ("day", day_month(t, int(m[1]), int(m[2])))),
        (r"(\d{1,2})/(\d{1,2})", lambda m: ("day", day_month(t, int(m[1]), int(m[2])) if int(m[1]) > 12 else None)),
        (r"(?:day after tomorrow|послезавтра)", lambda m: ("day", t + timedelta(days=2))),
        (r"(?:end of (?:the )?year|(?:конца|концу|конце) года)", lambda m: ("day", date(t.year, 12, 31))),
        (r"(?:end of (?:the )?month|(?:конца|концу|конце) месяца|this month|этом месяце)", lambda m: ("day", eom(t.year, t.month))),
        (r"(?:next month|следующем месяце|следующий месяц)",
         lambda m: ("day", eom(t.year + (t.month == 12), t.month % 12 + 1))),
        (r"(?:in (?:a|one|1) week|через неделю)", lambda m: ("day", t + timedelta(days=7))),
        (r"(?:in|через) " + NUM_RE + r" (?:weeks|недели|недель)", lambda m: ("day", t + timedelta(days=7 * num(m[1])))),
        (r"(?:in|через) " + NUM_RE + r" (?:days?|дня|дней|день)", lambda m: ("day", t + timedelta(days=num(m[1])))),
        (r"(?:next week|следующей неделе|следующую неделю|следующая неделя)", lambda m: ("week", this_sunday(t) + timedelta(days=7))),
        (r"(?:this week|end of (?:the )?week|(?:конца|концу) недели|этой неделе|эту неделю)", lambda m: ("week", this_sunday(t))),
        (r"(?:(?:this |the )?weekend|выходных|выходные)", lambda m: ("day", coming_saturday(t))),
        (r"(?:next|следующую|следующий|следующее|следующей) (" + WD_RE + ")", lambda m: ("day", next_week_weekday(t, WD[m[1]]))),
        (r"(?:this |эту |этот |это )?(" + WD_RE + ")", lambda m: ("day", plain_weekday(t, WD[m[1]]))),
        (r"(?:today|tonight|eod|сегодня)", lambda m: ("day", t)),
        (r"(?:tomorrow|tmrw|tmr|завтра)", lambda m: ("day", t + timedelta(days=1))),
        (r"(\d{1,2}) (" + MON_RE + ")", lambda m: ("day", day_month(t, int(m[1]), MONTHS[m[2]]))),
        (r"(" + MON_RE + r") (\d{1,2})(?:st|nd|rd|th)?", lambda m: ("day", day_month(t, int(m[2]), MONTHS[m[1]]))),
        (r"(\d{1,2}) числа", lambda m: ("day", day_of_month(t, int(m[1])))),
        (r"(?:the )?(\d{1,2})(?:st|nd|rd|th)", lambda m: ("day", day_of_month(t, int(m[1])))),
    ]
    for pat, fn in rules:
        while True:
            m = re.search(B(pat), s)
            if not m:
                break
            kind, d = fn(m)
            found.append((kind, d))
            s = s[:m.start()] + " # " + s[m.end():]
    return found


# ---------------------------------------------------------------- checks
def main():
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for p in projects:
        if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
            problem(f"project shape: {p}")
        pkeys.add(p.get("key"))
    if len(projects) != 5:
        problem(f"expected 5 projects, got {len(projects)}")
    if "INBOX" in pkeys:
        problem("INBOX must not be listed")

    # tasks
    counters = Counter()
    tmap = {}
    overdue, due_today, week, undated = [], [], [], []
    for i, t in enumerate(tasks, 1):
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            problem(f"task {i} shape: {t}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            problem(f"task {t['key']}: unknown project {proj}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            problem(f"task {i}: key {t['key']} but creation order gives {want}")
        if t["key"] in tmap:
            problem(f"duplicate key {t['key']}")
        tmap[t["key"]] = t
        if t["due"] is None:
            if t["due_kind"] != "none":
                problem(f"{t['key']}: no due but due_kind {t['due_kind']}")
            undated.append(t["key"])
            continue
        if t["due_kind"] not in ("day", "week"):
            problem(f"{t['key']}: bad due_kind {t['due_kind']}")
        try:
            d = date.fromisoformat(t["due"])
        except ValueError:
            problem(f"{t['key']}: bad due {t['due']}")
            continue
        if t["due_kind"] == "week":
            week.append(t["key"])
            if d.weekday() != 6:
                problem(f"{t['key']}: week due {d} is not a Sunday")
        if d < TODAY:
            overdue.append(t["key"])
        elif d == TODAY:
            due_today.append(t["key"])
    if not 55 <= len(tasks) <= 65:
        problem(f"tasks: {len(tasks)} not in 55..65")
    if not 12 <= len(undated) <= 18:
        problem(f"undated tasks: {len(undated)} (want about 15)")
    if not overdue or not due_today or not week:
        problem("need overdue, due-today and week-due tasks")

    # phrases
    CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
                  "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
                  "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown"}
    AIM = {"typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28, "deadline_not_close": 26,
           "project_leadin": 24, "offtopic": 22, "plain_other": 54, "ambiguous": 52, "unknown_other": 24}
    FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
    by_class = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    seen = set()
    dates_checked = 0
    moves_checked = 0
    all_fixes = []
    for i, ph in enumerate(phrases, 1):
        where = f"phrase {i} {ph.get('text')!r}"
        if set(ph) != {"text", "lang", "kind", "expect", "class"}:
            problem(f"{where}: shape {sorted(ph)}")
            continue
        text, lang, kind, exp, cls = ph["text"], ph["lang"], ph["kind"], ph["expect"], ph["class"]
        if not isinstance(text, str) or not text.strip():
            problem(f"{where}: empty text")
        if text in seen:
            problem(f"{where}: duplicate text")
        seen.add(text)
        if lang not in ("ru", "en"):
            problem(f"{where}: lang {lang}")
        if cls not in CLASS_KIND:
            problem(f"{where}: class {cls}")
            continue
        if CLASS_KIND[cls] != kind:
            problem(f"{where}: class {cls} needs kind {CLASS_KIND[cls]}, got {kind}")
        by_class[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        tool = exp.get("tool") if isinstance(exp, dict) else None
        by_tool[tool] += 1
        # kind <-> tool
        if kind == "ambiguous" and tool != "clarify":
            problem(f"{where}: ambiguous must expect clarify")
        if kind == "unknown" and tool != "none":
            problem(f"{where}: unknown must expect none")
        if kind == "plain" and tool in ("clarify", "none"):
            problem(f"{where}: plain must expect one action")
        if cls == "deadline_not_close" and not (tool == "update_task" or (tool == "create_task" and exp.get("deadline_kind") != "none")):
            problem(f"{where}: deadline_not_close must move or create with a date")
        if cls == "project_leadin" and not (tool == "create_task" and "project" in exp):
            problem(f"{where}: project_leadin must create with a project")
        if cls == "negated_cancel" and tool != "cancel_task":
            problem(f"{where}: negated_cancel must cancel")
        fixes = []
        found = find_dates(text, fixes)
        all_fixes += [(text, a, b) for a, b in fixes]
        if tool in ("close_task", "cancel_task"):
            if set(exp) != {"tool", "id"} or exp["id"] not in tmap:
                problem(f"{where}: bad {tool} {exp}")
        elif tool == "update_task":
            if set(exp) != {"tool", "id", "deadline_kind", "deadline"} or exp["id"] not in tmap:
                problem(f"{where}: bad update {exp}")
                continue
            want = (exp["deadline_kind"], exp["deadline"])
            got = [(k, d.isoformat() if d else None) for k, d in found]
            if got != [want]:
                problem(f"{where}: expected {want}, date reference reads {got}")
            dates_checked += 1
            cur = tmap[exp["id"]]
            if (cur["due_kind"], cur["due"]) == want:
                problem(f"{where}: move to the task's current due")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(exp) <= allowed or "text" not in exp or "deadline_kind" not in exp:
                problem(f"{where}: bad create {exp}")
                continue
            if "project" in exp and exp["project"] not in pkeys:
                problem(f"{where}: unknown project {exp['project']}")
            got = [(k, d.isoformat() if d else None) for k, d in found]
            if exp["deadline_kind"] == "none":
                if "deadline" in exp or got:
                    problem(f"{where}: undated create but the text reads {got}")
            else:
                if got != [(exp["deadline_kind"], exp.get("deadline"))]:
                    problem(f"{where}: expected {(exp['deadline_kind'], exp.get('deadline'))}, reference reads {got}")
                dates_checked += 1
            words = normalize(text).split()
            for w in normalize(exp["text"]).split():
                if w not in words:
                    problem(f"{where}: create text word {w!r} not in the phrase")
            # the date phrase is not in the text
            if find_dates(exp["text"]):
                problem(f"{where}: create text still holds a date")
        elif tool == "list_tasks":
            if set(exp) - {"tool", "filter", "period"} or exp.get("filter") not in FILTERS:
                problem(f"{where}: bad list {exp}")
            by_filter[exp.get("filter")] += 1
        elif tool == "clarify":
            opts = exp.get("options")
            if set(exp) != {"tool", "options"} or not isinstance(opts, list) or len(set(opts)) < 2 or len(set(opts)) != len(opts):
                problem(f"{where}: bad clarify {exp}")
                continue
            for k in opts:
                if k not in tmap:
                    problem(f"{where}: unknown option {k}")
            if found:
                if len(found) != 1 or found[0][1] is None:
                    problem(f"{where}: ambiguous move date unreadable: {found}")
                    continue
                moves_checked += 1
                kd = (found[0][0], found[0][1].isoformat())
                for k in opts:
                    if k in tmap and (tmap[k]["due_kind"], tmap[k]["due"]) == kd:
                        problem(f"{where}: move date {kd} equals the current due of {k}")
        elif tool == "none":
            if set(exp) != {"tool"}:
                problem(f"{where}: bad none {exp}")
            for k in re.findall(r"\b([A-Za-z]+-\d+)\b", text):
                if k.upper() in tmap:
                    problem(f"{where}: expects none but names existing key {k}")
        else:
            problem(f"{where}: unknown tool {tool}")
        # every explicit key named in an acting phrase must exist
        if tool not in ("none",):
            for k in re.findall(r"\b([A-Za-z]+-\d+)\b", text):
                if k.upper() not in tmap:
                    problem(f"{where}: names missing key {k}")

    # counts
    total = len(phrases)
    ru = sum(v for (c, l), v in by_class.items() if l == "ru")
    en = total - ru
    if total < 300:
        problem(f"only {total} phrases")
    if abs(ru - en) > total * 0.1:
        problem(f"languages unbalanced: ru {ru} en {en}")
    for c, aim in AIM.items():
        n = by_class[(c, "ru")] + by_class[(c, "en")]
        if abs(n - aim) > 4:
            problem(f"class {c}: {n}, aim {aim}")

    print(f"projects {len(projects)}, tasks {len(tasks)} ({', '.join(f'{k} {v}' for k, v in counters.items())})")
    print(f"tasks: overdue {len(overdue)} {overdue}")
    print(f"tasks: due today {len(due_today)} {due_today}")
    print(f"tasks: week dues {len(week)} {week}")
    print(f"tasks: undated {len(undated)}")
    print(f"phrases {total}: ru {ru}, en {en}")
    print("| class | ru | en | total |")
    print("|---|---|---|---|")
    for c in AIM:
        a, b = by_class[(c, "ru")], by_class[(c, "en")]
        print(f"| {c} | {a} | {b} | {a + b} |")
    print(f"| **all** | {ru} | {en} | **{total}** |")
    print("| kind | ru | en | total |")
    print("|---|---|---|---|")
    for k in ("plain", "ambiguous", "unknown"):
        a, b = by_kind_lang[(k, "ru")], by_kind_lang[(k, "en")]
        print(f"| {k} | {a} | {b} | {a + b} |")
    print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
    print(f"dates recomputed: {dates_checked} (updates and dated creates), ambiguous moves checked: {moves_checked}")
    print("date-word slips read as: " + "; ".join(f"{a}->{b}" for _, a, b in all_fixes))
    if PROBLEMS:
        print(f"\n{len(PROBLEMS)} problem(s):")
        for p in PROBLEMS:
            print("  " + p)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
