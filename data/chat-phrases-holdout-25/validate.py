#!/usr/bin/env python3
"""Self-check for chat-phrases-holdout-25 (stdlib only).

Checks JSON shapes, keys, creation-order reproduction of keys, class/kind
consistency, counts per class and language, and recomputes every expected date
(updates, dated creates, dates named in ambiguous moves) from the phrase text
with a small reference of the house date rules written for this set only.

Prints counts; exits 1 on any problem.
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter, OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2035, 8, 14)  # local date in America/Sao_Paulo at 2035-08-14T03:30:00Z (00:30, Tuesday)
NOW_UTC = "2035-08-14T03:30:00Z"

CLASS_KIND = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
    "deadline_not_close": "plain", "project_leadin": "plain", "plain_other": "plain",
    "ambiguous": "ambiguous", "offtopic": "unknown", "unknown_other": "unknown",
}
TARGET = {
    "typo": 30, "report": 33, "negated_cancel": 23, "explicit_form": 28, "deadline_not_close": 26,
    "project_leadin": 24, "offtopic": 22, "plain_other": 54, "ambiguous": 52, "unknown_other": 24,
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}

problems = []


def bad(msg):
    problems.append(msg)


# ---------------------------------------------------------------- date reference
def d_add(n):
    return TODAY + dt.timedelta(days=n)


def sunday_of(d):
    return d + dt.timedelta(days=6 - d.weekday())


def last_of_month(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def plain_weekday(wd):
    """Next such weekday strictly after today."""
    delta = (wd - TODAY.weekday()) % 7
    return d_add(delta or 7)


def next_weekday(wd):
    """That weekday in the next Monday-Sunday week."""
    next_monday = TODAY + dt.timedelta(days=7 - TODAY.weekday())
    return next_monday + dt.timedelta(days=wd)


def day_month(day, month):
    """Day + month without a year: this year's unless > 30 days in the past, then next year's."""
    try:
        d = dt.date(TODAY.year, month, day)
    except ValueError:
        return None
    if (TODAY - d).days > 30:
        try:
            d = dt.date(TODAY.year + 1, month, day)
        except ValueError:
            return None
    return d


def day_of_month(day):
    """Next such day of month on or after today; a month without it gives its last day."""
    y, m = TODAY.year, TODAY.month
    for _ in range(3):
        last = last_of_month(y, m)
        cand = dt.date(y, m, min(day, last.day))
        if cand >= TODAY:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


RU_MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
             "сентября", "октября", "ноября", "декабря"]
EN_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
RU_WD = [r"понедельник\w*", r"вторник\w*", r"сред[ауеы]", r"четверг\w*", r"пятниц\w+",
         r"суббот\w+", r"воскресень\w+"]
EN_WD = [r"monday|mon", r"tuesday|tues|tue", r"wednesday|wed", r"thursday|thurs|thu",
         r"friday|fri", r"saturday|sat", r"sunday|sun"]
# date words with a slip, read as a person would (weekday misspellings are NOT here:
# by the house rules they are errors, and this set avoids them)
SLIPS = {"tomorow": "tomorrow", "tommorow": "tomorrow", "tommorrow": "tomorrow",
         "tmrw": "tomorrow", "tmr": "tomorrow", "завтар": "завтра", "зватра": "завтра"}


def norm(text):
    t = text.lower().replace("ё", "е")
    for a, b in SLIPS.items():
        t = re.sub(r"\b%s\b" % a, b, t)
    return t


def find_dates(text):
    """Return the list of (kind, date) date expressions found in the text."""
    t = norm(text)
    found = []

    def take(pattern, fn):
        nonlocal t
        for m in list(re.finditer(pattern, t)):
            r = fn(m)
            found.append(r)
        t = re.sub(pattern, " # ", t)

    take(r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: ("day", dt.date(int(m[1]), int(m[2]), int(m[3]))))
    take(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: ("day", dt.date(int(m[3]), int(m[2]), int(m[1]))))
    take(r"\b(\d{1,2})\.(\d{1,2})\b", lambda m: ("day", day_month(int(m[1]), int(m[2]))))
    take(r"\b(\d{1,2})/(\d{1,2})\b",
         lambda m: ("day", day_month(int(m[1]), int(m[2]))) if int(m[1]) > 12 else ("error", None))
    take(r"\b(\d{1,2}) (%s)\b" % "|".join(RU_MONTHS),
         lambda m: ("day", day_month(int(m[1]), RU_MONTHS.index(m[2]) + 1)))
    take(r"\b(%s)[a-z]* (\d{1,2})(?:st|nd|rd|th)?\b" % "|".join(EN_MONTHS),
         lambda m: ("day", day_month(int(m[2]), EN_MONTHS.index(m[1]) + 1)))
    take(r"\b(\d{1,2})(?:st|nd|rd|th)? (%s)[a-z]*\b" % "|".join(EN_MONTHS),
         lambda m: ("day", day_month(int(m[1]), EN_MONTHS.index(m[2]) + 1)))
    take(r"\b(?:конца|конец) года\b|\bend of (?:the )?year\b", lambda m: ("day", dt.date(TODAY.year, 12, 31)))
    take(r"\b(?:конца|концу|конце|конец) месяца\b|\bend of (?:the )?month\b|\beom\b",
         lambda m: ("day", last_of_month(TODAY.year, TODAY.month)))
    take(r"\bв следующем месяце\b|\bnext month\b",
         lambda m: ("day", last_of_month(*((TODAY.year + 1, 1) if TODAY.month == 12 else (TODAY.year, TODAY.month + 1)))))
    take(r"\bна следующ\w+ недел\w+\b|\bnext week\b", lambda m: ("week", sunday_of(TODAY) + dt.timedelta(days=7)))
    take(r"\bдо конца недели\b|\bк концу недели\b|\bна этой неделе\b|\bthis week\b|\bend of (?:the )?week\b",
         lambda m: ("week", sunday_of(TODAY)))
    take(r"\bчерез (?:две|2) недели\b|\bin (?:two|2) weeks\b", lambda m: ("day", d_add(14)))
    take(r"\bчерез неделю\b|\bin a week\b", lambda m: ("day", d_add(7)))
    take(r"\bчерез (\d+) (?:день|дня|дней)\b|\bin (\d+) days?\b", lambda m: ("day", d_add(int(m[1] or m[2]))))
    take(r"\bпослезавтра\b|\bday after tomorrow\b", lambda m: ("day", d_add(2)))
    take(r"\bзавтра\b|\btomorrow\b", lambda m: ("day", d_add(1)))
    take(r"\bсегодня\b|\btoday\b|\btonight\b|\beod\b", lambda m: ("day", TODAY))
    take(r"\bвыходн\w+\b|\bweekend\b", lambda m: ("day", d_add((5 - TODAY.weekday()) % 7)))
    for i, (ru, en) in enumerate(zip(RU_WD, EN_WD)):
        take(r"\bследующ\w+ (?:%s)\b|\bnext (?:%s)\b" % (ru, en), lambda m, i=i: ("day", next_weekday(i)))
        take(r"\b(?:%s)\b|\b(?:%s)\b" % (ru, en), lambda m, i=i: ("day", plain_weekday(i)))
    take(r"\b(\d{1,2}) числа\b|\b(\d{1,2})(?:st|nd|rd|th)\b",
         lambda m: ("day", day_of_month(int(m[1] or m[2]))))
    return found


def selftest():
    cases = [
        ("завтра", ("day", "2035-08-15")), ("послезавтра", ("day", "2035-08-16")),
        ("в пятницу", ("day", "2035-08-17")), ("next friday", ("day", "2035-08-24")),
        ("в среду", ("day", "2035-08-15")), ("в следующую среду", ("day", "2035-08-22")),
        ("tuesday", ("day", "2035-08-21")), ("next tuesday", ("day", "2035-08-21")),
        ("на следующей неделе", ("week", "2035-08-26")), ("this week", ("week", "2035-08-19")),
        ("до конца месяца", ("day", "2035-08-31")), ("next month", ("day", "2035-09-30")),
        ("на выходных", ("day", "2035-08-18")), ("через неделю", ("day", "2035-08-21")),
        ("in 2 weeks", ("day", "2035-08-28")), ("до 5 числа", ("day", "2035-09-05")),
        ("до 14 числа", ("day", "2035-08-14")), ("20 мая", ("day", "2036-05-20")),
        ("10.07", ("day", "2036-07-10")), ("20.07", ("day", "2035-07-20")),
        ("tmrw", ("day", "2035-08-15")), ("сегодня", ("day", "2035-08-14")),
        ("end of the year", ("day", "2035-12-31")), ("sept 15", ("day", "2035-09-15")),
    ]
    for text, (k, d) in cases:
        got = find_dates(text)
        if got != [(k, dt.date.fromisoformat(d))]:
            bad("date reference self-test: %r -> %r, want %s %s" % (text, got, k, d))


# ---------------------------------------------------------------- load
def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad("%s:%d empty line" % (name, n))
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                bad("%s:%d bad JSON: %s" % (name, n, e))
    return rows


def main():
    selftest()
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    # ---- projects
    pkeys = []
    for p in projects:
        if set(p) != {"key", "name", "description"}:
            bad("project fields: %r" % p)
        if not re.fullmatch(r"[A-Z]+", p.get("key", "")):
            bad("project key: %r" % p)
        if p.get("key") == "INBOX":
            bad("INBOX must not be listed")
        pkeys.append(p.get("key"))
    if len(projects) != 5 or len(set(pkeys)) != 5:
        bad("want 5 distinct projects, got %r" % pkeys)

    # ---- tasks: keys reproduced by creation order
    counters = Counter()
    due = {}
    stats = Counter()
    for t in tasks:
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad("task fields: %r" % t)
            continue
        proj = t["project"]
        if proj != "INBOX" and proj not in pkeys:
            bad("task %s: unknown project %s" % (t["key"], proj))
        counters[proj] += 1
        want = "%s-%d" % (proj, counters[proj])
        if t["key"] != want:
            bad("task %s: creation order gives %s" % (t["key"], want))
        if t["key"] in due:
            bad("duplicate task key %s" % t["key"])
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad("task %s: due without kind" % t["key"])
            stats["undated"] += 1
            due[t["key"]] = None
            continue
        if t["due_kind"] not in ("day", "week"):
            bad("task %s: due_kind %r" % (t["key"], t["due_kind"]))
            continue
        try:
            d = dt.date.fromisoformat(t["due"])
        except (TypeError, ValueError):
            bad("task %s: due %r" % (t["key"], t["due"]))
            continue
        if t["due_kind"] == "week" and d.weekday() != 6:
            bad("task %s: week due must be a Sunday" % t["key"])
        due[t["key"]] = d
        if t["due_kind"] == "week":
            stats["week"] += 1
        if d < TODAY:
            stats["overdue"] += 1
        elif d == TODAY:
            stats["today"] += 1
        else:
            stats["later"] += 1
    if not 55 <= len(tasks) <= 65:
        bad("want 55-65 tasks, got %d" % len(tasks))
    if not 12 <= stats["undated"] <= 18:
        bad("want about 15 undated tasks, got %d" % stats["undated"])
    keyset = set(due)

    # ---- phrases
    by_class = OrderedDict((c, Counter()) for c in TARGET)
    by_kind = OrderedDict((k, Counter()) for k in ("plain", "ambiguous", "unknown"))
    by_tool = Counter()
    by_filter = Counter()
    texts = set()
    neg = re.compile(r"\b(не|нет|no|not|dont|don't|wont|won't|never|were not|doesnt)\b")
    cancel_verb = re.compile(r"\b(удали|отмени|убери|вычеркни|cancel|delete|remove|drop)\b")
    doneish = re.compile(r"(доделаю|доделать|закончу|сделаем|сделать|разберусь|поменяю|куплю|купим|"
                         r"готов|оплачу|переведу|done|finish|finished|signed|paid|complete|close|ordered)")
    keyre = re.compile(r"\b([a-z]+)-(\d+)\b", re.I)
    for n, p in enumerate(phrases, 1):
        where = "phrases.jsonl:%d %r" % (n, p.get("text"))
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad("%s: fields %r" % (where, sorted(p)))
            continue
        text, lang, kind, ex, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if lang not in ("ru", "en"):
            bad("%s: lang %r" % (where, lang))
        if cls not in CLASS_KIND:
            bad("%s: class %r" % (where, cls))
            continue
        if CLASS_KIND[cls] != kind:
            bad("%s: class %s needs kind %s" % (where, cls, CLASS_KIND[cls]))
        if text in texts:
            bad("%s: duplicate text" % where)
        texts.add(text)
        if keyre.sub("", text) != keyre.sub("", text).lower() or re.search(r"[?!,]", text):
            bad("%s: messenger style: lowercase, no ?!," % where)
        by_class[cls][lang] += 1
        by_kind[kind][lang] += 1
        tool = ex.get("tool")
        by_tool[tool] += 1
        dates = find_dates(text)
        keys_in_text = [("%s-%s" % (a.upper(), b)) for a, b in keyre.findall(text)]

        def one_date():
            if len(dates) != 1:
                bad("%s: reference finds %d date expressions %r" % (where, len(dates), dates))
                return None
            return dates[0]

        if tool in ("close_task", "cancel_task"):
            if set(ex) != {"tool", "id"} or ex["id"] not in keyset:
                bad("%s: expect %r" % (where, ex))
            if dates:
                bad("%s: a close/cancel phrase must carry no date words (%r)" % (where, dates))
        elif tool == "update_task":
            if set(ex) != {"tool", "id", "deadline_kind", "deadline"} or ex["id"] not in keyset:
                bad("%s: expect %r" % (where, ex))
            else:
                got = one_date()
                if got and (got[0] != ex["deadline_kind"] or got[1] is None or got[1].isoformat() != ex["deadline"]):
                    bad("%s: reference gives %s %s, expect says %s %s"
                        % (where, got[0], got[1], ex["deadline_kind"], ex["deadline"]))
                if due.get(ex["id"]) and due[ex["id"]].isoformat() == ex["deadline"]:
                    bad("%s: move to the date the task already has" % where)
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(ex) <= allowed or "text" not in ex or ex.get("deadline_kind") not in ("none", "day", "week"):
                bad("%s: expect %r" % (where, ex))
            if "project" in ex and ex["project"] not in pkeys:
                bad("%s: unknown project %r" % (where, ex["project"]))
            if norm(ex.get("text", "")) not in norm(text):
                bad("%s: create text is not taken from the phrase" % where)
            if ex.get("deadline_kind") == "none":
                if "deadline" in ex or dates:
                    bad("%s: undated create but dates %r" % (where, dates))
            else:
                got = one_date()
                if got and (got[0] != ex["deadline_kind"] or got[1] is None or got[1].isoformat() != ex.get("deadline")):
                    bad("%s: reference gives %s %s, expect says %s %s"
                        % (where, got[0], got[1], ex["deadline_kind"], ex.get("deadline")))
        elif tool == "list_tasks":
            if set(ex) != {"tool", "filter"} or ex["filter"] not in FILTERS:
                bad("%s: expect %r" % (where, ex))
            else:
                by_filter[ex["filter"]] += 1
        elif tool == "clarify":
            opts = ex.get("options")
            if set(ex) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2 \
                    or len(set(opts)) != len(opts) or not set(opts) <= keyset:
                bad("%s: expect %r" % (where, ex))
            elif dates:
                got = one_date()
                if got:
                    if got[1] is None:
                        bad("%s: ambiguous move with an unreadable date" % where)
                    for k in opts:
                        if due[k] == got[1]:
                            bad("%s: moves to %s, which %s already has (tie could be broken)" % (where, got[1], k))
        elif tool == "none":
            if set(ex) != {"tool"}:
                bad("%s: expect %r" % (where, ex))
        else:
            bad("%s: unknown tool %r" % (where, tool))

        # class-specific rules
        if cls == "report" and tool != "close_task":
            bad("%s: a report expects close_task" % where)
        if cls == "negated_cancel":
            if tool != "cancel_task":
                bad("%s: negated_cancel expects cancel_task" % where)
            if not (neg.search(norm(text)) and cancel_verb.search(norm(text))):
                bad("%s: negated_cancel needs a negation and a cancel verb" % where)
        if cls == "deadline_not_close":
            if tool != "update_task":
                bad("%s: deadline_not_close expects update_task" % where)
            if not doneish.search(norm(text)):
                bad("%s: deadline_not_close needs a done-ish word" % where)
        if cls == "explicit_form":
            if tool not in ("close_task", "cancel_task", "update_task") or keys_in_text != [ex.get("id")]:
                bad("%s: explicit_form must name exactly the expected key" % where)
        if cls == "project_leadin" and (tool != "create_task" or "project" not in ex):
            bad("%s: project_leadin expects a create with a project" % where)
        if cls in ("offtopic", "unknown_other") and tool != "none":
            bad("%s: %s expects none" % (where, cls))
        if cls == "ambiguous" and tool != "clarify":
            bad("%s: ambiguous expects clarify" % where)
        if cls == "typo" and tool not in ("close_task", "cancel_task", "update_task", "create_task"):
            bad("%s: typo phrases are plain actions" % where)
        if cls == "plain_other" and tool in ("clarify", "none"):
            bad("%s: plain_other must be one clear action" % where)
        for k in keys_in_text:
            if tool == "none" and k in keyset:
                bad("%s: names an existing key but expects none" % where)
            if tool != "none" and k not in keyset:
                bad("%s: names a missing key %s" % (where, k))

    # ---- counts
    total = Counter()
    for c in by_class.values():
        total.update(c)
    if sum(total.values()) < 300:
        bad("want at least 300 phrases, got %d" % sum(total.values()))
    if abs(total["ru"] - total["en"]) > 0.1 * sum(total.values()):
        bad("ru/en not about equal: %r" % dict(total))
    for c, want in TARGET.items():
        got = sum(by_class[c].values())
        if abs(got - want) > max(4, want // 5):
            bad("class %s: %d phrases, aimed at about %d" % (c, got, want))

    print("tasks: %d (overdue %d, today %d, later %d, undated %d; week-kind %d) in %s"
          % (len(tasks), stats["overdue"], stats["today"], stats["later"], stats["undated"], stats["week"],
             ", ".join("%s %d" % kv for kv in sorted(counters.items()))))
    print("TODAY %s %s (now %s, America/Sao_Paulo)" % (TODAY, TODAY.strftime("%A"), NOW_UTC))
    print()
    print("| class | kind | ru | en | total |")
    print("|---|---|---|---|---|")
    for c, cnt in by_class.items():
        print("| %s | %s | %d | %d | %d |" % (c, CLASS_KIND[c], cnt["ru"], cnt["en"], cnt["ru"] + cnt["en"]))
    print("| **all** | | %d | %d | **%d** |" % (total["ru"], total["en"], total["ru"] + total["en"]))
    print()
    print("| kind | ru | en | total |")
    print("|---|---|---|---|")
    for k, cnt in by_kind.items():
        print("| %s | %d | %d | %d |" % (k, cnt["ru"], cnt["en"], cnt["ru"] + cnt["en"]))
    print()
    print("by tool: " + ", ".join("%s %d" % (t, by_tool[t]) for t in
          ("close_task", "cancel_task", "update_task", "create_task", "list_tasks", "clarify", "none")))
    print("list filters: " + ", ".join("%s %d" % (f, by_filter[f]) for f in sorted(by_filter)))
    print()
    if problems:
        for m in problems:
            print("PROBLEM: " + m)
        print("%d problem(s)" % len(problems))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
