#!/usr/bin/env python3
"""The lens study: what the layers of a trained stack do, from `ablate`'s `layers` and
`--attention` reports, over seeds.

On the text task, at each depth: pre-norm, post-norm (at the preset's lr, and at lr 0.003 with
300 warmup steps, where post-norm learns) and the residual off. For each: the held-out loss, the
readout loss of x_0, where the readout first gets 80% of the way from the unigram line to the
final loss, the layer that lowers it most, and the median update ratio of the lower and upper
halves of the stack. On the copy task: which heads copy, at which offset, and how much weight.

Used for docs/findings.md's "What the layers do", the example lesson and tests/lens.rs:
    cargo build --release && python3 scripts/lens_study.py --seeds 1 2 3 --depths 12 48
Each cell is the median over the seeds, with the range in brackets.
"""
import argparse, statistics, sys
from concurrent.futures import ThreadPoolExecutor

from task_study import fmt, run  # the same runs of ablate, the same cells

TEXT = [
    ("pre-norm", ["--norm", "pre"]),
    ("post-norm", ["--norm", "post"]),
    ("post-norm, lr 0.003, warmup 300", ["--norm", "post", "--lr", "0.003", "--warmup", "300"]),
    ("residual off (pre)", ["--residual", "off", "--norm", "pre"]),
]


def lens(report):
    r = report["layers"]["readout_loss"]["final"]
    u = report["layers"]["update_ratio"]["final"]
    unigram = report["task"]["floors"]["unigram"]
    depth = len(r) - 1
    last = r[-1]
    reached = None
    if last is not None and last < unigram:
        reached = next(l for l in range(depth + 1) if unigram - r[l] >= 0.8 * (unigram - last))
    drops = [(r[l] - r[l + 1], l) for l in range(depth) if r[l] is not None and r[l + 1] is not None]
    most = max(drops)[1] if drops else None
    half = depth // 2
    lower = statistics.median(u[:half]) if half else None
    upper = statistics.median(u[half:])
    return report["task"]["val_loss"][-1][1], r[0], reached, most, lower, upper


def copying_heads(report, length):
    """Every head whose largest mean weight over the repeated half sits `length` back."""
    found = []
    for m in report["attention"]["maps"]:
        for h, rows in enumerate(m["heads"]):
            c = len(rows)
            scored = range(c // 2, c)  # the separator and the copy (context even)
            best = max(range(c), key=lambda k: sum(rows[q][q - k] for q in scored if q >= k))
            share = sum(rows[q][q - best] for q in scored if q >= best) / len(scored)
            if best == length:
                found.append((m["layer"], h + 1, share))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--depths", type=int, nargs="+", default=[12, 48])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--text-steps", type=int, default=3000)
    ap.add_argument("--copy-steps", type=int, default=1000)
    a = ap.parse_args()
    rows = [(name, d, [["--preset", "text", "--steps", str(a.text_steps), "--depth", str(d), "--seed", str(s), *flags] for s in a.seeds])
            for d in a.depths for name, flags in TEXT]
    copies = [["--preset", "copy", "--steps", str(a.copy_steps), "--seed", str(s), "--attention"] for s in a.seeds]
    with ThreadPoolExecutor(a.jobs) as pool:
        results = [[pool.submit(run, args) for args in runs] for *_, runs in rows]
        copy_results = [pool.submit(run, args) for args in copies]
        print("| text | depth | held-out | readout of x₀ | 80% of the way after layers | layer lowering it most | change by a layer, lower half | upper half |")
        print("|---|---|---|---|---|---|---|---|")
        for (name, d, _), futures in zip(rows, results):
            s = [lens(f.result()) for f in futures]
            col = lambda i, digits=3: fmt([x[i] for x in s], digits)
            reached = "never" if all(x[2] is None for x in s) else col(2, 4)
            print(f"| {name} | {d} | {col(0)} | {col(1)} | {reached} | {col(3, 4)} | {col(4, 2)} | {col(5, 2)} |", flush=True)
        print()
        print("| copy, seed | held-out copied | heads that look back by the string's length (layer, head: weight there) |")
        print("|---|---|---|")
        for seed, f in zip(a.seeds, copy_results):
            report = f.result()
            length = report["config"]["context"] // 2
            heads = sorted(copying_heads(report, length), key=lambda x: -x[2])
            acc = report["task"]["accuracy"][-1][1]
            listed = ", ".join(f"{l}, {h}: {w:.2f}" for l, h, w in heads) or "none"
            print(f"| {seed} | {acc:.2f} | {listed} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
