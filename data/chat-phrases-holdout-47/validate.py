#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-47 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and keys,
prints counts, and recomputes every date answer from a small reference of the house
date rules written for this set alone (TODAY = Saturday 2040-10-06, Australia/Adelaide).
Exits 1 on any problem.
"""
import json
import os
import re
import sys
from collections import Counter, OrderedDict
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = date(2040, 10, 6)  # local date of 2040-10-06T13:00:00Z in Australia/Adelaide (22:30)
problems = []


def bad(msg):
    problems.append(msg)


def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{n}: empty line")
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as e:
                bad(f"{name}:{n}: bad json: {e}")
    return rows


def iso(s):
    try:
        return date.fromisoformat(s)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------- reference of house date rules
def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[,:;!?«»\"()]", " ", s)
    return s.split()


WD_EN = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
WD_EN_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
WD_RU = {}
for stem, i, ends in [("понедельник", 0, ["", "а", "у"]), ("вторник", 1, ["", "а", "у"]),
                      ("сред", 2, ["а", "у", "ы", "е"]), ("четверг", 3, ["", "а", "у"]),
                      ("пятниц", 4, ["а", "у", "ы", "е"]), ("суббот", 5, ["а", "у", "ы", "е"]),
                      ("воскресень", 6, ["е", "я", "ю"])]:
    for e in ends:
        WD_RU[stem + e] = i
WD_RU_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
PREP_EN = {"on", "by", "to", "till", "until", "before", "for"}
PREP_RU = {"в", "во", "на", "до", "к", "ко", "по"}
MON_EN = {m: i + 1 for i, m in enumerate(["january", "february", "march", "april", "may", "june", "july",
                                          "august", "september", "october", "november", "december"])}
MON_EN.update({m[:3]: i for m, i in list(MON_EN.items())})
MON_RU = {m: i + 1 for i, m in enumerate(["января", "февраля", "марта", "апреля", "мая", "июня", "июля",
                                          "августа", "сентября", "октября", "ноября", "декабря"])}
NEXT_WORDS = {"next", "следующий", "следующую", "следующее", "следующей", "след"}

# date words slipped by one letter in this set, and the word each is read as
TYPO_ALIASES = {"звтра": "завтра", "пятнцу": "пятницу", "послезватра": "послезавтра",
                "мсяца": "месяца", "thrusday": "thursday", "tomorow": "tomorrow", "firday": "friday"}
DATE_VOCAB = (set(WD_EN) | set(WD_RU) | set(MON_EN) | set(MON_RU) |
              {"today", "tomorrow", "сегодня", "завтра", "послезавтра", "неделе", "неделю", "недели",
               "месяца", "месяце", "month", "week", "weekend", "выходные", "выходных", "fortnight"})


def dl(a, b):
    """Damerau-Levenshtein (optimal string alignment) distance."""
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
    return d[-1][-1]


def check_aliases():
    for typo, word in TYPO_ALIASES.items():
        if word not in DATE_VOCAB:
            bad(f"alias {typo}->{word}: target not a date word")
        best = min(dl(typo, w) for w in DATE_VOCAB)
        near = [w for w in DATE_VOCAB if dl(typo, w) == best]
        if best != 1 or near != [word]:
            bad(f"alias {typo}->{word}: closest date words at distance {best}: {near}")


def sunday_of(d):
    return d + timedelta(days=6 - d.weekday())


def end_of_month(y, m):
    nxt = date(y + (m == 12), m % 12 + 1, 1)
    return nxt - timedelta(days=1)


def plain_weekday(wd, today):
    delta = (wd - today.weekday()) % 7
    return today + timedelta(days=delta or 7)


def next_weekday(wd, today):
    monday_next = today - timedelta(days=today.weekday()) + timedelta(days=7)
    return monday_next + timedelta(days=wd)


def day_month(d, m, today):
    cand = date(today.year, m, d)
    if (today - cand).days > 30:
        cand = date(today.year + 1, m, d)
    return cand


def day_of_month(d, today):
    y, m = today.year, today.month
    for _ in range(2):
        last = end_of_month(y, m).day
        cand = date(y, m, min(d, last))
        if cand >= today:
            return cand
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    raise ValueError


def find_dates(text, today=TODAY):
    """Every date expression in text -> list of (kind, date, words)."""
    t = [TYPO_ALIASES.get(w, w) for w in norm(text)]
    out = []
    i = 0
    while i < len(t):
        w = t[i]
        nx = t[i + 1] if i + 1 < len(t) else ""
        nx2 = t[i + 2] if i + 2 < len(t) else ""
        prev = t[i - 1] if i > 0 else ""
        hit = None
        if w in ("послезавтра",) or (w, nx, nx2) == ("day", "after", "tomorrow"):
            hit = ("day", today + timedelta(days=2), 1 if w == "послезавтра" else 3)
        elif w in ("today", "сегодня", "eod"):
            hit = ("day", today, 1)
        elif w in ("tomorrow", "tmrw", "tmr", "завтра"):
            hit = ("day", today + timedelta(days=1), 1)
        elif w in NEXT_WORDS and nx in ("week", "неделе", "неделю"):
            hit = ("week", sunday_of(today) + timedelta(days=7), 2)
        elif w == "this" and nx == "week" or w == "этой" and nx == "неделе":
            hit = ("week", sunday_of(today), 2)
        elif w in ("конца", "концу") and nx == "недели" or (w, nx, nx2) == ("end", "of", "week") \
                or (w, nx, nx2, t[i + 3] if i + 3 < len(t) else "") == ("end", "of", "the", "week"):
            hit = ("week", sunday_of(today), 2)
        elif w in ("конца", "концу", "конец") and nx == "месяца" or (w, nx, nx2) == ("end", "of", "month") \
                or (w, nx, nx2, t[i + 3] if i + 3 < len(t) else "") == ("end", "of", "the", "month"):
            hit = ("day", end_of_month(today.year, today.month), 2)
        elif (w, nx) == ("next", "month") or (w, nx) == ("следующем", "месяце"):
            y, m = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
            hit = ("day", end_of_month(y, m), 2)
        elif w in ("weekend", "выходные", "выходных", "выходным"):
            hit = ("day", today + timedelta(days=(5 - today.weekday()) % 7), 1)
        elif w in ("in", "через") and nx.isdigit() and nx2 in ("days", "day", "дня", "дней", "день"):
            hit = ("day", today + timedelta(days=int(nx)), 3)
        elif w in ("in", "через") and nx.isdigit() and nx2 in ("weeks", "недели", "недель"):
            hit = ("day", today + timedelta(days=7 * int(nx)), 3)
        elif (w, nx, nx2) == ("in", "a", "week") or (w, nx) == ("через", "неделю"):
            hit = ("day", today + timedelta(days=7), 2)
        elif (w, nx, nx2) == ("in", "a", "fortnight"):
            hit = ("day", today + timedelta(days=14), 3)
        elif w in NEXT_WORDS and (nx in WD_EN or nx in WD_RU):
            hit = ("day", next_weekday(WD_EN.get(nx, WD_RU.get(nx)), today), 2)
        elif w in WD_EN or w in WD_RU:
            hit = ("day", plain_weekday(WD_EN.get(w, WD_RU.get(w)), today), 1)
        elif w in WD_EN_ABBR and prev in PREP_EN:
            hit = ("day", plain_weekday(WD_EN_ABBR[w], today), 1)
        elif w in WD_RU_ABBR and prev in PREP_RU:
            hit = ("day", plain_weekday(WD_RU_ABBR[w], today), 1)
        elif re.fullmatch(r"\d{4}-\d{2}-\d{2}", w):
            hit = ("day", date.fromisoformat(w), 1)
        elif re.fullmatch(r"\d{1,2}\.\d{1,2}", w):
            d, m = map(int, w.split("."))
            hit = ("day", day_month(d, m, today), 1)
        elif re.fullmatch(r"\d{1,2}/\d{1,2}", w) and int(w.split("/")[0]) > 12:
            d, m = map(int, w.split("/"))
            hit = ("day", day_month(d, m, today), 1)
        elif w.isdigit() and (nx in MON_RU or nx in MON_EN):
            hit = ("day", day_month(int(w), MON_RU.get(nx) or MON_EN.get(nx), today), 2)
        elif w in MON_EN and nx.isdigit():
            hit = ("day", day_month(int(nx), MON_EN[w], today), 2)
        elif re.fullmatch(r"\d{1,2}(st|nd|rd|th)", w):
            hit = ("day", day_of_month(int(re.match(r"\d+", w).group()), today), 1)
        elif w.isdigit() and nx in ("числа", "числу"):
            hit = ("day", day_of_month(int(w), today), 2)
        if hit:
            kind, d, n = hit
            out.append((kind, d, t[i:i + n]))
            i += n
        else:
            i += 1
    return out


# self-test of the reference on this TODAY (Saturday 2040-10-06)
REF_TABLE = [
    ("сегодня", "day", "2040-10-06"), ("завтра", "day", "2040-10-07"), ("tmrw", "day", "2040-10-07"),
    ("послезавтра", "day", "2040-10-08"), ("monday", "day", "2040-10-08"), ("во вторник", "day", "2040-10-09"),
    ("wednesday", "day", "2040-10-10"), ("в четверг", "day", "2040-10-11"), ("friday", "day", "2040-10-12"),
    ("в субботу", "day", "2040-10-13"), ("sunday", "day", "2040-10-07"), ("next monday", "day", "2040-10-08"),
    ("next friday", "day", "2040-10-12"), ("в следующий вторник", "day", "2040-10-09"),
    ("next sunday", "day", "2040-10-14"), ("this week", "week", "2040-10-07"),
    ("до конца недели", "week", "2040-10-07"), ("next week", "week", "2040-10-14"),
    ("на следующей неделе", "week", "2040-10-14"), ("на выходных", "day", "2040-10-06"),
    ("this weekend", "day", "2040-10-06"), ("end of month", "day", "2040-10-31"),
    ("к концу месяца", "day", "2040-10-31"), ("next month", "day", "2040-11-30"),
    ("через 3 дня", "day", "2040-10-09"), ("in a week", "day", "2040-10-13"),
    ("in 2 weeks", "day", "2040-10-20"), ("in a fortnight", "day", "2040-10-20"),
    ("20 октября", "day", "2040-10-20"), ("3 ноября", "day", "2040-11-03"), ("25.10", "day", "2040-10-25"),
    ("6.09", "day", "2040-09-06"), ("5.09", "day", "2041-09-05"), ("by the 20th", "day", "2040-10-20"),
    ("до 5 числа", "day", "2040-11-05"), ("к 6 числу", "day", "2040-10-06"), ("на пт", "day", "2040-10-12"),
]


def selftest():
    for text, kind, d in REF_TABLE:
        got = find_dates(text)
        if len(got) != 1 or got[0][0] != kind or got[0][1].isoformat() != d:
            bad(f"reference self-test: {text!r} -> {got}, want {kind} {d}")
    # the rules on other days, to keep the reference honest
    fri = date(2040, 10, 12)
    for text, kind, d in [("friday", "day", "2040-10-19"), ("this week", "week", "2040-10-14"),
                          ("weekend", "day", "2040-10-13"), ("next friday", "day", "2040-10-19")]:
        got = find_dates(text, fri)
        if len(got) != 1 or got[0][0] != kind or got[0][1].isoformat() != d:
            bad(f"reference self-test on {fri}: {text!r} -> {got}, want {kind} {d}")
    sun = date(2040, 10, 7)
    got = find_dates("this week", sun)
    if got[0][1] != sun:
        bad("reference self-test: this week on a Sunday is that Sunday")
    got = find_dates("до 31 числа", date(2041, 4, 30))
    if got[0][1] != date(2041, 4, 30):
        bad("reference self-test: до 31 числа on 30 April")


# ---------------------------------------------------------------- data checks
PROJ_FIELDS = {"key", "name", "description"}
TASK_FIELDS = {"key", "title", "project", "due", "due_kind"}
PHRASE_FIELDS = {"text", "lang", "kind", "expect", "class"}
CLASS_KIND = OrderedDict([
    ("typo", "plain"), ("report", "plain"), ("negated_cancel", "plain"), ("explicit_form", "plain"),
    ("deadline_not_close", "plain"), ("project_leadin", "plain"), ("offtopic", "unknown"),
    ("plain_other", "plain"), ("ambiguous", "ambiguous"), ("unknown_other", "unknown"),
])
LIST_FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
CYR = re.compile(r"[а-яё]", re.I)
KEY_RE = re.compile(r"\b([a-z]{2,6})[- ](\d{1,3})\b", re.I)
CREATE_CMD = {"добавь", "задачу", "напомни", "add", "to", "remind", "me", "new", "task", "todo"}


def norm_text(s):
    return " ".join(norm(s.replace("'", "")))


def main():
    check_aliases()
    selftest()

    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = {}
    for p in projects:
        if set(p) != PROJ_FIELDS or not all(isinstance(p[k], str) and p[k] for k in PROJ_FIELDS):
            bad(f"project shape: {p}")
            continue
        if not re.fullmatch(r"[A-Z]{2,6}", p["key"]) or p["key"] == "INBOX" or p["key"] in pkeys:
            bad(f"project key: {p['key']}")
        pkeys[p["key"]] = p
    if len(projects) != 5:
        bad(f"want 5 projects, have {len(projects)}")

    T = OrderedDict()
    counters = Counter()
    for t in tasks:
        if set(t) != TASK_FIELDS:
            bad(f"task shape: {t}")
            continue
        proj = t["project"] or "INBOX"
        if t["project"] is not None and t["project"] not in pkeys:
            bad(f"{t['key']}: unknown project {t['project']}")
        counters[proj] += 1
        want = f"{proj}-{counters[proj]}"
        if t["key"] != want:
            bad(f"task key {t['key']} should be {want} in creation order")
        if not isinstance(t["title"], str) or not t["title"].strip():
            bad(f"{t['key']}: empty title")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"{t['key']}: undated task with a due")
        elif t["due_kind"] in ("day", "week"):
            d = iso(t["due"])
            if d is None:
                bad(f"{t['key']}: bad due {t['due']}")
            elif t["due_kind"] == "week" and d.weekday() != 6:
                bad(f"{t['key']}: week due must be a Sunday")
        else:
            bad(f"{t['key']}: bad due_kind {t['due_kind']}")
        T[t["key"]] = t
    titles = Counter(norm_text(t["title"]) for t in T.values())
    for k, n in titles.items():
        if n > 1:
            bad(f"duplicate task title {k}")

    seen = set()
    for n, p in enumerate(phrases, 1):
        where = f"phrases:{n} {p.get('text')!r}"
        if set(p) != PHRASE_FIELDS:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
        if not isinstance(text, str) or not text.strip():
            bad(f"{where}: empty text")
            continue
        if text in seen:
            bad(f"{where}: duplicate text")
        seen.add(text)
        if lang not in ("ru", "en"):
            bad(f"{where}: lang {lang}")
        if lang == "ru" and not CYR.search(text):
            bad(f"{where}: ru line with no Cyrillic")
        if lang == "en" and CYR.search(text):
            bad(f"{where}: en line with Cyrillic")
        if cls not in CLASS_KIND:
            bad(f"{where}: class {cls}")
            continue
        if kind != CLASS_KIND[cls]:
            bad(f"{where}: kind {kind} for class {cls}")
        tool = e.get("tool") if isinstance(e, dict) else None
        allowed = {
            "close_task": {"tool", "id"}, "cancel_task": {"tool", "id"},
            "update_task": {"tool", "id", "deadline_kind", "deadline"},
            "create_task": {"tool", "text", "deadline_kind", "deadline", "project"},
            "list_tasks": {"tool", "filter"}, "clarify": {"tool", "options"}, "none": {"tool"},
        }
        if tool not in allowed or not set(e) <= allowed[tool]:
            bad(f"{where}: bad expect {e}")
            continue
        # kind <-> tool
        if kind == "ambiguous" and tool != "clarify" or tool == "clarify" and kind != "ambiguous":
            bad(f"{where}: clarify <-> ambiguous")
        if kind == "unknown" and tool != "none" or tool == "none" and kind != "unknown":
            bad(f"{where}: none <-> unknown")
        # class <-> tool
        want_tools = {"report": {"close_task"}, "negated_cancel": {"cancel_task"},
                      "explicit_form": {"close_task", "cancel_task", "update_task"},
                      "deadline_not_close": {"update_task", "create_task"},
                      "project_leadin": {"create_task"}, "typo": {"close_task", "cancel_task", "update_task",
                                                                   "create_task", "list_tasks"}}
        if cls in want_tools and tool not in want_tools[cls]:
            bad(f"{where}: tool {tool} not allowed for class {cls}")
        if tool in ("close_task", "cancel_task", "update_task") and e.get("id") not in T:
            bad(f"{where}: unknown id {e.get('id')}")
        if tool == "list_tasks" and e.get("filter") not in LIST_FILTERS:
            bad(f"{where}: filter {e.get('filter')}")
        if tool == "clarify":
            opts = e.get("options")
            if not isinstance(opts, list) or len(opts) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: clarify needs 2+ distinct options")
            elif any(o not in T for o in opts):
                bad(f"{where}: unknown option in {opts}")
        found = find_dates(text)
        # explicit forms carry the key or the exact title
        if cls == "explicit_form":
            t = T.get(e.get("id"))
            keys = {f"{a.upper()}-{b}" for a, b in KEY_RE.findall(text)}
            if t and t["key"] not in keys and norm_text(t["title"]) not in norm_text(text):
                bad(f"{where}: names neither the key nor the exact title of {t['key']}")
        # keys mentioned in the text
        for a, b in KEY_RE.findall(text):
            k = f"{a.upper()}-{b}"
            if a.upper() not in pkeys and a.upper() != "INBOX":
                continue
            if kind == "unknown" and k in T:
                bad(f"{where}: unknown-class phrase names an existing key {k}")
            if kind != "unknown" and k not in T:
                bad(f"{where}: names a missing key {k}")
        # dates
        if tool == "update_task":
            if e.get("deadline_kind") not in ("day", "week") or iso(e.get("deadline")) is None:
                bad(f"{where}: update needs a day/week deadline")
            elif len(found) != 1:
                bad(f"{where}: reference finds {len(found)} date expressions: {found}")
            else:
                kd, d, _ = found[0]
                if (kd, d.isoformat()) != (e["deadline_kind"], e["deadline"]):
                    bad(f"{where}: reference says {kd} {d}, expect says {e['deadline_kind']} {e['deadline']}")
                t = T.get(e["id"])
                if t and t["due"] == e["deadline"] and t["due_kind"] == e["deadline_kind"]:
                    bad(f"{where}: move to the task's current due")
        if tool == "create_task":
            if not isinstance(e.get("text"), str) or not e["text"].strip():
                bad(f"{where}: create without text")
            dk = e.get("deadline_kind")
            if dk == "none":
                if "deadline" in e:
                    bad(f"{where}: none deadline with a date")
                if found:
                    bad(f"{where}: create without deadline but reference finds {found}")
            elif dk in ("day", "week"):
                if len(found) != 1:
                    bad(f"{where}: reference finds {len(found)} date expressions: {found}")
                elif (found[0][0], found[0][1].isoformat()) != (dk, e.get("deadline")):
                    bad(f"{where}: reference says {found[0][0]} {found[0][1]}, expect {dk} {e.get('deadline')}")
            else:
                bad(f"{where}: deadline_kind {dk}")
            # text = phrase minus command words and minus the date phrase
            ph = [TYPO_ALIASES.get(w, w) for w in norm(text.replace("'", ""))]
            ct = norm(e.get("text", "").replace("'", ""))
            dwords = [w for f in found for w in f[2]]
            if " ".join(ct) not in " ".join(ph):
                bad(f"{where}: create text is not a run of the phrase")
            if set(ct) & set(dwords):
                bad(f"{where}: create text keeps a date word")
            rest = list(ph)
            for w in ct + dwords:
                if w in rest:
                    rest.remove(w)
            # what is left must be command words, prepositions of the date, or a project lead-in
            lead = set()
            if "project" in e:
                pr = pkeys.get(e["project"])
                if pr is None:
                    bad(f"{where}: unknown project {e['project']}")
                else:
                    lead = set(norm(pr["key"] + " " + pr["name"] + " " + pr["description"]))
            for w in rest:
                ok = (w in CREATE_CMD or w in PREP_RU or w in PREP_EN or w in {"in", "a", "идея", "для", "idea",
                                                                                "проект", "the", "of"}
                      or any(w.startswith(x[:4]) or x.startswith(w) for x in lead if len(x) >= 3))
                if not ok:
                    bad(f"{where}: phrase word {w!r} is neither in the create text nor a command/date/project word")
        if cls == "project_leadin":
            if "project" not in e:
                bad(f"{where}: project lead-in without project")
        elif tool == "create_task" and "project" in e:
            bad(f"{where}: project given outside project_leadin")
        if tool == "clarify" and found:
            if len(found) != 1:
                bad(f"{where}: ambiguous move with {len(found)} dates")
            else:
                kd, d, _ = found[0]
                for o in e.get("options", []):
                    t = T.get(o)
                    if t and t["due"] == d.isoformat():
                        bad(f"{where}: ambiguous move to {d} equals the current due of {o}")

    # ------------------------------------------------------------ counts
    by_cls = Counter((p.get("class"), p.get("lang")) for p in phrases)
    by_kind = Counter((p.get("kind"), p.get("lang")) for p in phrases)
    by_tool = Counter(p["expect"].get("tool") for p in phrases if isinstance(p.get("expect"), dict))
    by_filter = Counter(p["expect"].get("filter") for p in phrases
                        if isinstance(p.get("expect"), dict) and p["expect"].get("tool") == "list_tasks")
    langs = Counter(p.get("lang") for p in phrases)

    print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
    print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in counters.items()))
    dues = Counter()
    for t in T.values():
        d = iso(t["due"])
        if d is None:
            dues["undated"] += 1
        elif t["due_kind"] == "week":
            dues["week"] += 1
        elif d < TODAY:
            dues["overdue"] += 1
        elif d == TODAY:
            dues["today"] += 1
        else:
            dues["later"] += 1
    print("dues: " + ", ".join(f"{k} {dues[k]}" for k in ("overdue", "today", "week", "later", "undated")))
    print()
    print("| class | ru | en | total |")
    print("|---|---|---|---|")
    for c in CLASS_KIND:
        print(f"| {c} | {by_cls[(c, 'ru')]} | {by_cls[(c, 'en')]} | {by_cls[(c, 'ru')] + by_cls[(c, 'en')]} |")
    print(f"| **all** | {langs['ru']} | {langs['en']} | **{len(phrases)}** |")
    print()
    print("| kind | ru | en | total |")
    print("|---|---|---|---|")
    for k in ("plain", "ambiguous", "unknown"):
        print(f"| {k} | {by_kind[(k, 'ru')]} | {by_kind[(k, 'en')]} | {by_kind[(k, 'ru')] + by_kind[(k, 'en')]} |")
    print(f"| **all** | {langs['ru']} | {langs['en']} | **{len(phrases)}** |")
    print()
    print("by tool: " + ", ".join(f"{k} {v}" for k, v in sorted(by_tool.items())))
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(by_filter.items())))
    upd = Counter(p["expect"]["deadline_kind"] for p in phrases
                  if isinstance(p.get("expect"), dict) and p["expect"].get("tool") in ("update_task", "create_task"))
    print("deadline kinds in updates and creates: " + ", ".join(f"{k} {v}" for k, v in sorted(upd.items())))

    if len(phrases) < 300:
        bad(f"only {len(phrases)} phrases")
    if problems:
        print()
        print(f"{len(problems)} problem(s):")
        for m in problems:
            print("  - " + m)
        sys.exit(1)
    print()
    print("OK")


if __name__ == "__main__":
    main()
