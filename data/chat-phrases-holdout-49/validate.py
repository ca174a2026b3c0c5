#!/usr/bin/env python3
"""Self-check for data/chat-phrases-holdout-49 (stdlib only).

Loads projects.jsonl, tasks.jsonl and phrases.jsonl, checks their shapes and keys,
recomputes every date answer from a small independent reference of the house date
rules (written for this set only), prints the counts and exits 1 on any problem.
"""
import json, os, re, sys, unicodedata
from collections import Counter
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = date(2041, 3, 9)          # Saturday, America/New_York (now = 2041-03-09T07:30:00Z = 02:30 local)
problems = []
def bad(msg): problems.append(msg)

def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                bad(f"{name}:{i}: blank line"); continue
            try: rows.append(json.loads(line))
            except Exception as e: bad(f"{name}:{i}: bad json {e}")
    return rows

# ---------------------------------------------------------------- reference date rules
def sunday_of(d): return d + timedelta(days=6 - d.weekday())
def last_of_month(y, m):
    nxt = date(y + (m == 12), m % 12 + 1, 1)
    return nxt - timedelta(days=1)
def plain_weekday(wd):             # strictly after today
    n = (wd - TODAY.weekday()) % 7
    return TODAY + timedelta(days=n or 7)
def next_weekday(wd):              # that weekday in next Monday-Sunday week
    monday_next = TODAY - timedelta(days=TODAY.weekday()) + timedelta(days=7)
    return monday_next + timedelta(days=wd)
def day_month(d, m):
    try: c = date(TODAY.year, m, d)
    except ValueError: return None
    if (TODAY - c).days > 30: c = date(TODAY.year + 1, m, d)
    return c
def day_of_month(n):
    y, m = TODAY.year, TODAY.month
    if n >= TODAY.day:
        return date(y, m, min(n, last_of_month(y, m).day))
    y, m = (y + (m == 12), m % 12 + 1)
    return date(y, m, min(n, last_of_month(y, m).day))

RU_MONTHS = {"января":1,"февраля":2,"марта":3,"апреля":4,"мая":5,"июня":6,"июля":7,
             "августа":8,"сентября":9,"октября":10,"ноября":11,"декабря":12}
EN_MONTHS = {"january":1,"jan":1,"february":2,"feb":2,"march":3,"mar":3,"april":4,"apr":4,
             "may":5,"june":6,"jun":6,"july":7,"jul":7,"august":8,"aug":8,"september":9,
             "sep":9,"october":10,"oct":10,"november":11,"nov":11,"december":12,"dec":12}
WEEKDAY_WORDS = {}
for i, forms in enumerate([
    "monday mon lundi понедельник понедельника понедельнику пн",
    "tuesday tue tues mardi вторник вторника вторнику вт",
    "wednesday wed mercredi среда среду среды среде ср",
    "thursday thu thurs jeudi четверг четверга четвергу чт",
    "friday fri vendredi пятница пятницу пятницы пятнице пт",
    "saturday sat samedi суббота субботу субботы субботе сб",
    "sunday sun dimanche воскресенье воскресенья воскресенью вс"]):
    for w in forms.split(): WEEKDAY_WORDS[w] = i
SHORT_RU = {"пн","вт","ср","чт","пт","сб","вс"}
DAY_WORDS = {"today":0,"tonight":0,"eod":0,"сегодня":0,"aujourd'hui":0,"hoy":0,
             "tomorrow":1,"tmrw":1,"tmr":1,"завтра":1,"demain":1,"mañana":1,"manana":1,
             "послезавтра":2}

def dl1(a, b):
    """Damerau-Levenshtein distance, capped: True when a and b are at most one edit apart."""
    if a == b: return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1: return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1: return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    s, l = (a, b) if la < lb else (b, a)
    for i in range(len(l)):
        if l[:i] + l[i+1:] == s: return True
    return False

def meaning(tok):
    if tok in DAY_WORDS: return ("rel", DAY_WORDS[tok])
    if tok in WEEKDAY_WORDS: return ("wd", WEEKDAY_WORDS[tok])
    return None

def fuzzy(tok):
    """A date word one letter off is read as the word it is closest to (chat rule)."""
    if len(tok) < 5 or not re.fullmatch(r"[a-zа-я']+", tok): return None
    found = set()
    for w in list(DAY_WORDS) + list(WEEKDAY_WORDS):
        if len(w) >= 5 and dl1(tok, w): found.add(meaning(w))
    return found.pop() if len(found) == 1 else None

