#!/usr/bin/env python3
"""The induction task's study: does it need two attention layers? Runs `ablate --task induction`
with attention-only stacks at depths 1, 2 and 4 and attention + FFN blocks at depths 2, 4 and 8
(one, two and four attention layers), both switches on (pre-norm), then each switch off at the
depths that solve it, and prints the held-out loss and the share copied right at the end, with
the first step at which 95% were.

Used for docs/findings.md's "What depth buys", the induction preset and tests/induction.rs:
    cargo build --release && python3 scripts/induction_study.py --seeds 1 2 3
Each cell is the median over the seeds, with the range in brackets. docs/findings.md's table is
studies/induction.toml's (`bash scripts/studies.sh run induction`), the same runs.
"""
import argparse, math, sys
from concurrent.futures import ThreadPoolExecutor

from task_study import fmt, run

STACKS = [("attention", d) for d in (1, 2, 4)] + [("block", d) for d in (2, 4, 8)]
SWITCHES = [
    ("both on (pre)", ["--residual", "on", "--norm", "pre"]),
    ("residual off", ["--residual", "off", "--norm", "pre"]),
    ("LayerNorm off", ["--residual", "on", "--norm", "off"]),
]


def summary(report):
    t = report["task"]
    acc = t["accuracy"]
    solved = next((s for s, a in acc if a is not None and a >= 0.95), None)
    return t["val_loss"][-1][1], acc[-1][1], solved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    rows = []
    for sublayer, depth in STACKS:
        for name, flags in SWITCHES:
            # the switches off only where both on can solve it: two attention layers or more
            if name != "both on (pre)" and (sublayer, depth) not in [("attention", 2), ("block", 4)]:
                continue
            args = ["--preset", "induction", "--sublayer", sublayer, "--depth", str(depth), "--steps", str(a.steps), *flags]
            rows.append((f"{sublayer} × {depth}", name, [[*args, "--seed", str(s)] for s in a.seeds]))
    with ThreadPoolExecutor(a.jobs) as pool:
        results = [[pool.submit(run, args) for args in runs] for *_, runs in rows]
        print("| stack | switches | held-out loss | copied right | first step at 95% |")
        print("|---|---|---|---|---|")
        for (stack, name, _), futures in zip(rows, results):
            s = [summary(f.result()) for f in futures]
            solved = [x[2] for x in s]
            when = "never" if all(w is None for w in solved) else fmt([w if w is not None else math.inf for w in solved], 4)
            if any(w is None for w in solved) and not all(w is None for w in solved):
                when += f" ({sum(w is None for w in solved)} of {len(s)} never)"
            print(f"| {stack} | {name} | {fmt([x[0] for x in s])} | {fmt([x[1] for x in s], 2)} | {when} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
