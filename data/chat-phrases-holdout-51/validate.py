#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-51 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and the
keys they name, recomputes every date answer with a small reference of the house
date rules written for this set only, prints the counts and exits 1 on any problem.

    python3 data/chat-phrases-holdout-51/validate.py [--table]
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
# now = 2041-06-30T20:45:00Z, zone Asia/Yerevan (UTC+4, no DST) -> local 2041-07-01 00:45
NOW_UTC = dt.datetime(2041, 6, 30, 20, 45, tzinfo=dt.timezone.utc)
ZONE = dt.timezone(dt.timedelta(hours=4), "Asia/Yerevan")
TODAY = NOW_UTC.astimezone(ZONE).date()

CLASSES = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain",
    "explicit_form": "plain", "deadline_not_close": "plain",
    "project_leadin": "plain", "offtopic": "unknown", "plain_other": "plain",
    "ambiguous": "ambiguous", "unknown_other": "unknown",
}
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON ({e})")
    return rows


def iso(s):
    try:
        return dt.date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- date reference
def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def last_of_month(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def next_weekday(today, wd):          # strictly after today
    return today + dt.timedelta(days=(wd - today.weekday() - 1) % 7 + 1)


def weekday_next_week(today, wd):     # that weekday in the next Monday-Sunday week
    monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(days=7)
    return monday + dt.timedelta(days=wd)


def day_month(today, d, m):
    try:
        x = dt.date(today.year, m, d)
    except ValueError:
        return None
    if (today - x).days > 30:
        try:
            x = dt.date(today.year + 1, m, d)
        except ValueError:
            return None
    return x


def day_of_month(today, d):           # next such day on or after today
    if not 1 <= d <= 31:
        return None
    y, m = today.year, today.month
    for _ in range(3):
        x = dt.date(y, m, min(d, last_of_month(y, m).day))
        if x >= today:
            return x
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


WD_RU = [r"понедельник\w*", r"вторник\w*", r"сред[аыуе]", r"четверг\w*",
         r"пятниц[аыуе]", r"суббот[аыуе]", r"воскресень[еяю]"]
WD_EN = [r"mon(?:day)?", r"tue(?:s|sday)?", r"wed(?:nesday)?", r"thu(?:rs|rsday)?",
         r"fri(?:day)?", r"sat(?:urday)?", r"sun(?:day)?"]
MONTHS_RU = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля",
             "августа", "сентября", "октября", "ноября", "декабря"]
MONTHS_EN = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
             "nov", "dec"]

# single date words a one-letter slip is read back to (conversation rule)
FUZZY_WORDS = (
    "понедельник понедельника понедельнику вторник вторника вторнику среда среду "
    "среды среде четверг четверга четвергу пятница пятницу пятницы пятнице суббота "
    "субботу субботы субботе воскресенье воскресенья воскресенью сегодня завтра "
    "послезавтра следующую следующей следующий следующем неделю недели неделе "
    "месяца выходные выходных выходным monday tuesday wednesday thursday friday "
    "saturday sunday today tomorrow weekend month"
).split()


def osa1(a, b):
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
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if la > lb:
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


def meaning(word):
    for i, p in enumerate(WD_RU):
        if re.fullmatch(p, word):
            return ("wd", i)
    for i, p in enumerate(WD_EN):
        if re.fullmatch(p, word):
            return ("wd", i)
    return ("w", word[:5])


def canon_tokens(text):
    t = text.lower().replace("ё", "е")
    toks = re.findall(r"\d{1,2}\.\d{1,2}(?:\.\d{4})?|[a-zа-я0-9']+", t)
    out = []
    for w in toks:
        if len(w) >= 5 and w not in FUZZY_WORDS and not w.isdigit():
            cands = [c for c in FUZZY_WORDS if len(c) >= 5 and osa1(w, c)]
            if cands and len({meaning(c) for c in cands}) == 1:
                w = cands[0]
        out.append(w)
    return out


def rx(p):
    return re.compile(r"(?<![a-zа-я0-9])(?:" + p + r")(?![a-zа-я0-9])")


