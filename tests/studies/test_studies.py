"""The study runner's own checks (scripts/studies.py, scripts/study_tables.py): the schema
refuses what it must, the jobs are the arms times the seeds, the paired bootstrap against what
it must give, and the drift check's comparison.

    python3 -m unittest discover -s tests/studies
"""
import copy, subprocess, sys, tomllib, unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import studies  # noqa: E402
import study_tables  # noqa: E402
import study_cluster  # noqa: E402


def real(name="first-story"):
    with open(ROOT / "studies" / f"{name}.toml", "rb") as f:
        return tomllib.load(f)


class Schema(unittest.TestCase):
    def test_every_study_file_keeps_the_schema(self):
        for path in sorted((ROOT / "studies").glob("*.toml")):
            with open(path, "rb") as f:
                self.assertEqual(studies.validate(path.stem, tomllib.load(f)), [], path.name)

    def test_the_schema_refuses_each_break(self):
        good = real()
        breaks = {
            "no table": lambda s: s.pop("table"),
            "an unknown key": lambda s: s.update(colour="red"),
            "per is neither seed nor arm": lambda s: s.update(per="day"),
            "seeds backwards": lambda s: s.update(seeds=[5, 1]),
            "a seed among the flags": lambda s: s.update(flags=[*s["flags"], "--seed", "3"]),
            "an arm without flags": lambda s: s["arms"].append({"name": "x"}),
            "two arms of one name": lambda s: s["arms"].append(copy.deepcopy(s["arms"][0])),
            "a table no function makes": lambda s: s.update(table="nothing-here"),
            "a check arm that is not an arm": lambda s: s.update(check={"arm": "nobody", "seed": 1}),
            "flags a string": lambda s: s.update(flags="--steps 5"),
        }
        for what, do in breaks.items():
            s = copy.deepcopy(good)
            do(s)
            self.assertNotEqual(studies.validate("first-story", s), [], f"the schema let through {what}")

    def test_a_study_without_its_place_in_findings_is_refused(self):
        errors = studies.validate("no-such-study", real())
        self.assertTrue(any("marker" in e for e in errors), errors)


class Jobs(unittest.TestCase):
    def test_per_seed_jobs_are_every_arm_at_every_seed(self):
        s = real()
        jobs = studies.jobs(s)
        first, last = s["seeds"]
        self.assertEqual(len(jobs), len(s["arms"]) * (last - first + 1))
        arm, seed, flags = jobs[0]
        self.assertEqual((arm, seed), (s["arms"][0]["name"], first))
        self.assertEqual(flags[-4:], ["--seed", str(first), "--threads", "1"])

    def test_per_arm_jobs_run_their_seeds_themselves(self):
        s = real("liu")
        jobs = studies.jobs(s)
        self.assertEqual([(a, seed) for a, seed, _ in jobs], [(a["name"], None) for a in s["arms"]])
        self.assertIn("--seeds", jobs[0][2])


