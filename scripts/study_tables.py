"""The reductions of scripts/studies.py: for a study whose `table` is NAME, `NAME_values(report)`
keeps what the table reads of one job's `ablate` report, and `NAME(study, results)` writes the
table (markdown) from every job's kept values. `NAME_check(study, kept)`, where there is one,
names the jobs `studies.py check` recomputes (else the study's `check` arm and seed).

Each cell is the median over the seeds with the lowest and highest in brackets (`fmt`).
"""
import math, random, re, statistics
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
    lines.extend(xiong_across_depths(arms))
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


def xiong_across_depths(arms):
    """A note comparing the arms' medians across depths: how far pre-norm's last W² falls from
    the fewest blocks to the most (against 1/√L's prediction), and post-norm's over pre-norm's
    at each depth."""
    top = {}
    for name, jobs in arms.items():
        placement, blocks = name.split(", ")
        top[(placement, int(blocks.split()[0]))] = statistics.median(j["values"]["ffn_down"][-1] for j in jobs)
    depths = sorted({d for _, d in top})
    if not {("pre", d) for d in depths} | {("post", d) for d in depths} <= top.keys() or len(depths) < 2:
        return []
    first, last = depths[0], depths[-1]
    falls = top[("pre", first)] / top[("pre", last)]
    times = ", ".join(f"{top[('post', d)] / top[('pre', d)]:.1f}" for d in depths)
    return ["", f"Across depths (the medians): pre-norm's last W² falls {falls:.1f}-fold from {first} to {last} blocks, "
                f"against the {math.sqrt(last / first):.1f} that 1/√L predicts; post-norm's is {times} times pre-norm's "
                f"at {', '.join(str(d) for d in depths)} blocks."]


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
            # (a record since the tie rule is said: where it kept a setting that did not score lowest)
            **({"tie": t["tie"]} if t.get("tie") else {}),
            "runs": [{k: run[k] for k in ("seed", "val_loss", "final_loss", "diverged_at", "converged", "steps", "accuracy",
                                          "loss_future_hidden")
                      if k in run}
                     for run in row["runs"]],
        })
    floors = r["task"]["floors"] if "task" in r else {}
    return {"arms": arms, "bigram": floors.get("bigram"), "unigram": floors.get("unigram")}


def liu_values(r):
    return tuned_values(r)


def bracketed_words(a):
    """Whether the tuner's chosen rate has a worse neighbour on each side, or the limit it is at;
    and where the tie rule kept it over a lower score, that score."""
    words = "yes" if a["bracketed"] and a["bracketed"].get("lr") else f"no ({a['limit']} rate allowed)"
    tie = a.get("tie")
    if tie:
        words += (f"; kept by the tie rule over {tie['lr']:.2g}, warmup {tie['warmup']}, β₂ {tie['beta2']:g}, "
                  f"which scored {tie['score']:.4g} against {tie['chosen_score']:.4g}")
    return words


def chosen_words(a):
    c = a["chosen"]
    return f"{c['lr']:.2g}, {c['warmup']}, {c['beta2']}" if c else "–"


# --- The rules a verdict and a title follow (docs/findings.md, "How the words follow the data") ---

#: A held-out loss below this many nats is a task solved: differences there are float rounding,
#: not a placement's merit.
LOSS_FLOOR = 0.01
#: A held-out accuracy at or above this share is a task solved.
ACCURACY_CEILING = 0.999


def separates(arms_by_name, x, y):
    """Whether the task separates arms x and y: both arms' median held-out loss at or above
    LOSS_FLOOR and, on a copying task, at least one arm's median held-out accuracy below
    ACCURACY_CEILING. Returns (True, "") or (False, the reason in words)."""
    def median_of(name, field):
        xs = [r.get(field) for r in arms_by_name[name]["runs"]]
        xs = [v for v in xs if v is not None and math.isfinite(v)]
        return statistics.median(xs) if xs else None

    solved = [n for n in (x, y) if (median_of(n, "val_loss") or 0.0) < LOSS_FLOOR]
    accuracies = [median_of(n, "accuracy") for n in (x, y)]
    if all(a is not None and a >= ACCURACY_CEILING for a in accuracies):
        return False, f"both arms copy at least {ACCURACY_CEILING:.1%} of the held-out symbols (medians)"
    if solved:
        return False, f"{' and '.join(solved)}'s median held-out loss is below {LOSS_FLOOR} nats"
    return True, ""


def paired(arms_by_name, x, y):
    """Per reporting seed, arm x's held-out loss minus arm y's: the differences, the mean and
    its bootstrap interval, and the verdict in words: "x loses" (or wins) only when the interval
    excludes zero and the task separates the arms (`separates`); "not separated at this setting"
    with the reason when the task does not; "a tie" when the interval holds zero."""
    ax = {run["seed"]: run["val_loss"] for run in arms_by_name[x]["runs"]}
    ay = {run["seed"]: run["val_loss"] for run in arms_by_name[y]["runs"]}
    diffs = [ax[s] - ay[s] for s in sorted(ax) if s in ay and ax[s] is not None and ay[s] is not None]
    lo, hi = bootstrap(diffs)
    mean = sum(diffs) / len(diffs)
    separated, why = separates(arms_by_name, x, y)
    if lo <= 0 <= hi:
        verdict = "a tie"
    elif not separated:
        verdict = f"not separated at this setting: {why}"
    else:
        verdict = f"{x} wins" if hi < 0 else f"{x} loses"
    return diffs, mean, (lo, hi), verdict


