#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-29 (stdlib only).

Checks the JSON shapes, that every referenced key exists, that the keys are
reproduced by loading tasks.jsonl in file order, class/kind consistency, counts per
class and language, and RECOMPUTES every expected date (updates, dated creates,
dates named in ambiguous moves) from the phrase text with a small reference of the
house date rules written for this set only.

TODAY: now = 2037-03-26T22:30:00Z, zone Asia/Jerusalem (UTC+2, summer time starts
at 02:00 tonight) -> local Friday 2037-03-27 00:30. All relative dates use the local
date. Prints counts; exits 1 on any problem.

Usage: python3 validate.py
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
NOW_UTC = dt.datetime(2037, 3, 26, 22, 30, tzinfo=dt.timezone.utc)
LOCAL_OFFSET = dt.timedelta(hours=2)  # IST until 02:00 local tonight
TODAY = (NOW_UTC + LOCAL_OFFSET).date()

problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    out = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return out


# ---------------------------------------------------------------- date reference
def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[^\w\s/.\-]", " ", s)
    return re.sub(r"\s+", " ", s).strip()


# judgement calls: obvious slips in date words read as a careful human would
TYPO = {
    "tmrw": "tomorrow", "tmr": "tomorrow", "tomorow": "tomorrow", "tommorow": "tomorrow",
    "tommorrow": "tomorrow", "nxt": "next",
    "звтра": "завтра", "зватра": "завтра", "завтро": "завтра", "завра": "завтра",
    "послезавтро": "послезавтра",
}


def fix_typos(s):
    return " ".join(TYPO.get(w, w) for w in s.split(" "))


WD_EN = [r"monday|mon", r"tuesday|tues|tue", r"wednesday|wed", r"thursday|thurs|thu",
         r"friday|fri", r"saturday|sat", r"sunday|sun"]
WD_RU = [r"понедельник\w*", r"вторник\w*", r"сред[ауы]", r"четверг\w*", r"пятниц\w*",
         r"суббот\w*", r"воскресень\w*"]
MON_RU = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
          "сентября", "октября", "ноября", "декабря"]
MON_EN = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
NUM = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
       "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5}


def this_sunday(d):
    return d + dt.timedelta(days=6 - d.weekday())


def next_weekday(d, wd):  # strictly after d
    k = (wd - d.weekday()) % 7
    return d + dt.timedelta(days=k or 7)


