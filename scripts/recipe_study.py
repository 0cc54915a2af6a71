#!/usr/bin/env python3
"""Runs the `ablate` CLI over switch combinations, depths and seeds and prints a table.

Used to choose the page's default recipe (docs/findings.md). Example:
    cargo build --release && python3 scripts/recipe_study.py --steps 500 --seeds 1 2 3 -- --optimizer adam --lr 0.003
Everything after `--` is passed to every run. docs/findings.md's table of the default recipe is
studies/recipe.toml's (`bash scripts/studies.sh run recipe`).
"""
import argparse, json, math, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

COMBOS = [
    ("both off", ["--residual", "off", "--norm", "off"]),
    ("LN alone (post)", ["--residual", "off", "--norm", "post"]),
    ("LN alone (pre)", ["--residual", "off", "--norm", "pre"]),
    ("residual alone", ["--residual", "on", "--norm", "off"]),
    ("both on (pre)", ["--residual", "on", "--norm", "pre"]),
    ("both on (pre), no final norm", ["--residual", "on", "--norm", "pre", "--final-norm", "off"]),
    ("both on (post)", ["--residual", "on", "--norm", "post"]),
]

def run(args):
    out = subprocess.run(["target/release/ablate", *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)

def fmt(x):
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "NaN"
    return f"{x:.3g}"

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--depths", type=int, nargs="+", default=[2, 12, 48, 96])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    jobs = []
    for name, flags in COMBOS:
        for d in a.depths:
            for s in a.seeds:
                jobs.append((name, d, s, [*a.extra, *flags, "--depth", str(d), "--seed", str(s), "--steps", str(a.steps)]))
    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(lambda j: run(j[3]), jobs))
    rows = {}
    for (name, d, s, _), r in zip(jobs, results):
        rows.setdefault((name, d), []).append(r)
    print(f"recipe: {' '.join(a.extra)} · {a.steps} steps · seeds {a.seeds}")
    print("| combination | depth | init top std | init readout std | init ‖∂L/∂x₀‖/‖∂L/∂x_L‖ | loss at start | final loss (median, min–max) | beyond ±4 after | diverged |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (name, d), rs in rows.items():
        std = statistics.median([r["init"]["act_std"][-1] if r["init"]["act_std"][-1] is not None else math.inf for r in rs])
        ratio = statistics.median([
            (r["init"]["grad_norm"][0] or 0) / r["init"]["grad_norm"][-1] if r["init"]["grad_norm"][-1] else math.nan for r in rs])
        start = statistics.median([r["loss"][0] if r["loss"][0] is not None else math.inf for r in rs])
        finals = [r["loss"][-1] if r["loss"][-1] is not None else math.inf for r in rs]
        div = [r["diverged_at"] for r in rs if r["diverged_at"] is not None]
        readout = statistics.median([r["init"]["readout_std"] if r["init"]["readout_std"] is not None else math.inf for r in rs])
        def beyond(r):
            h = r["histogram"]
            return (h["below"] + h["above"]) / (sum(h["counts"]) + h["below"] + h["above"] + h["nan"])
        out = statistics.median([beyond(r) for r in rs])
        print(f"| {name} | {d} | {fmt(std)} | {fmt(readout)} | {fmt(ratio)} | {fmt(start)} | {fmt(statistics.median(finals))} ({fmt(min(finals))}–{fmt(max(finals))}) | {100 * out:.0f}% | {len(div)}/{len(rs)}{' at ' + ','.join(map(str, div)) if div else ''} |")

if __name__ == "__main__":
    main()
