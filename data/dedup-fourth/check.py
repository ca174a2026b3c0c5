#!/usr/bin/env python3
"""Validate the dedup-fourth set (written as the dedup-train counting set; stdlib only).

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

N_TASKS = 258
N_PAIRS = 94
MIN_NEGATIVES = 60
MIN_STALE = 8
MIN_HARD = 60
MIN_CROSS = 25
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
de del la las el los para con por y en a al mi tu su una uno que qué q se le lo
comprar pagar pagamos pagaste mandar mandarle enviar pedir sacar sacarme sacaste revisar recoger
transferir terminar traducir actualizar subir reservar reagendar vacunar agendar decirle hazle
llevar llevarle dejar dejarle ir vamos llama llamar quién recoge ayudar ya toca sí súbanlos
vuelos regreso marzo abril febrero junio jueves domingo sábado finde cena cosas novia
factura facturas anticipo otro renta contrato nuevo sube mil cita migración residencia vence
estado cuenta enero gas llegó internet dice pudo cobrar pastillas boiler sigue haciendo ruido
peluquería antes acabe rabia churro tiflis traje tintorería fichas producto inglés tienda precios
comprobante domicilio retuvieron quemador tostadora bolsas kraft válvula etiquetas faltan
tarea español frases subjuntivo pretérito imperfecto lectura pág clase estarás coñac armenio gustó
gata seguro viaje tarjeta cubre pesos pastel sorpresa mamá mesa desde aquí fuera mientras estamos
llaves mercado fotos sesión envío atorado videollamada dermatólogo renovar esta semana le toca
""".split())
EN_WORDS = set("""
the a an for to with and of on in by at from my our your his her their it is be you we i
send pay buy book call review update export sign fill out renew prep check draft share write
give add approve submit return enroll prepare schedule cover demo look finish put order issue
download reminder confirmed appointment booking reservation booked table due failed ready
invoice deposit balance bill electricity gas fine speeding service slot insurance policy expires
access project request letter employment verification self peer feedback requested action required
notes release sign-off blocked results test posted thread rollout plan doc docs handover okrs
proposal planning metrics recap interviews teachers mocks onboarding tomorrow morning did get
roadmap walk through streaks streak prd sync before friday thursday wednesday today dashboards
old laptop macbook label prepaid new security key deadline march february april card classes
birthday call wedding toast rehearse check online dog food delivery running out lusine's
needs all café invoices leave duties shipment customs broker blend repeat order kg weeks
release parent digest acceptance criteria freeze repair paid emergency contact home address
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
        if not re.fullmatch(r"r\d{4}", str(tid)):
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
        if t["chat"] is not None and not re.fullmatch(r"c(0[1-9]|1[0-4])", str(t["chat"])):
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
        if a["_ts"] - b["_ts"] > WINDOW:
            err(f"{where}: {p['dup']} created more than 14 days after {p['of']}")
        if b["_closed"] is not None and b["_closed"] <= a["_ts"] and a["_ts"] - b["_closed"] >= WINDOW:
            err(f"{where}: {p['of']} was closed 14+ days before {p['dup']} was created")
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
    if not 10 <= len(chats) <= 14:
        err(f"tasks: {len(chats)} distinct chats (want 10-14)")

    print(f"pairs: {len(pairs)}")
    show("lang", Counter(p.get("lang") for p in pairs))
    show("kind", Counter(p.get("kind", "-") for p in pairs))
    nodes = {x for p in pairs for x in (p.get("dup"), p.get("of")) if x in by_id}
    clusters = Counter(find(x) for x in nodes)
    print(f"  duplicate clusters: {len(clusters)} (tasks in clusters: {sum(clusters.values())}), "
          f"near-verbatim (title similarity >= {NEAR_VERBATIM_RATIO}): {len(near_verbatim)}")
    neg_kinds = Counter(n.get("kind") for n in negs)
    if neg_kinds["stale"] < MIN_STALE:
        err(f"negatives: only {neg_kinds['stale']} stale (need {MIN_STALE})")
    if neg_kinds["hard"] < MIN_HARD:
        err(f"negatives: only {neg_kinds['hard']} hard (need {MIN_HARD})")
    print(f"negatives: {len(negs)}")
    show("kind", Counter(n.get("kind") for n in negs))

    if errors:
        print(f"\nFAILED: {len(errors)} problem(s)")
        for e in errors:
            print("  -", e)
        return 1
    print("\nOK: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))))
