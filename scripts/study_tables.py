"""The reductions of scripts/studies.py: for a study whose `table` is NAME, `NAME_values(report)`
keeps what the table reads of one job's `ablate` report, and `NAME(study, results)` writes the
table (markdown) from every job's kept values. `NAME_check(study, kept)`, where there is one,
names the jobs `studies.py check` recomputes (else the study's `check` arm and seed).

Each cell is the median over the seeds with the lowest and highest in brackets (`fmt`).
"""
import math, random, statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fmt(xs, digits=3):
    xs = [x for x in xs if x is not None and math.isfinite(x)]
    if not xs:
        return "–"
    m = statistics.median(xs)
    return f"{m:.{digits}g} [{min(xs):.{digits}g}–{max(xs):.{digits}g}]" if len(xs) > 1 else f"{m:.{digits}g}"


def by_arm(results):
    arms = {}
    for job in results["jobs"]:
        arms.setdefault(job["arm"], []).append(job)
    return arms


def seeds_words(jobs):
    seeds = sorted(j["seed"] for j in jobs)
    return f"{seeds[0]}–{seeds[-1]}" if len(seeds) > 1 else str(seeds[0])


def bootstrap(diffs, draws=10000, seed=1):
    """A 95% percentile-bootstrap interval of the mean of paired differences (the seeds
    resampled with replacement, a fixed generator so that the interval is reproducible)."""
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(rng.choice(diffs) for _ in range(n)) / n for _ in range(draws))
    return means[int(0.025 * draws)], means[int(0.975 * draws) - 1]


# --- Xiong et al. 2020, Figure 3: each matrix's gradient at initialisation ---------------------

def per_matrix(report, field):
    m = report["layers"][field]
    return [dict(zip(n, v)) for n, v in zip(m["names"], m["values"])]


def xiong_gradients_values(r):
    layers = per_matrix(r, "matrix_grad_norm")
    g = r["init"]["grad_norm"]
    return {
        "ffn_down": [l["ffn.down.weight"] for l in layers if "ffn.down.weight" in l],
        "ffn_up": [l["ffn.up.weight"] for l in layers if "ffn.up.weight" in l],
        "attention_v": [l["attention.v.weight"] for l in layers if "attention.v.weight" in l],
        "attention_q": [l["attention.q.weight"] for l in layers if "attention.q.weight" in l],
        "stream_ratio": g[0] / g[-1],
        "batches": r["layers"]["matrix_grad_norm"]["batches"],
    }


