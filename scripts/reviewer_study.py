#!/usr/bin/env python3
"""The findings a reviewer asked for, each from `ablate`'s reports over seeds:

  gradients  Xiong et al.'s measure: each sublayer's weight gradient at initialisation, on the
             text task's blocks, pre- and post-norm at depths 12 and 48 (seeds 1-5).
  lens       the logit lens and the tuned lens on the text, pre- and post-norm trained alike
             (Adam 0.003, 300 warmup steps, 3000 steps), and what each layer contributes: the
             held-out loss the tuned lens gains across it.
  knockout   each layer, the upper k and k at random removed from trained stacks of the text,
             copy and induction tasks, pre- and post-norm.
  shapes     depth or width at one non-embedding budget, each shape at its own best rate over
             seeds, on the text and on induction.
  shallow    post-norm against pre-norm at 12 sublayers (6 blocks), each with its learning rate
             and warmup tuned on training loss, over 5 seeds.

    cargo build --release && python3 scripts/reviewer_study.py gradients lens knockout shapes shallow

Each cell is the median over the seeds with the range in brackets (`task_study.fmt`).
"""
import argparse, statistics, sys
from concurrent.futures import ThreadPoolExecutor

from task_study import fmt, run


def pool(jobs, argss):
    with ThreadPoolExecutor(jobs) as ex:
        return list(ex.map(run, argss))


