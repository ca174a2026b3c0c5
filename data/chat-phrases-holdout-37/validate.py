#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-37 (stdlib only).

Checks the JSON shapes, keys (existence and reproduction by creation order),
class/kind consistency, counts, and recomputes every expected date from the phrase
text with a small reference of the house date rules written for this set only
(from data/chat-phrases/README.md). Prints counts; exits 1 on any problem.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))

# --- TODAY -----------------------------------------------------------------------
NOW_UTC = dt.datetime(2039, 2, 27, 21, 15, tzinfo=dt.timezone.utc)
ZONE = dt.timezone(dt.timedelta(hours=3), "Europe/Istanbul")  # UTC+3, no summer time
NOW_LOCAL = NOW_UTC.astimezone(ZONE)
TODAY = NOW_LOCAL.date()

CLASSES = OrderedDict([  # class -> (kind, aimed count)
    ("typo", ("plain", 30)),
    ("report", ("plain", 33)),
    ("negated_cancel", ("plain", 23)),
    ("explicit_form", ("plain", 28)),
    ("deadline_not_close", ("plain", 26)),
    ("project_leadin", ("plain", 24)),
    ("offtopic", ("unknown", 22)),
    ("plain_other", ("plain", 54)),
    ("ambiguous", ("ambiguous", 52)),
    ("unknown_other", ("unknown", 24)),
])
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

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
                out.append((n, json.loads(line)))
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad json: {e}")
    return out


# --- house date rules (reference for this set only) --------------------------------
def add_months_last_day(d, k):
    y, m = d.year, d.month + k
    while m > 12:
        y, m = y + 1, m - 12
    return dt.date(y, m, calendar.monthrange(y, m)[1])


def weekday_plain(wd):  # next such day strictly after today
    delta = (wd - TODAY.weekday()) % 7
    return TODAY + dt.timedelta(days=delta or 7)


def weekday_next(wd):  # that weekday in the next Monday-Sunday week
    next_monday = TODAY + dt.timedelta(days=7 - TODAY.weekday())
    return next_monday + dt.timedelta(days=wd)


def this_sunday():
    return TODAY + dt.timedelta(days=6 - TODAY.weekday())


def coming_saturday():
    return TODAY + dt.timedelta(days=(5 - TODAY.weekday()) % 7)


def day_month(d, m):
    try:
        x = dt.date(TODAY.year, m, d)
    except ValueError:
        return None
    if (TODAY - x).days > 30:
        x = dt.date(TODAY.year + 1, m, d)
    return x


def day_of_month(d):
    y, m = TODAY.year, TODAY.month
    for _ in range(2):
        last = calendar.monthrange(y, m)[1]
        x = dt.date(y, m, min(d, last))
        if x >= TODAY:
            return x
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


WD = {}
for i, names in enumerate([
        "monday понедельник понедельника понедельнику",
        "tuesday вторник вторника вторнику",
        "wednesday среда среду среды среде",
        "thursday четверг четверга четвергу",
        "friday пятница пятницу пятницы пятнице",
        "saturday суббота субботу субботы субботе",
        "sunday воскресенье воскресенья воскресенью"]):
    for w in names.split():
        WD[w] = ("wd", i)
MONTHS = {}
for i, names in enumerate([
        "january jan января", "february feb февраля", "march mar марта",
        "april apr апреля", "may мая", "june jun июня", "july jul июля",
        "august aug августа", "september sep sept сентября", "october oct октября",
        "november nov ноября", "december dec декабря"], 1):
    for w in names.split():
        MONTHS[w] = ("mon", i)
WORDS = dict(WD)
WORDS.update(MONTHS)
for group, canon in [
        ("today eod сегодня", "today"),
        ("tomorrow tmrw tmr завтра", "tomorrow"),
        ("послезавтра", "dayafter"),
        ("next следующую следующей следующий следующем следующая", "next"),
        ("this этой эту этот", "this"),
        ("week неделю недели неделе неделя weeks", "week"),
        ("month месяца месяце месяц", "month"),
        ("weekend выходные выходных выходным", "weekend"),
        ("end конца концу конец", "end"),
        ("days day дня дней день", "days"),
        ("числа числу", "dom"),
        ("in через", "in")]:
    for w in group.split():
        WORDS[w] = (canon,)
