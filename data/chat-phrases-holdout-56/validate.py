#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-56 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and the keys
they name, recomputes every date answer from a small reference of the house date
rules written for this set only (not the parser's code), prints the counts and exits 1
on any problem.

    python3 data/chat-phrases-holdout-56/validate.py
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date(2042, 3, 29)  # Saturday; now = 2042-03-29T22:30 Europe/Lisbon (UTC+0)
ZONE = "Europe/Lisbon"

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
            except json.JSONDecodeError as e:
                bad(f"{name}:{n}: bad JSON: {e}")
    return rows


# ---------------------------------------------------------------- date reference
D = dt.timedelta


def last_day(y, m):
    nxt = dt.date(y + (m == 12), m % 12 + 1, 1)
    return (nxt - D(days=1)).day


def sunday_of(d):
    return d + D(days=6 - d.weekday())


def weekday_plain(t, wd):
    """next such weekday strictly after t"""
    n = (wd - t.weekday()) % 7
    return t + D(days=n or 7)


def weekday_next(t, wd):
    """that weekday in the next Monday-Sunday week"""
    monday_next = t - D(days=t.weekday()) + D(days=7)
    return monday_next + D(days=wd)


def day_month(t, day, month):
    try:
        d = dt.date(t.year, month, day)
    except ValueError:
        return None
    if (t - d).days > 30:
        try:
            d = dt.date(t.year + 1, month, day)
        except ValueError:
            return None
    return d


def day_of_month(t, day):
    if not 1 <= day <= 31:
        return None
    y, m = t.year, t.month
    for _ in range(3):
        d = dt.date(y, m, min(day, last_day(y, m)))
        if d >= t:
            return d
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return None


RU_MONTHS = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля",
             "августа", "сентября", "октября", "ноября", "декабря"]
EN_MONTHS = ["january", "february", "march", "april", "may", "june", "july",
             "august", "september", "october", "november", "december"]
EN_MON_ABBR = {m[:3]: i + 1 for i, m in enumerate(EN_MONTHS)}
EN_MON_ABBR["sept"] = 9
EN_MON_ALL = {**{m: i + 1 for i, m in enumerate(EN_MONTHS)}, **EN_MON_ABBR}

WD_RU = {
    0: ["понедельник", "понедельника", "понедельнику"],
    1: ["вторник", "вторника", "вторнику"],
    2: ["среда", "среду", "среды", "среде"],
    3: ["четверг", "четверга", "четвергу"],
    4: ["пятница", "пятницу", "пятницы", "пятнице"],
    5: ["суббота", "субботу", "субботы", "субботе"],
    6: ["воскресенье", "воскресенья", "воскресенью"],
}
WD_RU_ABBR = {"пн": 0, "вт": 1, "ср": 2, "чт": 3, "пт": 4, "сб": 5, "вс": 6}
WD_EN = {0: ["monday"], 1: ["tuesday"], 2: ["wednesday"], 3: ["thursday"],
         4: ["friday"], 5: ["saturday"], 6: ["sunday"]}
WD_EN_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
              "fri": 4, "sat": 5, "sun": 6}
WD_WORD = {}
for wd, forms in list(WD_RU.items()) + list(WD_EN.items()):
    for f in forms:
        WD_WORD[f] = wd

