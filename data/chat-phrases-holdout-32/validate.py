#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-32 (stdlib only).

Checks JSON shapes, keys, creation order, class/kind consistency, counts, and
recomputes every expected date from the phrase text with a small reference of the
house date rules written for this set only. Prints counts; exits 1 on any problem.

TODAY: now = 2037-11-01T06:30:00Z, zone America/Chicago (CDT, UTC-5; back to CST at
02:00 local this night) -> local Sunday 2037-11-01 01:30. All relative dates use the
local date 2037-11-01.
"""
import calendar
import json
import os
import re
import sys
from collections import Counter
from datetime import date, datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = datetime(2037, 11, 1, 6, 30, tzinfo=timezone.utc)
OFFSET = timedelta(hours=-5)  # CDT until 02:00 local (07:00Z) on 2037-11-01
TODAY = (NOW_UTC + OFFSET).date()

PROJECT_KEYS = None  # filled in main()
CLASS_TARGET = {
    "typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28,
    "deadline_not_close": 26, "project_leadin": 24, "offtopic": 22,
    "plain_other": 54, "ambiguous": 52, "unknown_other": 24,
}
CLASS_KIND = {"ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown"}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def bad(msg):
    problems.append(msg)


# ---------------------------------------------------------------- date reference
MONTHS_RU = ["январ", "феврал", "март", "апрел", "ма[йя]", "июн", "июл", "август",
             "сентябр", "октябр", "ноябр", "декабр"]
MONTHS_EN = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
WD_FULL = [
    (0, r"понедельник\w*|monday"), (1, r"вторник\w*|tuesday"), (2, r"сред[ауые]|wednesday"),
    (3, r"четверг\w*|thursday"), (4, r"пятниц\w*|friday"), (5, r"суббот\w*|saturday"),
    (6, r"воскресень\w*|sunday"),
]
WD_SHORT = [(0, r"пн|mon"), (1, r"вт|tue|tues"), (2, r"ср|wed"), (3, r"чт|thu|thurs"),
            (4, r"пт|fri"), (5, r"сб|sat"), (6, r"вс|sun")]
# words for "tomorrow" etc., with the date-word slips used in this set (no misspelt
# weekday is used: under the house rules those are errors)
TOMORROW = r"завтра|завтар|tomorrow|tomorow|tommorow|tmrw|tmr"
AFTER_TOMORROW = r"послезавтра|послезавра|day after tomorrow"
NEXT_WEEK = r"на следующей неделе|на следующую неделю|next week|nxt week"
THIS_WEEK = r"до конца недели|к концу недели|на этой неделе|this week|end of (?:the )?week"


def sunday_of(d):
    return d + timedelta(days=6 - d.weekday())


def last_of_month(y, m):
    return date(y, m, calendar.monthrange(y, m)[1])


def day_month(d, m, today):
    try:
        c = date(today.year, m, d)
    except ValueError:
        return "error"
    if (today - c).days > 30:
        try:
            c = date(today.year + 1, m, d)
        except ValueError:
            return "error"
    return c


def day_of_month(d, today):
    if not 1 <= d <= 31:
        return "error"
    y, m = today.year, today.month
    if d < today.day:
        m += 1
        if m == 13:
            y, m = y + 1, 1
    last = calendar.monthrange(y, m)[1]
    return date(y, m, min(d, last))


def weekday_plain(wd, today):
    return today + timedelta(days=(wd - today.weekday() - 1) % 7 + 1)


def weekday_next(wd, today):
    monday_next = today - timedelta(days=today.weekday()) + timedelta(days=7)
    return monday_next + timedelta(days=wd)


def ref_date(text, today=TODAY):
    """Return None (no date phrase), "error", or (kind, date)."""
    t = " " + text.lower().replace("ё", "е") + " "
    found = []

    def hit(kind, d):
        found.append("error" if d == "error" else (kind, d))

    # ISO
    for m in re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})\b", t):
        try:
            hit("day", date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            hit("day", "error")
    # dd.mm(.yyyy)
    for m in re.finditer(r"(?<![\w.])(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?(?![\w.])", t):
        d, mo = int(m[1]), int(m[2])
        if m[3]:
            try:
                hit("day", date(int(m[3]), mo, d))
            except ValueError:
                hit("day", "error")
        elif 1 <= mo <= 12:
            hit("day", day_month(d, mo, today))
        else:
            hit("day", "error")
    # dd/mm, only when the day is > 12
    for m in re.finditer(r"(?<![\w/])(\d{1,2})/(\d{1,2})(?![\w/])", t):
        d, mo = int(m[1]), int(m[2])
        hit("day", day_month(d, mo, today) if d > 12 and 1 <= mo <= 12 else "error")
    # 20 ноября / 5 января
    for i, stem in enumerate(MONTHS_RU):
        for m in re.finditer(r"\b(\d{1,2})\s+(?:" + stem + r")\w*", t):
            hit("day", day_month(int(m[1]), i + 1, today))
    # nov 5 / 5 nov / november 5
    for i, stem in enumerate(MONTHS_EN):
        for m in re.finditer(r"\b" + stem + r"[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b", t):
            hit("day", day_month(int(m[1]), i + 1, today))
        for m in re.finditer(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+" + stem + r"[a-z]*\b", t):
            hit("day", day_month(int(m[1]), i + 1, today))
    # day of month alone: "до 15 числа", "by the 15th", "on the 12th"
    for m in re.finditer(r"\b(\d{1,2})\s+числ\w*", t):
        hit("day", day_of_month(int(m[1]), today))
    for m in re.finditer(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", t):
        hit("day", day_of_month(int(m[1]), today))
    # simple relative words
    if re.search(r"\b(?:сегодня|today|eod)\b", t):
        hit("day", today)
    if re.search(r"\b(?:" + AFTER_TOMORROW + r")\b", t):
        hit("day", today + timedelta(days=2))
    elif re.search(r"\b(?:" + TOMORROW + r")\b", t):
        hit("day", today + timedelta(days=1))
    for m in re.finditer(r"\b(?:через|in)\s+(\d+)\s+(?:дн\w*|day|days)\b", t):
        hit("day", today + timedelta(days=int(m[1])))
    if re.search(r"\b(?:через неделю|in a week|in one week)\b", t):
        hit("day", today + timedelta(days=7))
    for m in re.finditer(r"\b(?:через|in)\s+(\d+)\s+(?:недел\w*|weeks?)\b", t):
        hit("day", today + timedelta(days=7 * int(m[1])))
    # weeks
    if re.search(r"\b(?:" + THIS_WEEK + r")\b", t):
        hit("week", sunday_of(today))
    if re.search(r"\b(?:" + NEXT_WEEK + r")\b", t):
        hit("week", sunday_of(today) + timedelta(days=7))
    # months and year
    if re.search(r"\b(?:до конца месяца|к концу месяца|end of (?:the )?month)\b", t):
        hit("day", last_of_month(today.year, today.month))
    if re.search(r"\b(?:в следующем месяце|next month)\b", t):
        y, mo = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        hit("day", last_of_month(y, mo))
    if re.search(r"\b(?:до конца года|к концу года|end of (?:the )?year)\b", t):
        hit("day", date(today.year, 12, 31))
    # weekend -> the coming Saturday (today if Saturday)
    if re.search(r"\b(?:выходн\w*|weekend)\b", t):
        hit("day", today + timedelta(days=(5 - today.weekday()) % 7))
    # weekdays
    nxt = r"(?:next|в следующ\w*|на следующ\w*|к следующ\w*|до следующ\w*)"
    for wd, pat in WD_FULL:
        for m in re.finditer(r"(\b" + nxt + r"\s+)?\b(?:" + pat + r")\b", t):
            hit("day", weekday_next(wd, today) if m[1] else weekday_plain(wd, today))
    for wd, pat in WD_SHORT:
        for m in re.finditer(r"\b(next|this|on|to|by|в|во|до|на|к)\s+(?:" + pat + r")\b", t):
            hit("day", weekday_next(wd, today) if m[1] == "next" else weekday_plain(wd, today))
    if not found:
        return None
    if "error" in found or len(set(found)) > 1:
        return "error"
    return found[0]


def ref_self_test():
    cases = [
        ("завтра", ("day", date(2037, 11, 2))), ("в пятницу", ("day", date(2037, 11, 6))),
        ("on sunday", ("day", date(2037, 11, 8))), ("next friday", ("day", date(2037, 11, 6))),
        ("до конца недели", ("week", date(2037, 11, 1))), ("next week", ("week", date(2037, 11, 8))),
        ("5 января", ("day", date(2038, 1, 5))), ("до 31 числа", ("day", date(2037, 11, 30))),
        ("next month", ("day", date(2037, 12, 31))), ("на выходных", ("day", date(2037, 11, 7))),
        ("15.12", ("day", date(2037, 12, 15))), ("03/04", "error"), ("20/11", ("day", date(2037, 11, 20))),
        ("через 3 дня", ("day", date(2037, 11, 4))), ("in 2 weeks", ("day", date(2037, 11, 15))),
        ("послезавтра", ("day", date(2037, 11, 3))), ("load 5521 truck 214", None),
    ]
    for text, want in cases:
        got = ref_date(text)
        if got != want:
            bad(f"date reference self-test: {text!r} -> {got}, want {want}")


# ---------------------------------------------------------------- helpers
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


def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def iso(d):
    return d.isoformat()


def main():
    ref_self_test()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # projects
    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"project fields {sorted(p)}")
        if not re.fullmatch(r"[A-Z]+", p.get("key", "")):
            bad(f"project key {p.get('key')!r}")
        if p.get("key") == "INBOX":
            bad("INBOX must not be listed")
        pkeys.append(p.get("key"))
    if len(projects) != 5 or len(set(pkeys)) != 5:
        bad(f"expected 5 distinct projects, got {pkeys}")
    allowed_projects = set(pkeys) | {"INBOX"}

    # tasks: shape, creation order
    counters = Counter()
    task = {}
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"task fields {sorted(t)}")
            continue
        if t["project"] not in allowed_projects:
            bad(f"{t['key']}: unknown project {t['project']}")
        counters[t["project"]] += 1
        want = f"{t['project']}-{counters[t['project']]}"
        if t["key"] != want:
            bad(f"task key {t['key']} but creation order gives {want}")
        if t["key"] in task:
            bad(f"duplicate key {t['key']}")
        task[t["key"]] = t
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"{t['key']}: due_kind none with a due")
        elif t["due_kind"] in ("day", "week"):
            try:
                d = date.fromisoformat(t["due"])
                if t["due_kind"] == "week" and d.weekday() != 6:
                    bad(f"{t['key']}: week due {d} is not a Sunday")
            except (TypeError, ValueError):
                bad(f"{t['key']}: bad due {t['due']!r}")
        else:
            bad(f"{t['key']}: bad due_kind {t['due_kind']!r}")
    if not 55 <= len(tasks) <= 65:
        bad(f"{len(tasks)} tasks, want 55..65")
    dues = {k: (date.fromisoformat(t["due"]) if t["due"] else None) for k, t in task.items()}
    overdue = sorted(k for k, d in dues.items() if d and d < TODAY)
    due_today = sorted(k for k, d in dues.items() if d == TODAY)
    week_due = sorted(k for k, t in task.items() if t["due_kind"] == "week")
    undated = sorted(k for k, d in dues.items() if d is None)
    later = sorted(k for k, d in dues.items() if d and d > TODAY)

    key_re = re.compile(r"\b(" + "|".join(sorted(allowed_projects)) + r")-(\d+)\b", re.I)

    # phrases
    by_class = Counter()
    by_class_lang = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    seen = set()
    dates_checked = 0
    for i, p in enumerate(phrases, 1):
        where = f"phrases.jsonl:{i} {p.get('text')!r}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if norm(text) in seen:
            bad(f"{where}: duplicate text")
        seen.add(norm(text))
        if text != text.strip() or not text:
            bad(f"{where}: untrimmed or empty")
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        if cls not in CLASS_TARGET:
            bad(f"{where}: class {cls}")
            continue
        if kind != CLASS_KIND.get(cls, "plain"):
            bad(f"{where}: kind {kind} for class {cls}")
        by_class[cls] += 1
        by_class_lang[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        tool = e.get("tool")
        by_tool[tool] += 1
        rd = ref_date(text)

        # keys written in the text
        for m in key_re.finditer(text):
            k = f"{m[1].upper()}-{m[2]}"
            if cls == "explicit_form":
                if k not in task or e.get("id") != k:
                    bad(f"{where}: explicit key {k} must exist and be the target")
            elif k in task or tool != "none":
                bad(f"{where}: key {k} outside explicit_form must be a missing key with tool none")
        if cls == "explicit_form" and not key_re.search(text):
            bad(f"{where}: explicit_form without a key")

        # tool vs kind/class
        if kind == "unknown" and tool != "none":
            bad(f"{where}: unknown kind must expect none")
        if kind == "ambiguous" and tool != "clarify":
            bad(f"{where}: ambiguous kind must expect clarify")
        if kind == "plain" and tool in ("clarify", "none"):
            bad(f"{where}: plain kind cannot expect {tool}")
        if cls == "report" and tool != "close_task":
            bad(f"{where}: report must close")
        if cls == "negated_cancel" and tool != "cancel_task":
            bad(f"{where}: negated_cancel must cancel")
        if cls == "deadline_not_close" and tool not in ("update_task", "create_task"):
            bad(f"{where}: deadline_not_close must update or create")
        if cls == "project_leadin" and (tool != "create_task" or "project" not in e):
            bad(f"{where}: project_leadin must create with a project")

        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"} or e["id"] not in task:
                bad(f"{where}: bad {tool} {e}")
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task:
                bad(f"{where}: bad update {e}")
                continue
            if e["deadline_kind"] not in ("day", "week"):
                bad(f"{where}: update deadline_kind {e['deadline_kind']}")
            if rd in (None, "error") or rd != (e["deadline_kind"], date.fromisoformat(e["deadline"])):
                bad(f"{where}: expected {e['deadline_kind']} {e['deadline']}, reference gives {rd}")
            dates_checked += 1
            t = task[e["id"]]
            if t["due"] == e["deadline"] and t["due_kind"] == e["deadline_kind"]:
                bad(f"{where}: move to the current due of {e['id']}")
        elif tool == "create_task":
            ok = {"tool", "text", "deadline_kind"} <= set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"}
            if not ok:
                bad(f"{where}: bad create {e}")
                continue
            if norm(e["text"]) not in norm(text):
                bad(f"{where}: create text {e['text']!r} is not taken from the phrase")
            if "project" in e and e["project"] not in pkeys:
                bad(f"{where}: create project {e['project']} not a project key")
            if e["deadline_kind"] == "none":
                if "deadline" in e:
                    bad(f"{where}: kind none with a deadline")
                if rd is not None:
                    bad(f"{where}: kind none but the reference finds a date {rd}")
            else:
                if "deadline" not in e or rd in (None, "error") or rd != (e["deadline_kind"], date.fromisoformat(e["deadline"])):
                    bad(f"{where}: expected {e.get('deadline_kind')} {e.get('deadline')}, reference gives {rd}")
                dates_checked += 1
                # the date phrase must be gone from the text
                if ref_date(e["text"]) is not None:
                    bad(f"{where}: create text still holds a date")
        elif tool == "list_tasks":
            if set(e) != {"tool", "filter"} or e["filter"] not in FILTERS:
                bad(f"{where}: bad list {e}")
            else:
                by_filter[e["filter"]] += 1
        elif tool == "clarify":
            opts = e.get("options")
            if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                bad(f"{where}: bad clarify {e}")
                continue
            if len(set(opts)) != len(opts) or any(k not in task for k in opts):
                bad(f"{where}: clarify options {opts}")
            if rd == "error":
                bad(f"{where}: ambiguous move with a date error")
            elif rd is not None:
                dates_checked += 1
                for k in opts:
                    if k in dues and dues[k] == rd[1]:
                        bad(f"{where}: move date {rd[1]} equals the due of option {k}")
        elif tool == "none":
            if set(e) != {"tool"}:
                bad(f"{where}: bad none {e}")
        else:
            bad(f"{where}: unknown tool {tool}")

    for cls, want in CLASS_TARGET.items():
        if by_class[cls] != want:
            bad(f"class {cls}: {by_class[cls]} phrases, want {want}")
    n_ru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
    n_en = sum(v for (c, l), v in by_class_lang.items() if l == "en")
    if len(phrases) < 300:
        bad(f"only {len(phrases)} phrases")
    if abs(n_ru - n_en) > 0.05 * len(phrases):
        bad(f"languages unbalanced: ru {n_ru}, en {n_en}")

    # ---------------------------------------------------------------- report
    local = NOW_UTC + OFFSET
    print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), local {local.strftime('%H:%M')} CDT, now {NOW_UTC.isoformat()}")
    print(f"projects {len(projects)}; tasks {len(tasks)}: " +
          ", ".join(f"{k} {counters[k]}" for k in pkeys + ['INBOX']))
    print(f"  overdue {len(overdue)}: {' '.join(overdue)}")
    print(f"  due today {len(due_today)}: {' '.join(due_today)}")
    print(f"  week due {len(week_due)}: {' '.join(week_due)}")
    print(f"  later {len(later)}, undated {len(undated)}")
    print(f"phrases {len(phrases)} (ru {n_ru}, en {n_en}); dates recomputed {dates_checked}")
    print()
    print("| class | kind | ru | en | total |")
    print("|---|---|---|---|---|")
    for cls in CLASS_TARGET:
        print(f"| {cls} | {CLASS_KIND.get(cls, 'plain')} | {by_class_lang[(cls, 'ru')]} | "
              f"{by_class_lang[(cls, 'en')]} | {by_class[cls]} |")
    print(f"| **all** | | {n_ru} | {n_en} | **{len(phrases)}** |")
    print()
    print("| kind | ru | en | total |")
    print("|---|---|---|---|")
    for k in ("plain", "ambiguous", "unknown"):
        print(f"| {k} | {by_kind_lang[(k, 'ru')]} | {by_kind_lang[(k, 'en')]} | "
              f"{by_kind_lang[(k, 'ru')] + by_kind_lang[(k, 'en')]} |")
    print()
    print("by tool: " + ", ".join(f"{t} {by_tool[t]}" for t in
          ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")))
    print("list filters: " + ", ".join(f"{f} {by_filter[f]}" for f in
          ("today", "inbox", "overdue", "done", "all_by_project")))
    if problems:
        print()
        print(f"{len(problems)} PROBLEM(S):")
        for p in problems:
            print("  - " + p)
        sys.exit(1)
    print()
    print("OK")


if __name__ == "__main__":
    main()