def build_rules():
    R = []
    for i, p in enumerate(WD_RU):
        R.append((rx(r"(?:в|на|к|до)\s+следующ\w*\s+" + p), lambda m, t, i=i: ("day", weekday_next_week(t, i))))
    for i, p in enumerate(WD_EN):
        R.append((rx(r"next\s+" + p), lambda m, t, i=i: ("day", weekday_next_week(t, i))))
    nxt_w = lambda m, t: ("week", sunday_of(t) + dt.timedelta(days=7))
    this_w = lambda m, t: ("week", sunday_of(t))
    R += [
        (rx(r"(?:на\s+)?(?:следующ\w*|след)\s+недел\w*"), nxt_w),
        (rx(r"(?:next|nxt)\s+week"), nxt_w),
        (rx(r"(?:до|к)\s+конц[уа]\s+недел\w*|(?:на\s+)?этой\s+неделе"), this_w),
        (rx(r"this\s+week|end\s+of\s+(?:the\s+)?week|eow"), this_w),
        (rx(r"(?:до|к|на)?\s*кон(?:ец|ца|цу)\s+месяца|end\s+of\s+(?:the\s+)?month|eom"),
         lambda m, t: ("day", last_of_month(t.year, t.month))),
        (rx(r"(?:на|в)\s+следующ\w*\s+месяц\w*|next\s+month"),
         lambda m, t: ("day", last_of_month(t.year + (t.month == 12), t.month % 12 + 1))),
        (rx(r"(?:до|к|на)?\s*кон(?:ец|ца|цу)\s+года|end\s+of\s+(?:the\s+)?year"),
         lambda m, t: ("day", dt.date(t.year, 12, 31))),
        (rx(r"(?:на|к|до)?\s*выходн\w*|(?:on\s+|by\s+|this\s+)?(?:the\s+)?weekend"),
         lambda m, t: ("day", t + dt.timedelta(days=(5 - t.weekday()) % 7))),
        (rx(r"через\s+(\d+)\s+(?:дн\w*|дня)|in\s+(\d+)\s+days?"),
         lambda m, t: ("day", t + dt.timedelta(days=int(m.group(1) or m.group(2))))),
        (rx(r"через\s+(\d+)\s+недел\w*|in\s+(\d+)\s+weeks?"),
         lambda m, t: ("day", t + dt.timedelta(days=7 * int(m.group(1) or m.group(2))))),
        (rx(r"через\s+неделю|in\s+a\s+week"), lambda m, t: ("day", t + dt.timedelta(days=7))),
        (rx(r"(\d{1,2})\s+(" + "|".join(MONTHS_RU) + r")"),
         lambda m, t: ("day", day_month(t, int(m.group(1)), MONTHS_RU.index(m.group(2)) + 1))),
        (rx(r"(\d{1,2})\.(\d{1,2})"),
         lambda m, t: ("day", day_month(t, int(m.group(1)), int(m.group(2))))),
        (rx(r"(\d{1,2})\s+числ\w*|the\s+(\d{1,2})(?:st|nd|rd|th)"),
         lambda m, t: ("day", day_of_month(t, int(m.group(1) or m.group(2))))),
        (rx(r"послезавтра|day\s+after\s+tomorrow|methavrio|метаврио"),
         lambda m, t: ("day", t + dt.timedelta(days=2))),
        (rx(r"завтра|tomorrow|tmrw|tmr|avrio|аврио"),
         lambda m, t: ("day", t + dt.timedelta(days=1))),
        (rx(r"сегодня|today|eod|simera|симера"), lambda m, t: ("day", t)),
    ]
    for i, p in enumerate(WD_RU):
        R.append((rx(r"(?:в|на|к|до)\s+" + p), lambda m, t, i=i: ("day", next_weekday(t, i))))
    for i, p in enumerate(WD_EN):
        R.append((rx(r"(?:on\s+|by\s+|to\s+|this\s+)?" + p), lambda m, t, i=i: ("day", next_weekday(t, i))))
    return R


RULES = build_rules()


def ref_date(text, today=TODAY):
    """All date readings found in text, as a list of (kind, date)."""
    s = " ".join(canon_tokens(text))
    found = []
    for pat, fn in RULES:
        while True:
            m = pat.search(s)
            if not m:
                break
            found.append(fn(m, today))
            s = s[:m.start()] + " # " + s[m.end():]
    return found


# ---------------------------------------------------------------- checks
def norm(s):
    return re.sub(r"\s+", " ", s.lower().replace("ё", "е")).strip()


def words(s):
    return re.findall(r"[a-zа-я0-9'.]+", norm(s))