def weekday_next_week(d, wd):  # that weekday in the next Monday-Sunday week
    monday = d - dt.timedelta(days=d.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def last_day(y, m):
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def day_month(d, day, month):
    try:
        cand = dt.date(d.year, month, day)
    except ValueError:
        return ("error",)
    if (d - cand).days > 30:
        try:
            cand = dt.date(d.year + 1, month, day)
        except ValueError:
            return ("error",)
    return ("day", cand)


def day_of_month(d, day):
    if not 1 <= day <= 31:
        return ("error",)
    y, m = d.year, d.month
    for _ in range(2):
        last = calendar.monthrange(y, m)[1]
        cand = dt.date(y, m, min(day, last))
        if cand >= d:
            return ("day", cand)
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return ("error",)


def rules(d):
    R = []
    add = lambda rx, fn: R.append((re.compile(rx), fn))
    # weekdays, "next <weekday>" / «следующ* <weekday>»
    for i, (en, ru) in enumerate(zip(WD_EN, WD_RU)):
        add(rf"\bnext (?:{en})\b", lambda m, i=i: ("day", weekday_next_week(d, i)))
        add(rf"\bследующ\w* (?:{ru})\b", lambda m, i=i: ("day", weekday_next_week(d, i)))
        add(rf"\b(?:{en})\b", lambda m, i=i: ("day", next_weekday(d, i)))
        add(rf"\b(?:{ru})\b", lambda m, i=i: ("day", next_weekday(d, i)))
    # weeks
    add(r"\b(?:this week|end of (?:the )?week|до конца недели|к концу недели|на этой неделе)\b",
        lambda m: ("week", this_sunday(d)))
    add(r"\b(?:next week|следующ\w* недел\w*)\b",
        lambda m: ("week", this_sunday(d) + dt.timedelta(days=7)))
    # months / year
    add(r"\b(?:end of (?:the )?month|(?:до |к |на )?конц\w* месяца)\b",
        lambda m: ("day", last_day(d.year, d.month)))
    add(r"\b(?:next month|в следующем месяце|на следующий месяц)\b",
        lambda m: ("day", last_day(*((d.year + 1, 1) if d.month == 12 else (d.year, d.month + 1)))))
    add(r"\b(?:end of (?:the )?year|до конца года|к концу года)\b",
        lambda m: ("day", dt.date(d.year, 12, 31)))
    # weekend = coming Saturday (today if Saturday)
    add(r"\b(?:weekend|выходны\w*)\b",
        lambda m: ("day", d + dt.timedelta(days=(5 - d.weekday()) % 7)))
    # today / tomorrow / day after
    add(r"\b(?:today|eod|сегодня)\b", lambda m: ("day", d))
    add(r"\b(?:tomorrow|завтра)\b", lambda m: ("day", d + dt.timedelta(days=1)))
    add(r"\b(?:day after tomorrow|послезавтра)\b", lambda m: ("day", d + dt.timedelta(days=2)))
    # in N days / weeks
    def n_of(s):
        return int(s) if s.isdigit() else NUM[s]
    numw = r"(\d+|a|one|two|three|four|five|два|две|три|четыре|пять)"
    add(rf"\b(?:in|через) {numw} (?:days?|дн\w*|день)\b",
        lambda m: ("error",) if n_of(m.group(1)) < 0 else ("day", d + dt.timedelta(days=n_of(m.group(1)))))
    add(rf"\b(?:in|через) {numw} (?:weeks?|недел\w*)\b",
        lambda m: ("day", d + dt.timedelta(days=7 * n_of(m.group(1)))))
    add(r"\b(?:через неделю|in a week)\b", lambda m: ("day", d + dt.timedelta(days=7)))
    # day + month
    add(rf"\b(\d{{1,2}}) ({'|'.join(MON_RU)})\b",
        lambda m: day_month(d, int(m.group(1)), MON_RU.index(m.group(2)) + 1))
    add(rf"\b({'|'.join(MON_EN)})[a-z]* (\d{{1,2}})\b",
        lambda m: day_month(d, int(m.group(2)), MON_EN.index(m.group(1)) + 1))
    add(rf"\b(\d{{1,2}}) ({'|'.join(MON_EN)})[a-z]*\b",
        lambda m: day_month(d, int(m.group(1)), MON_EN.index(m.group(2)) + 1))
    add(r"\b(\d{4})[-/](\d{2})[-/](\d{2})\b", lambda m: iso(m.group(1), m.group(2), m.group(3)))
    add(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: iso(m.group(3), m.group(2), m.group(1)))
    add(r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: day_month(d, int(m.group(1)), int(m.group(2)))
        if 1 <= int(m.group(2)) <= 12 else ("error",))
    add(r"\b(\d{1,2})/(\d{1,2})\b", lambda m: day_month(d, int(m.group(1)), int(m.group(2)))
        if int(m.group(1)) > 12 and 1 <= int(m.group(2)) <= 12 else ("error",))
    # day of month alone
    add(r"\b(\d{1,2}) числ\w*\b", lambda m: day_of_month(d, int(m.group(1))))
    add(r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th)\b", lambda m: day_of_month(d, int(m.group(1))))
    return R


def iso(y, m, dd):
    try:
        return ("day", dt.date(int(y), int(m), int(dd)))
    except ValueError:
        return ("error",)


RULES = rules(TODAY)


def find_date(text):
    """The date phrase of a text: the last match not contained in a longer one.
    Returns (kind, date, matched_text) or None."""
    s = fix_typos(norm(text))
    hits = []
    for rx, fn in RULES:
        for m in rx.finditer(s):
            hits.append((m.start(), m.end(), fn(m), m.group(0)))
    hits = [h for h in hits if not any(o is not h and o[0] <= h[0] and h[1] <= o[1]
                                       and (o[1] - o[0]) > (h[1] - h[0]) for o in hits)]
    if not hits:
        return None
    h = max(hits, key=lambda h: (h[0], h[1] - h[0]))
    val = h[2]
    return (val[0], val[1] if len(val) > 1 else None, h[3])


# ---------------------------------------------------------------- data checks
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = []
for p in projects:
    if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
        bad(f"project shape: {p}")
        continue
    if p["key"] == "INBOX" or not re.fullmatch(r"[A-Z]+", p["key"]):
        bad(f"project key: {p['key']}")
    pkeys.append(p["key"])
if len(projects) != 5 or len(set(pkeys)) != len(pkeys):
    bad(f"need 5 distinct projects, have {pkeys}")

TASK = {}
counter = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task shape: {t}")
        continue
    if t["project"] not in pkeys + ["INBOX"]:
        bad(f"{t['key']}: unknown project {t['project']}")
    counter[t["project"]] += 1
    want = f"{t['project']}-{counter[t['project']]}"
    if t["key"] != want:
        bad(f"{t['key']}: creation order gives {want}")
    if t["key"] in TASK:
        bad(f"duplicate key {t['key']}")
    if not isinstance(t["title"], str) or not t["title"].strip():
        bad(f"{t['key']}: empty title")
    if t["due_kind"] == "none":
        if t["due"] is not None:
            bad(f"{t['key']}: due_kind none with a due")
    elif t["due_kind"] in ("day", "week"):
        try:
            due = dt.date.fromisoformat(t["due"])
            if t["due_kind"] == "week" and due.weekday() != 6:
                bad(f"{t['key']}: week due is not a Sunday")
        except (TypeError, ValueError):
            bad(f"{t['key']}: bad due {t['due']}")
    else:
        bad(f"{t['key']}: bad due_kind {t['due_kind']}")
    TASK[t["key"]] = t

if not 55 <= len(tasks) <= 65:
    bad(f"{len(tasks)} tasks, want 55-65")
if len({t['title'].lower() for t in tasks}) != len(tasks):
    bad("duplicate task titles")


def due_of(k):
    t = TASK[k]
    return None if t["due"] is None else dt.date.fromisoformat(t["due"])


undated = [k for k in TASK if due_of(k) is None]
overdue = [k for k in TASK if due_of(k) and (due_of(k) < TODAY if TASK[k]["due_kind"] == "day"
                                              else due_of(k) < TODAY)]
due_today = [k for k in TASK if due_of(k) == TODAY and TASK[k]["due_kind"] == "day"]
week = [k for k in TASK if TASK[k]["due_kind"] == "week"]
later = [k for k in TASK if due_of(k) and due_of(k) > TODAY and TASK[k]["due_kind"] == "day"]
if not (12 <= len(undated) <= 18 and overdue and due_today and week and len(later) >= 15):
    bad(f"task mix: undated {len(undated)} overdue {len(overdue)} today {len(due_today)} "
        f"week {len(week)} later {len(later)}")

CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain",
              "explicit_form": "plain", "deadline_not_close": "plain", "project_leadin": "plain",
              "offtopic": "unknown", "plain_other": "plain", "ambiguous": "ambiguous",
              "unknown_other": "unknown"}