def plateau_words(runs, cap):
    """What a title says of how far its runs trained: "trained to a plateau" only when every run
    plateaued, else that they trained until a plateau or the cap, and "N of M runs plateaued"
    by then."""
    done = sum(1 for r in runs if r.get("converged"))
    if runs and done == len(runs):
        return "trained to a plateau"
    cap_words = f"{cap:,}".replace(",", " ")
    return f"trained until a plateau or step {cap_words}; {done} of {len(runs)} runs plateaued by then"


def title_words(study, results):
    """The study's title with its computed parts: `{plateau}` becomes `plateau_words` of every
    run shown (every arm's), capped at the study's `--steps`."""
    title = study["title"]
    if "{plateau}" in title:
        flags = study["flags"]
        cap = int(flags[flags.index("--steps") + 1])
        runs = [r for j in results["jobs"] for a in j["values"].get("arms", []) for r in a["runs"]]
        title = title.replace("{plateau}", plateau_words(runs, cap))
    return title


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
        bracketed = bracketed_words(a)
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
        # the logit lens (the model's own readout at every depth) on the same held-out set
        "logit": r["layers"]["readout_loss"]["final"],
        "fit_steps": fit["steps"],
        "converged": fit["converged"],
        "held_out_kl": fit["held_out_kl"][-1][1],
        "adjacent_cosine": r["layers"]["adjacent_cosine"],
        # like for like at both placements: ‖F‖/‖r‖ at each layer's addition
        "branch_ratio": r["layers"]["branch_ratio"],
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
        "| arm | lens updates | fit converged | held-out KL at the end | held-out loss | tuned lens at L/2 | logit lens at L/2 | upper half's share of the gain | cosine x_ℓ·x_ℓ₊₁, lower half | upper half | branch ‖F‖/‖r‖, lower half | upper half |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        conv = [x["converged"] for x in v]
        conv_words = "–" if all(c is None for c in conv) else f"{sum(1 for c in conv if c)} of {len(v)}"
        lo = [halves(x["adjacent_cosine"])[0] for x in v]
        hi = [halves(x["adjacent_cosine"])[1] for x in v]
        f_lo = [halves(x["branch_ratio"])[0] for x in v]
        f_hi = [halves(x["branch_ratio"])[1] for x in v]
        lines.append(
            f"| {name} | {fmt([x['fit_steps'] for x in v], 4)} | {conv_words} | {fmt([x['held_out_kl'] for x in v], 2)} "
            f"| {fmt([x['val_loss'] for x in v])} | {fmt([x['tuned'][x['depth'] // 2] for x in v])} "
            f"| {fmt([x['logit'][x['depth'] // 2] for x in v])} "
            f"| {fmt([upper_share(x) for x in v], 2)} | {fmt(lo, 2)} | {fmt(hi, 2)} | {fmt(f_lo, 2)} | {fmt(f_hi, 2)} |")
    first = results["jobs"][0]["values"]
    lines.append("")
    reads = []
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        if name.endswith("to convergence"):
            x0, x1 = [x["tuned"][0] for x in v], [x["tuned"][1] for x in v]
            reads.append(f"{name.split(',')[0]} {min(x0):.2f}–{max(x0):.2f} at x_0 and {min(x1):.2f}–{max(x1):.2f} at x_1")
    if reads:
        lines.append("The tuned lens fitted to convergence reads (lowest–highest over the seeds): " + "; ".join(reads) + ".")
        lines.append("")
    lines.append(f"(Held-out KL: the mean over the layers of KL(p_L ‖ q_ℓ) on the held-out set; bigram line "
                 f"{first['bigram']:.2f}, unigram line {first['unigram']:.2f}.)")
    return "\n".join(lines)


# --- one layer knocked out of the regression's stacks (Veit et al. 2016) -----------------------

def knockout_regression_values(r):
    k = r["knockout"]
    return {"intact": k["intact_loss"], "each": k["loss"], "output_change": k["output_change"]}


