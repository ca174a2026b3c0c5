#!/usr/bin/env python3
"""Validate the dedup-sixth evaluation set (stdlib only).

Usage:  python3 check.py [DIR]      (DIR defaults to the folder of this script)
Exit status 0 when every check passes, 1 otherwise. Prints counts either way.
"""
import json
import os
import re
import sys
from collections import Counter
from datetime import datetime, timedelta, timezone
from difflib import SequenceMatcher

MIN_TASKS = 240
MIN_PAIRS = 100
MIN_NEGATIVES = 100
MIN_CROSS = 50                    # pairs whose titles are in different languages
MIN_CROSS_SCRIPT = 40             # pairs with one Cyrillic and one Latin title
MIN_RELAYED = 60                  # pairs relayed by another person, another chat or an agent
MAX_EASY_SHARE = 0.15             # near-verbatim ("easy") pairs, at most this share of all pairs
NEAR_VERBATIM_RATIO = 0.8         # normalised-title similarity that counts as near-verbatim
WINDOW = timedelta(days=14)
SPAN_DAYS = (56, 70)              # the stream covers about 8-10 weeks
SNAPSHOT = datetime(2026, 5, 9, 23, 59, tzinfo=timezone(timedelta(hours=2)))  # final state "as of"

TASK_FIELDS = ["id", "title", "description", "type", "person", "chat", "reply_to",
               "category", "created_at", "status", "closed_at"]
TYPES = {"request", "question", "mention", "promise", "task"}
STATUSES = {"open", "done", "dismissed"}
CATEGORIES = {"work", "money", "admin", "shop", "home", "family", "health", "learning",
              "travel", "pet", "vehicle"}
PAIR_LANGS = {"ru", "en", "es", "pt", "cross"}
PAIR_KINDS = {"rephrase", "word_form", "typo_abbrev", "amount", "due", "thread",
              "group_private", "agent_human", "near_verbatim"}
NEG_KINDS = {"hard", "stale"}
AGENT_RE = re.compile(r"^agent:(mail|sms|calendar|bank) — ([^:·]+)")

PEOPLE = {
    "p01": "Luana Ribeiro, partner", "p02": "мама (Галина)", "p03": "папа (Виктор)",
    "p04": "Bia (Beatriz Costa), Luana's cousin in Porto", "p05": "Jonas Weber, PM at Fernkauf",
    "p06": "Miriam Schäfer, design lead at Fernkauf", "p07": "Tobias Krüger, front-end at Fernkauf",
    "p08": "Lena Hoffmann, UX research at Fernkauf", "p09": "Annika Vogt, freelancer ops at Fernkauf (email)",
    "p10": "Даша (Дарья Квасова), ceramicist in Tbilisi", "p11": "Нино Беридзе, photographer in Tbilisi",
    "p12": "Sofia Lindgren, Etsy buyer (Etsy messages)", "p13": "Javier Marín, landlord",
    "p14": "Iberdrola (email)", "p15": "EMIVASA (email)", "p16": "Digi (SMS)",
    "p17": "Pilar, neighbour", "p18": "Marta Llorens, gestora", "p19": "Ajuntament de València (email)",
    "p20": "Amparo Ferrer, Leo's tutor (email)", "p21": "Rocío Sanz, class delegate",
    "p22": "Centro de Salud Benimaclet (SMS)", "p23": "Paco, Motos Ruzafa",
    "p24": "Mapfre (email)", "p25": "Clínica Veterinaria Benimaclet (SMS)", "p26": "Олег, friend",
    "p27": "Светлана, teacher at the Saturday Russian school", "p28": "Fundació Deportiva Municipal (email)",
}
# chat -> members besides the owner (who may author a message there)
CHATS = {
    "c01": {"p01"}, "c02": {"p02", "p03"}, "c03": {"p05", "p06", "p07", "p08"}, "c04": {"p06"},
    "c05": {"p05"}, "c06": {"p10"}, "c07": {"p10", "p11"}, "c08": {"p13"}, "c09": {"p18"},
    "c10": {"p21"}, "c11": {"p23"}, "c12": {"p26"}, "c13": {"p17"}, "c14": {"p27"}, "c15": {"p04", "p01"},
}

# ---------------------------------------------------------------- Europe/Madrid offsets (EU rule)
def last_sunday(year, month):
    d = datetime(year, month + 1, 1) - timedelta(days=1)
    return d - timedelta(days=(d.weekday() + 1) % 7)


def madrid_offset(dt):
    """Expected UTC offset (hours) for an aware datetime in Europe/Madrid."""
    utc = dt.astimezone(timezone.utc).replace(tzinfo=None)
    start = last_sunday(utc.year, 3).replace(hour=1)     # 01:00 UTC
    end = last_sunday(utc.year, 10).replace(hour=1)
    return 2 if start <= utc < end else 1


