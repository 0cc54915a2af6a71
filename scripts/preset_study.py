#!/usr/bin/env python3
"""The presets' stories over their seeds: each preset that tells a story with a
comparison is run at each of its seeds (the preset's `seeds`, from its `seed` up), and the
story is checked seed by seed. Prints one Markdown table per preset for docs/findings.md,
"How many seeds each story holds on", with the margins tests/presets.rs and tests/recipe.rs use.

    cargo build --release && python3 scripts/preset_study.py [explode gradient-experiment
        break-and-heal warmup induction]
"""
import sys
from concurrent.futures import ThreadPoolExecutor

from task_study import run


def fmt(x):
    return "—" if x is None else f"{x:.3g}"

BIGRAM = 2.46  # the text's held-out bigram line (nats per character)


def seeds_of(preset):
    c = run(["--preset", preset, "--steps", "0"])["config"]
    return [c["seed"] + k for k in range(c["seeds"])]


def end(report, n=50):
    loss = [x if x is not None else float("nan") for x in report["loss"]]
    tail = loss[-n:]
    return sum(tail) / len(tail)


def val(report):
    return report["task"]["val_loss"][-1][1]


def table(name, seeds, columns, holds):
    """columns: [(label, [per-seed text])]; holds: [per-seed bool]."""
    print(f"\n### {name}: the story holds on {sum(holds)} of {len(seeds)} seeds\n")
    print("| seed | " + " | ".join(label for label, _ in columns) + " | story holds |")
    print("|---|" + "---|" * (len(columns) + 1))
    for i, s in enumerate(seeds):
        print(f"| {s} | " + " | ".join(col[i] for _, col in columns) + f" | {'yes' if holds[i] else 'no'} |")


def explode(pool):
    seeds = seeds_of("explode")
    rs = list(pool.map(lambda s: run(["--preset", "explode", "--seed", str(s), "--steps", "50"]), seeds))
    top = [r["init"]["act_std"][-1] for r in rs]
    first = [r["loss"][0] for r in rs]
    at = [r["diverged_at"] for r in rs]
    holds = [t > 10 and f > 100 and a is not None and a <= 5 for t, f, a in zip(top, first, at)]
    table("explode", seeds, [("std at the top (init)", [fmt(t) for t in top]), ("first loss", [fmt(f) for f in first]),
                             ("diverged at step", [str(a) for a in at])], holds)


def gradient_experiment(pool):
    seeds = seeds_of("gradient-experiment")
    rs = list(pool.map(lambda s: run(["--preset", "gradient-experiment", "--seed", str(s), "--steps", "0"]), seeds))
    with_res = list(pool.map(lambda s: run(["--preset", "gradient-experiment", "--residual", "on", "--seed", str(s), "--steps", "0"]), seeds))
    ratio = [r["init"]["grad_norm"][0] / r["init"]["grad_norm"][-1] for r in rs]
    shrinks = [all(a < b for a, b in zip(r["init"]["grad_norm"], r["init"]["grad_norm"][1:])) for r in rs]
    res = [r["init"]["grad_norm"][0] / r["init"]["grad_norm"][-1] for r in with_res]
    holds = [q < 1e-3 and s and w > 0.5 for q, s, w in zip(ratio, shrinks, res)]
    table("gradient-experiment", seeds, [("‖∂L/∂x₀‖/‖∂L/∂x_L‖", [fmt(q) for q in ratio]),
                                         ("shrinks at every layer", ["yes" if s else "no" for s in shrinks]),
                                         ("with the residual", [fmt(w) for w in res])], holds)


def break_and_heal(pool):
    seeds = seeds_of("break-and-heal")
    def three(s):
        base = ["--preset", "break-and-heal", "--seed", str(s), "--steps", "500"]
        return run(base), run([*base, "--norm", "pre"]), run([*base, "--norm", "pre", "--residual", "on"])
    rs = list(pool.map(three, seeds))
    top = [off["init"]["act_std"][-1] for off, _, _ in rs]
    ends = [(end(off), off["diverged_at"], end(norm), norm["init"]["readout_std"], end(both)) for off, norm, both in rs]
    holds = [t >= 20 and (d is not None or 0.8 <= o <= 1.2) and abs(std - 1) < 0.005 and 0.4 <= p < 1.0 and b < p / 5
             for t, (o, d, p, std, b) in zip(top, ends)]
    table("break-and-heal", seeds, [("both off: std at the top", [fmt(t) for t in top]),
                                    ("both off: loss at the end", [fmt(e[0]) if e[1] is None else f"diverged at {e[1]}" for e in ends]),
                                    ("LayerNorm on: loss", [fmt(e[2]) for e in ends]),
                                    ("both on: loss", [fmt(e[4]) for e in ends])], holds)


def warmup(pool):
    seeds = seeds_of("warmup")
    def three(s):
        base = ["--preset", "warmup", "--seed", str(s)]
        return run(base), run([*base, "--warmup", "300"]), run([*base, "--norm", "pre"])
    rs = list(pool.map(three, seeds))
    v = [(val(a), val(b), val(c)) for a, b, c in rs]
    holds = [p > BIGRAM and w < BIGRAM and q < BIGRAM for p, w, q in v]
    table("warmup (3000 steps, held-out loss)", seeds, [("post-norm", [fmt(x[0]) for x in v]),
                                                        ("post-norm, 300 warmup steps", [fmt(x[1]) for x in v]),
                                                        ("pre-norm", [fmt(x[2]) for x in v])], holds)


def induction(pool):
    seeds = seeds_of("induction")
    # All four's rows, each seed run on its own for its held-out accuracy
    rows = [{"residual": r, "norm": n} for r, n in [("off", "off"), ("off", "pre"), ("on", "off"), ("on", "pre")]]
    names = ["both off", "LayerNorm alone", "residual alone", "both on"]
    def acc(s, row):
        flags = ["--preset", "induction", "--seed", str(s), "--residual", row["residual"], "--norm", row["norm"], "--steps", "2500"]
        return run(flags)["task"]["accuracy"][-1][1]
    accs = {(i, s): pool.submit(acc, s, row) for i, row in enumerate(rows) for s in seeds}
    # the preset's claim: one attention layer cannot (its own steps, 3000)
    one = {s: pool.submit(lambda s: run(["--preset", "induction", "--depth", "1", "--seed", str(s)])["task"]["accuracy"][-1][1], s) for s in seeds}
    cols = [(n, [fmt(accs[(i, s)].result()) for s in seeds]) for i, n in enumerate(names)]
    cols.append(("one attention layer (3000 steps)", [fmt(one[s].result()) for s in seeds]))
    holds = [accs[(3, s)].result() >= 0.95 and accs[(0, s)].result() < 0.95 and one[s].result() < 0.95 for s in seeds]
    table("induction (All four at 2500 steps, one layer at 3000; held-out share copied)", seeds, cols, holds)


STUDIES = {"explode": explode, "gradient-experiment": gradient_experiment, "break-and-heal": break_and_heal,
           "warmup": warmup, "induction": induction}


def main():
    names = sys.argv[1:] or list(STUDIES)
    with ThreadPoolExecutor(2) as pool:
        for name in names:
            STUDIES[name](pool)


if __name__ == "__main__":
    main()
