"""The weights file, read as a reader would: with the `safetensors` package and numpy, and the
forward pass of ablation_playground.reference (numpy, written from docs/cli.md alone). A
pre-norm text stack trained by `ablate` continues a prompt greedily (temperature 0); the
reference must write the same characters, every one an argmax of logits computed there."""

import json
import os
import subprocess
import tempfile
import unittest

import numpy as np
from safetensors import safe_open
from safetensors.numpy import load_file

from ablation_playground.reference import Model

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ABLATE = os.environ.get("AP_ABLATE", os.path.join(ROOT, "target", "release", "ablate"))


class WeightsFileTest(unittest.TestCase):
    def test_numpy_from_the_docs_writes_what_the_stack_wrote(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "w.safetensors")
            prompt = "ROMEO.\nWhat"
            out = subprocess.run(
                [ABLATE, "--task", "text", "--depth", "6", "--steps", "150", "--temperature", "0",
                 "--prompt", prompt, "--write", "40", "--save-weights", path],
                check=True, capture_output=True, text=True,
            ).stdout
            report = json.loads(out)
            w = load_file(path)
            with safe_open(path, "np") as f:
                meta = f.metadata()
            model = Model(w, meta)
        config = json.loads(meta["config"])
        self.assertEqual(config, report["config"], "the metadata's configuration is the report's")
        self.assertEqual(meta["step"], "150")
        vocab = json.loads(meta["vocab"])
        self.assertEqual(len(vocab), report["task"]["vocab"])
        self.assertEqual(w["embedding.tokens"].shape, (len(vocab), config["width"]))
        self.assertEqual(w["layers.1.ffn.up.weight"].shape, (config["width"], 4 * config["width"]))
        ids = [vocab.index(c) for c in prompt]
        written = ""
        for _ in range(40):
            seen = ids[-config["context"]:]
            nxt = int(np.argmax(model.forward(np.array(seen))[-1]))
            ids.append(nxt)
            written += vocab[nxt]
        self.assertEqual(written, report["writing"]["continuation"], f"numpy wrote {written!r}, the stack {report['writing']['continuation']!r}")


if __name__ == "__main__":
    unittest.main()