NUM_WORDS = {"один": 1, "одну": 1, "два": 2, "две": 2, "три": 3, "четыре": 4, "пять": 5,
             "шесть": 6, "семь": 7, "десять": 10, "one": 1, "two": 2, "three": 3,
             "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}

# words a one-letter slip may be read back to (the conversation rule of the README)
FUZZY_VOCAB = sorted(set(
    list(WD_WORD) + RU_MONTHS + EN_MONTHS +
    ["сегодня", "завтра", "послезавтра", "неделе", "неделю", "недели", "неделя",
     "следующей", "следующую", "следующий", "следующее", "следующем", "выходные",
     "выходных", "месяца", "месяце", "месяц", "неделей", "today", "tomorrow", "weekend", "month", "next", "week",
     "weeks", "через", "числа"]))
EXACT_VOCAB = set(FUZZY_VOCAB) | set(WD_EN_ABBR) | set(WD_RU_ABBR) | {"tmrw", "tmr", "eod"}


def dl1(a, b):
    """True when a and b are at Damerau-Levenshtein distance exactly 1."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (len(diff) == 2 and diff[1] == diff[0] + 1
                and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if len(a) > len(b):
        a, b = b, a
    for i in range(len(b)):
        if b[:i] + b[i + 1:] == a:
            return True
    return False


def meaning(word):
    if word in WD_WORD:
        return ("wd", WD_WORD[word])
    for stem in ("недел", "следующ", "выходн"):
        if word.startswith(stem):
            return (stem,)
    return (word,)


def fuzzy(token):
    if token in EXACT_VOCAB or len(token) < 3 or not re.fullmatch(r"[a-zа-я]+", token):
        return token
    hits = [w for w in FUZZY_VOCAB if (len(w) >= 5 or w == "next") and dl1(token, w)]
    if hits and len({meaning(w) for w in hits}) == 1:
        return hits[0]
    return token


def normalize(text):
    t = text.lower().replace("ё", "е")
    t = re.sub(r"[«»\"“”!?,;:()]", " ", t)
    t = re.sub(r"(?<!\w)'|'(?!\w)", " ", t)
    return " ".join(t.split())


def tokens_fixed(text, drop=()):
    out = []
    for tok in normalize(text).split():
        f = fuzzy(tok)
        out.append("_" if f in drop else f)
    return " ".join(out)


RU_MON_RE = "|".join(RU_MONTHS)
EN_MON_RE = "|".join(sorted(EN_MON_ALL, key=len, reverse=True))
WD_ALL_RE = "|".join(sorted(WD_WORD, key=len, reverse=True))
WD_RU_RE = "|".join(sorted((f for fs in WD_RU.values() for f in fs), key=len, reverse=True))
WD_EN_RE = "|".join(f for fs in WD_EN.values() for f in fs)
NUM_RE = r"\d+|" + "|".join(NUM_WORDS)


def num(s):
    return int(s) if s.isdigit() else NUM_WORDS[s]


def rules(t):
    """(regex, function(match) -> (kind, date)) in priority order."""
    this_sun = sunday_of(t)
    sat = t if t.weekday() == 5 else weekday_plain(t, 5)
    nm_y, nm_m = (t.year + 1, 1) if t.month == 12 else (t.year, t.month + 1)
    return [
        (r"\b(\d{4})-(\d{2})-(\d{2})\b",
         lambda m: ("day", dt.date(int(m[1]), int(m[2]), int(m[3])))),
        (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b",
         lambda m: ("day", dt.date(int(m[3]), int(m[2]), int(m[1])))),
        (r"\b(\d{1,2})\.(\d{1,2})\b",
         lambda m: ("day", day_month(t, int(m[1]), int(m[2])))),
        (r"\b(\d{1,2})/(\d{1,2})\b",
         lambda m: ("day", day_month(t, int(m[1]), int(m[2])) if int(m[1]) > 12 else None)),
        (rf"\b(\d{{1,2}}) ({RU_MON_RE})\b",
         lambda m: ("day", day_month(t, int(m[1]), RU_MONTHS.index(m[2]) + 1))),
        (rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({EN_MON_RE})\b",
         lambda m: ("day", day_month(t, int(m[1]), EN_MON_ALL[m[2]]))),
        (rf"\b({EN_MON_RE}) (\d{{1,2}})(?:st|nd|rd|th)?\b",
         lambda m: ("day", day_month(t, int(m[2]), EN_MON_ALL[m[1]]))),
        (r"\b(\d{1,2}) числа\b", lambda m: ("day", day_of_month(t, int(m[1])))),
        (r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", lambda m: ("day", day_of_month(t, int(m[1])))),
        (rf"\b(?:через|in) ({NUM_RE}) (?:день|дня|дней|days?)\b",
         lambda m: ("day", t + D(days=num(m[1])))),
        (rf"\b(?:через|in) ({NUM_RE}) (?:недели|недель|weeks?)\b",
         lambda m: ("day", t + D(days=7 * num(m[1])))),
        (r"\bчерез неделю\b|\bin a week\b|\bin one week\b", lambda m: ("day", t + D(days=7))),
        (r"\bпослезавтра\b|\bday after tomorrow\b", lambda m: ("day", t + D(days=2))),
        (r"\b(?:завтра|tomorrow|tmrw|tmr)\b", lambda m: ("day", t + D(days=1))),
        (r"\b(?:сегодня|today|eod)\b", lambda m: ("day", t)),
        (r"\b(?:на |в )?следующ\w* недел\w*\b|\bnext week\b",
         lambda m: ("week", this_sun + D(days=7))),
        (r"\b(?:до |к )?конц\w* недели\b|\bна этой неделе\b|\bthis week\b|\bend of (?:the )?week\b",
         lambda m: ("week", this_sun)),
        (r"\bв следующем месяце\b|\bnext month\b",
         lambda m: ("day", dt.date(nm_y, nm_m, last_day(nm_y, nm_m)))),
        (r"\b(?:до |к )?конц\w* месяца\b|\bend of (?:the )?month\b|\beom\b",
         lambda m: ("day", dt.date(t.year, t.month, last_day(t.year, t.month)))),
        (r"\b(?:до |к )?конц\w* года\b|\bend of (?:the )?year\b",
         lambda m: ("day", dt.date(t.year, 12, 31))),
        (r"\b(?:the )?weekend\b|\bвыходн\w*\b", lambda m: ("day", sat)),
        (rf"\bnext ({WD_EN_RE})\b", lambda m: ("day", weekday_next(t, WD_WORD[m[1]]))),
        (rf"\bследующ\w* ({WD_RU_RE})\b", lambda m: ("day", weekday_next(t, WD_WORD[m[1]]))),
        (rf"\b({WD_ALL_RE})\b", lambda m: ("day", weekday_plain(t, WD_WORD[m[1]]))),
        (r"\b(?:в|во|на|до|к|ко) (пн|вт|ср|чт|пт|сб|вс)\b",
         lambda m: ("day", weekday_plain(t, WD_RU_ABBR[m[1]]))),
        (r"\b(mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)\b",
         lambda m: ("day", weekday_plain(t, WD_EN_ABBR[m[1]]))),
    ]


def find_dates(text, t=TODAY, drop=()):
    """All date readings in text, as a list of (kind, date, matched)."""
    s = tokens_fixed(text, drop)
    found = []
    for rx, fn in rules(t):
        while True:
            m = re.search(rx, s)
            if not m:
                break
            kind, d = fn(m)
            found.append((kind, d, m[0]))
            s = s[:m.start()] + " # " + s[m.end():]
    return found


def check_table():
    """Recompute every cell of the README's table of the house rules on TODAY."""
    try:
        lines = open(os.path.join(HERE, "README.md"), encoding="utf-8").read().splitlines()
        i = lines.index("| words | kind | date |")
    except (OSError, ValueError):
        bad("README.md: no '| words | kind | date |' table")
        return 0
    cells = 0
    for line in lines[i + 2:]:
        if not line.startswith("|"):
            break
        words, kind, date = [c.strip() for c in line.strip("|").split("|")]
        want = [(kind, dt.date.fromisoformat(date.split()[0]))]
        for w in words.split(" / "):
            cells += 1
            got = [(k, d) for k, d, _ in find_dates(w)]
            if got != want:
                bad(f"README date table: {w!r} -> {got}, table says {kind} {date}")
    if cells < 40:
        bad(f"README date table: only {cells} cells")
    return cells


# ---------------------------------------------------------------- data checks
CLASS_KIND = {
    "typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
    "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
    "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown",
}
CLASS_TOOLS = {
    "report": {"close_task"}, "negated_cancel": {"cancel_task"},
    "deadline_not_close": {"update_task", "create_task"}, "project_leadin": {"create_task"},
    "explicit_form": {"close_task", "cancel_task", "update_task"},
}
FILTERS = {"today", "inbox", "overdue", "done", "all_by_project"}
COMMAND_HEADS = ("add ", "add:", "todo", "remind me", "new task", "добавь", "напомни", "новая задача")
KEY_RE = re.compile(r"\b([a-z]+)[- ](\d+)\b", re.I)


def main():
    projects = load("projects.jsonl")
    tasks = load("tasks.jsonl")
    phrases = load("phrases.jsonl")

    pkeys = set()
    for i, p in enumerate(projects, 1):
        if set(p) != {"key", "name", "description"}:
            bad(f"projects:{i}: fields {sorted(p)}")
            continue
        if not re.fullmatch(r"[A-Z]+", p["key"]) or p["key"] == "INBOX":
            bad(f"projects:{i}: key {p['key']}")
        if p["key"] in pkeys:
            bad(f"projects:{i}: duplicate key")
        pkeys.add(p["key"])
        if not p["name"].strip() or len(p["description"]) < 20:
            bad(f"projects:{i}: name/description too short")

    task = {}
    counter = Counter()
    for i, t in enumerate(tasks, 1):
        if set(t) != {"key", "title", "project", "due", "due_kind"}:
            bad(f"tasks:{i}: fields {sorted(t)}")
            continue
        proj = t["project"] or "INBOX"
        if t["project"] is not None and t["project"] not in pkeys:
            bad(f"tasks:{i}: unknown project {t['project']}")
        counter[proj] += 1
        if t["key"] != f"{proj}-{counter[proj]}":
            bad(f"tasks:{i}: key {t['key']} but creation order gives {proj}-{counter[proj]}")
        if t["due_kind"] == "none":
            if t["due"] is not None:
                bad(f"tasks:{i}: due with kind none")
        elif t["due_kind"] in ("day", "week"):
            try:
                d = dt.date.fromisoformat(t["due"])
                if t["due_kind"] == "week" and d.weekday() != 6:
                    bad(f"tasks:{i}: week due {d} is not a Sunday")
            except (TypeError, ValueError):
                bad(f"tasks:{i}: bad due {t['due']}")
        else:
            bad(f"tasks:{i}: due_kind {t['due_kind']}")
        if t["key"] in task:
            bad(f"tasks:{i}: duplicate key")
        task[t["key"]] = t
    titles = Counter(normalize(t["title"]) for t in tasks)
    for ti, n in titles.items():
        if n > 1:
            bad(f"tasks: duplicate title {ti}")

    def due_of(k):
        t = task[k]
        return None if t["due"] is None else (t["due_kind"], dt.date.fromisoformat(t["due"]))

    def vocab_words(keys):
        return {w for k in keys for w in tokens_fixed(task[k]["title"]).split()
                if w in EXACT_VOCAB}

    seen = set()
    for i, p in enumerate(phrases, 1):
        where = f"phrases:{i} {p.get('text')!r}"
        if set(p) != {"text", "lang", "kind", "expect", "class"}:
            bad(f"{where}: fields {sorted(p)}")
            continue
        text, e, cls = p["text"], p["expect"], p["class"]
        if not text.strip():
            bad(f"{where}: empty text")
        if normalize(text) in seen:
            bad(f"{where}: duplicate text")
        seen.add(normalize(text))
        if p["lang"] not in ("ru", "en"):
            bad(f"{where}: lang {p['lang']}")
        if cls not in CLASS_KIND:
            bad(f"{where}: class {cls}")
            continue
        if p["kind"] != CLASS_KIND[cls]:
            bad(f"{where}: kind {p['kind']} for class {cls}")
        tool = e.get("tool")
        if cls in CLASS_TOOLS and tool not in CLASS_TOOLS[cls]:
            bad(f"{where}: tool {tool} not allowed in class {cls}")
        kind_of_tool = ("ambiguous" if tool == "clarify" else "unknown" if tool == "none" else "plain")
        if kind_of_tool != p["kind"]:
            bad(f"{where}: tool {tool} with kind {p['kind']}")

        # keys written in the text
        text_keys = [f"{a.upper()}-{b}" for a, b in KEY_RE.findall(text)
                     if a.upper() in pkeys | {"INBOX"}]
        if cls == "explicit_form":
            if text_keys and text_keys != [e.get("id")]:
                bad(f"{where}: key in text {text_keys} vs expect {e.get('id')}")
            if not text_keys and normalize(task[e["id"]]["title"]) not in normalize(text):
                bad(f"{where}: neither a key nor the exact title of {e['id']}")
        if tool == "none":
            for k in text_keys:
                if k in task:
                    bad(f"{where}: none but names existing {k}")
            if set(e) != {"tool"}:
                bad(f"{where}: extra fields")
            continue

        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"} or e["id"] not in task:
                bad(f"{where}: bad {tool} {e}")
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task:
                bad(f"{where}: bad update {e}")
                continue
            want = (e["deadline_kind"], dt.date.fromisoformat(e["deadline"]))
            got = {(k, d) for k, d, _ in find_dates(text, drop=vocab_words([e["id"]]))}
            if got != {want}:
                bad(f"{where}: reference reads {sorted(got)}, expect {want}")
            if due_of(e["id"]) == want:
                bad(f"{where}: move to the due it already has")
        elif tool == "create_task":
            allowed = {"tool", "text", "deadline_kind", "deadline", "project"}
            if not set(e) <= allowed or "text" not in e or "deadline_kind" not in e:
                bad(f"{where}: bad create {e}")
                continue
            if "project" in e and e["project"] not in pkeys:
                bad(f"{where}: unknown project {e['project']}")
            if cls == "project_leadin" and "project" not in e:
                bad(f"{where}: project lead-in without project")
            ct = normalize(e["text"])
            if ct not in normalize(text):
                bad(f"{where}: create text not inside the phrase")
            if ct.startswith(COMMAND_HEADS):
                bad(f"{where}: create text keeps a command word")
            if find_dates(e["text"]):
                bad(f"{where}: create text keeps a date: {find_dates(e['text'])}")
            got = {(k, d) for k, d, _ in find_dates(text)}
            if e["deadline_kind"] == "none":
                if "deadline" in e or got:
                    bad(f"{where}: undated create but reference reads {sorted(got)}")
            else:
                want = (e["deadline_kind"], dt.date.fromisoformat(e["deadline"]))
                if got != {want}:
                    bad(f"{where}: reference reads {sorted(got)}, expect {want}")
        elif tool == "list_tasks":
            if set(e) != {"tool", "filter"} or e["filter"] not in FILTERS:
                bad(f"{where}: bad list {e}")
        elif tool == "clarify":
            opts = e.get("options", [])
            if set(e) != {"tool", "options"} or len(opts) < 2 or len(set(opts)) != len(opts):
                bad(f"{where}: bad clarify {e}")
            for k in opts:
                if k not in task:
                    bad(f"{where}: unknown option {k}")
            if any(k not in task for k in opts):
                continue
            got = {(k, d) for k, d, _ in find_dates(text, drop=vocab_words(opts))}
            if len(got) > 1:
                bad(f"{where}: several dates {sorted(got)}")
            for g in got:  # an ambiguous move must not be broken by 'the one already there'
                for k in opts:
                    if due_of(k) is not None and due_of(k)[1] == g[1]:
                        bad(f"{where}: {k} is already due {g[1]}")
        else:
            bad(f"{where}: unknown tool {tool}")

    cells = check_table()

    # ------------------------------------------------------------ report
    langs = ["ru", "en"]
    print(f"projects {len(projects)} (+ INBOX), tasks {len(tasks)}, phrases {len(phrases)}")
    print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in counter.items()))
    od = sum(1 for t in tasks if t["due"] and dt.date.fromisoformat(t["due"]) < TODAY)
    td = sum(1 for t in tasks if t["due"] == TODAY.isoformat())
    wk = sum(1 for t in tasks if t["due_kind"] == "week")
    nd = sum(1 for t in tasks if t["due"] is None)
    print(f"dues: overdue {od}, today {td}, week kind {wk}, undated {nd}, "
          f"later {len(tasks) - od - td - nd}")

    def table(field, order):
        c = Counter((p[field], p["lang"]) for p in phrases)
        print(f"\n| {field} | ru | en | total |\n|---|---|---|---|")
        for v in order:
            print(f"| {v} | {c[(v, 'ru')]} | {c[(v, 'en')]} | {c[(v, 'ru')] + c[(v, 'en')]} |")
        ru = sum(1 for p in phrases if p["lang"] == "ru")
        print(f"| **all** | {ru} | {len(phrases) - ru} | **{len(phrases)}** |")

    table("class", list(CLASS_KIND))
    table("kind", ["plain", "ambiguous", "unknown"])
    tools = Counter(p["expect"]["tool"] for p in phrases)
    print("\nby tool: " + ", ".join(f"{k} {v}" for k, v in sorted(tools.items())))
    filt = Counter(p["expect"]["filter"] for p in phrases if p["expect"]["tool"] == "list_tasks")
    print("list filters: " + ", ".join(f"{k} {v}" for k, v in sorted(filt.items())))
    dated = sum(1 for p in phrases if p["expect"].get("deadline")
                or (p["expect"]["tool"] == "clarify" and find_dates(p["text"])))
    print(f"date answers recomputed: {dated} phrases, {cells} README table cells")

    if problems:
        print(f"\n{len(problems)} PROBLEM(S):")
        for m in problems:
            print("  " + m)
        sys.exit(1)
    print("\nOK")


if __name__ == "__main__":
    main()
