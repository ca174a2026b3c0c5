#!/usr/bin/env python3
"""Validate the dedup-third evaluation set (stdlib only).

Usage:  python3 check.py [DIR]      (DIR defaults to the folder of this script)
Exit status 0 when every check passes, 1 otherwise. Prints counts either way.
"""
import json
import os
import re
import sys
from collections import Counter
from datetime import datetime, timedelta
from difflib import SequenceMatcher

N_TASKS = 191
N_PAIRS = 64
MIN_NEGATIVES = 45
MIN_STALE = 6
MIN_CROSS = 15                     # cross-language pairs (lang == "cross")
MIN_CROSS_SCRIPT = 14              # pairs with one title in Cyrillic and the other in Latin script
MIN_RELAYED = 12                   # pairs relayed by another person or by an agent (see relayed())
MAX_NEAR_VERBATIM = 8
NEAR_VERBATIM_RATIO = 0.8          # normalised-title similarity that counts as near-verbatim
WINDOW = timedelta(days=14)

TASK_FIELDS = ["id", "title", "description", "type", "person", "chat", "reply_to",
               "category", "created_at", "status", "closed_at"]
TYPES = {"request", "question", "mention", "promise", "task"}
STATUSES = {"open", "done", "dismissed"}
PAIR_LANGS = {"ru", "en", "es", "cross"}
PAIR_KINDS = {"rephrase", "word_form", "typo_abbrev", "amount", "due", "thread",
              "group_private", "agent_human", "near_verbatim"}
NEG_KINDS = {"hard", "stale"}

# ---------------------------------------------------------------- language of a title (heuristic, tuned to this set)
ES_WORDS = set("""
de del la las el los para con por y sobre mi tu su al una uno unos lo que qué te yo hoy no vos
esta este semana todo algo nos en
enviar mandar revisar firmar hacer pagar pagarle comprar reservar reservá elegir elegí escribir actualizar
dale pasarme pide acceso administradora contame cargá cenamos busca firmá
factura presupuesto campaña anuncios fotos tarjeta contrato enmienda anexo borrador acuerdo socios
comentarios reintegro cena equipo hotel aeropuerto compu nueva hasta consola build textos reporte
abril mayo lunes viernes miércoles número orden compra
""".split())
EN_WORDS = set("""
the a an for to with and of on in by at from my our your his her their it is be
send invoice pay buy book call review update export sign fill out renew prep check
new needed needs need due confirm reminder request approval awaiting purchase expires declined
failed payment delivery appointment comments leave add lets through order get fix
feedback end draft agenda numbers week rent fee bill card documents someone must
will feed key can now within days ready quote home parent meeting alert
""".split())


def lang_of(title):
    """'ru' if the title has Cyrillic, otherwise 'es' or 'en' by a small vocabulary vote."""
    if re.search(r"[А-Яа-яЁё]", title):
        return "ru"
    words = re.findall(r"[a-záéíóúñü]+", title.lower())
    es = sum(w in ES_WORDS for w in words) + (2 if re.search(r"[ñ¿¡ª]", title) else 0)
    en = sum(w in EN_WORDS for w in words)
    return "es" if es > en else "en"


def norm(s):
    s = s.lower().replace("ё", "е")
    s = re.sub(r"[^\w\s]", " ", s)
    return " ".join(s.split())


def similarity(a, b):
    return SequenceMatcher(None, norm(a), norm(b)).ratio()


def is_agent(t):
    return str(t.get("description", "")).startswith("agent:")


def source(t):
    """Who put the task in: an agent, the owner herself, or a person (by id)."""
    if is_agent(t):
        return "agent:" + str(t.get("person"))
    return t["person"] or "owner"


def relayed(a, b):
    """True if the pair is relayed by another person or an agent: at least one side was written by an agent,
    or both sides come from people and the people differ. (Owner's note vs one person's ask is not relayed.)"""
    sa, sb = source(a), source(b)
    if sa == sb:
        return False
    if is_agent(a) or is_agent(b):
        return True
    return "owner" not in (sa, sb)