def knockout_regression(study, results):
    lines = [
        "| stack | intact loss | one layer out: the median layer's loss | the lowest and highest | output change: the median layer's | the largest | the worst layer (its loss), each seed |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, jobs in by_arm(results).items():
        v = [j["values"] for j in sorted(jobs, key=lambda j: j["seed"])]
        every = [x for s in v for x in s["each"]]
        worst = [max(range(len(s["each"])), key=lambda l: s["each"][l]) for s in v]
        worst_words = ", ".join(f"{l} ({s['each'][l]:.2f})" for l, s in zip(worst, v))
        lines.append(
            f"| {name} | {fmt([s['intact'] for s in v], 2)} | {fmt([statistics.median(s['each']) for s in v], 2)} "
            f"| {min(every):.2g}–{max(every):.2g} | {percent(fmt([statistics.median(s['output_change']) for s in v], 2))} "
            f"| {percent(fmt([max(s['output_change']) for s in v], 2))} "
            f"| {worst_words} |")
    lines.append("")
    lines.append("(The loss: the probe batch's mean squared error, 1 for a stack that outputs zero; the output change: "
                 "how far the readout's output moves, as a share of its size.)")
    return "\n".join(lines)


def percent(cell):
    """A `fmt` cell of shares as percentages."""
    def one(m):
        x = 100 * float(m.group())
        return f"{x:.0f}%" if x >= 10 or x == 0 else f"{x:.1f}%"
    return re.sub(r"[0-9.]+(?:e[-+][0-9]+)?", one, cell)


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
        **({"blocks": block_values(r["knockout_blocks"])} if "knockout_blocks" in r else {}),
        **({"healed": {"steps": k["healed"]["steps"], "intact": k["healed"]["intact"].get("val_loss"),
                       "intact_accuracy": k["healed"]["intact"].get("accuracy"),
                       "gromov": strip(k["healed"]["gromov"]),
                       # the control: a fresh stack trained the healing's updates (kept runs since it was measured)
                       **({"scratch": k["healed"]["scratch"]} if "scratch" in k["healed"] else {})}} if "healed" in k else {}),
    }


def block_values(b):
    return {"batches": b["batches"], "intact": b["intact_held_out_loss"],
            "removed": [{"n": x["n"], "start": x["start"], "val_loss": x["held_out_loss"]} for x in b["removed"]],
            "chosen_after": b["chosen_after"]}


def stable_from(chosen_after):
    """The fewest batches counted from which the blocks chosen for every n stay those chosen
    after all of them."""
    final = chosen_after[-1][1]
    first = chosen_after[-1][0]
    for counted, starts in reversed(chosen_after):
        if starts != final:
            break
        first = counted
    return first


def block_table(arms):
    """Gromov et al.'s unit: the held-out loss with the n blocks nearest in angular distance
    removed, for each n, and from how many batches the choice was stable."""
    rows = [(n, [j["values"]["blocks"] for j in jobs]) for n, jobs in arms.items()
            if all("blocks" in j["values"] for j in jobs)]
    if not rows:
        return []
    most = max(len(v[0]["removed"]) for _, v in rows)
    out = ["| arm (blocks) | held-out, intact | " + " | ".join(f"{n} of {most + 1} removed" for n in range(1, most + 1))
           + " | the blocks removed (the first seed) | the choice stable from (batches, the most over the seeds) |",
           "|---|---|" + "---|" * most + "---|---|"]
    for name, v in rows:
        cells = " | ".join(fmt([x["removed"][i]["val_loss"] for x in v]) for i in range(most))
        first = "; ".join(f"{r['start']}–{r['start'] + r['n'] - 1}" for r in v[0]["removed"])
        out.append(f"| {name} | {fmt([x['intact'] for x in v])} | {cells} | {first} | "
                   f"{max(stable_from(x['chosen_after']) for x in v)} of {v[0]['batches']} |")
    return out


def kept(c, v):
    """Whether a removal keeps the stack's skill as the page's knockout judges it (`within` at the
    page's allowance): on the text, losing under 10% of the gain below the bigram line (loss ≤
    intact + 0.1 × (bigram − intact)); on copy, still copying 95% as well (the share of symbols
    right)."""
    allowance = 0.95 if v.get("intact_accuracy") is not None else 0.1
    return within(c["val_loss"], c.get("accuracy"), v, allowance)


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
        + (" healing steps | Gromov's block of k, healed | from scratch, the healing's steps: held-out loss (copied) |" if healing else ""),
        "|---|---|---|---|---|---|---|---|" + ("---|---|---|" if healing else ""),
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
            + (f" {v[0]['healed']['steps']} | {fmt([removable(x['healed']['gromov'], {**x, **x['healed']}) for x in v])} "
               f"| {scratch_words(v)} |" if healing else ""))
    lines.append("")
    lines.append("A count is the largest k up to which every smaller k keeps the stack's skill, as the page's knockout judges it: "
                 "on the text, losing under 10% of what the stack gains below the bigram line (its held-out loss under "
                 "intact + 0.1 × (bigram − intact)); on copy, still copying 95% as well. "
                 + ("Healed: each pruned stack trained that many more updates at the run's own rate (every weight left; Gromov et al. fine-tune "
                    "with QLoRA), judged against the intact stack trained as long." if healing else
                    "Without healing: Gromov et al. fine-tune after removing; these stacks are measured as they are."))
    lines.append("")
    lines.append("In the table above the unit removed is one sublayer (an attention or an FFN sublayer, with its norm's "
                 "place), not Gromov et al.'s layer (a block of both), and its \"Gromov's block\" of k sublayers is chosen "
                 "on the probe batch alone (128 tokens), as the page's knockout does. How many single sublayers a rule "
                 "keeps depends on the allowance it gives; the count at each allowance (median over the seeds "
                 "[lowest–highest]):")
    lines.append("")
    lines.extend(allowance_curve(arms))
    blocks = block_table(arms)
    if blocks:
        lines.append("")
        lines.append("Gromov et al.'s unit, a block of attention and FFN (two sublayers): for each n, the n consecutive "
                     "blocks whose input and output are nearest in angular distance, averaged over the tokens of "
                     f"{arms and next(iter(arms.values()))[0]['values']['blocks']['batches']} batches of their own, "
                     "removed (the final block kept), measured as they are (not healed); each cell the held-out loss "
                     "in nats, the median over the seeds [lowest–highest]; blocks numbered from 0:")
        lines.append("")
        lines.extend(blocks)
    return "\n".join(lines)


