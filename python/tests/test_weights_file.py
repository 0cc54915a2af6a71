"""The weights file, read as a reader would: with the `safetensors` package and numpy, and the
forward pass written from docs/cli.md ("The weights file") alone. A pre-norm text stack trained
by `ablate` continues a prompt greedily (temperature 0); the same forward pass in numpy must
write the same characters, every one an argmax of logits computed here."""

import json
import os
import subprocess
import tempfile
import unittest
from math import erf, sqrt

import numpy as np
from safetensors import safe_open
from safetensors.numpy import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ABLATE = os.environ.get("AP_ABLATE", os.path.join(ROOT, "target", "release", "ablate"))


def layer_norm(x, gamma, beta, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


GELU = np.vectorize(lambda z: z * 0.5 * (1.0 + erf(z / sqrt(2.0))))


def attention(x, w, prefix, heads):
    t, d = x.shape
    dh = d // heads
    q, k, v = (x @ w[f"{prefix}.{n}.weight"] for n in "qkv")
    out = np.zeros_like(x)
    for h in range(heads):
        s = slice(h * dh, (h + 1) * dh)
        scores = q[:, s] @ k[:, s].T / sqrt(dh)
        scores = np.where(np.tril(np.ones((t, t), bool)), scores, -np.inf)
        p = np.exp(scores - scores.max(axis=-1, keepdims=True))
        out[:, s] = (p / p.sum(axis=-1, keepdims=True)) @ v[:, s]
    return out @ w[f"{prefix}.o.weight"]


def logits(ids, w, config):
    """A pre-norm decoder's logits at every position of `ids` (at most the context)."""
    x = w["embedding.tokens"][ids] + w["embedding.positions"][: len(ids)]
    for i in range(config["depth"]):
        p = f"layers.{i}"
        h = layer_norm(x, w[f"{p}.norm.gamma"], w[f"{p}.norm.beta"])
        if f"{p}.attention.q.weight" in w:
            x = x + attention(h, w, f"{p}.attention", config["heads"])
        else:
            up = GELU(h @ w[f"{p}.ffn.up.weight"] + w[f"{p}.ffn.up.bias"])
            x = x + up @ w[f"{p}.ffn.down.weight"] + w[f"{p}.ffn.down.bias"]
    x = layer_norm(x, w["final_norm.gamma"], w["final_norm.beta"])
    return x @ w["readout.weight"]


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
            nxt = int(np.argmax(logits(np.array(seen), w, config)[-1]))
            ids.append(nxt)
            written += vocab[nxt]
        self.assertEqual(written, report["writing"]["continuation"], f"numpy wrote {written!r}, the stack {report['writing']['continuation']!r}")


if __name__ == "__main__":
    unittest.main()