FILLER = {"of", "the", "a"}
# words a single slip away from a date word that are real words of their own
STOP = {"завтрак", "next", "text", "dentist", "weeks", "неделя", "tray", "days"}
FUZZY_TARGETS = [w for w in WORDS if len(w) >= 4 and w not in MONTHS]


def osa(a, b):
    """optimal string alignment distance (one swap counts as one slip)"""
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


FUZZY_USED = []


def canon_token(tok):
    if tok in WORDS:
        return WORDS[tok]
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", tok):
        try:
            return ("date", dt.date.fromisoformat(tok))
        except ValueError:
            return ("bad",)
    m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})(?:\.(\d{4}))?", tok)
    if m:
        d, mo = int(m.group(1)), int(m.group(2))
        if m.group(3):
            try:
                return ("date", dt.date(int(m.group(3)), mo, d))
            except ValueError:
                return ("bad",)
        x = day_month(d, mo)
        return ("date", x) if x else ("bad",)
    m = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)", tok)
    if m:
        return ("ord", int(m.group(1)))
    if re.fullmatch(r"\d{1,2}", tok):
        return ("num", int(tok))
    if len(tok) >= 3 and tok not in STOP and not re.search(r"\d", tok):
        hits = {WORDS[w] for w in FUZZY_TARGETS if abs(len(w) - len(tok)) <= 1 and osa(tok, w) == 1}
        if len(hits) == 1:
            FUZZY_USED.append(tok)
            return hits.pop()
    return ("w", tok)


def tokens(text):
    text = text.lower().replace("ё", "е")
    raw = re.findall(r"\d{4}-\d{2}-\d{2}|\d{1,2}\.\d{1,2}(?:\.\d{4})?|[0-9a-zа-яçğıöşüі'-]+", text)
    out = []
    for t in raw:
        t = t.strip("'-")
        if not t or t in FILLER:
            continue
        out.append(canon_token(t))
    return out


def find_dates(text):
    """all (position, kind, date) read from the text, left to right"""
    ts = tokens(text)
    found = []
    i = 0
    n = len(ts)

    def at(j):
        return ts[j] if 0 <= j < n else ("eof",)

    while i < n:
        t = ts[i]
        c = t[0]
        if c == "date":
            found.append((i, "day", t[1])); i += 1; continue
        if c == "num" and at(i + 1)[0] == "mon":
            x = day_month(t[1], at(i + 1)[1])
            found.append((i, "day", x)); i += 2; continue
        if c == "mon" and at(i + 1)[0] == "num":
            x = day_month(at(i + 1)[1], t[1])
            found.append((i, "day", x)); i += 2; continue
        if c == "num" and at(i + 1)[0] == "dom":
            found.append((i, "day", day_of_month(t[1]))); i += 2; continue
        if c == "ord":
            found.append((i, "day", day_of_month(t[1]))); i += 1; continue
        if c == "next":
            nx = at(i + 1)
            if nx[0] == "wd":
                found.append((i, "day", weekday_next(nx[1]))); i += 2; continue
            if nx[0] == "week":
                found.append((i, "week", this_sunday() + dt.timedelta(days=7))); i += 2; continue
            if nx[0] == "month":
                found.append((i, "day", add_months_last_day(TODAY, 1))); i += 2; continue
            i += 1; continue
        if c in ("this", "end"):
            nx = at(i + 1)
            if nx[0] == "week":
                found.append((i, "week", this_sunday())); i += 2; continue
            if c == "end" and nx[0] == "month":
                found.append((i, "day", add_months_last_day(TODAY, 0))); i += 2; continue
            if c == "this" and nx[0] == "wd":
                found.append((i, "day", weekday_plain(nx[1]))); i += 2; continue
            i += 1; continue
        if c == "in":
            nx = at(i + 1)
            if nx[0] == "week":
                found.append((i, "day", TODAY + dt.timedelta(days=7))); i += 2; continue
            if nx[0] == "num" and at(i + 2)[0] == "days":
                found.append((i, "day", TODAY + dt.timedelta(days=nx[1]))); i += 3; continue
            if nx[0] == "num" and at(i + 2)[0] == "week":
                found.append((i, "day", TODAY + dt.timedelta(days=7 * nx[1]))); i += 3; continue
            i += 1; continue
        if c == "wd":
            found.append((i, "day", weekday_plain(t[1]))); i += 1; continue
        if c == "weekend":
            found.append((i, "day", coming_saturday())); i += 1; continue
        if c == "today":
            found.append((i, "day", TODAY)); i += 1; continue
        if c == "tomorrow":
            found.append((i, "day", TODAY + dt.timedelta(days=1))); i += 1; continue
        if c == "dayafter":
            found.append((i, "day", TODAY + dt.timedelta(days=2))); i += 1; continue
        i += 1
    return found