class Numbers(unittest.TestCase):
    def test_the_bootstrap_interval_of_a_constant_is_the_constant(self):
        self.assertEqual(study_tables.bootstrap([0.25] * 10), (0.25, 0.25))

    def test_the_bootstrap_interval_holds_the_mean_and_is_reproducible(self):
        diffs = [0.1, -0.05, 0.2, 0.15, 0.0, 0.12, 0.08, -0.01, 0.3, 0.05]
        lo, hi = study_tables.bootstrap(diffs)
        mean = sum(diffs) / len(diffs)
        self.assertLess(lo, mean)
        self.assertLess(mean, hi)
        self.assertGreater(lo, min(diffs))
        self.assertEqual((lo, hi), study_tables.bootstrap(diffs))

    def test_the_verdict_follows_the_interval(self):
        arm = lambda vals: {"runs": [{"seed": i + 1, "val_loss": v} for i, v in enumerate(vals)]}
        worse = arm([2.3, 2.31, 2.29, 2.32, 2.3])
        better = arm([2.1, 2.12, 2.09, 2.11, 2.1])
        noisy = arm([2.4, 2.0, 2.35, 2.05, 2.2])
        self.assertEqual(study_tables.paired({"a": worse, "b": better}, "a", "b")[3], "a loses")
        self.assertEqual(study_tables.paired({"a": better, "b": worse}, "a", "b")[3], "a wins")
        self.assertEqual(study_tables.paired({"a": noisy, "b": arm([2.2] * 5)}, "a", "b")[3], "a tie")

    def test_a_verdict_needs_an_interval_off_zero_and_a_task_that_separates_the_arms(self):
        arm = lambda vals, acc=None: {"runs": [dict({"seed": i + 1, "val_loss": v}, **({} if acc is None else {"accuracy": acc}))
                                                for i, v in enumerate(vals)]}
        verdict = lambda a, b: study_tables.paired({"a": a, "b": b}, "a", "b")[3]
        # an interval that touches zero (every difference 0 but one) is a tie
        self.assertEqual(verdict(arm([2.0, 2.0, 2.0, 2.0, 2.1]), arm([2.0] * 5)), "a tie")
        # a saturated copying task: both arms copy every symbol, one loses on every seed
        saturated = verdict(arm([1e-4, 2e-4, 3e-4, 4e-4, 5e-4], 1.0), arm([0.0] * 5, 1.0))
        self.assertEqual(saturated, "not separated at this setting: both arms copy at least 99.9% of the held-out symbols (medians)")
        # a loss under the floor in one arm, without accuracies (the regression or the text)
        floor = verdict(arm([0.05, 0.06, 0.05, 0.07, 0.06]), arm([0.001] * 5))
        self.assertEqual(floor, "not separated at this setting: b's median held-out loss is below 0.01 nats")
        # a copying task one arm has not solved separates them
        self.assertEqual(verdict(arm([0.5, 0.6, 0.55, 0.52, 0.58], 0.8), arm([0.02, 0.03, 0.02, 0.025, 0.03], 1.0)), "a loses")

    def test_a_title_says_to_a_plateau_only_when_every_run_plateaued(self):
        runs = lambda *done: [{"converged": d} for d in done]
        self.assertEqual(study_tables.plateau_words(runs(True, True, True), 40000), "trained to a plateau")
        self.assertEqual(study_tables.plateau_words(runs(False, False), 40000),
                         "trained until a plateau or step 40 000; 0 of 2 runs plateaued by then")
        self.assertEqual(study_tables.plateau_words(runs(True, False, True), 10000),
                         "trained until a plateau or step 10 000; 2 of 3 runs plateaued by then")
        self.assertEqual(study_tables.plateau_words([], 500), "trained until a plateau or step 500; 0 of 0 runs plateaued by then")
        study = {"title": "A against B, {plateau}", "flags": ["--steps", "3000"]}
        results = {"jobs": [{"values": {"arms": [{"runs": runs(True, False)}]}}, {"values": {"arms": [{"runs": runs(True)}]}}]}
        self.assertEqual(study_tables.title_words(study, results), "A against B, trained until a plateau or step 3 000; 2 of 3 runs plateaued by then")

    def test_the_bracketed_column_says_where_the_tie_rule_kept_a_higher_score(self):
        a = {"bracketed": {"lr": True}, "limit": None}
        self.assertEqual(study_tables.bracketed_words(a), "yes")
        self.assertEqual(study_tables.bracketed_words({"bracketed": {"lr": False}, "limit": "lowest"}), "no (lowest rate allowed)")
        tie = {"lr": 0.001, "warmup": 300, "beta2": 0.98, "score": 1.5021, "chosen_score": 1.5063}
        self.assertEqual(study_tables.bracketed_words({**a, "tie": tie}),
                         "yes; kept by the tie rule over 0.001, warmup 300, β₂ 0.98, which scored 1.502 against 1.506")

    def test_a_tuned_comparison_is_shrunk_for_the_cluster_check_keeping_its_other_flags(self):
        flags = real("liu")["flags"]
        got = study_cluster.shrunk(flags)
        self.assertEqual(len(got), len(flags))
        for f, v in study_cluster.SHRUNK.items():
            self.assertEqual(got[got.index(f) + 1], v, f)
        rest = lambda xs: [x for i, x in enumerate(xs) if x not in study_cluster.SHRUNK and (i == 0 or xs[i - 1] not in study_cluster.SHRUNK)]
        self.assertEqual(rest(got), rest(flags))
        self.assertIn("--tune", got)

    def test_a_tuned_comparison_run_job_by_job_elsewhere_gives_the_same_bytes(self):
        # needs ablate built (scripts/test.sh builds it first): each round's jobs run as
        # `ablate --run-job`, as the cluster's workers run them
        self.assertTrue(studies.ABLATE.exists(), f"build ablate first: {studies.ABLATE}")
        args = study_cluster.shrunk(real("liu")["flags"]) + ["--norm", "post", "--seed", "1"]
        direct = subprocess.run([str(studies.ABLATE), *args], capture_output=True, text=True, check=True).stdout
        rounds = []

        def run_round(hexes):
            rounds.append(len(hexes))
            return study_cluster.run_job_here(studies.ABLATE, hexes, 2)

        self.assertEqual(study_cluster.run_elsewhere(studies.ABLATE, args, run_round), direct)
        # the search's rounds, then the seeds shown: every candidate of a round its own job
        self.assertGreater(len(rounds), 2, rounds)
        self.assertGreater(rounds[0], 2, rounds)

    def test_the_cluster_check_sets_aside_only_the_timings(self):
        a = '{"x": 1.5, "depth_width": [{"ms_per_step": 0.6, "ms_per_char": 0.03, "val_loss": 2.0}]}'
        b = '{"x": 1.5, "depth_width": [{"ms_per_step": 0.7, "ms_per_char": 0.04, "val_loss": 2.0}]}'
        c = '{"x": 1.5, "depth_width": [{"ms_per_step": 0.6, "ms_per_char": 0.03, "val_loss": 2.5}]}'
        self.assertEqual(study_cluster.untimed(a), study_cluster.untimed(b))
        self.assertNotEqual(study_cluster.untimed(a), study_cluster.untimed(c))

    def test_the_drift_check_compares_nested_numbers(self):
        self.assertTrue(studies.close({"a": [1.0, 2.0]}, {"a": [1.0, 2.0 + 1e-12]}, 1e-9))
        self.assertFalse(studies.close({"a": [1.0, 2.0]}, {"a": [1.0, 2.001]}, 1e-9))
        self.assertFalse(studies.close({"a": 1.0}, {"b": 1.0}, 1e-9))
        self.assertFalse(studies.close([1.0], [1.0, 2.0], 1e-9))