def scratch_words(v):
    """The from-scratch control's held-out loss (and share copied), or – where the kept runs
    predate it."""
    runs = [x["healed"]["scratch"] for x in v if "scratch" in x["healed"]]
    if not runs:
        return "–"
    words = fmt([r.get("val_loss") for r in runs])
    if any(r.get("accuracy") is not None for r in runs):
        words += f" ({percent(fmt([r.get('accuracy') for r in runs], 2))})"
    return words


# the allowances of the curve: on the text, a share of the gain below the bigram line a removal may
# lose; on copy, a share of the intact stack's copying it must keep
TEXT_ALLOWANCES = (0.05, 0.1, 0.2, 0.5, 1.0)
COPY_KEEPS = (0.99, 0.95, 0.9, 0.75, 0.5)


def within(e, a, v, allowance):
    """Whether one removal (held-out loss `e`, accuracy `a`) is within `allowance`: on the text,
    its loss at most intact + allowance × (floor − intact); on copy, its accuracy at least
    allowance × the intact stack's."""
    if v.get("intact_accuracy") is not None:
        return a is not None and a >= allowance * v["intact_accuracy"]
    return e is not None and e <= v["intact"] + allowance * (v["floor"] - v["intact"])


def allowance_curve(arms):
    """A table: for each arm, how many single sublayers stay within each allowance, with the
    allowance in nats on the text (median over the seeds)."""
    text_cols = " | ".join(f"{int(a * 100)}% of the gain" for a in TEXT_ALLOWANCES)
    copy_cols = " | ".join(f"keeps {int(k * 100)}%" for k in COPY_KEEPS)
    out = []
    for kind, cols, allowances in (("text", text_cols, TEXT_ALLOWANCES), ("copy", copy_cols, COPY_KEEPS)):
        rows = [(n, [j["values"] for j in jobs]) for n, jobs in arms.items()
                if (jobs[0]["values"].get("intact_accuracy") is None) == (kind == "text")]
        if not rows:
            continue
        out.append(f"| arm ({kind}) | " + cols + " |")
        out.append("|---|" + "---|" * len(allowances))
        for name, v in rows:
            cells = []
            for a in allowances:
                counts = []
                for x in v:
                    acc = x.get("each_accuracy") or [None] * len(x["each"])
                    counts.append(sum(1 for e, c in zip(x["each"], acc) if within(e, c, x, a)))
                cell = f"{fmt(counts, 3)} of {len(v[0]['each'])}"
                if kind == "text":
                    nats = [a * (x["floor"] - x["intact"]) for x in v]
                    cell += f" (≤ {statistics.median(nats):.3f} nats)"
                cells.append(cell)
            out.append(f"| {name} | " + " | ".join(cells) + " |")
        out.append("")
    return out[:-1] if out else out


# --- the linear probe: the current token, and the one before, up the stream ---------------------

def probe_values(r):
    w = r.get("probe_without_first_attention")
    return {"accuracy": r["layers"]["probe_accuracy"], "previous": r["layers"]["probe_previous_accuracy"],
            "val_loss": r["task"]["val_loss"][-1][1],
            "knocked": None if w is None else {"layer": w["layer"], "loss": w["held_out_loss"],
                                               "intact": w["intact_held_out_loss"], "previous": w["previous"]}}


def probe_depths(depth):
    """The depths a row shows: the embedding, the first layer's output, layer 20 and the top (a
    stack shallower than 20 shows its top once)."""
    return [0, 1, min(20, depth), depth] if depth > 20 else [0, 1, depth]