TARGET = {"typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28,
          "deadline_not_close": 26, "project_leadin": 24, "offtopic": 22, "plain_other": 54,
          "ambiguous": 52, "unknown_other": 24}
CLASS_TOOLS = {"typo": {"close_task", "cancel_task", "update_task", "create_task"},
               "report": {"close_task"}, "negated_cancel": {"cancel_task"},
               "explicit_form": {"close_task", "cancel_task", "update_task"},
               "deadline_not_close": {"update_task", "create_task"},
               "project_leadin": {"create_task"}, "offtopic": {"none"},
               "plain_other": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
               "ambiguous": {"clarify"}, "unknown_other": {"none"}}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}


def ntext(s):
    return re.sub(r"\s+", " ", norm(s)).strip()


seen = set()
by_class = Counter()
by_kind = Counter()
by_tool = Counter()
by_filter = Counter()
dates_checked = Counter()
for n, p in enumerate(phrases, 1):
    where = f"phrases:{n} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}:
        bad(f"{where}: fields {sorted(p)}")
        continue
    text, e, cls = p["text"], p["expect"], p["class"]
    if not isinstance(text, str) or not text.strip():
        bad(f"{where}: empty text")
        continue
    if text in seen:
        bad(f"{where}: duplicate text")
    seen.add(text)
    if p["lang"] not in ("ru", "en"):
        bad(f"{where}: lang {p['lang']}")
    if cls not in CLASS_KIND:
        bad(f"{where}: class {cls}")
        continue
    if p["kind"] != CLASS_KIND[cls]:
        bad(f"{where}: kind {p['kind']} for class {cls}")
    by_class[(cls, p["lang"])] += 1
    by_kind[(p["kind"], p["lang"])] += 1
    tool = e.get("tool") if isinstance(e, dict) else None
    if tool not in CLASS_TOOLS[cls]:
        bad(f"{where}: tool {tool} not allowed for class {cls}")
        continue
    by_tool[tool] += 1
    found = find_date(text)

    if tool in ("close_task", "cancel_task"):
        if set(e) != {"tool", "id"} or e["id"] not in TASK:
            bad(f"{where}: bad expect {e}")
            continue
        if found and not re.search(re.escape(found[2]), fix_typos(norm(TASK[e['id']]['title']))):
            bad(f"{where}: a {tool} phrase names a date ({found[2]!r})")
    elif tool == "update_task":
        if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in TASK \
                or e["deadline_kind"] not in ("day", "week"):
            bad(f"{where}: bad expect {e}")
            continue
        if not found or found[0] == "error":
            bad(f"{where}: reference finds no date in an update")
            continue
        dates_checked["update"] += 1
        if (found[0], found[1].isoformat()) != (e["deadline_kind"], e["deadline"]):
            bad(f"{where}: reference gives {found[0]} {found[1]} ({found[2]!r}), expect says "
                f"{e['deadline_kind']} {e['deadline']}")
        t = TASK[e["id"]]
        if (t["due"], t["due_kind"]) == (e["deadline"], e["deadline_kind"]):
            bad(f"{where}: move to the task's current due")
    elif tool == "create_task":
        allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
        if not set(e) <= allowed or not isinstance(e.get("text"), str) or not e["text"].strip():
            bad(f"{where}: bad expect {e}")
            continue
        if ntext(e["text"]) not in ntext(text):
            bad(f"{where}: create text {e['text']!r} is not part of the phrase")
        if find_date(e["text"]):
            bad(f"{where}: create text still holds a date phrase")
        if "project" in e and e["project"] not in pkeys:
            bad(f"{where}: unknown project {e['project']}")
        if cls == "project_leadin" and "project" not in e:
            bad(f"{where}: project lead-in without project")
        if found and found[0] != "error":
            dates_checked["create"] += 1
            if e.get("deadline_kind") != found[0] or e.get("deadline") != found[1].isoformat():
                bad(f"{where}: reference gives {found[0]} {found[1]} ({found[2]!r}), expect says "
                    f"{e.get('deadline_kind')} {e.get('deadline')}")
        else:
            if e.get("deadline_kind") != "none" or "deadline" in e:
                bad(f"{where}: no date in text but expect has {e.get('deadline_kind')} {e.get('deadline')}")
    elif tool == "list_tasks":
        if set(e) - {"tool", "filter", "period"} or e.get("filter") not in FILTERS:
            bad(f"{where}: bad expect {e}")
            continue
        by_filter[e["filter"]] += 1
    elif tool == "clarify":
        opts = e.get("options")
        if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(set(opts)) < 2 \
                or len(set(opts)) != len(opts) or any(o not in TASK for o in opts):
            bad(f"{where}: bad expect {e}")
            continue
        if found and found[0] != "error":
            dates_checked["ambiguous move"] += 1
            for o in opts:
                t = TASK[o]
                if t["due"] == found[1].isoformat():
                    bad(f"{where}: the move date {found[1]} equals {o}'s due; tie broken")
    elif tool == "none":
        if set(e) != {"tool"}:
            bad(f"{where}: bad expect {e}")
    if cls == "explicit_form":
        if e.get("id") and not re.search(rf"\b{re.escape(e['id'])}\b", text, re.I):
            bad(f"{where}: explicit form does not name {e['id']}")

