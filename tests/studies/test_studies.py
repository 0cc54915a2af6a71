"""The study runner's own checks (scripts/studies.py, scripts/study_tables.py): the schema
refuses what it must, the jobs are the arms times the seeds, the paired bootstrap against what
it must give, and the drift check's comparison.

    python3 -m unittest discover -s tests/studies
"""
import copy, sys, tomllib, unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import studies  # noqa: E402
import study_tables  # noqa: E402


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

    def test_the_drift_check_compares_nested_numbers(self):
        self.assertTrue(studies.close({"a": [1.0, 2.0]}, {"a": [1.0, 2.0 + 1e-12]}, 1e-9))
        self.assertFalse(studies.close({"a": [1.0, 2.0]}, {"a": [1.0, 2.001]}, 1e-9))
        self.assertFalse(studies.close({"a": 1.0}, {"b": 1.0}, 1e-9))
        self.assertFalse(studies.close([1.0], [1.0, 2.0], 1e-9))


if __name__ == "__main__":
    unittest.main()