class Reductions(unittest.TestCase):
    """The rules the tables apply, on reports built by hand."""

    def test_removable_is_the_largest_k_whose_smaller_ks_all_keep_the_gain(self):
        # the text's rule: loss under intact + 0.1 × (bigram − intact) = 2.0 + 0.05
        v = {"intact": 2.0, "floor": 2.5, "intact_accuracy": None}
        curve = [{"k": 1, "val_loss": 2.01}, {"k": 2, "val_loss": 2.049}, {"k": 3, "val_loss": 2.06},
                 {"k": 4, "val_loss": 2.0}]
        self.assertEqual(study_tables.removable(curve, v), 2, "k = 4 keeps it, but k = 3 did not")
        # healed: judged against the intact stack trained as long (its own intact)
        healed = {**v, "intact": 1.9}
        self.assertEqual(study_tables.removable(curve, healed), 0, "2.01 is over 1.9 + 0.06")
        # copy: 95% as well as the intact stack
        c = {"intact": 0.001, "floor": 2.3, "intact_accuracy": 1.0}
        self.assertEqual(study_tables.removable([{"k": 1, "val_loss": 9, "accuracy": 0.96},
                                                 {"k": 2, "val_loss": 9, "accuracy": 0.94}], c), 1)

    def test_the_allowance_curve_counts_single_removals_within_each_allowance(self):
        # the text: intact 2.0, bigram 2.5, so the gain is 0.5 nats; removals cost 0.01, 0.04, 0.2, 0.6
        text = {"intact": 2.0, "floor": 2.5, "intact_accuracy": None, "each": [2.01, 2.04, 2.2, 2.6]}
        copy = {"intact": 0.01, "floor": 2.3, "intact_accuracy": 1.0, "each": [0.1] * 3, "each_accuracy": [1.0, 0.92, 0.4]}
        arms = {"t": [{"values": text}, {"values": text}], "c": [{"values": copy}]}
        rows = study_tables.allowance_curve(arms)
        self.assertEqual(rows[2], "| t | 1 [1–1] of 4 (≤ 0.025 nats) | 2 [2–2] of 4 (≤ 0.050 nats) | 2 [2–2] of 4 (≤ 0.100 nats) "
                                  "| 3 [3–3] of 4 (≤ 0.250 nats) | 3 [3–3] of 4 (≤ 0.500 nats) |")
        self.assertEqual(rows[-1], "| c | 1 of 3 | 1 of 3 | 2 of 3 | 2 of 3 | 2 of 3 |")
        self.assertEqual(len(rows), 7, rows)

    def test_a_heads_favourite_offset_is_where_its_mean_weight_is_largest(self):
        c = 6
        # head 1 looks 3 back wherever it can (rows 3-5), else at the first position; head 2 at itself
        back = [[1.0 if k == (q - 3 if q >= 3 else 0) else 0.0 for k in range(c)] for q in range(c)]
        itself = [[1.0 if k == q else 0.0 for k in range(c)] for q in range(c)]
        r = {"config": {"task": "copy", "context": c}, "task": {"val_loss": [[0, 1.0]], "accuracy": [[0, 0.5]]},
             "attention": {"maps": [{"layer": 0, "heads": [back, itself]}]}}
        v = study_tables.attention_heads_values(r)
        # copy scores rows c/2..c-1 = 3, 4, 5: head 1 puts all of them 3 back
        self.assertEqual(v["layers"][0]["heads"][0], {"offset": 3, "weight": 1.0, "at_length": 1.0})
        self.assertEqual(v["layers"][0]["heads"][1], {"offset": 0, "weight": 1.0, "at_length": 0.0})
        # on the text every row counts, and a row too early for the offset counts 0
        r["config"]["task"] = "text"
        v = study_tables.attention_heads_values(r)
        self.assertEqual(v["layers"][0]["heads"][0]["offset"], 3)
        self.assertAlmostEqual(v["layers"][0]["heads"][0]["weight"], 0.5)

    def test_the_first_step_below_the_line_and_the_first_at_95_percent(self):
        text = {"config": {"steps": 300}, "task": {"floors": {"bigram": 2.46}, "val_loss": [[0, 3.3], [100, 2.5], [200, 2.4], [300, 2.3]]}}
        self.assertEqual(study_tables.comparison_steps_values(text), {"at": 200, "end": 2.3, "steps": 300})
        self.assertEqual(study_tables.tasks_values({**text, "diverged_at": None})["first_below_bigram"], 200)
        copy = {"config": {"steps": 200}, "task": {"floors": {"chance": 2.3}, "val_loss": [[0, 2.3], [100, 0.1], [200, 0.0]],
                                                   "accuracy": [[0, 0.1], [100, 0.949], [200, 0.95]]}}
        self.assertEqual(study_tables.comparison_steps_values(copy), {"at": 200, "end": 0.95, "steps": 200})

    def test_the_warmup_preset_story_holds_only_with_all_three_sides_of_the_line(self):
        def job(arm, seed, loss):
            return {"arm": arm, "seed": seed, "values": {"val_loss": loss, "bigram": 2.46}}
        names = ["post-norm", "post-norm, 300 warmup steps", "pre-norm"]
        jobs = [job(n, 3, x) for n, x in zip(names, [3.4, 2.2, 2.0])] + [job(n, 4, x) for n, x in zip(names, [2.3, 2.2, 2.0])]
        table = study_tables.warmup_preset({}, {"jobs": jobs})
        self.assertIn("| 3 | 3.40 | 2.20 | 2.00 | yes |", table)
        self.assertIn("| 4 | 2.30 | 2.20 | 2.00 | no: post-norm learns without warmup |", table)
        self.assertIn("holds on **1 of 2** seeds", table)


if __name__ == "__main__":
    unittest.main()