def norm(s):
    s = unicodedata.normalize("NFC", s.lower()).replace("ё", "е")
    return s

def find_dates(text):
    """Return a list of (kind, date) for every date phrase in text (house rules)."""
    s = " " + norm(text) + " "
    out = []
    def take(m, val):
        nonlocal s
        out.append((m.start(), val))
        s = s[:m.start()] + " " * (m.end() - m.start()) + s[m.end():]
    W = r"(?<![\w-])"; E = r"(?![\w-])"
    rules = [
        (r"day after tomorrow|послезавтра", lambda m: ("day", TODAY + timedelta(days=2))),
        (r"next week|на следующей неделе|на следующую неделю|la semaine prochaine",
            lambda m: ("week", sunday_of(TODAY) + timedelta(days=7))),
        (r"this week|end of (?:the )?week|до конца недели|к концу недели|на этой неделе",
            lambda m: ("week", sunday_of(TODAY))),
        (r"end of (?:the )?month|конец месяца|конца месяца|концу месяца",
            lambda m: ("day", last_of_month(TODAY.year, TODAY.month))),
        (r"next month|в следующем месяце",
            lambda m: ("day", last_of_month(TODAY.year + (TODAY.month == 12), TODAY.month % 12 + 1))),
        (r"end of (?:the )?year|конца года|конец года", lambda m: ("day", date(TODAY.year, 12, 31))),
        (r"(?:the )?weekend|выходные|выходных|выходным",
            lambda m: ("day", TODAY + timedelta(days=(5 - TODAY.weekday()) % 7))),
        (r"in (\d+) days?|через (\d+) (?:дня|дней|день)",
            lambda m: ("day", TODAY + timedelta(days=int(m.group(1) or m.group(2))))),
        (r"in a week|через неделю", lambda m: ("day", TODAY + timedelta(days=7))),
        (r"in (\d+|two) weeks|через (\d+|две) недели",
            lambda m: ("day", TODAY + timedelta(days=7 * int({"two": "2", "две": "2"}.get(m.group(1) or m.group(2), m.group(1) or m.group(2)))))),
        (r"(\d{4})-(\d{2})-(\d{2})", lambda m: ("day", date(int(m.group(1)), int(m.group(2)), int(m.group(3))))),
        (r"(\d{1,2}) (" + "|".join(RU_MONTHS) + ")",
            lambda m: ("day", day_month(int(m.group(1)), RU_MONTHS[m.group(2)]))),
        (r"(" + "|".join(EN_MONTHS) + r") (\d{1,2})(?:st|nd|rd|th)?",
            lambda m: ("day", day_month(int(m.group(2)), EN_MONTHS[m.group(1)]))),
        (r"(\d{1,2}) (" + "|".join(EN_MONTHS) + ")",
            lambda m: ("day", day_month(int(m.group(1)), EN_MONTHS[m.group(2)]))),
        (r"(\d{1,2})\.(\d{1,2})", lambda m: ("day", day_month(int(m.group(1)), int(m.group(2))))),
        (r"the (\d{1,2})(?:st|nd|rd|th)|(\d{1,2}) числа",
            lambda m: ("day", day_of_month(int(m.group(1) or m.group(2))))),
        (r"next (\w+)|в следующ\w+ (\w+)", None),
    ]
    for pat, fn in rules:
        for m in list(re.finditer(W + "(?:" + pat + ")" + E, s)):
            if s[m.start():m.end()].strip() == "": continue
            if fn is None:
                w = m.group(1) or m.group(2)
                if w in WEEKDAY_WORDS and w not in SHORT_RU:
                    take(m, ("day", next_weekday(WEEKDAY_WORDS[w])))
                continue
            take(m, fn(m))
    for m in re.finditer(r"[\w'ñ]+", s):
        tok = m.group(0)
        mean = meaning(tok)
        if tok in SHORT_RU:       # «пн» counts only with a preposition
            before = s[:m.start()].split()
            if not before or before[-1] not in ("в", "во", "на", "до", "к", "ко"): mean = None
        if mean is None: mean = fuzzy(tok)
        if mean is None: continue
        if mean[0] == "rel": out.append((m.start(), ("day", TODAY + timedelta(days=mean[1]))))
        else: out.append((m.start(), ("day", plain_weekday(mean[1]))))
    return [v for _, v in sorted(out, key=lambda x: x[0])]