def cross_script(x, y):
    cyr = re.compile(r"[А-Яа-яЁё]")
    return bool(cyr.search(x)) != bool(cyr.search(y))


def live(t, at):
    """An existing task is a candidate at time `at` if it is open then, or was closed at most 14 days before."""
    c = t.get("_closed")
    return c is None or c > at or at - c <= WINDOW


def parse_ts(s):
    try:
        d = datetime.fromisoformat(s)
    except (TypeError, ValueError):
        return None
    return d if d.tzinfo else None


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
        if not re.fullmatch(r"t\d{4}", str(tid)):
            err(f"{where}: bad id {tid!r}")
        if tid in by_id:
            err(f"{where}: duplicate id {tid}")
        if prev_id is not None and str(tid) <= prev_id:
            err(f"{where}: id {tid} not increasing after {prev_id}")
        ts = parse_ts(t["created_at"])
        if ts is None:
            err(f"{where}: bad created_at {t['created_at']!r} (need ISO 8601 with offset)")
        elif prev_ts is not None and ts <= prev_ts:
            err(f"{where}: created_at {t['created_at']} not after previous task")
        if not isinstance(t["title"], str) or not t["title"].strip() or t["title"] != t["title"].strip():
            err(f"{where}: empty or untrimmed title")
        if not isinstance(t["description"], str):
            err(f"{where}: description must be a string (may be empty)")
        if t["type"] not in TYPES:
            err(f"{where}: bad type {t['type']!r}")
        if t["status"] not in STATUSES:
            err(f"{where}: bad status {t['status']!r}")
        if t["person"] is not None and not re.fullmatch(r"p(0[1-9]|[12]\d|3[0-5])", str(t["person"])):
            err(f"{where}: bad person {t['person']!r}")
        if t["chat"] is not None and not re.fullmatch(r"c(0[1-9]|1[0-2])", str(t["chat"])):
            err(f"{where}: bad chat {t['chat']!r}")
        if t["category"] is not None and not (isinstance(t["category"], str) and t["category"]):
            err(f"{where}: category must be a non-empty string or null")
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

    near_verbatim = []
    n_cross_script = n_relayed = 0
    for i, p in enumerate(pairs, 1):
        where = f"pairs.jsonl:{i}"
        for k in ("dup", "of", "lang", "note"):
            if k not in p:
                err(f"{where}: missing {k}")
        a, b = by_id.get(p.get("dup")), by_id.get(p.get("of"))
        if a is None or b is None:
            err(f"{where}: unknown id(s) {p.get('dup')} / {p.get('of')}")
            continue
        if p["dup"] == p["of"]:
            err(f"{where}: dup == of")
            continue
        if p["lang"] not in PAIR_LANGS:
            err(f"{where}: bad lang {p['lang']!r}")
        if "kind" in p and p["kind"] not in PAIR_KINDS:
            err(f"{where}: bad kind {p['kind']!r}")
        if not str(p.get("note", "")).strip():
            err(f"{where}: empty note")
        if p["dup"] in seen_dup:
            err(f"{where}: {p['dup']} is already the dup of {seen_dup[p['dup']]}")
        seen_dup[p["dup"]] = p["of"]
        key = frozenset((p["dup"], p["of"]))
        if key in seen_pair:
            err(f"{where}: pair listed twice")
        seen_pair.add(key)
        if a["_ts"] is None or b["_ts"] is None:
            continue
        if not a["_ts"] > b["_ts"]:
            err(f"{where}: dup {p['dup']} is not later than of {p['of']}")
        if not live(b, a["_ts"]):
            err(f"{where}: {p['of']} is not live when {p['dup']} is created "
                f"(closed {b['closed_at']}, more than 14 days before)")
        if cross_script(a["title"], b["title"]):
            n_cross_script += 1
        if relayed(a, b):
            n_relayed += 1
        la, lb = lang_of(a["title"]), lang_of(b["title"])
        if p["lang"] == "cross" and la == lb:
            err(f"{where}: lang 'cross' but both titles look {la}")
        if p["lang"] != "cross" and not (la == lb == p["lang"]):
            err(f"{where}: lang {p['lang']!r} but titles look {lb}/{la}")
        if similarity(a["title"], b["title"]) >= NEAR_VERBATIM_RATIO:
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
        key = frozenset((ng["a"], ng["b"]))
        if key in seen_neg:
            err(f"{where}: negative listed twice")
        seen_neg.add(key)
        if key in seen_pair:
            err(f"{where}: also listed in pairs.jsonl")
        elif find(ng["a"]) == find(ng["b"]):
            err(f"{where}: a and b are in the same duplicate cluster")
        if a["_ts"] is None or b["_ts"] is None:
            continue
        if not a["_ts"] < b["_ts"]:
            err(f"{where}: a {ng['a']} should be the earlier task")
        if ng.get("kind") == "stale":
            if a["_closed"] is None:
                err(f"{where}: stale but {ng['a']} was never closed")
            elif b["_ts"] - a["_closed"] <= WINDOW:
                err(f"{where}: stale but {ng['b']} was created within 14 days of {ng['a']} closing")
        elif not live(a, b["_ts"]):
            # a hard negative only tests the detector if the earlier task is still a candidate
            err(f"{where}: hard but {ng['a']} is not live when {ng['b']} is created")

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
    print(f"  people: {len(persons)}, chats: {len(chats)}, "
          f"person=null: {sum(1 for t in tasks if t.get('person') is None)}, "
          f"chat=null: {sum(1 for t in tasks if t.get('chat') is None)}, "
          f"with reply_to: {sum(1 for t in tasks if t.get('reply_to'))}")
    if not 25 <= len(persons) <= 35:
        err(f"tasks: {len(persons)} distinct people (want 25-35)")
    if not 8 <= len(chats) <= 12:
        err(f"tasks: {len(chats)} distinct chats (want 8-12)")

    print(f"pairs: {len(pairs)}")
    show("lang", Counter(p.get("lang") for p in pairs))
    show("kind", Counter(p.get("kind", "-") for p in pairs))
    nodes = {x for p in pairs for x in (p.get("dup"), p.get("of")) if x in by_id}
    clusters = Counter(find(x) for x in nodes)
    print(f"  duplicate clusters: {len(clusters)} (tasks in clusters: {sum(clusters.values())}), "
          f"near-verbatim (title similarity >= {NEAR_VERBATIM_RATIO}): {len(near_verbatim)}")
    print(f"  cross-script (Cyrillic vs Latin titles): {n_cross_script}, "
          f"relayed (another person or an agent): {n_relayed}")
    langs = ["ru", "en", "es", "cross"]
    table = Counter((p.get("kind", "-"), p.get("lang")) for p in pairs)
    print("  " + f"{'kind':<14}" + "".join(f"{l:>7}" for l in langs) + f"{'total':>7}")
    for k in sorted({k for k, _ in table}, key=lambda k: -sum(table[(k, l)] for l in langs)):
        print("  " + f"{k:<14}" + "".join(f"{table[(k, l)]:>7}" for l in langs)
              + f"{sum(table[(k, l)] for l in langs):>7}")
    print(f"negatives: {len(negs)}")
    show("kind", Counter(n.get("kind") for n in negs))
    n_stale = sum(1 for n in negs if n.get("kind") == "stale")
    if n_stale < MIN_STALE:
        err(f"negatives: only {n_stale} stale (need {MIN_STALE})")

    if errors:
        print(f"\nFAILED: {len(errors)} problem(s)")
        for e in errors:
            print("  -", e)
        return 1
    print("\nOK: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))))