def probe(study, results):
    arms = by_arm(results)
    lines = [
        "| arm | held-out loss | current character at x_0, x_1, x_20, x_L | the character before at x_0, x_1, x_20, x_L "
        "| the first attention layer knocked out: held-out loss | the character before at x_1, x_20, x_L |",
        "|---|---|---|---|---|---|",
    ]
    for name, jobs in arms.items():
        v = [j["values"] for j in jobs]
        at = probe_depths(len(v[0]["accuracy"]) - 1)
        current = ", ".join(fmt([x["accuracy"][l] for x in v], 2) for l in at)
        previous = ", ".join(fmt([x["previous"][l] for x in v], 2) for l in at)
        k = [x["knocked"] for x in v]
        loss = fmt([x["loss"] for x in k]) if all(k) else "–"
        after = ", ".join(fmt([x["previous"][l] for x in k], 2) for l in at[1:]) if all(k) else "–"
        lines.append(f"| {name} | {fmt([x['val_loss'] for x in v])} | {current} | {previous} | {loss} | {after} |")
    lines.append("")
    lines.append("Each probe cell: the share of held-out characters a linear probe names right from that depth's "
                 "stream (ridge regression fitted in closed form on 32 batches of its own; the character before is "
                 "counted from each sequence's second position). A stack of 4 sublayers shows x_0, x_1 and its top, "
                 "x_4. Knocked out: the first attention layer's branch zeroed (sublayer 0) and the probe fitted again "
                 "on that stack.")
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
            bracketed = bracketed_words(a)
            lines.append(
                f"| {job['arm']}: {combination(a)} ({a['norm']}) | {a['chosen']['lr']:.2g} | {seeds_range(a['choosing_seeds'])} | {bracketed} "
                f"| {fmt([r['val_loss'] for r in runs])} | {fmt(acc, 2)} | {sum(1 for x in acc if x is not None and x >= 0.95)} of {len(runs)} |")
    return "\n".join(lines)


# --- the text and copy tasks at the presets' settings ------------------------------------------

def tasks_values(r):
    t = r["task"]
    val = t["val_loss"]
    floors = t["floors"]
    cross = next((s for s, l in val if l is not None and "bigram" in floors and l < floors["bigram"]), None)
    return {
        "val_loss": val[-1][1],
        "first_below_bigram": cross,
        "accuracy": t["accuracy"][-1][1] if "accuracy" in t else None,
        "diverged_at": r["diverged_at"],
    }


