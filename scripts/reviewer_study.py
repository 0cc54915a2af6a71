#!/usr/bin/env python3
"""Depth or width at one non-embedding budget, each shape at its own best rate over seeds, on the
text and on induction:

    cargo build --release && python3 scripts/reviewer_study.py shapes

(The other reviewer's studies, Xiong's gradients, the lens, the knockouts and Liu's shallow
comparison, are declared in studies/*.toml and run by scripts/studies.sh.)

Each cell is the median over the seeds with the range in brackets (`study_tables.fmt`).
"""
import argparse, sys

from task_study import fmt, run


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("studies", nargs="+", choices=["shapes"])
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