# ---------------------------------------------------------------- rule self-test
REF = {"today": "2041-03-09", "tomorrow": "2041-03-10", "day after tomorrow": "2041-03-11",
       "friday": "2041-03-15", "saturday": "2041-03-16", "sunday": "2041-03-10",
       "next sunday": "2041-03-17", "next friday": "2041-03-15", "monday": "2041-03-11",
       "the weekend": "2041-03-09", "end of month": "2041-03-31", "next month": "2041-04-30",
       "in a week": "2041-03-16", "in 2 weeks": "2041-03-23", "by the 5th": "2041-04-05",
       "до 9 числа": "2041-03-09", "7 февраля": "2041-02-07", "6 февраля": "2042-02-06",
       "this week": "2041-03-10", "next week": "2041-03-17"}
for k, v in REF.items():
    got = find_dates(k)
    if len(got) != 1 or got[0][1].isoformat() != v:
        bad(f"date reference self-test: {k!r} -> {got}, want {v}")

# ---------------------------------------------------------------- files
projects = load("projects.jsonl")
tasks = load("tasks.jsonl")
phrases = load("phrases.jsonl")

pkeys = set()
for p in projects:
    if set(p) != {"key", "name", "description"} or not all(isinstance(p[k], str) and p[k] for k in p):
        bad(f"project shape: {p}"); continue
    if p["key"] == "INBOX": bad("INBOX must not be listed")
    pkeys.add(p["key"])
if len(projects) != 5: bad(f"want 5 projects, got {len(projects)}")

task = {}
counter = Counter()
for t in tasks:
    if set(t) != {"key", "title", "project", "due", "due_kind"}:
        bad(f"task shape: {t}"); continue
    proj = t["project"]
    if proj != "INBOX" and proj not in pkeys: bad(f"task {t['key']}: unknown project {proj}")
    counter[proj] += 1
    if t["key"] != f"{proj}-{counter[proj]}": bad(f"task key {t['key']} out of creation order (want {proj}-{counter[proj]})")
    if t["key"] in task: bad(f"duplicate task key {t['key']}")
    if t["due_kind"] == "none":
        if t["due"] is not None: bad(f"{t['key']}: undated task with a due")
    elif t["due_kind"] in ("day", "week"):
        try: d = date.fromisoformat(t["due"])
        except Exception: bad(f"{t['key']}: bad due {t['due']}"); continue
        if t["due_kind"] == "week" and d.weekday() != 6: bad(f"{t['key']}: week due not a Sunday")
    else: bad(f"{t['key']}: bad due_kind {t['due_kind']}")
    task[t["key"]] = t

def due_of(k):
    t = task[k]
    return (t["due_kind"], t["due"])

CLASS_KIND = {"typo": "plain", "report": "plain", "negated_cancel": "plain", "explicit_form": "plain",
              "deadline_not_close": "plain", "project_leadin": "plain", "offtopic": "unknown",
              "plain_other": "plain", "ambiguous": "ambiguous", "unknown_other": "unknown"}