# ---------------------------------------------------------------- language of a title (heuristic, tuned to this set)
ES_WORDS = set("""
de del la las el los para con por y al una un unos lo que se te os le me mi tu su sus
alquiler marzo abril mayo recordatorio técnico termo pasa jueves viernes sábado martes lunes alguien casa
factura luz recibo devuelto pague antes envíe lectura contador agua pago pendiente cargo cuenta
incidencia visita cita cambio fibra envío disponible oficina recoger retenido aduana gestión
viene revisar aire acondicionado os va bien mañana retirad motos coches calle cena vecinos persona
pedido listo hasta autorización excursión entregar recordad y los hasta comedor vacaciones
inscripción natación plazo dentista infantil tutoría familia día libro cada alumno trae intercambiar
fotos clase copia piojos revisad cabeza niños esta semana festival primavera alumnos van disfrazados flor disfraz
hora cumple organizarnos vacuna antirrábica caduca pida necesita revisión te va neumático trasero gastado cambiamos montado
lista renovación seguro notificación denuncia estacionamiento pronto su vehículo confirmada
carta invitación tus padres tasa inscripción padronal renueva padrón necesitamos residencia extractos meses contrato médico
necesito confirmando sigues ellos inglés vale solicitud presentada paga cogido huellas toma
mándame facturas confírmame sale pagar presento domiciliado pedir certificado fiscal sede
sí estoy envíe
""".split())
EN_WORDS = set("""
the a an for to with and of on in by at from my our your his her their it is be you we he are
send invoice pay buy book call review update check sign please can need needs new
final screens assigned visual staging spacing colours before merge present design crit concepts page
rough directions no polish commented postcode field too narrow mobile spec input wraps screener participants
usability test certificate needed otherwise withholding rename colour tokens scheme library go direction detail dev
mentioned note-taker sessions export icons waiting campaign banners home use share file freelancer view only requested access
retainer submit reminder due survey answer fill explore gallery options pick up sticky states contract ends extension
sent offsite are in need yes flights confirm join junior interview reimburse document comments missing add zoom handoff plan
tasks additional countersign days photos retouch them order ship case opened item arrived damaged shoot listings expired renew
tax add keep selling verify identity avoid payout hold message plates wedding price accepted offer create custom listing
approval request payment awaiting no hot water again write say guy comes stay have class letter says bounced something
there paper door they want photo meter neighbours move before saturday build our street down desk mount tomorrow asks all day
asked about rent forgot should change cheaper night package at working make copies keys parents sets
needs paper signed euros sign swimming inscription opens today don't forget dentist take him until grandma we flowers
invitation party only because holidays book exchange or class photos order that head tonight says costume it printer
rabies vaccine vet food finishing online open find reservation confirm expires gift give transfer account shoes shirt
boarding passes wallet check-in mom did see arrivals tickets show grandparents passport details booking help form site
""".split())
PT_WORDS = set("""
o os as um uma pra pro pros gente vocês você voo horário número buscar aeroporto mandem chegam quinta
comprar colchão inflável teus tem casamento obrigada não
""".split())


def lang_of(title):
    """'ru' if the title has Cyrillic, otherwise 'pt', 'es' or 'en' by a small vocabulary vote."""
    if re.search(r"[А-Яа-яЁё]", title):
        return "ru"
    words = re.findall(r"[a-záéíóúñüãõçàèòâêô'-]+", title.lower())
    pt = sum(w in PT_WORDS for w in words) + (2 if re.search(r"[ãõç]", title) else 0)
    es = sum(w in ES_WORDS for w in words) + (2 if re.search(r"[ñ¿¡]", title) else 0)
    en = sum(w in EN_WORDS for w in words)
    best = max(en, es, pt)
    if pt == best and pt > 0:
        return "pt"
    return "es" if es > en else "en"


def script_of(title):
    return "cyr" if re.search(r"[А-Яа-яЁё]", title) else "lat"


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


def agent_of(t):
    m = AGENT_RE.match(t.get("description", ""))
    return (m.group(1), m.group(2).strip()) if m else None


def relayed(a, b):
    """Another person, another chat, or an agent's notice on one side (or two different agents)."""
    if a["person"] and b["person"] and a["person"] != b["person"]:
        return True
    if a["chat"] and b["chat"] and a["chat"] != b["chat"]:
        return True
    ga, gb = agent_of(a), agent_of(b)
    if (ga is None) != (gb is None):
        return True
    return ga is not None and ga != gb