def main():
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"project fields: {p}")
        if not re.fullmatch(r"[A-Z]{2,6}", p.get("key", "")) or p.get("key") == "INBOX":
            bad(f"project key: {p.get('key')}")
        pkeys.add(p.get("key"))
    if len(projects) != 5 or len(pkeys) != 5:
        bad("expected exactly 5 distinct projects")

    task = {}
    counters = Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"task fields: {t}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad(f"{t['key']}: unknown project {proj}")
        counters[proj] += 1
        if t["key"] != f"{proj}-{counters[proj]}":
            bad(f"{t['key']}: file order gives {proj}-{counters[proj]}")
        if t["key"] in task:
            bad(f"duplicate task key {t['key']}")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"{t['key']}: due with kind none")
        elif t["due_kind"] in ("day", "week"):
            d = iso(t["due"])
            if d is None:
                bad(f"{t['key']}: bad due {t['due']}")
            elif t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"{t['key']}: week due is not a Sunday")
        else:
            bad(f"{t['key']}: bad due_kind {t['due_kind']}")
        if not t["title"].strip():
            bad(f"{t['key']}: empty title")
        task[t["key"]] = t
    titles = Counter(norm(t["title"]) for t in tasks)
    for ti, n in titles.items():
        if n > 1:
            bad(f"duplicate title {ti}")

    seen = set()
    key_rx = re.compile(r"(?<![a-z])([a-z]{2,6})[- ]?(\d{1,3})(?![0-9])", re.I)
    for n, p in enumerate(phrases, 1):
        where = f"phrases.jsonl:{n} {p.get('text')!r}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if norm(text) in seen:
            bad(f"{where}: duplicate text")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        cyr = bool(re.search(r"[а-яё]", text.lower()))
        if lang == "ru" and not cyr:
            bad(f"{where}: ru without Cyrillic")
        if lang == "en" and cyr:
            bad(f"{where}: en with Cyrillic")
        if cls not in CLASSES:
            bad(f"{where}: class {cls}")
            continue
        if CLASSES[cls] != kind:
            bad(f"{where}: kind {kind} but class {cls} wants {CLASSES[cls]}")
        tool = e.get("tool")
        dates = ref_date(text)
        # ---- expect shape
        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"} or e["id"] not in task:
                bad(f"{where}: bad {tool} {e}")
            if dates:
                bad(f"{where}: date words {dates} in a {tool}")
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task:
                bad(f"{where}: bad update {e}")
                continue
            if e["deadline_kind"] not in ("day", "week"):
                bad(f"{where}: update kind {e['deadline_kind']}")
            got = (e["deadline_kind"], iso(e["deadline"]))
            if dates != [got]:
                bad(f"{where}: reference gives {dates}, expect {got}")
            if task[e["id"]]["due"] == e["deadline"]:
                bad(f"{where}: move to the task's current due")
        elif tool == "create_task":
            if not set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"}:
                bad(f"{where}: create fields {sorted(e)}")
            if not e.get("text", "").strip():
                bad(f"{where}: empty create text")
            if "project" in e and e["project"] not in pkeys:
                bad(f"{where}: create project {e['project']}")
            if cls == "project_leadin" and "project" not in e:
                bad(f"{where}: project lead-in without project")
            if cls != "project_leadin" and "project" in e:
                bad(f"{where}: project outside project_leadin")
            ph = words(text)
            for w in words(e.get("text", "")):
                if w not in ph:
                    bad(f"{where}: create word {w!r} not in phrase")
            if ref_date(e.get("text", "")):
                bad(f"{where}: create text keeps a date phrase")
            if e.get("deadline_kind") == "none":
                if "deadline" in e or dates:
                    bad(f"{where}: undated create but {dates}")
            else:
                got = (e.get("deadline_kind"), iso(e.get("deadline")))
                if dates != [got]:
                    bad(f"{where}: reference gives {dates}, expect {got}")
        elif tool == "list_tasks":
            if set(e) != {"tool", "filter"} or e["filter"] not in LIST_FILTERS:
                bad(f"{where}: bad list {e}")
        elif tool == "clarify":
            opts = e.get("options", [])
            if set(e) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: bad clarify {e}")
            for k in opts:
                if k not in task:
                    bad(f"{where}: clarify names unknown {k}")
            if len(dates) > 1:
                bad(f"{where}: several dates {dates}")
            for kd, d in dates:   # an ambiguous move: date differs from every candidate
                for k in opts:
                    if k in task and iso(task[k]["due"]) == d:
                        bad(f"{where}: {k} is already due {d}")
        elif tool == "none":
            if set(e) != {"tool"}:
                bad(f"{where}: bad none {e}")
        else:
            bad(f"{where}: unknown tool {tool}")
        # ---- class vs tool
        want = {
            "typo": {"close_task", "cancel_task", "update_task", "create_task"},
            "report": {"close_task"},
            "negated_cancel": {"cancel_task"},
            "explicit_form": {"close_task", "cancel_task", "update_task"},
            "deadline_not_close": {"update_task", "create_task"},
            "project_leadin": {"create_task"},
            "offtopic": {"none"},
            "plain_other": {"close_task", "cancel_task", "update_task", "create_task", "list_tasks"},
            "ambiguous": {"clarify"},
            "unknown_other": {"none"},
        }[cls]
        if tool not in want:
            bad(f"{where}: tool {tool} not allowed in class {cls}")
        if cls == "deadline_not_close" and tool == "create_task" and e.get("deadline_kind") == "none":
            bad(f"{where}: deadline_not_close create without a date")
        if cls == "explicit_form" and e.get("id") in task:
            k = e["id"]
            keys = {f"{a.upper()}-{b}" for a, b in key_rx.findall(text)}
            if k not in keys and norm(task[k]["title"]) not in norm(text):
                bad(f"{where}: neither key nor exact title of {k}")
        if cls == "unknown_other":
            for a, b in key_rx.findall(text):
                if f"{a.upper()}-{b}" in task:
                    bad(f"{where}: names existing key {a.upper()}-{b}")

    # ---------------------------------------------------------------- counts
    langs = ["ru", "en"]

    def table(field, order):
        c = Counter((p.get(field), p.get("lang")) for p in phrases)
        print(f"| {field} | ru | en | total |")
        print("|---|---|---|---|")
        for k in order:
            print(f"| {k} | {c[(k, 'ru')]} | {c[(k, 'en')]} | {c[(k, 'ru')] + c[(k, 'en')]} |")
        tot = Counter(p.get("lang") for p in phrases)
        print(f"| **all** | {tot['ru']} | {tot['en']} | **{len(phrases)}** |")
        print()

    print(f"TODAY {TODAY} ({TODAY.strftime('%A')}), now {NOW_UTC.isoformat()} -> "
          f"{NOW_UTC.astimezone(ZONE).strftime('%Y-%m-%d %H:%M')} Asia/Yerevan")
    print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
    per = Counter(t["project"] for t in tasks)
    print("tasks per project:", ", ".join(f"{k} {per[k]}" for k in [*sorted(pkeys), "INBOX"]))
    dues = Counter()
    for t in tasks:
        d = iso(t["due"])
        if d is None:
            dues["undated"] += 1
        elif d < TODAY:
            dues["overdue"] += 1
        elif d == TODAY:
            dues["today"] += 1
        else:
            dues["later"] += 1
        if t["due_kind"] == "week":
            dues["week kind"] += 1
    print("dues:", dict(dues))
    print()
    table("class", list(CLASSES))
    table("kind", ["plain", "ambiguous", "unknown"])
    tools = Counter(p["expect"].get("tool") for p in phrases)
    lists = Counter(p["expect"].get("filter") for p in phrases if p["expect"].get("tool") == "list_tasks")
    print("by tool:", ", ".join(f"{k} {v}" for k, v in tools.most_common()))
    print("list filters:", dict(lists))
    dated = sum(1 for p in phrases if p["expect"].get("deadline") or
                (p["expect"].get("tool") == "clarify" and ref_date(p["text"])))
    print("phrases whose date was recomputed:", dated)

    if "--table" in sys.argv:
        print()
        print("| phrase | reference |")
        print("|---|---|")
        for s in ["сегодня", "today", "завтра", "tmrw", "avrio", "послезавтра", "methavrio",
                  "в среду", "к пятнице", "on saturday", "в воскресенье", "в понедельник",
                  "by monday", "next friday", "в следующую пятницу", "next monday",
                  "до конца недели", "this week", "на следующей неделе", "next week",
                  "на выходные", "weekend", "через 3 дня", "in 2 weeks", "через неделю",
                  "к концу месяца", "end of month", "на следующий месяц", "next month",
                  "на конец года", "до 5 числа", "на 1 число", "by the 20th",
                  "до 20 июля", "10.07", "20.06", "31.05", "на пятницк", "to wednesdya"]:
            r = ref_date(s)
            print(f"| {s} | " + ", ".join(f"{k} {d} ({d.strftime('%a')})" for k, d in r) + " |")

    if problems:
        print()
        for m in problems:
            print("PROBLEM:", m)
        print(f"{len(problems)} problem(s)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