CYR = re.compile("[а-яё]", re.I)
LISTS = {"today", "inbox", "overdue", "done", "all_by_project"}
seen = set()
tools = Counter(); lists = Counter()
for i, p in enumerate(phrases, 1):
    where = f"phrases.jsonl:{i} {p.get('text')!r}"
    if set(p) != {"text", "lang", "kind", "expect", "class"}: bad(f"{where}: shape"); continue
    text, lang, kind, e, cls = p["text"], p["lang"], p["kind"], p["expect"], p["class"]
    if text in seen: bad(f"{where}: duplicate text")
    seen.add(text)
    if lang not in ("ru", "en"): bad(f"{where}: lang")
    if lang == "ru" and not CYR.search(text): bad(f"{where}: ru line without Cyrillic")
    if lang == "en" and CYR.search(text): bad(f"{where}: en line with Cyrillic")
    if cls not in CLASS_KIND: bad(f"{where}: class {cls}"); continue
    if CLASS_KIND[cls] != kind: bad(f"{where}: class {cls} needs kind {CLASS_KIND[cls]}")
    tool = e.get("tool"); tools[tool] += 1
    found = find_dates(text)
    if kind == "unknown" and e != {"tool": "none"}: bad(f"{where}: unknown must expect none")
    if kind == "ambiguous":
        opts = e.get("options")
        if tool != "clarify" or set(e) != {"tool", "options"} or not isinstance(opts, list) or len(opts) < 2:
            bad(f"{where}: ambiguous must be clarify with 2+ options"); continue
        if len(set(opts)) != len(opts): bad(f"{where}: repeated option")
        for k in opts:
            if k not in task: bad(f"{where}: option {k} not a task")
        for kd in found:   # an ambiguous move names a date no candidate already has
            for k in opts:
                if k in task and due_of(k) == (kd[0], kd[1].isoformat()):
                    bad(f"{where}: move date equals the due of {k}")
        if len(found) > 1: bad(f"{where}: several dates {found}")
    if kind == "plain":
        if tool in ("close_task", "cancel_task"):
            if set(e) != {"tool", "id"} or e["id"] not in task: bad(f"{where}: bad id")
        elif tool == "update_task":
            if set(e) != {"tool", "id", "deadline_kind", "deadline"} or e["id"] not in task:
                bad(f"{where}: bad update shape"); continue
            want = [(e["deadline_kind"], e["deadline"])]
            got = [(k, d.isoformat()) for k, d in found]
            if got != want: bad(f"{where}: date reference gives {got}, expect {want}")
            if due_of(e["id"]) == want[0]: bad(f"{where}: move to the date it already has")
        elif tool == "create_task":
            if not set(e) <= {"tool", "text", "deadline_kind", "deadline", "project"} or not e.get("text"):
                bad(f"{where}: bad create shape"); continue
            if "project" in e and e["project"] not in pkeys: bad(f"{where}: unknown project {e['project']}")
            if cls == "project_leadin" and "project" not in e: bad(f"{where}: lead-in without project")
            got = [(k, d.isoformat()) for k, d in found]
            if e["deadline_kind"] == "none":
                if "deadline" in e or got: bad(f"{where}: undated create but dates {got}")
            else:
                if got != [(e["deadline_kind"], e.get("deadline"))]:
                    bad(f"{where}: date reference gives {got}, expect {e['deadline_kind']} {e.get('deadline')}")
            if find_dates(e["text"]): bad(f"{where}: create text still holds a date")
            ptoks = set(re.findall(r"[\w'-]+", norm(text)))
            for w in re.findall(r"[\w'-]+", norm(e["text"])):
                if w not in ptoks: bad(f"{where}: create text word {w!r} not in phrase")
        elif tool == "list_tasks":
            if set(e) != {"tool", "filter"} or e["filter"] not in LISTS: bad(f"{where}: bad list")
            lists[e["filter"]] += 1
        else: bad(f"{where}: plain with tool {tool}")
    if cls == "deadline_not_close" and tool not in ("update_task", "create_task"):
        bad(f"{where}: deadline talk must move or create")
    if cls == "negated_cancel" and tool != "cancel_task": bad(f"{where}: negated_cancel must cancel")
    if cls == "report" and tool != "close_task": bad(f"{where}: report must close")
    if cls == "project_leadin" and tool != "create_task": bad(f"{where}: lead-in must create")
    if cls == "explicit_form" and tool == "none": bad(f"{where}: explicit_form must act")

# ---------------------------------------------------------------- counts
def table(rows, cols, cnt, title):
    print(f"\n{title}")
    print("| " + " | ".join([""] + cols + ["total"]) + " |")
    print("|" + "---|" * (len(cols) + 2))
    for r in rows:
        vals = [cnt[(r, c)] for c in cols]
        print(f"| {r} | " + " | ".join(map(str, vals)) + f" | {sum(vals)} |")
    tot = [sum(cnt[(r, c)] for r in rows) for c in cols]
    print("| **all** | " + " | ".join(map(str, tot)) + f" | **{sum(tot)}** |")

print(f"projects {len(projects)}, tasks {len(tasks)}, phrases {len(phrases)}")
print("tasks per project: " + ", ".join(f"{k} {v}" for k, v in counter.items()))
dues = Counter()
for t in tasks:
    if t["due_kind"] == "none": dues["undated"] += 1
    elif t["due_kind"] == "week": dues["week"] += 1
    else:
        d = date.fromisoformat(t["due"])
        dues["overdue" if d < TODAY else "today" if d == TODAY else "later"] += 1
print("dues: " + ", ".join(f"{k} {dues[k]}" for k in ("overdue", "today", "week", "later", "undated")))
langs = ["ru", "en"]
table(list(CLASS_KIND), langs, Counter((p["class"], p["lang"]) for p in phrases), "class x lang")
table(["plain", "ambiguous", "unknown"], langs, Counter((p["kind"], p["lang"]) for p in phrases), "kind x lang")
print("\nby tool: " + ", ".join(f"{k} {v}" for k, v in tools.most_common()))
print("lists: " + ", ".join(f"{k} {v}" for k, v in lists.most_common()))

if problems:
    print(f"\n{len(problems)} problem(s):")
    for m in problems: print("  " + m)
    sys.exit(1)
print("\nOK")
