#!/usr/bin/env python3
"""The lessons' recipes, measured. Three parts, each a table for docs/findings.md:

  warmup       text at depth 12, Adam at 0.003: post-norm with and without 300 warmup steps,
               pre-norm without, each also with Adam's beta2 = 0.98 (the original recipe's),
               the sandwich and DeepNorm without warmup; the held-out loss of every seed
  deep         the same at depth 48 and 96: post-norm with warmup, DeepNorm with and without,
               pre-norm; does DeepNorm train where post-norm does not?
  comparisons  All four's combinations at each sequence task's defaults: the step at which
               both on first crosses the bigram line (text) or copies 95% (copy, induction),
               for All four's step counts

    cargo build --release && python3 scripts/warmup_study.py warmup --seeds 1 2 3 4 5

(`warmup` and `deep` are declared in studies/warmup.toml and studies/warmup-deep.toml too, and
docs/findings.md shows them from there: `bash scripts/studies.sh run warmup warmup-deep`.)

The bigram line is 2.46 and the unigram line 3.30 (held-out, in nats per character).
"""
import argparse, sys
from concurrent.futures import ThreadPoolExecutor

from task_study import fmt, run

TEXT = ["--preset", "text", "--lr", "0.003", "--steps", "3000"]


def last_val(report):
    return report["task"]["val_loss"][-1][1]


def first(history, test):
    return next((s for s, v in history if v is not None and test(v)), None)


def per_seed(pool, label, args, seeds):
    return label, [pool.submit(run, [*args, "--seed", str(s)]) for s in seeds]


def table(rows, seeds, value=last_val):
    print("| configuration | " + " | ".join(f"seed {s}" for s in seeds) + " | learns (< 2.46) |")
    print("|---|" + "---|" * (len(seeds) + 1))
    for label, futures in rows:
        vals = [value(f.result()) for f in futures]
        learned = sum(v is not None and v < 2.46 for v in vals)
        cells = " | ".join("–" if v is None else f"{v:.2f}" for v in vals)
        print(f"| {label} | {cells} | {learned} of {len(vals)} |", flush=True)


def warmup(pool, seeds):
    configs = [
        ("post-norm, no warmup", ["--norm", "post"]),
        ("post-norm, warmup 300", ["--norm", "post", "--warmup", "300"]),
        ("pre-norm, no warmup", ["--norm", "pre"]),
        ("post-norm, no warmup, β₂ 0.98", ["--norm", "post", "--beta2", "0.98"]),
        ("post-norm, warmup 300, β₂ 0.98", ["--norm", "post", "--warmup", "300", "--beta2", "0.98"]),
        ("pre-norm, no warmup, β₂ 0.98", ["--norm", "pre", "--beta2", "0.98"]),
        ("sandwich, no warmup", ["--norm", "sandwich"]),
        ("deepnorm, no warmup", ["--norm", "deepnorm"]),
        ("deepnorm, warmup 300", ["--norm", "deepnorm", "--warmup", "300"]),
    ]
    table([per_seed(pool, label, [*TEXT, *flags], seeds) for label, flags in configs], seeds)


def deep(pool, seeds):
    rows = []
    for depth in (48, 96):
        for label, flags in [
            ("post-norm, warmup 300", ["--norm", "post", "--warmup", "300"]),
            ("deepnorm, no warmup", ["--norm", "deepnorm"]),
            ("deepnorm, warmup 300", ["--norm", "deepnorm", "--warmup", "300"]),
            ("pre-norm, no warmup", ["--norm", "pre"]),
        ]:
            rows.append(per_seed(pool, f"depth {depth}, {label}", [*TEXT, "--depth", str(depth), *flags], seeds))
    table(rows, seeds)


COMBINATIONS = [
    ("both on (pre)", ["--residual", "on", "--norm", "pre"]),
    ("LayerNorm alone (pre)", ["--residual", "off", "--norm", "pre"]),
    ("residual alone", ["--residual", "on", "--norm", "off"]),
    ("both off", ["--residual", "off", "--norm", "off"]),
]


def comparisons(pool, seeds):
    print("| task | combination | " + " | ".join(f"seed {s}" for s in seeds) + " |")
    print("|---|---|" + "---|" * len(seeds))
    for task, steps, line in [("text", 3000, "crosses 2.46"), ("copy", 1000, "copies 95%"), ("induction", 3000, "copies 95%")]:
        for label, flags in COMBINATIONS:
            futures = [pool.submit(run, ["--preset", task, "--steps", str(steps), *flags, "--seed", str(s)]) for s in seeds]
            cells = []
            for f in futures:
                t = f.result()["task"]
                if task == "text":
                    at = first(t["val_loss"], lambda v: v < 2.46)
                    cells.append(f"{'never' if at is None else at} ({t['val_loss'][-1][1]:.2f} at {steps})")
                else:
                    at = first(t["accuracy"], lambda a: a >= 0.95)
                    cells.append(f"{'never' if at is None else at} ({t['accuracy'][-1][1]:.2f} at {steps})")
            print(f"| {task}: step it {line} | {label} | " + " | ".join(cells) + " |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("part", choices=["warmup", "deep", "comparisons"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    with ThreadPoolExecutor(a.jobs) as pool:
        {"warmup": warmup, "deep": deep, "comparisons": comparisons}[a.part](pool, a.seeds)


if __name__ == "__main__":
    sys.exit(main())