# counts
total = len(phrases)
langs = Counter(p.get("lang") for p in phrases)
if total < 300:
    bad(f"{total} phrases, want >= 300")
if abs(langs["ru"] - langs["en"]) > total * 0.1:
    bad(f"languages unbalanced: {dict(langs)}")
for c, want in TARGET.items():
    have = by_class[(c, "ru")] + by_class[(c, "en")]
    if abs(have - want) > 3:
        bad(f"class {c}: {have}, target about {want}")
    if have and min(by_class[(c, "ru")], by_class[(c, "en")]) < have // 3:
        bad(f"class {c}: languages unbalanced")

# ---------------------------------------------------------------- report
print(f"TODAY (local) {TODAY} {TODAY.strftime('%A')}, now {NOW_UTC.isoformat()} UTC")
print(f"projects {len(projects)}, tasks {len(tasks)}: " +
      ", ".join(f"{k} {v}" for k, v in counter.items()))
print(f"  undated {len(undated)}, overdue {len(overdue)} ({', '.join(overdue)}), "
      f"due today {len(due_today)} ({', '.join(due_today)}), week {len(week)} ({', '.join(week)}), "
      f"later {len(later)}")
print()
print("| class | kind | ru | en | total |")
print("|---|---|---|---|---|")
for c in TARGET:
    r, en_ = by_class[(c, "ru")], by_class[(c, "en")]
    print(f"| {c} | {CLASS_KIND[c]} | {r} | {en_} | {r + en_} |")
print(f"| **all** | | {langs['ru']} | {langs['en']} | **{total}** |")
print()
print("| kind | ru | en | total |")
print("|---|---|---|---|")
for k in ("plain", "ambiguous", "unknown"):
    r, en_ = by_kind[(k, "ru")], by_kind[(k, "en")]
    print(f"| {k} | {r} | {en_} | {r + en_} |")
print()
print("by expected tool: " + ", ".join(f"{t} {by_tool[t]}" for t in
      ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")))
print("list filters: " + ", ".join(f"{f} {by_filter[f]}" for f in sorted(FILTERS)))
print("dates recomputed: " + ", ".join(f"{k} {v}" for k, v in dates_checked.items()))
if problems:
    print()
    for m in problems:
        print("PROBLEM:", m)
    print(f"{len(problems)} problem(s)")
    sys.exit(1)
print("OK")
