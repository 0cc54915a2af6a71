#!/usr/bin/env python3
"""Lesson 000's two stacks, studied over seeds at each arm's own rate:

  mask       the text with the causal mask and without it: the held-out loss as trained, the
             loss with the future hidden (the same weights, the mask on), what it writes.
  reverse    the encoder-decoder against the decoder-only stack on `reverse`, 10 sublayers each
             (about the same parameters): the step each first copies 95% of the held-out symbols.
  switches   both switches off, LayerNorm alone, residual alone, both on, on the encoder-decoder.
  postnorm   at which depth post-norm stops training the encoder-decoder (pre-norm beside it).

    cargo build --release && python3 scripts/encoder_decoder_study.py mask reverse switches postnorm

Each arm runs at each rate of the tuning grid (lr ÷3, ×1, ×3) and is shown at the rate with the
lowest training loss over its last tenth of steps (`spread.rs`'s rule), for every seed; cells are
the median over the seeds with the range in brackets.
"""
import argparse, sys

from reviewer_study import pool, tail
from task_study import fmt

RATES = [1 / 3, 1.0, 3.0]


def tuned(a, base, lr):
    """Per seed, the report at the rate with the lowest training tail."""
    argss = [[*base, "--seed", str(s), "--lr", repr(lr * f)] for s in a.seeds for f in RATES]
    reports = pool(a.jobs, argss)
    out = []
    for i, _ in enumerate(a.seeds):
        runs = reports[i * len(RATES):(i + 1) * len(RATES)]
        out.append(min(runs, key=tail))
    return out


def first_at(pairs, test):
    return next((s for s, v in pairs if v is not None and test(v)), None)


def copying_row(name, rs):
    """A row of the reverse tables: the rates chosen, the step at 95% copied, the end."""
    at = [first_at(r["task"]["accuracy"], lambda v: v >= 0.95) for r in rs]
    print(f"| {name} | {fmt([r['config']['lr'] for r in rs])} | {fmt(at)} ({sum(x is not None for x in at)}/{len(at)} seeds) "
          f"| {fmt([r['task']['accuracy'][-1][1] for r in rs])} | {fmt([r['task']['val_loss'][-1][1] for r in rs])} |")


def mask(a):
    print("## The mask on the text (12 sublayers, 1500 steps)\n")
    print("| mask | lr chosen | held-out loss as trained | held-out loss, the future hidden | writes |")
    print("|---|---|---|---|---|")
    for m in ["causal", "none"]:
        rs = tuned(a, ["--preset", "text", "--mask", m, "--steps", "1500"], 0.01)
        hidden = [r["task"].get("loss_future_hidden", r["task"]["val_loss"])[-1][1] for r in rs]
        sample = rs[0]["task"]["sample"][9:69].replace("\n", "↵").replace("|", "¦")
        print(f"| {m} | {fmt([r['config']['lr'] for r in rs])} | {fmt([r['task']['val_loss'][-1][1] for r in rs])} "
              f"| {fmt(hidden)} | `{sample}` |")
    print()


def reverse(a):
    print("## Reverse: encoder-decoder against decoder-only (10 sublayers, 1000 steps)\n")
    print("| stack | lr chosen | step at 95% copied | accuracy at the end | held-out loss |")
    print("|---|---|---|---|---|")
    for stack in ["encoder-decoder", "decoder"]:
        copying_row(stack, tuned(a, ["--preset", "encoder-decoder", "--stack", stack, "--steps", "1000"], 0.01))
    print()


def switches(a):
    print("## The switches on the encoder-decoder (reverse, 10 sublayers, 1000 steps)\n")
    print("| combination | lr chosen | step at 95% copied | accuracy at the end | held-out loss |")
    print("|---|---|---|---|---|")
    for name, flags in [("both off", ["--residual", "off", "--norm", "off"]),
                        ("LayerNorm alone", ["--residual", "off", "--norm", "post"]),
                        ("residual alone", ["--residual", "on", "--norm", "off"]),
                        ("both on (pre)", ["--residual", "on", "--norm", "pre"])]:
        copying_row(name, tuned(a, ["--preset", "encoder-decoder", *flags, "--steps", "1000"], 0.01))
    print()


def postnorm(a):
    print("## Post-norm against pre-norm by depth (encoder-decoder on reverse, 1000 steps)\n")
    print("| depth | layers per stack | placement | lr chosen | accuracy at the end | seeds at 95% |")
    print("|---|---|---|---|---|---|")
    for depth in a.depths:
        for norm in ["post", "pre"]:
            rs = tuned(a, ["--preset", "encoder-decoder", "--depth", str(depth), "--norm", norm, "--steps", "1000"], 0.003)
            acc = [r["task"]["accuracy"][-1][1] for r in rs]
            print(f"| {depth} | {depth // 5} | {norm} | {fmt([r['config']['lr'] for r in rs])} | {fmt(acc)} "
                  f"| {sum(x >= 0.95 for x in acc)}/{len(acc)} |")
            sys.stdout.flush()
    print()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("parts", nargs="+", choices=["mask", "reverse", "switches", "postnorm"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--depths", type=int, nargs="+", default=[10, 20, 40, 60])
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    for part in a.parts:
        globals()[part](a)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
