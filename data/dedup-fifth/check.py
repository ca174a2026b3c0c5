#!/usr/bin/env python3
"""Validate the dedup-fifth evaluation set (stdlib only).

Usage:  python3 check.py [DIR]      (DIR defaults to the folder of this script)
Exit status 0 when every check passes, 1 otherwise. Prints counts either way.
"""
import json
import os
import re
import sys
from collections import Counter
from datetime import timedelta, datetime
from difflib import SequenceMatcher

N_TASKS = 255
N_PAIRS = 103
MIN_NEGATIVES = 70
MIN_CROSS = 25                     # pairs with lang 'cross'
MIN_CROSS_SCRIPT = 25              # cross pairs with one title Cyrillic and the other Latin
MIN_RELAYED = 25                   # pairs whose dup reached the owner through another person, chat or agent
MAX_NEAR_VERBATIM = 16
NEAR_VERBATIM_RATIO = 0.8          # normalised-title similarity that counts as near-verbatim
WINDOW = timedelta(days=14)
N_PEOPLE, N_CHATS = 32, 14

TASK_FIELDS = ["id", "title", "description", "type", "person", "chat", "reply_to",
               "category", "created_at", "status", "closed_at"]
TYPES = {"request", "question", "mention", "promise", "task"}
STATUSES = {"open", "done", "dismissed"}
PAIR_LANGS = {"ru", "en", "es", "cross"}
NEG_KINDS = {"hard", "stale"}
AGENT_RE = re.compile(r"^agent:(mail|sms|calendar) — ")

# ---------------------------------------------------------------- language of a title (heuristic, tuned to this set)
ES_WORDS = set("""
de del la las el los para con por y mi tu su al una uno mirar test inestable reconciliador
revisar revisas conciliación conciliacion antes viernes hoy reservad ya vuelos lisboa que suben
reservo piso noches reservar mesa sábado sabado somos yo personas pasadme cena subir fotos álbum
album compartido decir qué hora llegamos pagar nuestra mitad me ayudas reintentos vienes equipo ámsterdam amsterdam
""".split())
EN_WORDS = set("""
the a an for to with and of on in by at from my our your his her their it is be
send pay buy book call review update sign check pick get give bring submit upload exchange
did you are we can should us it's still need needs needs found say yes or only
bill rent please invoice copy certificate flights flight tyre tyres change cat sitter
due tomorrow today new photo meter lease another year home guy coming router swap
requested dashboards access shift incident postmortem delay any eta fallback now
school trip lunch meeting sports day white sneakers dentist check-up form
""".split())


def lang_of(title):
    """'ru' if the title has Cyrillic, otherwise 'es' or 'en' by a small vocabulary vote."""
    if re.search(r"[А-Яа-яЁёЂђЋћЈјЉљЊњЏџ]", title):
        return "ru"
    words = re.findall(r"[a-záéíóúñü]+", title.lower())
    es = sum(w in ES_WORDS for w in words) + (2 if re.search(r"[ñ¿¡]", title) else 0)
    en = sum(w in EN_WORDS for w in words)
    return "es" if es > en else "en"


def cyrillic(title):
    return bool(re.search(r"[А-Яа-яЁёЂђЋћЈјЉљЊњЏџ]", title))


def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[^\w\s]", " ", s)
    return " ".join(s.split())


def similarity(a, b):
    return SequenceMatcher(None, norm(a), norm(b)).ratio()


def parse_ts(s):
    try:
        d = datetime.fromisoformat(s)
    except (TypeError, ValueError):
        return None
    return d if d.tzinfo else None


def is_agent(t):
    return isinstance(t.get("description"), str) and t["description"].startswith("agent:")


def owner_authored(t):
    """The owner's own note or promise (not an agent task, no other author)."""
    return t.get("person") is None and not is_agent(t)


def relayed(dup, of):
    """The dup reached the owner through another person, another chat, or an agent's notice."""
    if owner_authored(dup):
        return False
    return is_agent(dup) or dup.get("person") != of.get("person") or dup.get("chat") != of.get("chat")


