#!/usr/bin/env python3
"""The sequence tasks' study: runs `ablate --task text|copy` over switch combinations,
sublayers, norm placements, warmups, depths and seeds, and prints the held-out loss (and the
copy task's accuracy) at the end, with when it first crossed the bigram line.

Used for docs/findings.md's "What really happens on the text and copy tasks" and tests/recipe.rs:
    cargo build --release && python3 scripts/task_study.py --seeds 1 2 3 --depths 12 48
Each row is the median over the seeds, with the range in brackets.
"""
from study_tables import fmt
import argparse, json, math, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

SWITCHES = [
    ("both off", ["--residual", "off", "--norm", "off"]),
    ("LayerNorm alone (pre)", ["--residual", "off", "--norm", "pre"]),
    ("residual alone", ["--residual", "on", "--norm", "off"]),
    ("both on (pre)", ["--residual", "on", "--norm", "pre"]),
]
# (the presets' sublayer is `block`: the "both on (pre)" rows are its rows)
SUBLAYERS = [(f"both on (pre), {s}", ["--sublayer", s]) for s in ["mlp", "ffn", "attention"]]
PLACEMENT = [
    ("post-norm", ["--norm", "post"]),
    ("post-norm, warmup 300", ["--norm", "post", "--warmup", "300"]),
    ("post-norm, lr 0.003", ["--norm", "post", "--lr", "0.003"]),
    ("pre-norm, lr 0.003", ["--norm", "pre", "--lr", "0.003"]),
]


def run(args):
    out = subprocess.run(["target/release/ablate", "--threads", "1", *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def summary(report):
    t = report["task"]
    val = t["val_loss"]
    last = val[-1][1]
    floors = t["floors"]
    cross = next((s for s, l in val if l is not None and "bigram" in floors and l < floors["bigram"]), None)
    acc = t["accuracy"][-1][1] if "accuracy" in t else None
    return last, cross, acc, report["diverged_at"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--depths", type=int, nargs="+", default=[12, 48])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--text-steps", type=int, default=3000)
    ap.add_argument("--copy-steps", type=int, default=1000)
    a = ap.parse_args()
    rows = []
    for task, groups in [("text", [SWITCHES, SUBLAYERS, PLACEMENT]), ("copy", [SWITCHES, SUBLAYERS])]:
        for group in groups:
            for name, flags in group:
                for d in a.depths:
                    steps = str(a.text_steps if task == "text" else a.copy_steps)
                    rows.append((task, name, d, [["--preset", task, "--steps", steps, "--depth", str(d), "--seed", str(s), *flags] for s in a.seeds]))
    with ThreadPoolExecutor(a.jobs) as pool:
        results = [[pool.submit(run, args) for args in runs] for *_, runs in rows]
        print("| task | configuration | depth | held-out loss at the end | first below the bigram line | copied right | diverged |")
        print("|---|---|---|---|---|---|---|")
        for (task, name, d, _), futures in zip(rows, results):
            s = [summary(f.result()) for f in futures]
            diverged = sum(x[3] is not None for x in s)
            crossed = [x[1] for x in s]
            cross = "never" if all(c is None for c in crossed) else fmt([c if c is not None else math.inf for c in crossed], 4)
            if task == "copy":
                cross = ""
            acc = fmt([x[2] for x in s], 2) if task == "copy" else ""
            print(f"| {task} | {name} | {d} | {fmt([x[0] for x in s])} | {cross} | {acc} | {diverged}/{len(s)} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