def last_date(text):
    f = find_dates(text)
    return (f[-1][1], f[-1][2]) if f else None


# --- create_task text check ------------------------------------------------------
COMMAND_WORDS = set("""add todo new task remind me to put in project add: todo: list
добавь задачу новая задача напомни в проект на до к by on in at""".split())
PROJECT_ALIASES = {"эбру": "EBRU", "documents": "DOCS", "документы": "DOCS"}
DATE_GLUE = set("of the a на до к в by on in to".split())


def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[:\-–—,]", " ", s)
    return " ".join(s.split())


def main():
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # projects
    pkeys = {}
    for n, p in projects:
        if set(p) != {"key", "name", "description"}:
            bad(f"projects:{n}: fields {sorted(p)}")
            continue
        if not re.fullmatch(r"[A-Z]+", p["key"]) or p["key"] == "INBOX":
            bad(f"projects:{n}: bad key {p['key']}")
        if p["key"] in pkeys:
            bad(f"projects:{n}: duplicate key {p['key']}")
        if not p["name"].strip() or not p["description"].strip():
            bad(f"projects:{n}: empty name/description")
        pkeys[p["key"]] = p
    if len(pkeys) != 5:
        bad(f"projects: {len(pkeys)} projects, want 5")
    # the words by which a phrase names a project (name, key, and the obvious
    # transliteration / translation this person uses)
    aliases = {norm(p["name"]): k for k, p in pkeys.items()}
    aliases.update({k.lower(): k for k in pkeys})
    aliases.update(PROJECT_ALIASES)
    project_names = set(aliases)

    # tasks: keys reproduced by loading in file order
    counters = Counter()
    T = {}
    for n, t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"tasks:{n}: fields {sorted(t)}")
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad(f"tasks:{n}: unknown project {proj}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            bad(f"tasks:{n}: key {t['key']} but loading in file order gives {want}")
        if t["key"] in T:
            bad(f"tasks:{n}: duplicate key {t['key']}")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"tasks:{n}: due with due_kind none")
        elif t["due_kind"] in ("day", "week"):
            try:
                d = dt.date.fromisoformat(t["due"])
                if t["due_kind"] == "week" and d.weekday() != 6:
                    bad(f"tasks:{n}: week due {d} is not a Sunday")
            except (TypeError, ValueError):
                bad(f"tasks:{n}: bad due {t['due']!r}")
        else:
            bad(f"tasks:{n}: bad due_kind {t['due_kind']}")
        T[t["key"]] = t
    if not 55 <= len(T) <= 65:
        bad(f"tasks: {len(T)} tasks, want 55-65")
    norm_titles = Counter(norm(t["title"]) for t in T.values())
    for k, v in norm_titles.items():
        if v > 1:
            bad(f"tasks: duplicate title {k}")

    def due_of(k):
        t = T[k]
        return None if t["due"] is None else dt.date.fromisoformat(t["due"])

    buckets = Counter()
    for k, t in T.items():
        d = due_of(k)
        if d is None:
            buckets["undated"] += 1
        elif d < TODAY:
            buckets["overdue"] += 1
        elif d == TODAY:
            buckets["today"] += 1
        elif t["due_kind"] == "week":
            buckets["week"] += 1
        else:
            buckets["later"] += 1

    # phrases
    by_class = Counter()
    by_class_lang = Counter()
    by_kind_lang = Counter()
    by_tool = Counter()
    by_filter = Counter()
    dates_checked = 0
    seen = set()
    for n, p in phrases:
        where = f"phrases:{n} {p.get('text')!r}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if not isinstance(text, str) or not text.strip():
            bad(f"{where}: empty text"); continue
        if norm(text) in seen:
            bad(f"{where}: duplicate phrase")
        seen.add(norm(text))
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        if cls not in CLASSES:
            bad(f"{where}: class {cls}"); continue
        if kind != CLASSES[cls][0]:
            bad(f"{where}: kind {kind} but class {cls} wants {CLASSES[cls][0]}")
        # messenger style: lowercase except explicit keys, no sentence punctuation
        stripped = re.sub(r"\b[A-Z]+-\d+\b", "", text)
        if stripped != stripped.lower():
            bad(f"{where}: uppercase outside a key")
        if re.search(r"[.!?](?!\d)", text):
            bad(f"{where}: sentence punctuation")
        by_class[cls] += 1
        by_class_lang[(cls, lang)] += 1
        by_kind_lang[(kind, lang)] += 1
        tool = e.get("tool") if isinstance(e, dict) else None
        by_tool[tool] += 1

        found = find_dates(text)
        got = (found[-1][1], found[-1][2]) if found else None

        def key_ok(k):
            if k not in T:
                bad(f"{where}: unknown key {k}")
                return False
            return True

        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"}:
                bad(f"{where}: fields {sorted(e)}")
            key_ok(e.get("id"))
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"}:
                bad(f"{where}: fields {sorted(e)}")
            if key_ok(e.get("id")):
                want = (e["deadline_kind"], dt.date.fromisoformat(e["deadline"]))
                dates_checked += 1
                if got != want:
                    bad(f"{where}: expected {want} but the reference reads {got}")
                t = T[e["id"]]
                if t["due"] == e["deadline"] and t["due_kind"] == e["deadline_kind"]:
                    bad(f"{where}: update does not change {e['id']}")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(e) <= allowed or not {"tool", "text", "deadline_kind"} <= set(e):
                bad(f"{where}: fields {sorted(e)}")
            if "project" in e and e["project"] not in pkeys:
                bad(f"{where}: unknown project {e['project']}")
            if cls == "project_leadin" and "project" not in e:
                bad(f"{where}: project_leadin without project")
            if norm(e["text"]) not in norm(text):
                bad(f"{where}: create text not in phrase")
            if e["deadline_kind"] == "none":
                if "deadline" in e:
                    bad(f"{where}: deadline with kind none")
                if got is not None:
                    bad(f"{where}: kind none but the reference reads a date {got}")
            else:
                want = (e["deadline_kind"], dt.date.fromisoformat(e["deadline"]))
                dates_checked += 1
                if got != want:
                    bad(f"{where}: expected {want} but the reference reads {got}")
            # what is left after removing the text: command words, project name, date words
            rest = norm(text).replace(norm(e["text"]), " ", 1)
            named = set()
            for tok in tokens(rest):
                if tok[0] != "w":
                    continue
                w = tok[1]
                if w in aliases:
                    named.add(aliases[w])
                if w in COMMAND_WORDS or w in DATE_GLUE or w in project_names:
                    continue
                if any(osa(w, c) <= 1 for c in COMMAND_WORDS if len(c) >= 5):
                    continue
                bad(f"{where}: leftover word {w!r} is neither command, project nor date")
            if named and named != {e.get("project")}:
                bad(f"{where}: phrase names project {sorted(named)} but expect has {e.get('project')}")
            if "project" in e and not named:
                bad(f"{where}: project {e['project']} expected but not named in the phrase")
            if not found and e["deadline_kind"] != "none":
                bad(f"{where}: no date read")
        elif tool == "list_tasks":
            if set(e) != {"tool", "filter"} or e.get("filter") not in FILTERS:
                bad(f"{where}: bad list_tasks {e}")
            by_filter[e.get("filter")] += 1
        elif tool == "clarify":
            opts = e.get("options")
            if set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
                bad(f"{where}: bad clarify {e}")
            elif len(set(opts)) != len(opts):
                bad(f"{where}: duplicate options")
            elif all(key_ok(k) for k in opts) and got is not None:
                dates_checked += 1
                for k in opts:
                    t = T[k]
                    if t["due"] == got[1].isoformat():
                        bad(f"{where}: move date {got[1]} equals the due of option {k}")
        elif tool == "none":
            if set(e) != {"tool"}:
                bad(f"{where}: fields {sorted(e)}")
        else:
            bad(f"{where}: unknown tool {tool}")

        if (kind == "ambiguous") != (tool == "clarify"):
            bad(f"{where}: kind {kind} with tool {tool}")
        if (kind == "unknown") != (tool == "none"):
            bad(f"{where}: kind {kind} with tool {tool}")

    # counts against the aims (within 10 % per class, languages about equal)
    for cls, (_, aim) in CLASSES.items():
        if abs(by_class[cls] - aim) > max(2, aim // 10):
            bad(f"class {cls}: {by_class[cls]} phrases, aimed {aim}")
    total = sum(by_class.values())
    ru = sum(v for (c, l), v in by_class_lang.items() if l == "ru")
    en = total - ru
    if total < 300:
        bad(f"only {total} phrases, want at least 300")
    if abs(ru - en) > total * 0.05:
        bad(f"languages unbalanced: ru {ru}, en {en}")

    # report
    print(f"now {NOW_UTC.isoformat()} UTC = {NOW_LOCAL.strftime('%Y-%m-%d %H:%M')} "
          f"{NOW_LOCAL.strftime('%A')} in {ZONE.tzname(None)}; TODAY {TODAY}")
    print(f"projects {len(pkeys)}; tasks {len(T)}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counters.items())))
    print("task dues: " + ", ".join(f"{k} {buckets[k]}" for k in
                                     ("overdue", "today", "week", "later", "undated")))
    print()
    print("| class | kind | ru | en | total |")
    print("|---|---|---|---|---|")
    for cls, (kind, _) in CLASSES.items():
        r, e_ = by_class_lang[(cls, "ru")], by_class_lang[(cls, "en")]
        print(f"| {cls} | {kind} | {r} | {e_} | {r + e_} |")
    print(f"| **all** | | {ru} | {en} | **{total}** |")
    print()
    print("| kind | ru | en | total |")
    print("|---|---|---|---|")
    for kind in ("plain", "ambiguous", "unknown"):
        r, e_ = by_kind_lang[(kind, "ru")], by_kind_lang[(kind, "en")]
        print(f"| {kind} | {r} | {e_} | {r + e_} |")
    print()
    print("by expected tool: " + ", ".join(
        f"{t} {by_tool[t]}" for t in ("close_task", "cancel_task", "update_task",
                                      "create_task", "list_tasks", "clarify", "none")))
    print("list_tasks filters: " + ", ".join(f"{f} {by_filter[f]}" for f in
                                             ("today", "inbox", "overdue", "done", "all_by_project")))
    print(f"dates recomputed from the text: {dates_checked}; "
          f"one-slip date words read: {', '.join(sorted(set(FUZZY_USED)))}")
    if problems:
        print()
        for m in problems:
            print("PROBLEM:", m)
        print(f"{len(problems)} problem(s)")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