def main(d):
    errors = []

    def err(msg):
        errors.append(msg)

    def load(name):
        rows = []
        path = os.path.join(d, name)
        with open(path, encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                if not line.strip():
                    err(f"{name}:{i}: blank line")
                    continue
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    err(f"{name}:{i}: invalid JSON ({e})")
        return rows

    tasks = load("tasks.jsonl")
    pairs = load("pairs.jsonl")
    negs = load("negatives.jsonl")

    # ------------------------------------------------------------ tasks
    if len(tasks) != N_TASKS:
        err(f"tasks: expected {N_TASKS}, found {len(tasks)}")
    by_id = {}
    prev_ts, prev_id = None, None
    person_re = re.compile(r"p(\d{2})")
    chat_re = re.compile(r"c(\d{2})")
    for i, t in enumerate(tasks, 1):
        where = f"tasks.jsonl:{i}"
        missing = [k for k in TASK_FIELDS if k not in t]
        extra = [k for k in t if k not in TASK_FIELDS]
        if missing:
            err(f"{where}: missing fields {missing}")
            continue
        if extra:
            err(f"{where}: unexpected fields {extra}")
        tid = t["id"]
        if not re.fullmatch(r"f\d{4}", str(tid)):
            err(f"{where}: bad id {tid!r}")
        elif tid != f"f{i:04d}":
            err(f"{where}: id {tid} should be f{i:04d} (ids are consecutive)")
        if tid in by_id:
            err(f"{where}: duplicate id {tid}")
        if prev_id is not None and str(tid) <= prev_id:
            err(f"{where}: id {tid} not increasing after {prev_id}")
        ts = parse_ts(t["created_at"])
        if ts is None:
            err(f"{where}: bad created_at {t['created_at']!r} (need ISO 8601 with offset)")
        elif prev_ts is not None and ts <= prev_ts:
            err(f"{where}: created_at {t['created_at']} not after previous task (absolute time)")
        if not isinstance(t["title"], str) or not t["title"].strip() or t["title"] != t["title"].strip():
            err(f"{where}: empty or untrimmed title")
        if not isinstance(t["description"], str):
            err(f"{where}: description must be a string (may be empty)")
            t["description"] = ""
        if t["type"] not in TYPES:
            err(f"{where}: bad type {t['type']!r}")
        if t["status"] not in STATUSES:
            err(f"{where}: bad status {t['status']!r}")
        if t["person"] is not None:
            m = person_re.fullmatch(str(t["person"]))
            if not m or not 1 <= int(m.group(1)) <= N_PEOPLE:
                err(f"{where}: bad person {t['person']!r}")
        if t["chat"] is not None:
            m = chat_re.fullmatch(str(t["chat"]))
            if not m or not 1 <= int(m.group(1)) <= N_CHATS:
                err(f"{where}: bad chat {t['chat']!r}")
        if t["category"] is not None and not (isinstance(t["category"], str) and t["category"]):
            err(f"{where}: category must be a non-empty string or null")
        # conventions for where a task came from
        desc = t["description"]
        if desc.startswith("agent:"):
            if not AGENT_RE.match(desc):
                err(f"{where}: agent description must start with 'agent:mail — ', 'agent:sms — ' or 'agent:calendar — '")
            if t["chat"] is not None:
                err(f"{where}: agent task must have chat null")
            if t["type"] != "task":
                err(f"{where}: agent task must have type 'task'")
        if t["type"] == "promise":
            if t["person"] is not None or t["chat"] is None:
                err(f"{where}: promise needs person null and a chat")
            if not (desc.startswith("Я:") or desc.startswith("Me:")):
                err(f"{where}: promise description must start with 'Я:' or 'Me:'")
        if t["person"] is None and t["chat"] is None and not desc.startswith("agent:") and t["type"] != "task":
            err(f"{where}: owner's note must have type 'task'")
        if t["person"] is None and t["chat"] is not None and t["type"] != "promise":
            err(f"{where}: a chat message without a person must be the owner's promise")
        closed = t["closed_at"]
        if t["status"] == "open":
            if closed is not None:
                err(f"{where}: open task has closed_at")
        else:
            c = parse_ts(closed)
            if c is None:
                err(f"{where}: closed task needs a valid closed_at")
            elif ts is not None and c < ts:
                err(f"{where}: closed_at before created_at")
        if t["reply_to"] is not None:
            r = by_id.get(t["reply_to"])
            if r is None:
                err(f"{where}: reply_to {t['reply_to']} is not an earlier task")
            elif t["chat"] is None or r["chat"] != t["chat"]:
                err(f"{where}: reply_to {t['reply_to']} is in another chat")
        by_id[tid] = t
        t["_ts"] = ts
        t["_closed"] = parse_ts(closed) if closed else None
        prev_ts = ts if ts is not None else prev_ts
        prev_id = str(tid)

    # ------------------------------------------------------------ pairs
    if len(pairs) != N_PAIRS:
        err(f"pairs: expected {N_PAIRS}, found {len(pairs)}")
    seen_dup = {}
    seen_pair = set()
    parent = {}

    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    near_verbatim, sims = [], []
    n_cross_script = n_relayed = 0
    cross_combo = Counter()
    for i, p in enumerate(pairs, 1):
        where = f"pairs.jsonl:{i}"
        for k in ("dup", "of", "lang", "kind", "note"):
            if k not in p:
                err(f"{where}: missing {k}")
        extra = [k for k in p if k not in ("dup", "of", "lang", "kind", "note")]
        if extra:
            err(f"{where}: unexpected fields {extra}")
        a, b = by_id.get(p.get("dup")), by_id.get(p.get("of"))
        if a is None or b is None:
            err(f"{where}: unknown id(s) {p.get('dup')} / {p.get('of')}")
            continue
        if p["dup"] == p["of"]:
            err(f"{where}: dup == of")
            continue
        if p.get("lang") not in PAIR_LANGS:
            err(f"{where}: bad lang {p.get('lang')!r}")
        if not (isinstance(p.get("kind"), str) and p["kind"].strip()):
            err(f"{where}: kind must be short non-empty text")
        if not str(p.get("note", "")).strip():
            err(f"{where}: empty note")
        if p["dup"] in seen_dup:
            err(f"{where}: {p['dup']} is already the dup of {seen_dup[p['dup']]}")
        seen_dup[p["dup"]] = p["of"]
        key = frozenset((p["dup"], p["of"]))
        if key in seen_pair:
            err(f"{where}: pair listed twice")
        seen_pair.add(key)
        if relayed(a, b):
            n_relayed += 1
        if a["_ts"] is None or b["_ts"] is None:
            continue
        if not a["_ts"] > b["_ts"]:
            err(f"{where}: dup {p['dup']} is not later than of {p['of']}")
        if a["_ts"] - b["_ts"] > WINDOW:
            err(f"{where}: {p['dup']} created more than 14 days after {p['of']}")
        if b["_closed"] is not None and b["_closed"] <= a["_ts"] and a["_ts"] - b["_closed"] >= WINDOW:
            err(f"{where}: {p['of']} was closed 14+ days before {p['dup']} was created")
        la, lb = lang_of(a["title"]), lang_of(b["title"])
        if p["lang"] == "cross":
            if la == lb:
                err(f"{where}: lang 'cross' but both titles look {la}")
            cross_combo["↔".join(sorted((la, lb)))] += 1
            if cyrillic(a["title"]) != cyrillic(b["title"]):
                n_cross_script += 1
        elif not (la == lb == p["lang"]):
            err(f"{where}: lang {p['lang']!r} but titles look {lb}/{la}")
        s = similarity(a["title"], b["title"])
        sims.append(s)
        if s >= NEAR_VERBATIM_RATIO:
            near_verbatim.append((p["dup"], p["of"]))
        parent[find(p["dup"])] = find(p["of"])
    if len(near_verbatim) > MAX_NEAR_VERBATIM:
        err(f"pairs: {len(near_verbatim)} near-verbatim pairs (max {MAX_NEAR_VERBATIM})")
    n_cross = sum(1 for p in pairs if p.get("lang") == "cross")
    if n_cross < MIN_CROSS:
        err(f"pairs: only {n_cross} cross-language pairs (need {MIN_CROSS})")
    if n_cross_script < MIN_CROSS_SCRIPT:
        err(f"pairs: only {n_cross_script} cross-script pairs (need {MIN_CROSS_SCRIPT})")
    if n_relayed < MIN_RELAYED:
        err(f"pairs: only {n_relayed} relayed pairs (need {MIN_RELAYED})")

    # ------------------------------------------------------------ negatives
    if len(negs) < MIN_NEGATIVES:
        err(f"negatives: expected at least {MIN_NEGATIVES}, found {len(negs)}")
    seen_neg = set()
    neg_sims = []
    for i, ng in enumerate(negs, 1):
        where = f"negatives.jsonl:{i}"
        for k in ("a", "b", "kind", "note"):
            if k not in ng:
                err(f"{where}: missing {k}")
        a, b = by_id.get(ng.get("a")), by_id.get(ng.get("b"))
        if a is None or b is None:
            err(f"{where}: unknown id(s) {ng.get('a')} / {ng.get('b')}")
            continue
        if ng["a"] == ng["b"]:
            err(f"{where}: a == b")
            continue
        if ng.get("kind") not in NEG_KINDS:
            err(f"{where}: bad kind {ng.get('kind')!r}")
        if not str(ng.get("note", "")).strip():
            err(f"{where}: empty note")
        key = frozenset((ng["a"], ng["b"]))
        if key in seen_neg:
            err(f"{where}: negative listed twice")
        seen_neg.add(key)
        if key in seen_pair:
            err(f"{where}: also listed in pairs.jsonl")
        elif find(ng["a"]) == find(ng["b"]):
            err(f"{where}: a and b are in the same duplicate cluster")
        neg_sims.append(similarity(a["title"], b["title"]))
        if a["_ts"] is None or b["_ts"] is None:
            continue
        if not a["_ts"] < b["_ts"]:
            err(f"{where}: a {ng['a']} should be the earlier task")
        if ng.get("kind") == "stale":
            if a["_closed"] is None:
                err(f"{where}: stale but {ng['a']} was never closed")
            elif b["_ts"] - a["_closed"] <= WINDOW:
                err(f"{where}: stale but {ng['b']} was created within 14 days of {ng['a']} closing")

    # ------------------------------------------------------------ report
    def show(title, counter, total=None):
        total = total if total is not None else sum(counter.values())
        parts = ", ".join(f"{k}={v} ({100 * v / total:.0f}%)" if total else f"{k}={v}"
                          for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0]))))
        print(f"  {title}: {parts}")

    valid = [t for t in tasks if t.get("_ts") is not None]
    print(f"tasks: {len(tasks)}")
    if valid:
        first, last = min(t["_ts"] for t in valid), max(t["_ts"] for t in valid)
        print(f"  span: {first.date()} .. {last.date()} ({(last - first).days} days)")
    show("language (title heuristic)", Counter(lang_of(t["title"]) for t in tasks if "title" in t))
    show("type", Counter(t.get("type") for t in tasks))
    show("status", Counter(t.get("status") for t in tasks))
    show("category", Counter(t.get("category") or "null" for t in tasks))
    persons = {t["person"] for t in tasks if t.get("person")}
    chats = {t["chat"] for t in tasks if t.get("chat")}
    n_agent = sum(1 for t in tasks if is_agent(t))
    n_prom = sum(1 for t in tasks if t.get("type") == "promise")
    n_note = sum(1 for t in tasks if t.get("person") is None and t.get("chat") is None and not is_agent(t))
    print(f"  people: {len(persons)}, chats: {len(chats)}, agent tasks: {n_agent}, promises: {n_prom}, "
          f"owner's notes: {n_note}, with reply_to: {sum(1 for t in tasks if t.get('reply_to'))}")
    show("agent source", Counter(t["description"].split(" ", 1)[0] for t in tasks if is_agent(t)))
    if not 25 <= len(persons) <= N_PEOPLE:
        err(f"tasks: {len(persons)} distinct people (want 25-{N_PEOPLE})")
    if not 10 <= len(chats) <= N_CHATS:
        err(f"tasks: {len(chats)} distinct chats (want 10-{N_CHATS})")

    print(f"pairs: {len(pairs)}")
    show("lang", Counter(p.get("lang") for p in pairs))
    if cross_combo:
        show("cross combinations", cross_combo)
    show("kind", Counter(p.get("kind", "-") for p in pairs))
    nodes = {x for p in pairs for x in (p.get("dup"), p.get("of")) if x in by_id}
    clusters = Counter(find(x) for x in nodes)
    print(f"  cross-script (Cyrillic vs Latin): {n_cross_script}, relayed: {n_relayed}")
    print(f"  duplicate clusters: {len(clusters)} (tasks in clusters: {sum(clusters.values())}), "
          f"near-verbatim (title similarity >= {NEAR_VERBATIM_RATIO}): {len(near_verbatim)}")
    if sims:
        print(f"  mean title similarity: pairs {sum(sims) / len(sims):.2f}"
              + (f", negatives {sum(neg_sims) / len(neg_sims):.2f}" if neg_sims else ""))
    print(f"negatives: {len(negs)}")
    show("kind", Counter(n.get("kind") for n in negs))
    n_neg_cross = sum(1 for n in negs if n.get("a") in by_id and n.get("b") in by_id
                      and lang_of(by_id[n["a"]]["title"]) != lang_of(by_id[n["b"]]["title"]))
    print(f"  cross-language: {n_neg_cross}")

    if errors:
        print(f"\nFAILED: {len(errors)} problem(s)")
        for e in errors:
            print("  -", e)
        return 1
    print("\nOK: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))))