def tasks(study, results):
    """One row per arm (`task · configuration · depth N`): the held-out loss at the end, the
    first step below the bigram line over the seeds that got there (text), the share copied
    right (copy), and how many seeds diverged."""
    lines = [
        "| task | configuration | depth | held-out loss at the end | first below the bigram line | copied right | diverged |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, jobs in by_arm(results).items():
        task, configuration, depth = name.split(" · ")
        v = [j["values"] for j in jobs]
        crossed = [x["first_below_bigram"] for x in v]
        if task == "copy":
            cross = ""
        elif all(c is None for c in crossed):
            cross = "never"
        else:
            cross = fmt([c if c is not None else math.inf for c in crossed], 4)
        acc = fmt([x["accuracy"] for x in v], 2) if task == "copy" else ""
        diverged = sum(x["diverged_at"] is not None for x in v)
        lines.append(f"| {task} | {configuration} | {depth.removeprefix('depth ')} | {fmt([x['val_loss'] for x in v])} "
                     f"| {cross} | {acc} | {diverged}/{len(v)} |")
    return "\n".join(lines)


# --- depth or width at one non-embedding budget ------------------------------------------------

def shapes_values(r):
    out = []
    for x in r["depth_width"]:
        t = x.get("tuning") or {}
        out.append({
            "depth": x["depth"], "width": x["width"], "heads": x["heads"], "params": x["params"],
            "non_embedding_params": x["non_embedding_params"], "chosen": t.get("chosen"), "bracketed": t.get("bracketed"),
            "limit": t.get("limit"), "choosing_seeds": t.get("choosing_seeds"),
            "runs": [{k: run[k] for k in ("seed", "val_loss", "final_loss", "diverged_at", "converged", "steps") if k in run}
                     for run in x["runs"]],
        })
    return {"shapes": out, "depth": r["config"]["depth"], "width": r["config"]["width"]}


def shapes(study, results):
    lines = [
        "| task | depth × width | heads | parameters without embeddings (all) | rate chosen | chosen on seeds | bracketed "
        "| held-out loss | minus the deepest's, paired by seed: mean [95% interval] | plateaued |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for job in results["jobs"]:
        v = job["values"]
        budget = v["shapes"][0]["non_embedding_params"]
        deepest = {r["seed"]: r["val_loss"] for r in v["shapes"][0]["runs"]}
        for i, x in enumerate(v["shapes"]):
            control = " (control)" if x["non_embedding_params"] < budget / 2 else ""
            bracketed = bracketed_words(x)
            rate = f"{x['chosen']['lr']:.2g}" if x["chosen"] else "–"
            diffs = [r["val_loss"] - deepest[r["seed"]] for r in x["runs"]
                     if r["seed"] in deepest and r["val_loss"] is not None and deepest[r["seed"]] is not None]
            if i == 0 or control or not diffs:
                against = "–"
            else:
                lo, hi = bootstrap(diffs)
                against = f"{sum(diffs) / len(diffs):+.3f} [{lo:+.3f}, {hi:+.3f}]"
            params = f"{x['non_embedding_params']:,} ({x['params']:,})".replace(",", " ")
            lines.append(
                f"| {job['arm']} | {x['depth']} × {x['width']}{control} | {x['heads']} | {params} "
                f"| {rate} | {seeds_range(x['choosing_seeds'] or [])} | {bracketed} | {fmt([r['val_loss'] for r in x['runs']])} "
                f"| {against} | {sum(1 for r in x['runs'] if r['converged'])} of {len(x['runs'])} |")
    lines.append("")
    lines.append("Paired: each shape's held-out loss minus the deepest shape's of its row group, seed by seed (the "
                 "same seeds), the mean and a 95% percentile-bootstrap interval; with three seeds the interval is "
                 "no wider than the three differences, so it shows their spread rather than a test.")
    return "\n".join(lines)


def shapes_check(study, kept):
    """The first shape of each job's lowest shown seed trained again alone at its chosen rate
    for the steps it trained (a comparison caps them at its task's own): its held-out loss, bit
    for bit."""
    out = []
    for job in kept["jobs"]:
        x = job["values"]["shapes"][0]
        run = min(x["runs"], key=lambda r: r["seed"])
        arm = next(a for a in study["arms"] if a["name"] == job["arm"])
        # the arm's own --depth, --width, --heads and --steps dropped with their values: the
        # shape's and the run's instead
        flags, i, keep = [], 0, arm["flags"]
        while i < len(keep):
            if keep[i] in ("--depth", "--width", "--heads", "--steps"):
                i += 2
                continue
            flags.append(keep[i])
            i += 1
        flags += ["--depth", str(x["depth"]), "--width", str(x["width"]), "--heads", str(x["heads"]),
                  "--lr", repr(x["chosen"]["lr"]), "--seed", str(run["seed"]), "--steps", str(run["steps"]), "--threads", "1"]
        out.append((f"{job['arm']}: {x['depth']} × {x['width']}, seed {run['seed']} at its chosen rate", flags,
                    {"val_loss": run["val_loss"]}, lambda r: {"val_loss": r["task"]["val_loss"][-1][1]}))
    return out


# --- how long the comparisons train ------------------------------------------------------------

def comparison_steps_values(r):
    t = r["task"]
    if "accuracy" in t:
        history, test, end = t["accuracy"], (lambda a: a >= 0.95), t["accuracy"][-1][1]
    else:
        bigram = t["floors"]["bigram"]
        history, test, end = t["val_loss"], (lambda v: v < bigram), t["val_loss"][-1][1]
    at = next((s for s, v in history if v is not None and test(v)), None)
    return {"at": at, "end": end, "steps": r["config"]["steps"]}


def comparison_steps(study, results):
    arms = by_arm(results)
    seeds = sorted({j["seed"] for j in results["jobs"]})
    lines = ["| task | combination | " + " | ".join(f"seed {s}" for s in seeds) + " |", "|---|---|" + "---|" * len(seeds)]
    for name, jobs in arms.items():
        task, label = name.split(" · ")
        line = "crosses the bigram line" if task == "text" else "copies 95%"
        what = "held-out loss" if task == "text" else "copied"
        cells = []
        for j in sorted(jobs, key=lambda j: j["seed"]):
            v = j["values"]
            cells.append(f"{'never' if v['at'] is None else v['at']} ({what} {v['end']:.3g} at {v['steps']})")
        lines.append(f"| {task}: the step it {line} | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --- where the heads look --------------------------------------------------------------------

def attention_heads_values(r):
    """Per attention layer, per head: the offset back with the largest mean weight and the mean
    weight there, over the rows scored (copy: the separator and the copy, where the symbol to
    write stands a string's length back; the text: every row; a row too early for an offset
    counts 0), and on copy the weight at the string's length."""
    copies = r["config"]["task"] == "copy"
    length = r["config"]["context"] // 2
    layers = []
    for m in r["attention"]["maps"]:
        heads = []
        for rows in m["heads"]:
            c = len(rows)
            scored = range(c // 2, c) if copies else range(c)
            at = lambda k: sum(rows[q][q - k] for q in scored if q >= k) / len(scored)
            best = max(range(c), key=at)
            heads.append({"offset": best, "weight": at(best), **({"at_length": at(length)} if copies else {})})
        layers.append({"layer": m["layer"], "heads": heads})
    t = r["task"]
    return {"task": r["config"]["task"], "length": length, "layers": layers, "val_loss": t["val_loss"][-1][1],
            "accuracy": t["accuracy"][-1][1] if "accuracy" in t else None}


def attention_heads(study, results):
    lines = [
        "| task | seed | held-out | first attention layer: each head's favourite offset back (its weight there) "
        "| later attention layers: the most weight a head puts on one offset |",
        "|---|---|---|---|---|",
    ]
    for job in results["jobs"]:
        v = job["values"]
        first, later = v["layers"][0], v["layers"][1:]
        heads = ", ".join(f"head {h + 1}: {x['offset']} ({x['weight']:.2f})" for h, x in enumerate(first["heads"]))
        most = max((x["weight"] for layer in later for x in layer["heads"]), default=None)
        held = f"copied {v['accuracy']:.0%}" if v["accuracy"] is not None else f"loss {v['val_loss']:.2f}"
        lines.append(f"| {job['arm']} | {job['seed']} | {held} | {heads} | {'–' if most is None else f'{most:.2f}'} |")
    copies = [j["values"] for j in results["jobs"] if j["values"]["task"] == "copy"]
    if copies:
        length = copies[0]["length"]
        at = [x["at_length"] for v in copies for layer in v["layers"][1:] for x in layer["heads"]]
        lines.append("")
        lines.append(f"On copy the symbol to write stands {length} positions back; the later layers' heads put at most "
                     f"{max(at):.2f} of their weight there.")
    return "\n".join(lines)


# --- the presets' stories, seed by seed ------------------------------------------------------

def presets_values(r):
    loss = [x if x is not None else math.nan for x in r["loss"]]
    tail = loss[-50:]
    t = r.get("task", {})
    return {
        "top_std": r["init"]["act_std"][-1],
        "readout_std": r["init"]["readout_std"],
        "first_loss": r["loss"][0],
        "end": sum(tail) / len(tail),
        "diverged_at": r["diverged_at"],
        "grad_norm": r["init"]["grad_norm"],
        "weight_grad_norm": r["init"]["weight_grad_norm"],
        "accuracy": t["accuracy"][-1][1] if "accuracy" in t else None,
        # the `gradients` preset's own measure (its per-layer panel's): each block's FFN W² over
        # 100 batches at initialisation, Xiong et al.'s
        **({"xiong_w2": [v for n, v in zip(r["layers"]["xiong_grad_norm"]["names"], r["layers"]["xiong_grad_norm"]["values"])
                         if n == "ffn.down.weight"]} if "xiong_grad_norm" in r.get("layers", {}) else {}),
    }


def span(xs, digits=2):
    """The lowest and highest of `xs` (the seeds'), as `a–b`."""
    xs = [x for x in xs if x is not None and math.isfinite(x)]
    if not xs:
        return "–"
    lo, hi = min(xs), max(xs)
    return f"{lo:.{digits}g}–{hi:.{digits}g}" if f"{lo:.{digits}g}" != f"{hi:.{digits}g}" else f"{lo:.{digits}g}"


def percent_span(xs):
    """The seeds' lowest and highest share, in whole percent."""
    xs = [100 * x for x in xs if x is not None and math.isfinite(x)]
    lo, hi = round(min(xs)), round(max(xs))
    return f"{lo}–{hi}%" if lo != hi else f"{lo}%"


def presets(study, results):
    """The summary: one row per preset, its story with the seeds' range in each number, and on
    how many seeds the whole story holds (each preset's rule, as tests/presets.rs checks it)."""
    arms = by_arm(results)
    seeds = sorted({j["seed"] for j in results["jobs"]})
    by = {name: {j["seed"]: j["values"] for j in jobs} for name, jobs in arms.items()}
    rows = []

    def row(preset, story, holds):
        rows.append(f"| `{preset}` | {seeds_range(seeds)} | {story} | **{sum(holds)} of {len(holds)}** |")

    e = [by["explode"][s] for s in seeds]
    by_step = max((x["diverged_at"] for x in e if x["diverged_at"] is not None), default=None)
    row("explode", f"the top's std past 10 at initialisation ({span([x['top_std'] for x in e], 3)}), the first loss "
        f"{span([x['first_loss'] for x in e])}, non-finite by step {by_step}",
        [x["top_std"] > 10 and x["first_loss"] > 100 and x["diverged_at"] is not None and x["diverged_at"] <= 5 for x in e])

    g = [by["gradient-experiment"][s] for s in seeds]
    gr = [by["gradient-experiment, residual on"][s] for s in seeds]
    ratio = [x["grad_norm"][0] / x["grad_norm"][-1] for x in g]
    shrinks = [all(a < b for a, b in zip(x["grad_norm"], x["grad_norm"][1:])) for x in g]
    res = [x["grad_norm"][0] / x["grad_norm"][-1] for x in gr]
    row("gradient-experiment", f"`‖∂L/∂x₀‖/‖∂L/∂x_L‖` {span(ratio)}, shrinking at every layer on {sum(shrinks)} of "
        f"{len(shrinks)}; {span(res)} with the residual on",
        [q < 1e-3 and sh and w > 0.5 for q, sh, w in zip(ratio, shrinks, res)])

    off = [by["break-and-heal"][s] for s in seeds]
    norm = [by["break-and-heal, LayerNorm on"][s] for s in seeds]
    both = [by["break-and-heal, residual on too"][s] for s in seeds]
    ends = ", ".join(f"diverged at {x['diverged_at']}" for x in off if x["diverged_at"] is not None)
    row("break-and-heal", f"both off: top std {span([x['top_std'] for x in off], 3)}, the loss ends at "
        f"{span([x['end'] for x in off if x['diverged_at'] is None])}{' (' + ends + ')' if ends else ''}; LayerNorm on: "
        f"{span([x['end'] for x in norm])}; Residual on too: {span([x['end'] for x in both])} (500 steps)",
        [o["top_std"] >= 20 and (o["diverged_at"] is not None or 0.8 <= o["end"] <= 1.2)
         and abs(n["readout_std"] - 1) < 0.005 and 0.4 <= n["end"] < 1.0 and b["end"] < n["end"] / 5
         for o, n, b in zip(off, norm, both)])

    c = [by["critical-gain"][s] for s in seeds]
    cb = [by["critical-gain, both on"][s] for s in seeds]
    row("critical-gain", f"both off at gain √2: top std {span([x['top_std'] for x in c])} (neither blown up nor "
        f"vanished), the loss ends at {span([x['end'] for x in c])}; both on: {span([x['end'] for x in cb])} (500 steps)",
        [0.1 <= x["top_std"] < 5 and x["end"] > 5 * y["end"] for x, y in zip(c, cb)])

    names = ["both on", "residual alone", "both off", "LayerNorm alone"]
    acc = {n: [by[f"induction, {n}"][s]["accuracy"] for s in seeds] for n in names}
    one = [by["induction, one attention layer"][s]["accuracy"] for s in seeds]
    row("induction", "All four (2500 steps): " + ", ".join(f"{n} copies {percent_span(acc[n])}" for n in names)
        + f"; one attention layer {percent_span(one)} (3000 steps; 95% is learned)",
        [b >= 0.95 and o < 0.95 and x < 0.95 for b, o, x in zip(acc["both on"], acc["both off"], one)])

    def ends_of(name):
        return [(by[name][s]["xiong_w2"][0], by[name][s]["xiong_w2"][-1]) for s in seeds]
    post48, pre48 = ends_of("gradients, post-norm, depth 48"), ends_of("gradients, pre-norm, depth 48")
    post12, pre12 = ends_of("gradients, post-norm, depth 12"), ends_of("gradients, pre-norm, depth 12")
    row("gradients", f"at initialisation (the preset's measure, Xiong's: each FFN's W² over 100 batches) pre-norm's top FFN gets "
        f"{span([t / b for b, t in pre12])}× its bottom one's gradient at depth 12 and {span([t / b for b, t in pre48])}× at 48; "
        f"post-norm's top gets {span([p[1] / q[1] for p, q in zip(post12, pre12)])}× pre-norm's at 12 and "
        f"{span([p[1] / q[1] for p, q in zip(post48, pre48)])}× at 48",
        # the story the preset tells and tests/presets.rs checks: pre-norm's top below its bottom
        # and lower at 48 than at 12; post-norm's top more than twice pre-norm's at each depth
        [q48[1] < 0.7 * q48[0] and q12[1] < 0.7 * q12[0] and q48[1] < q12[1] and p48[1] > 2 * q48[1]
         and p12[1] > 2 * q12[1]
         for p48, q48, p12, q12 in zip(post48, pre48, post12, pre12)])

    return "\n".join(["| preset | seeds | the story | holds on |", "|---|---|---|---|", *rows])


def warmup_preset_values(r):
    return {"val_loss": r["task"]["val_loss"][-1][1], "bigram": r["task"]["floors"]["bigram"]}


def warmup_preset(study, results):
    arms = {name: {j["seed"]: j["values"] for j in jobs} for name, jobs in by_arm(results).items()}
    names = list(arms)
    seeds = sorted(arms[names[0]])
    bigram = arms[names[0]][seeds[0]]["bigram"]
    lines = ["| seed | " + " | ".join(names) + " | story holds |", "|---|" + "---|" * (len(names) + 1)]
    held = 0
    for s in seeds:
        post, warm, pre = (arms[n][s]["val_loss"] for n in names)
        holds = post > bigram and warm < bigram and pre < bigram
        held += holds
        why = "yes" if holds else ("no: post-norm learns without warmup" if post <= bigram else "no")
        lines.append(f"| {s} | {post:.2f} | {warm:.2f} | {pre:.2f} | {why} |")
    lines.append("")
    lines.append(f"Held-out loss after 3000 steps (bigram line {bigram:.2f}): the story (post-norm without warmup above "
                 f"the line, with 300 warmup steps and pre-norm below it) holds on **{held} of {len(seeds)}** seeds.")
    return "\n".join(lines)


# --- the causal mask on the text: reading against predicting ------------------------------------

def mask_values(r):
    v = tuned_values(r)
    v["sample"] = r["compare"][0].get("sample")
    return v


def mask(study, results):
    lines = [
        "| mask | rate chosen | chosen on seeds | bracketed | held-out loss as trained | the same weights, the future hidden "
        "| plateaued | writes (the first seed) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for job in results["jobs"]:
        v = job["values"]
        a = v["arms"][0]
        runs = a["runs"]
        # a stack with the mask has no other loss: the future is hidden as trained
        hidden = [r.get("loss_future_hidden", r["val_loss"]) for r in runs]
        sample = (v["sample"] or "")[9:69].replace("\n", "↵").replace("|", "¦").replace("`", "'")
        bracketed = bracketed_words(a)
        lines.append(
            f"| {job['arm']} | {a['chosen']['lr']:.2g} | {seeds_range(a['choosing_seeds'])} | {bracketed} "
            f"| {fmt([r['val_loss'] for r in runs])} | {fmt(hidden)} | {sum(1 for r in runs if r['converged'])} of {len(runs)} "
            f"| `{sample}` |")
    return "\n".join(lines)


mask_check = tuned_check


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
