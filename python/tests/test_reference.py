"""The reference forward (ablation_playground.reference, numpy alone, written from docs/cli.md)
against `ablate`: for every norm placement, norm kind, sublayer, stack, mask and task, a run
trained by the CLI is saved (--save-weights, --save-eval-batch) and the reference's probe and
held-out losses must equal the report's to 1e-6 relative. The docs' own example is run too.

Run with the package installed and `ablate` built (scripts/test.sh does both):
    python -m unittest discover -s python/tests
"""

import json
import os
import re
import subprocess
import tempfile
import unittest

import numpy as np

from ablation_playground.reference import EvalBatches, Model, read_safetensors

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ABLATE = os.environ.get("AP_ABLATE", os.path.join(ROOT, "target", "release", "ablate"))
RTOL = 1e-6

# Each value of each axis at least once: placement (off, pre, post, sandwich, deepnorm), norm
# kind, sublayer (mlp, ffn, attention, block), residual, final norm, stack, mask, context 0,
# task (teacher, text, copy, induction, reverse).
CASES = [
    "--depth 3",
    "--depth 4 --sublayer ffn --norm post --norm-kind rmsnorm",
    "--depth 3 --residual off --norm off",
    "--depth 4 --sublayer ffn --norm deepnorm",
    "--task text --depth 4",
    "--task text --depth 4 --norm post",
    "--task text --depth 4 --sublayer attention --norm sandwich --norm-kind rmsnorm",
    "--task text --depth 4 --sublayer ffn --norm deepnorm",
    "--task text --depth 4 --norm off",
    "--task text --depth 4 --mask none",
    "--task text --depth 3 --sublayer mlp --context 0 --tokens 64",
    "--task text --depth 4 --final-norm off",
    "--task text --depth 4 --residual off --norm sandwich",
    "--task copy --depth 2",
    "--task induction",
    "--task reverse --depth 4",
    "--task reverse --stack encoder-decoder --depth 10",
    "--task reverse --stack encoder-decoder --depth 5 --norm post --mask none",
    "--task copy --stack encoder-decoder --depth 5 --norm sandwich --norm-kind rmsnorm --residual off",
]


def ablate(args, tmp):
    weights, batches = os.path.join(tmp, "w.safetensors"), os.path.join(tmp, "b.safetensors")
    out = subprocess.run([ABLATE, *args, "--save-weights", weights, "--save-eval-batch", batches],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError(f"ablate {' '.join(args)} failed: {out.stderr}")
    return json.loads(out.stdout), weights, batches


class Reference(unittest.TestCase):
    def test_the_reference_gives_the_clis_losses_for_every_kind_of_stack(self):
        with tempfile.TemporaryDirectory() as tmp:
            for case in CASES:
                args = case.split() + ["--steps", "30"]
                with self.subTest(case=case):
                    report, weights, batches = ablate(args, tmp)
                    model, b = Model.load(weights), EvalBatches.load(batches)
                    self.assertEqual(model.config, b.config, "the two files name one configuration")
                    self.assertEqual(model.step, 30)
                    # the batches' file carries the losses the report printed, to the bit
                    self.assertEqual(b.probe_loss, report["final"]["probe_loss"])
                    probe = model.probe_loss(b)
                    self.assertLess(abs(probe - b.probe_loss), RTOL * abs(b.probe_loss),
                                    f"{case}: probe loss {probe!r} here, {b.probe_loss!r} by ablate")
                    if report["task"]["name"] == "teacher":
                        self.assertIsNone(b.val_loss)
                        x, y, a = b.probe.inputs, b.probe.targets, b.teacher
                        self.assertEqual(a.shape, (model.config["width"], model.config["width"]))
                        np.testing.assert_allclose(x.astype(np.float64) @ a, y, rtol=1e-5, atol=1e-5,
                                                   err_msg="the regression's targets are its inputs @ teacher")
                    else:
                        self.assertEqual(b.val_loss, report["task"]["val_loss"][-1][1])
                        val = model.val_loss(b)
                        self.assertLess(abs(val - b.val_loss), RTOL * abs(b.val_loss),
                                        f"{case}: held-out loss {val!r} here, {b.val_loss!r} by ablate")

    def test_the_metadata_says_what_the_file_holds(self):
        with tempfile.TemporaryDirectory() as tmp:
            for norm, has_final in (("pre", True), ("sandwich", True), ("post", False), ("deepnorm", False), ("off", False)):
                _, weights, _ = ablate(["--task", "text", "--depth", "2", "--steps", "1", "--norm", norm], tmp)
                tensors, meta = read_safetensors(weights)
                config = json.loads(meta["config"])
                self.assertEqual(config["final_norm"], "on" if has_final else "off", norm)
                self.assertEqual("final_norm.gamma" in tensors, has_final, norm)
            # the positions' shape for every context: [C, d], with C the tokens at context 0
            for context, rows in (("16", 16), ("0", 64)):
                _, weights, _ = ablate(["--task", "text", "--depth", "1", "--steps", "0", "--tokens", "64", "--context", context], tmp)
                tensors, _ = read_safetensors(weights)
                self.assertEqual(tensors["embedding.positions"].shape[0], rows, f"context {context}")

    def test_the_docs_example_runs_as_written(self):
        """docs/cli.md's example of the reference, run in a directory where ablate wrote its files."""
        with open(os.path.join(ROOT, "docs", "cli.md"), encoding="utf-8") as f:
            docs = f.read()
        section = docs[docs.index("## A reference forward in numpy"):]
        shell = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
        python = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        self.assertLessEqual(len(python.strip().splitlines()), 10, "the docs promise ten lines")
        with tempfile.TemporaryDirectory() as tmp:
            command = shell.strip().split()
            self.assertEqual(command[0], "ablate")
            subprocess.run([ABLATE, *command[1:]], cwd=tmp, check=True, capture_output=True)
            out = subprocess.run([os.sys.executable, "-c", python], cwd=tmp, check=True, capture_output=True, text=True)
        self.assertRegex(out.stdout, r"^\d+\.\d+ \d+\.\d+\n", f"the example printed {out.stdout!r}")
        mine, cli = (float(v) for v in out.stdout.split()[:2])
        self.assertLess(abs(mine - cli), RTOL * cli, out.stdout)


if __name__ == "__main__":
    unittest.main()