def xiong_gradients(study, results):
    arms = by_arm(results)
    lines = [
        "| placement, blocks | last FFN's W² ‖∂L/∂W‖ | first FFN's W² | last ÷ first (W²) | seeds where the last W² gets more than the first | last W_V ÷ first W_V | ‖∂L/∂x₀‖ ÷ ‖∂L/∂x_L‖ |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        top = [x["ffn_down"][-1] for x in v]
        bottom = [x["ffn_down"][0] for x in v]
        rising = sum(t > b for t, b in zip(top, bottom))
        lines.append(
            f"| {name} | {fmt(top)} | {fmt(bottom)} | {fmt([t / b for t, b in zip(top, bottom)])} | {rising} of {len(v)} "
            f"| {fmt([x['attention_v'][-1] / x['attention_v'][0] for x in v])} | {fmt([x['stream_ratio'] for x in v])} |")
    svg = ROOT / "docs" / "studies" / "xiong-gradients.svg"
    svg.write_text(xiong_figure(arms), encoding="utf-8")
    batches = results["jobs"][0]["values"]["batches"]
    lines.append("")
    lines.append(f"Each seed's norm is the mean over the run's first {batches} training batches, at initialisation; "
                 "the cells are the median over the seeds [lowest–highest]. W² is the FFN's second (down) matrix, "
                 "Xiong's `W^{2,l}`; the figure draws it block by block, as their Figure 3 does:")
    lines.append("")
    lines.append("![The FFN's W² gradient norm at initialisation, block by block, pre- and post-norm at 6, 12 and 48 "
                 "blocks: the median over the seeds, with the band from the lowest to the highest](studies/xiong-gradients.svg)")
    return "\n".join(lines)


def xiong_figure(arms):
    """Xiong's Figure 3 as an SVG: the W² gradient norm against the block (log scale), one
    panel per placement, a line per depth (median over seeds, band lowest-highest)."""
    w, h, pad = 360, 240, 44
    colours = {"6": "#1f77b4", "12": "#2ca02c", "48": "#d62728"}
    panels = {}
    for name, jobs in arms.items():
        placement, blocks = name.split(", ")
        panels.setdefault(placement, []).append((blocks.split()[0], [j["values"]["ffn_down"] for j in jobs]))
    values = [x for p in panels.values() for _, runs in p for run in runs for x in run if x > 0]
    lo, hi = math.log10(min(values)), math.log10(max(values))
    lo, hi = math.floor(lo * 2) / 2, math.ceil(hi * 2) / 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w * len(panels)} {h + 30}" font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>']
    for p, (placement, lines_) in enumerate(panels.items()):
        x0 = p * w
        out.append(f'<text x="{x0 + w / 2}" y="14" text-anchor="middle" font-size="13">{placement}-norm</text>')
        X = lambda f: x0 + pad + f * (w - pad - 12)
        Y = lambda v: 20 + (hi - math.log10(v)) / (hi - lo) * (h - 40)
        out.append(f'<line x1="{X(0)}" y1="{Y(10 ** lo)}" x2="{X(1)}" y2="{Y(10 ** lo)}" stroke="#555"/>')
        out.append(f'<line x1="{X(0)}" y1="{Y(10 ** lo)}" x2="{X(0)}" y2="{Y(10 ** hi)}" stroke="#555"/>')
        e = lo
        while e <= hi + 1e-9:
            out.append(f'<text x="{X(0) - 4}" y="{Y(10 ** e) + 4}" text-anchor="end">{10 ** e:.2g}</text>')
            e += 0.5
        out.append(f'<text x="{X(0.5)}" y="{h - 2}" text-anchor="middle">block (bottom → top)</text>')
        for k, (blocks, runs) in enumerate(lines_):
            n = len(runs[0])
            fx = lambda i: i / max(1, n - 1)
            med = [statistics.median(r[i] for r in runs) for i in range(n)]
            low = [min(r[i] for r in runs) for i in range(n)]
            high = [max(r[i] for r in runs) for i in range(n)]
            c = colours.get(blocks, "#444")
            band = " ".join(f"{X(fx(i)):.1f},{Y(high[i]):.1f}" for i in range(n)) + " " + \
                " ".join(f"{X(fx(i)):.1f},{Y(low[i]):.1f}" for i in reversed(range(n)))
            out.append(f'<polygon points="{band}" fill="{c}" fill-opacity="0.15"/>')
            out.append(f'<polyline points="{" ".join(f"{X(fx(i)):.1f},{Y(med[i]):.1f}" for i in range(n))}" fill="none" stroke="{c}" stroke-width="1.5"/>')
            out.append(f'<text x="{X(1) - 4}" y="{34 + 14 * k}" text-anchor="end" fill="{c}">{blocks} blocks</text>')
    out.append(f'<text x="{w * len(panels) / 2}" y="{h + 22}" text-anchor="middle">‖∂L/∂W²‖ of each FFN at initialisation (mean over batches; median over seeds, band: lowest–highest)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- Xiong's mechanism: the first updates' size, with and without warmup -----------------------

def xiong_warmup_values(r):
    layers = per_matrix(r, "update_size")
    val = r["task"]["val_loss"]
    return {
        "ffn_down": [l["ffn.down.weight"] for l in layers if "ffn.down.weight" in l],
        "attention_v": [l["attention.v.weight"] for l in layers if "attention.v.weight" in l],
        "steps": r["layers"]["update_size"]["steps"],
        "val_loss": val[-1][1] if val else None,
        "bigram": r["task"]["floors"]["bigram"],
        "unigram": r["task"]["floors"]["unigram"],
        "diverged_at": r["diverged_at"],
    }


def xiong_warmup(study, results):
    arms = by_arm(results)
    first = results["jobs"][0]["values"]
    lines = [
        f"| arm | last FFN's W² moved in the first {first['steps']} steps (‖ΔW‖/‖W‖) | first FFN's W² moved | "
        "held-out loss at the end | below the bigram line |",
        "|---|---|---|---|---|",
    ]
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        below = sum(1 for x in v if x["val_loss"] is not None and x["val_loss"] < x["bigram"])
        lines.append(f"| {name} | {fmt([x['ffn_down'][-1] for x in v])} | {fmt([x['ffn_down'][0] for x in v])} "
                     f"| {fmt([x['val_loss'] for x in v])} | {below} of {len(v)} |")
    lines.append("")
    lines.append(f"(The bigram line is {first['bigram']:.2f} nats, the unigram line {first['unigram']:.2f}.)")
    return "\n".join(lines)


# --- Liu et al. 2020: post-norm against pre-norm at 6 layers, each arm's recipe tuned ---------

def tuned_values(r):
    """A tuned comparison's arms (`ablate --compare-arms … --tune`): each one's search and its
    runs on the reporting seeds."""
    arms = []
    for row in r["compare"]:
        t = row["tuning"]
        arms.append({
            "norm": row["norm"],
            "residual": row["residual"],
            "chosen": t["chosen"],
            "grid": t["grid"],
            "bracketed": t["bracketed"],
            "limit": t["limit"],
            "choosing_seeds": t["choosing_seeds"],
            "rounds": t["rounds"],
            "runs": [{k: run[k] for k in ("seed", "val_loss", "final_loss", "diverged_at", "converged", "steps", "accuracy")
                      if k in run}
                     for run in row["runs"]],
        })
    floors = r["task"]["floors"] if "task" in r else {}
    return {"arms": arms, "bigram": floors.get("bigram"), "unigram": floors.get("unigram")}


def liu_values(r):
    return tuned_values(r)


def chosen_words(a):
    c = a["chosen"]
    return f"{c['lr']:.2g}, {c['warmup']}, {c['beta2']}" if c else "–"


def paired(arms_by_name, x, y):
    """Per reporting seed, arm x's held-out loss minus arm y's: the differences, the mean and
    its bootstrap interval, and the verdict in words."""
    ax = {run["seed"]: run["val_loss"] for run in arms_by_name[x]["runs"]}
    ay = {run["seed"]: run["val_loss"] for run in arms_by_name[y]["runs"]}
    diffs = [ax[s] - ay[s] for s in sorted(ax) if s in ay and ax[s] is not None and ay[s] is not None]
    lo, hi = bootstrap(diffs)
    mean = sum(diffs) / len(diffs)
    if hi < 0:
        verdict = f"{x} wins"
    elif lo > 0:
        verdict = f"{x} loses"
    else:
        verdict = "a tie"
    return diffs, mean, (lo, hi), verdict


def liu(study, results):
    arms = {j["arm"]: j["values"]["arms"][0] for j in results["jobs"]}
    first = results["jobs"][0]["values"]
    copies = any("accuracy" in r for a in arms.values() for r in a["runs"])
    lines = [
        "| arm | chosen rate, warmup, β₂ | chosen on seeds | bracketed | grid searched (rates; warmups; β₂) | held-out loss | "
        + ("held-out accuracy | " if copies else "") + "plateaued | steps trained |",
        "|---|---|---|---|---|---|---|---|" + ("---|" if copies else ""),
    ]
    for name, a in arms.items():
        runs = a["runs"]
        acc = f"| {fmt([r.get('accuracy') for r in runs], 2)} " if copies else ""
        g = a["grid"]
        grid = f"{len(g['lr'])} rates {min(g['lr']):.2g}–{max(g['lr']):.2g}; {', '.join(map(str, g['warmup']))}; {', '.join(map(str, g['beta2']))}"
        bracketed = "yes" if a["bracketed"] and a["bracketed"].get("lr") else f"no ({a['limit']} rate allowed)"
        seeds = a["choosing_seeds"]
        lines.append(
            f"| {name} | {chosen_words(a)} | {seeds_range(seeds)} | {bracketed} | {grid} "
            f"| {fmt([r['val_loss'] for r in runs])} {acc}| {sum(1 for r in runs if r['converged'])} of {len(runs)} "
            f"| {fmt([r['steps'] for r in runs], 5)} |")
    names = list(arms)
    diffs, mean, (lo, hi), verdict = paired(arms, names[0], names[1])
    seeds = sorted(r["seed"] for r in arms[names[0]]["runs"])
    lines.append("")
    lines.append(
        f"Paired by seed ({seeds[0]}–{seeds[-1]}), {names[0]} minus {names[1]}: mean {mean:+.3f} nats, "
        f"95% bootstrap interval [{lo:+.3f}, {hi:+.3f}] ({sum(d < 0 for d in diffs)} of {len(diffs)} seeds lower): "
        f"**{verdict}**." + (f" (Bigram line {first['bigram']:.2f}, unigram line {first['unigram']:.2f}.)" if first["bigram"] else ""))
    return "\n".join(lines)


def tuned_check(study, kept):
    """One reported run of each job (its first arm, its lowest seed) trained again alone at the
    setting the tuner chose, for the steps it trained (a run that plateaued stopped there): its
    held-out loss, bit for bit."""
    skip = {"--compare-arms": 2, "--tune-grid": 2, "--until": 2, "--steps": 2, "--seeds": 2, "--choose-seeds": 2,
            "--halving": 2, "--tune": 1, "--compare": 1}

    def without_tuning(flags):
        out, i = [], 0
        while i < len(flags):
            if flags[i] in skip:
                i += skip[flags[i]]
                continue
            out.append(flags[i])
            i += 1
        return out

    out = []
    for job in kept["jobs"]:
        a = job["values"]["arms"][0]
        run = min(a["runs"], key=lambda r: r["seed"])
        arm = next(x for x in study["arms"] if x["name"] == job["arm"])
        c = a["chosen"]
        flags = without_tuning([*study["flags"], *arm["flags"]])
        flags += ["--residual", a["residual"], "--norm", a["norm"], "--lr", repr(c["lr"]), "--warmup", str(c["warmup"]),
                  "--beta2", repr(c["beta2"]), "--steps", str(run["steps"]), "--seed", str(run["seed"]), "--threads", "1"]
        out.append((f"{job['arm']} ({a['residual']}, {a['norm']}), seed {run['seed']} at its chosen setting", flags,
                    {"val_loss": run["val_loss"]}, lambda r: {"val_loss": r["task"]["val_loss"][-1][1]}))
    return out


liu_check = tuned_check
tuned_compare_check = tuned_check

def seeds_range(seeds):
    return f"{seeds[0]}–{seeds[-1]}" if len(seeds) > 1 else str(seeds[0])


# --- the tuned lens fitted to convergence, and adjacent layers' similarity -------------------

def lens_values(r):
    depth = r["config"]["depth"]
    tuned = r["layers"]["tuned_readout_loss"]
    fit = r["layers"]["tuned_lens_fit"]
    return {
        "depth": depth,
        "val_loss": r["task"]["val_loss"][-1][1],
        "tuned": tuned,
        "fit_steps": fit["steps"],
        "converged": fit["converged"],
        "held_out_kl": fit["held_out_kl"][-1][1],
        "adjacent_cosine": r["layers"]["adjacent_cosine"],
        "bigram": r["task"]["floors"]["bigram"],
        "unigram": r["task"]["floors"]["unigram"],
    }


def upper_share(v):
    """The share of the tuned lens's gain (its loss at x_0 minus at x_L) made in the upper half."""
    xs, depth = v["tuned"], v["depth"]
    total = xs[0] - xs[-1]
    return (xs[depth // 2] - xs[-1]) / total if total > 0 else None


def halves(xs):
    n = len(xs)
    return sum(xs[: n // 2]) / (n // 2), sum(xs[n // 2:]) / (n - n // 2)


def lens(study, results):
    arms = by_arm(results)
    lines = [
        "| arm | lens updates | fit converged | held-out KL at the end | held-out loss | tuned lens at L/2 | upper half's share of the gain | cosine x_ℓ·x_ℓ₊₁, lower half | upper half |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        conv = [x["converged"] for x in v]
        conv_words = "–" if all(c is None for c in conv) else f"{sum(1 for c in conv if c)} of {len(v)}"
        lo = [halves(x["adjacent_cosine"])[0] for x in v]
        hi = [halves(x["adjacent_cosine"])[1] for x in v]
        lines.append(
            f"| {name} | {fmt([x['fit_steps'] for x in v], 4)} | {conv_words} | {fmt([x['held_out_kl'] for x in v], 2)} "
            f"| {fmt([x['val_loss'] for x in v])} | {fmt([x['tuned'][x['depth'] // 2] for x in v])} "
            f"| {fmt([upper_share(x) for x in v], 2)} | {fmt(lo, 2)} | {fmt(hi, 2)} |")
    first = results["jobs"][0]["values"]
    lines.append("")
    lines.append(f"(Held-out KL: the mean over the layers of KL(p_L ‖ q_ℓ) on the held-out set; bigram line "
                 f"{first['bigram']:.2f}, unigram line {first['unigram']:.2f}.)")
    return "\n".join(lines)


# --- knockouts by Gromov's protocol -----------------------------------------------------------

def knockout_values(r):
    k = r["knockout"]
    floors = r["task"]["floors"]
    floor = floors.get("bigram", floors.get("chance"))
    strip = lambda xs: [{"k": x["k"], "val_loss": x["val_loss"], **({"accuracy": x["accuracy"]} if "accuracy" in x else {}),
                         **({"start": x["start"], "angular_distance": x.get("angular_distance")} if "start" in x else {})} for x in xs]
    return {
        "floor": floor,
        "floor_name": "bigram" if "bigram" in floors else "chance",
        "intact": k["intact_val_loss"],
        "intact_accuracy": k.get("intact_accuracy"),
        "each": k["val_loss"],
        "each_accuracy": k.get("accuracy"),
        "top_k": strip(k["top_k"]),
        "below_top_k": strip(k["below_top_k"]),
        "gromov": strip(k["gromov"]),
        "random_k": strip(k["random_k"]),
        **({"healed": {"steps": k["healed"]["steps"], "intact": k["healed"]["intact"].get("val_loss"),
                       "intact_accuracy": k["healed"]["intact"].get("accuracy"),
                       "gromov": strip(k["healed"]["gromov"])}} if "healed" in k else {}),
    }


def kept(c, v):
    """Whether a removal keeps the stack's skill as the page's knockout judges it: on the text,
    losing under 10% of the gain below the bigram line (loss ≤ intact + 0.1 × (bigram − intact));
    on copy, still copying 95% as well (the share of symbols right)."""
    if v.get("intact_accuracy") is not None:
        return c.get("accuracy") is not None and c["accuracy"] >= 0.95 * v["intact_accuracy"]
    return c["val_loss"] is not None and c["val_loss"] <= v["intact"] + 0.1 * (v["floor"] - v["intact"])


def removable(curve, v):
    """The largest k up to which every smaller k keeps the stack's skill (`kept`); None for a
    stack with no gain below its floor."""
    if v.get("intact_accuracy") is None and v["floor"] <= v["intact"]:
        return None
    best = 0
    for c in curve:
        if not kept(c, v):
            break
        best = c["k"]
    return best


def knockout(study, results):
    arms = by_arm(results)
    healing = all("healed" in j["values"] for j in results["jobs"])
    lines = [
        "| arm | held-out, intact | worst single layer | layers alone within the rule | upper k (final layer too) | k below the final layer | Gromov's block of k (angular distance) | k at random (median of 5 draws) |"
        + (" healing steps | Gromov's block of k, healed |" if healing else ""),
        "|---|---|---|---|---|---|---|---|" + ("---|---|" if healing else ""),
    ]
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        alone = []
        for x in v:
            acc = x.get("each_accuracy") or [None] * len(x["each"])
            alone.append(sum(1 for e, a in zip(x["each"], acc) if kept({"val_loss": e, "accuracy": a}, x)))
        depth = len(v[0]["each"])
        lines.append(
            f"| {name} | {fmt([x['intact'] for x in v])} | {fmt([max(e for e in x['each'] if e is not None) for x in v])} "
            f"| {fmt(alone, 3)} of {depth} | {fmt([removable(x['top_k'], x) for x in v])} | {fmt([removable(x['below_top_k'], x) for x in v])} "
            f"| {fmt([removable(x['gromov'], x) for x in v])} | {fmt([removable(x['random_k'], x) for x in v])} |"
            + (f" {v[0]['healed']['steps']} | {fmt([removable(x['healed']['gromov'], {**x, **x['healed']}) for x in v])} |" if healing else ""))
    lines.append("")
    lines.append("A count is the largest k up to which every smaller k keeps the stack's skill, as the page's knockout judges it: "
                 "on the text, losing under 10% of what the stack gains below the bigram line (its held-out loss under "
                 "intact + 0.1 × (bigram − intact)); on copy, still copying 95% as well. "
                 + ("Healed: each pruned stack trained that many more updates at the run's own rate (every weight left; Gromov et al. fine-tune "
                    "with QLoRA), judged against the intact stack trained as long." if healing else
                    "Without healing: Gromov et al. fine-tune after removing; these stacks are measured as they are."))
    return "\n".join(lines)


# --- the linear probe: is the current token still readable high up the stream? ---------------

def probe_values(r):
    return {"accuracy": r["layers"]["probe_accuracy"], "val_loss": r["task"]["val_loss"][-1][1]}


def probe(study, results):
    arms = by_arm(results)
    depth = len(results["jobs"][0]["values"]["accuracy"]) - 1
    at = [0, 1, depth // 4, depth // 2, 20 if depth >= 20 else 3 * depth // 4, depth]
    lines = [
        "| arm | held-out loss | " + " | ".join(f"x_{l}" for l in at) + " |",
        "|---|---|" + "---|" * len(at),
    ]
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        cells = " | ".join(fmt([x["accuracy"][l] for x in v], 2) for l in at)
        lines.append(f"| {name} | {fmt([x['val_loss'] for x in v])} | {cells} |")
    lines.append("")
    lines.append("Each cell: the share of held-out characters a linear probe names right from that depth's stream "
                 "(ridge regression fitted in closed form on 32 batches of its own).")
    return "\n".join(lines)


# --- the first story at the init gain it is told with, and at ReLU's critical gain -------------

def first_story_values(r):
    g = r["init"]["grad_norm"]
    loss = [x for x in r["loss"] if x is not None]
    return {
        "top_std": r["init"]["act_std"][-1],
        "grad_ratio": g[0] / g[-1] if g[-1] else None,
        "first_loss": r["loss"][0],
        "last_loss": sum(loss[-50:]) / len(loss[-50:]) if loss else None,
        "diverged_at": r["diverged_at"],
    }


def first_story(study, results):
    arms = by_arm(results)
    lines = [
        "| arm | std at the top at initialisation | ‖∂L/∂x₀‖ ÷ ‖∂L/∂x_L‖ | first loss | loss after the run (mean of the last 50) |",
        "|---|---|---|---|---|",
    ]
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        lines.append(f"| {name} | {fmt([x['top_std'] for x in v])} | {fmt([x['grad_ratio'] for x in v])} "
                     f"| {fmt([x['first_loss'] for x in v])} | {fmt([x['last_loss'] for x in v])} |")
    return "\n".join(lines)


# --- a tuned comparison's arms, side by side (the encoder-decoder's switches) ----------------

def tuned_compare_values(r):
    return tuned_values(r)


def combination(a):
    if a["residual"] == "on":
        return "both on" if a["norm"] != "off" else "residual alone"
    return "LayerNorm alone" if a["norm"] != "off" else "both off"


def tuned_compare(study, results):
    lines = [
        "| arm | rate chosen | chosen on seeds | bracketed | held-out loss | held-out accuracy | seeds at 95% or more |",
        "|---|---|---|---|---|---|---|",
    ]
    for job in results["jobs"]:
        for a in job["values"]["arms"]:
            runs = a["runs"]
            acc = [r.get("accuracy") for r in runs]
            bracketed = "yes" if a["bracketed"] and a["bracketed"].get("lr") else f"no ({a['limit']} rate allowed)"
            lines.append(
                f"| {job['arm']}: {combination(a)} ({a['norm']}) | {a['chosen']['lr']:.2g} | {seeds_range(a['choosing_seeds'])} | {bracketed} "
                f"| {fmt([r['val_loss'] for r in runs])} | {fmt(acc, 2)} | {sum(1 for x in acc if x is not None and x >= 0.95)} of {len(runs)} |")
    return "\n".join(lines)


# --- the held-out loss of each seed's run (the warmup recipes) ---------------------------------

def held_out_values(r):
    val = r["task"]["val_loss"]
    return {"val_loss": val[-1][1] if val else None, "bigram": r["task"]["floors"]["bigram"],
            "diverged_at": r["diverged_at"]}


def held_out(study, results):
    arms = by_arm(results)
    seeds = sorted({j["seed"] for j in results["jobs"]})
    bigram = results["jobs"][0]["values"]["bigram"]
    lines = [
        "| arm | " + " | ".join(f"seed {s}" for s in seeds) + f" | below the bigram line ({bigram:.2f}) |",
        "|---|" + "---|" * (len(seeds) + 1),
    ]
    for name, jobs in arms.items():
        by_seed = {j["seed"]: j["values"]["val_loss"] for j in jobs}
        cells = " | ".join("–" if by_seed.get(s) is None else f"{by_seed[s]:.2f}" for s in seeds)
        below = sum(1 for v in by_seed.values() if v is not None and v < bigram)
        lines.append(f"| {name} | {cells} | {below} of {len(by_seed)} |")
    return "\n".join(lines)


# --- the default recipe: every switch combination at depths 2 to 96 (the regression) ---------

def recipe_values(r):
    h = r["histogram"]
    total = sum(h["counts"]) + h["below"] + h["above"] + h["nan"]
    g = r["init"]["grad_norm"]
    return {
        "top_std": r["init"]["act_std"][-1],
        "readout_std": r["init"]["readout_std"],
        "grad_ratio": (g[0] or 0) / g[-1] if g[-1] else None,
        "first_loss": r["loss"][0],
        "loss": r["loss"][-1],
        "beyond": (h["below"] + h["above"]) / total if total else None,
        "diverged_at": r["diverged_at"],
    }


def recipe(study, results):
    lines = [
        "| combination, depth | std | readout std | grad ratio | first loss | loss | beyond |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, jobs in by_arm(results).items():
        v = [j["values"] for j in jobs]
        med = lambda key: fmt([x[key] for x in v], 2).split(" [")[0]
        beyond = statistics.median(x["beyond"] for x in v if x["beyond"] is not None)
        diverged = sum(1 for x in v if x["diverged_at"] is not None)
        lines.append(f"| {name} | {med('top_std')} | {med('readout_std')} | {med('grad_ratio')} | {med('first_loss')} "
                     f"| {fmt([x['loss'] for x in v])} | {100 * beyond:.0f}%{f' ({diverged} diverged)' if diverged else ''} |")
    return "\n".join(lines)


# --- a copying task's end: held-out loss, share copied, the first step at 95% -----------------

def copying_values(r):
    t = r["task"]
    acc = t["accuracy"]
    return {"val_loss": t["val_loss"][-1][1], "accuracy": acc[-1][1],
            "at_95": next((s for s, a in acc if a is not None and a >= 0.95), None)}


def copying(study, results):
    lines = ["| arm | held-out loss | copied right | first step at 95% |", "|---|---|---|---|"]
    for name, jobs in by_arm(results).items():
        v = [j["values"] for j in jobs]
        solved = [x["at_95"] for x in v]
        when = "never" if all(w is None for w in solved) else fmt([w if w is not None else math.inf for w in solved], 4)
        if any(w is None for w in solved) and not all(w is None for w in solved):
            when += f" ({sum(w is None for w in solved)} of {len(v)} never)"
        lines.append(f"| {name} | {fmt([x['val_loss'] for x in v])} | {fmt([x['accuracy'] for x in v], 2)} | {when} |")
    return "\n".join(lines)