def tail(report):
    """The mean training loss over the last tenth of the steps (what `tune` chooses by)."""
    xs = [x for x in report["loss"][1:] if x is not None]
    n = max(1, len(xs) // 10)
    return sum(xs[-n:]) / n if xs else float("inf")


def gradients(a):
    print("## Weight gradients at initialisation (text, blocks)\n")
    print("| placement | depth | top FFN ‖∂L/∂W‖ | top ÷ bottom FFN | top attention | top ÷ bottom attention | seeds where the top FFN gets more than the bottom | ‖∂L/∂x₀‖ ÷ ‖∂L/∂x_L‖ |")
    print("|---|---|---|---|---|---|---|---|")
    for norm in ["pre", "post"]:
        for depth in [12, 48]:
            reps = pool(a.jobs, [["--preset", "text", "--norm", norm, "--depth", str(depth), "--steps", "0", "--seed", str(s)] for s in a.seeds5])
            w = [r["layers"]["weight_grad_norm"]["init"] for r in reps]
            ffn = [(x[1], x[-1]) for x in w]
            att = [(x[0], x[-2]) for x in w]
            g = [r["init"]["grad_norm"] for r in reps]
            rising = sum(t > b for b, t in ffn)
            print(f"| {norm} | {depth} | {fmt([t for _, t in ffn])} | {fmt([t / b for b, t in ffn])} | {fmt([t for _, t in att])} "
                  f"| {fmt([t / b for b, t in att])} | {rising} of {len(ffn)} | {fmt([x[0] / x[-1] for x in g])} |")
    print()


def lens(a):
    print("## The logit lens and the tuned lens (text, Adam 0.003, 300 warmup steps, 3000 steps)\n")
    print("| placement | depth | held-out | logit lens at L/4, L/2, 3L/4 | tuned lens at L/4, L/2, 3L/4 | tuned lens after the first block | 80% of the way from the unigram line: logit, tuned | share of the tuned lens's gain in the upper half |")
    print("|---|---|---|---|---|---|---|---|")
    for norm in ["pre", "post"]:
        for depth in a.depths:
            reps = pool(a.jobs, [["--preset", "text", "--norm", norm, "--depth", str(depth), "--lr", "0.003", "--warmup", "300",
                                  "--steps", "3000", "--seed", str(s), "--tuned-lens"] for s in a.seeds])
            at = lambda key, r, f: (r["layers"]["readout_loss"]["final"] if key == "logit" else r["layers"]["tuned_readout_loss"])[round(f * depth)]
            cells = []
            for key in ["logit", "tuned"]:
                cells.append(" · ".join(fmt([at(key, r, f) for r in reps]) for f in [0.25, 0.5, 0.75]))
            first = fmt([r["layers"]["tuned_readout_loss"][2] for r in reps])

            def reached(r, key):
                xs = r["layers"]["readout_loss"]["final"] if key == "logit" else r["layers"]["tuned_readout_loss"]
                uni, last = r["task"]["floors"]["unigram"], xs[-1]
                if last is None or last >= uni:
                    return None
                return next(l for l in range(depth + 1) if xs[l] is not None and uni - xs[l] >= 0.8 * (uni - last))

            def upper_share(r):
                xs = r["layers"]["tuned_readout_loss"]
                total = xs[0] - xs[-1]
                return (xs[depth // 2] - xs[-1]) / total if total > 0 else None

            held = fmt([r["task"]["val_loss"][-1][1] for r in reps])
            reach = f"{fmt([reached(r, 'logit') for r in reps])}, {fmt([reached(r, 'tuned') for r in reps])}"
            print(f"| {norm} | {depth} | {held} | {cells[0]} | {cells[1]} | {first} | {reach} | {fmt([upper_share(r) for r in reps], 2)} |")
    print()


def knockout(a):
    print("## Knockouts on the trained stacks (held-out loss; removable: within 10% of the intact loss, on copy and induction still copying 95% as well)\n")
    print("| task | placement | depth | intact | worst single layer | upper k removable | k at random removable (median of draws) | intact copied | copied without the upper half |")
    print("|---|---|---|---|---|---|---|---|---|")
    cases = [("text", 12, []), ("copy", 12, ["--steps", "1000"]), ("induction", 4, ["--sublayer", "attention"])]
    for task, depth, extra in cases:
        for norm, flags in [("pre", ["--norm", "pre"]), ("post", ["--norm", "post", "--lr", "0.003", "--warmup", "300"])]:
            reps = pool(a.jobs, [["--preset", task, "--depth", str(depth), "--seed", str(s), "--knockout", *flags, *extra] for s in a.seeds])
            ks = [r["knockout"] for r in reps]
            intact = [k["intact_val_loss"] for k in ks]

            def within(curve, k):
                """The largest k up to which every smaller k stays within 10% of the intact
                loss (on copy and induction: still copies 95% as well), as the panel says."""
                copies = task != "text"
                good = lambda c: (c["accuracy"] >= 0.95 * k["intact_accuracy"]) if copies else (c["val_loss"] <= 1.1 * k["intact_val_loss"])
                best = 0
                for c in curve:
                    if c["val_loss"] is None or not good(c):
                        break
                    best = c["k"]
                return best

            worst = [max(x for x in k["val_loss"] if x is not None) for k in ks]
            top = [within(k["top_k"], k) for k in ks]
            rnd = [within(k["random_k"], k) for k in ks]
            copied = fmt([k.get("intact_accuracy") for k in ks], 2) if task != "text" else "–"
            half = fmt([k["top_k"][depth // 2 - 1].get("accuracy") for k in ks], 2) if task != "text" else "–"
            print(f"| {task} | {norm} | {depth} | {fmt(intact)} | {fmt(worst)} | {fmt(top)} | {fmt(rnd)} | {copied} | {half} |")
    print()


def shapes(a):
    print("## Depth or width at one non-embedding budget (each shape at its best rate of three)\n")
    for task, steps in [("text", 3000), ("induction", 5000)]:
        r = run(["--preset", task, "--depth-width", "--steps", str(steps), "--seeds", str(len(a.seeds)), "--seed", str(a.seeds[0]), "--tune",
                 "--threads", str(a.jobs)])
        print(f"{task}, {steps} steps, seeds {a.seeds[0]}–{a.seeds[0] + len(a.seeds) - 1}:\n")
        print("| depth × width | heads × head size | non-embedding parameters | all parameters | rate chosen | held-out loss | ms per step (seed 1) |")
        print("|---|---|---|---|---|---|---|")
        for x in r["depth_width"]:
            vals = [run_["val_loss"] for run_ in x["runs"]]
            print(f"| {x['depth']} × {x['width']} | {x['heads']} × {x['head_dim']} | {x['non_embedding_params']} | {x['params']} | {x['lr']} | {fmt(vals)} | {x['ms_per_step']:.2f} |")
        print()


def shallow(a):
    print("## Post-norm against pre-norm at 12 sublayers, rate and warmup tuned (text, 3000 steps)\n")
    grid = [(lr, w) for lr in ["0.001", "0.003", "0.01"] for w in ["0", "300", "1000"]]
    print("| placement | chosen lr, warmup | training loss (last tenth) | held-out loss | seeds where it is lower than the other |")
    print("|---|---|---|---|---|")
    best = {}
    for norm in ["post", "pre"]:
        scored = []
        for lr, w in grid:
            reps = pool(a.jobs, [["--preset", "text", "--norm", norm, "--lr", lr, "--warmup", w, "--seed", str(s)] for s in a.seeds5])
            scored.append((statistics.median(tail(r) for r in reps), lr, w, reps))
        scored.sort(key=lambda x: x[0])
        best[norm] = scored[0]
    val = {n: [r["task"]["val_loss"][-1][1] for r in best[n][3]] for n in best}
    for norm, other in [("post", "pre"), ("pre", "post")]:
        _, lr, w, reps = best[norm]
        wins = sum(x < y for x, y in zip(val[norm], val[other]))
        print(f"| {norm} | {lr}, {w} | {fmt([tail(r) for r in reps])} | {fmt(val[norm])} | {wins} of {len(val[norm])} |")
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("studies", nargs="+", choices=["gradients", "lens", "knockout", "shapes", "shallow"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--seeds5", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--depths", type=int, nargs="+", default=[12, 48])
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    for s in a.studies:
        globals()[s](a)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