def main(d):
    errors = []

    def err(msg):
        errors.append(msg)

    def load(name):
        rows = []
        with open(os.path.join(d, name), encoding="utf-8") as f:
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
    if len(tasks) < MIN_TASKS:
        err(f"tasks: expected at least {MIN_TASKS}, found {len(tasks)}")
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
        if not re.fullmatch(r"d\d{4}", str(tid)):
            err(f"{where}: bad id {tid!r}")
        elif tid != f"d{i:04d}":
            err(f"{where}: id {tid} should be d{i:04d} (ids follow created_at order)")
        if tid in by_id:
            err(f"{where}: duplicate id {tid}")
        ts = parse_ts(t["created_at"])
        if ts is None:
            err(f"{where}: bad created_at {t['created_at']!r} (need ISO 8601 with offset)")
        else:
            if prev_ts is not None and ts <= prev_ts:
                err(f"{where}: created_at {t['created_at']} not after previous task")
            if ts.utcoffset() != timedelta(hours=madrid_offset(ts)):
                err(f"{where}: created_at {t['created_at']} has the wrong Europe/Madrid offset")
            if ts > SNAPSHOT:
                err(f"{where}: created after the snapshot date")
        if not isinstance(t["title"], str) or not t["title"].strip() or t["title"] != t["title"].strip():
            err(f"{where}: empty or untrimmed title")
        if not isinstance(t["description"], str):
            err(f"{where}: description must be a string (may be empty)")
        if t["type"] not in TYPES:
            err(f"{where}: bad type {t['type']!r}")
        if t["status"] not in STATUSES:
            err(f"{where}: bad status {t['status']!r}")
        if t["category"] not in CATEGORIES and t["category"] is not None:
            err(f"{where}: bad category {t['category']!r}")
        if t["person"] is not None and t["person"] not in PEOPLE:
            err(f"{where}: unknown person {t['person']!r}")
        if t["chat"] is not None and t["chat"] not in CHATS:
            err(f"{where}: unknown chat {t['chat']!r}")
        # source conventions
        desc = t["description"] if isinstance(t["description"], str) else ""
        is_agent = desc.startswith("agent:")
        if is_agent:
            if not AGENT_RE.match(desc):
                err(f"{where}: malformed agent description")
            if t["chat"] is not None:
                err(f"{where}: agent task must have chat null")
        elif t["type"] == "promise":
            if t["person"] is not None or t["chat"] is None or not re.match(r"^(Я|Me):", desc):
                err(f"{where}: promise needs person null, a chat and a 'Я:'/'Me:' description")
        elif t["chat"] is None:
            if t["person"] is not None:
                err(f"{where}: owner's note must have person null")
        else:
            if t["person"] is None:
                err(f"{where}: chat message without an author")
            elif t["person"] not in CHATS.get(t["chat"], set()):
                err(f"{where}: {t['person']} is not a member of {t['chat']}")
        closed = t["closed_at"]
        if t["status"] == "open":
            if closed is not None:
                err(f"{where}: open task has closed_at")
        else:
            c = parse_ts(closed)
            if c is None:
                err(f"{where}: closed task needs a valid closed_at")
            else:
                if ts is not None and c < ts:
                    err(f"{where}: closed_at before created_at")
                if c.utcoffset() != timedelta(hours=madrid_offset(c)):
                    err(f"{where}: closed_at {closed} has the wrong Europe/Madrid offset")
                if c > SNAPSHOT:
                    err(f"{where}: closed after the snapshot date")
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
    if len(pairs) < MIN_PAIRS:
        err(f"pairs: expected at least {MIN_PAIRS}, found {len(pairs)}")
    seen_dup, seen_pair, parent = {}, set(), {}

    def find(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    easy, n_cross_script, n_relayed = [], 0, 0
    lang_pairs = Counter()
    for i, p in enumerate(pairs, 1):
        where = f"pairs.jsonl:{i}"
        for k in ("dup", "of", "lang", "kind", "note"):
            if k not in p:
                err(f"{where}: missing {k}")
        a, b = by_id.get(p.get("dup")), by_id.get(p.get("of"))
        if a is None or b is None:
            err(f"{where}: unknown id(s) {p.get('dup')} / {p.get('of')}")
            continue
        if p["dup"] == p["of"]:
            err(f"{where}: dup == of")
            continue
        if p.get("lang") not in PAIR_LANGS:
            err(f"{where}: bad lang {p.get('lang')!r}")
        if p.get("kind") not in PAIR_KINDS:
            err(f"{where}: bad kind {p.get('kind')!r}")
        if not str(p.get("note", "")).strip():
            err(f"{where}: empty note")
        if p["dup"] in seen_dup:
            err(f"{where}: {p['dup']} is already the dup of {seen_dup[p['dup']]}")
        seen_dup[p["dup"]] = p["of"]
        key = frozenset((p["dup"], p["of"]))
        if key in seen_pair:
            err(f"{where}: pair listed twice")
        seen_pair.add(key)
        parent[find(p["dup"])] = find(p["of"])
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
        lang_pairs["-".join(sorted((la, lb))) if la != lb else la] += 1
        if script_of(a["title"]) != script_of(b["title"]):
            n_cross_script += 1
        if relayed(a, b):
            n_relayed += 1
        if similarity(a["title"], b["title"]) >= NEAR_VERBATIM_RATIO or p.get("kind") == "near_verbatim":
            easy.append((p["dup"], p["of"]))
    n_cross = sum(1 for p in pairs if p.get("lang") == "cross")
    if n_cross < MIN_CROSS:
        err(f"pairs: only {n_cross} cross-language pairs (need {MIN_CROSS})")
    if n_cross_script < MIN_CROSS_SCRIPT:
        err(f"pairs: only {n_cross_script} Cyrillic-vs-Latin pairs (need {MIN_CROSS_SCRIPT})")
    if n_relayed < MIN_RELAYED:
        err(f"pairs: only {n_relayed} relayed pairs (need {MIN_RELAYED})")
    if pairs and len(easy) > MAX_EASY_SHARE * len(pairs):
        err(f"pairs: {len(easy)} easy pairs, more than {MAX_EASY_SHARE:.0%}")

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
    def show(title, counter):
        total = sum(counter.values())
        parts = ", ".join(f"{k}={v} ({100 * v / total:.0f}%)" if total else f"{k}={v}"
                          for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0]))))
        print(f"  {title}: {parts}")

    valid = [t for t in tasks if t.get("_ts") is not None]
    print(f"tasks: {len(tasks)}")
    if valid:
        first, last = min(t["_ts"] for t in valid), max(t["_ts"] for t in valid)
        days = (last - first).days
        print(f"  span: {first.date()} .. {last.date()} ({days} days); offsets: "
              + ", ".join(f"{k}={v}" for k, v in sorted(Counter(t['created_at'][-6:] for t in valid).items())))
        if not SPAN_DAYS[0] <= days <= SPAN_DAYS[1]:
            err(f"tasks: span of {days} days (want {SPAN_DAYS[0]}-{SPAN_DAYS[1]})")
    show("language (title heuristic)", Counter(lang_of(t["title"]) for t in tasks if "title" in t))
    show("type", Counter(t.get("type") for t in tasks))
    show("status", Counter(t.get("status") for t in tasks))
    show("category", Counter(t.get("category") or "null" for t in tasks))
    persons = {t["person"] for t in tasks if t.get("person")}
    chats = {t["chat"] for t in tasks if t.get("chat")}
    agents = Counter(agent_of(t)[0] for t in tasks if agent_of(t))
    print(f"  people: {len(persons)}, chats: {len(chats)}, agent tasks: {sum(agents.values())} "
          f"({', '.join(f'{k}={v}' for k, v in sorted(agents.items()))}), "
          f"owner's notes: {sum(1 for t in tasks if t.get('chat') is None and t.get('person') is None and not agent_of(t))}, "
          f"with reply_to: {sum(1 for t in tasks if t.get('reply_to'))}")
    if not 25 <= len(persons) <= 35:
        err(f"tasks: {len(persons)} distinct people (want 25-35)")
    if not 10 <= len(chats) <= 15:
        err(f"tasks: {len(chats)} distinct chats (want 10-15)")

    print(f"pairs: {len(pairs)}")
    show("lang", Counter(p.get("lang") for p in pairs))
    show("title languages", lang_pairs)
    show("kind", Counter(p.get("kind", "-") for p in pairs))
    nodes = {x for p in pairs for x in (p.get("dup"), p.get("of")) if x in by_id}
    clusters = Counter(find(x) for x in nodes)
    print(f"  cross-language: {n_cross}, Cyrillic vs Latin: {n_cross_script}, "
          f"relayed (other person/chat/agent): {n_relayed}")
    print(f"  duplicate clusters: {len(clusters)} (tasks in clusters: {sum(clusters.values())}), "
          f"easy (near_verbatim or title similarity >= {NEAR_VERBATIM_RATIO}): {len(easy)}")
    print(f"negatives: {len(negs)}")
    show("kind", Counter(n.get("kind") for n in negs))
    print(f"  cross-language: {sum(1 for n in negs if n.get('a') in by_id and n.get('b') in by_id and lang_of(by_id[n['a']]['title']) != lang_of(by_id[n['b']]['title']))}")

    if errors:
        print(f"\nFAILED: {len(errors)} problem(s)")
        for e in errors:
            print("  -", e)
        return 1
    print("\nOK: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))))
