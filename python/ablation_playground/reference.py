"""A reference forward pass of the playground's stacks, in numpy alone.

Written from docs/cli.md ("The weights file" and "The batches a loss is measured on"), not from
the Rust: it reads the files `ablate --save-weights` and `ablate --save-eval-batch` write (the
page's Download menu writes the same weights file) and computes the stack's outputs and loss in
float64. A test of the test command trains with `ablate` and checks this module's losses against
the CLI's for every norm placement, norm kind, sublayer, stack, mask and task, so a run can be
taken into other code knowing it is the same model:

    from ablation_playground.reference import Model, EvalBatches
    model = Model.load("run.safetensors")
    batches = EvalBatches.load("batches.safetensors")
    model.val_loss(batches)          # the report's last task.val_loss
    model.loss(batches.probe)        # the report's final.probe_loss
    logits = model.forward(ids)      # ids: whole sequences of token ids -> (T, V) logits

Needs numpy (`pip install ablation-playground[reference]`); the files are read here, without
the safetensors package.
"""

import json
import math
import struct

import numpy as np

__all__ = ["Model", "EvalBatches", "Batch", "read_safetensors"]

_DTYPES = {
    "F64": np.float64,
    "F32": np.float32,
    "I64": np.int64,
    "I32": np.int32,
    "U32": np.uint32,
    "U8": np.uint8,
    "BOOL": np.bool_,
}

EPS = 1e-5


def read_safetensors(path):
    """A safetensors file's tensors (name -> numpy array) and its `__metadata__` (a dict of str)."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    body = memoryview(data)[8 + n :]
    metadata = header.pop("__metadata__", {}) or {}
    tensors = {}
    for name, t in header.items():
        begin, end = t["data_offsets"]
        dtype = np.dtype(_DTYPES[t["dtype"]]).newbyteorder("<")
        tensors[name] = np.frombuffer(body[begin:end], dtype=dtype).reshape(t["shape"]).copy()
    return tensors, metadata


_erf = np.frompyfunc(math.erf, 1, 1)


def gelu(z):
    """GELU in its exact form, `z Φ(z)` with the normal CDF through erf."""
    return z * 0.5 * (1.0 + _erf(z / math.sqrt(2.0)).astype(np.float64))


class Batch:
    """A batch a loss is measured on: a sequence task's `ids`, `next` and `scored` (each (T)), or
    the regression's `inputs` (T, d) and `targets` (T, d)."""

    def __init__(self, ids=None, next=None, scored=None, inputs=None, targets=None):
        self.ids, self.next, self.scored, self.inputs, self.targets = ids, next, scored, inputs, targets


class EvalBatches:
    """What `ablate --save-eval-batch` writes: the probe batch, a sequence task's held-out set,
    the regression's teacher, and the losses the run measured on them last."""

    def __init__(self, tensors, metadata):
        self.metadata = metadata
        self.config = json.loads(metadata["config"])
        self.probe_loss = float(metadata["probe_loss"])
        self.val_loss = float(metadata["val_loss"]) if "val_loss" in metadata else None
        self.teacher = tensors.get("teacher")
        if "probe.ids" in tensors:
            self.probe = Batch(ids=tensors["probe.ids"], next=tensors["probe.next"], scored=tensors["probe.scored"])
            self.held_out = [
                Batch(ids=i, next=n, scored=s)
                for i, n, s in zip(tensors["held_out.ids"], tensors["held_out.next"], tensors["held_out.scored"])
            ]
        else:
            self.probe = Batch(inputs=tensors["probe.inputs"], targets=tensors["probe.targets"])
            self.held_out = []

    @classmethod
    def load(cls, path):
        return cls(*read_safetensors(path))


class Model:
    """A stack read from a weights file: its configuration (`config`, the report's object), the
    updates its weights had (`step`), the text task's characters (`vocab`) and its tensors."""

    def __init__(self, tensors, metadata):
        self.w = {k: v.astype(np.float64) for k, v in tensors.items()}
        self.config = json.loads(metadata["config"])
        self.step = int(metadata.get("step", "0"))
        self.vocab = json.loads(metadata["vocab"]) if "vocab" in metadata else None
        c = self.config
        self.depth = c["depth"]
        self.encoder_decoder = c["stack"] == "encoder-decoder"
        # sublayers of the encoder: the first 2N of 5N
        self.encoder_end = 2 * (self.depth // 5) if self.encoder_decoder else 0

    @classmethod
    def load(cls, path):
        return cls(*read_safetensors(path))

    # --- the pieces --------------------------------------------------------------------------

    def norm(self, x, prefix):
        """LayerNorm `γ (x − mean) / √(var + ε) + β` or RMSNorm `γ x / √(mean(x²) + ε)`, per row."""
        gamma = self.w[f"{prefix}.gamma"]
        if self.config["norm_kind"] == "rmsnorm":
            return gamma * x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + EPS)
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return gamma * (x - mean) / np.sqrt(var + EPS) + self.w[f"{prefix}.beta"]

    def attention(self, h, memory, prefix, masked):
        """Multi-head attention within each sequence: h (S, n, d) the queries' rows, memory
        (S, m, d) the keys' and values' (h itself for self-attention). Head i is the block of
        columns i·d/heads … (i+1)·d/heads of q, k and v; the heads side by side, then `@ o`."""
        w, heads = self.w, self.config["heads"]
        s, n, d = h.shape
        dh = d // heads
        q = (h @ w[f"{prefix}.q.weight"]).reshape(s, n, heads, dh)
        k = (memory @ w[f"{prefix}.k.weight"]).reshape(s, memory.shape[1], heads, dh)
        v = (memory @ w[f"{prefix}.v.weight"]).reshape(s, memory.shape[1], heads, dh)
        scores = np.einsum("sqhe,skhe->shqk", q, k) / math.sqrt(dh)
        if masked:
            future = np.triu(np.ones((n, n), bool), 1)
            scores = np.where(future, -np.inf, scores)
        scores = scores - scores.max(axis=-1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(axis=-1, keepdims=True)
        out = np.einsum("shqk,skhe->sqhe", p, v).reshape(s, n, d)
        return out @ w[f"{prefix}.o.weight"]

    def sublayer(self, l, h, memory):
        """Sublayer l's F on its (normalised, where the placement says) input h (S, n, d)."""
        w, p = self.w, f"layers.{l}"
        if f"{p}.cross_attention.q.weight" in w:
            return self.attention(h, memory, f"{p}.cross_attention", masked=False)
        if f"{p}.attention.q.weight" in w:
            in_encoder = l < self.encoder_end
            masked = self.config["mask"] == "causal" and not in_encoder
            return self.attention(h, h, f"{p}.attention", masked)
        if f"{p}.ffn.up.weight" in w:
            up = gelu(h @ w[f"{p}.ffn.up.weight"] + w[f"{p}.ffn.up.bias"])
            return up @ w[f"{p}.ffn.down.weight"] + w[f"{p}.ffn.down.bias"]
        return np.maximum(h @ w[f"{p}.mlp.weight"], 0.0)

    def layer(self, l, x, memory):
        """x_{ℓ+1} from x_ℓ (its part's rows, (S, n, d)) by the norm placement."""
        c, p = self.config, f"layers.{l}"
        residual = c["residual"] == "on"
        placement = c["norm"]
        f = lambda h: self.sublayer(l, h, memory)  # noqa: E731
        if placement == "off":
            y = f(x)
            return x + y if residual else y
        if placement == "pre":
            y = f(self.norm(x, f"{p}.norm"))
            return x + y if residual else y
        if placement == "sandwich":
            y = self.norm(f(self.norm(x, f"{p}.norm")), f"{p}.norm_after")
            return x + y if residual else y
        if placement == "post":
            return self.norm(x + f(x) if residual else f(x), f"{p}.norm")
        if placement == "deepnorm":
            alpha = self.depth ** 0.25
            return self.norm(alpha * x + f(x) if residual else f(x), f"{p}.norm")
        raise ValueError(f"unknown norm placement {placement!r}")

    # --- the whole pass ----------------------------------------------------------------------

    def embed(self, ids):
        """x₀ (T, d) of token ids: `tokens[id[t]] + positions[t mod C]`."""
        ids = np.asarray(ids, dtype=np.int64)
        positions = self.w["embedding.positions"]
        return self.w["embedding.tokens"][ids] + positions[np.arange(len(ids)) % positions.shape[0]]

    def stream(self, x0):
        """x_L (T, d) from x₀ (T, d): every sublayer on its rows of each sequence."""
        t, d = x0.shape
        # whole sequences of C positions, or one shorter (a prompt being continued)
        context = min(t, self.w["embedding.positions"].shape[0]) if "embedding.positions" in self.w else t
        x = x0.reshape(t // context, context, d).copy()
        source = context - context // 2  # an encoder-decoder's source rows: the first C − ⌊C/2⌋
        memory = None
        for l in range(self.depth):
            if self.encoder_decoder and l == self.encoder_end:
                top = x[:, :source]
                memory = self.norm(top, "encoder_norm") if "encoder_norm.gamma" in self.w else top
            if not self.encoder_decoder:
                x = self.layer(l, x, memory)
            elif l < self.encoder_end:
                x[:, :source] = self.layer(l, x[:, :source], memory)
            else:
                x[:, source:] = self.layer(l, x[:, source:], memory)
        return x.reshape(t, d)

    def forward(self, inputs):
        """The readout's outputs (T, V or d): logits of token ids (whole sequences of `context`
        positions, or one sequence shorter than that, as a prompt), or the regression's
        predictions of features (T, d)."""
        inputs = np.asarray(inputs)
        x0 = self.embed(inputs) if inputs.ndim == 1 else inputs.astype(np.float64)
        x = self.stream(x0)
        if "final_norm.gamma" in self.w:
            x = self.norm(x, "final_norm")
        return x @ self.w["readout.weight"]

    def loss(self, batch):
        """The batch's loss: the mean cross-entropy in nats over its scored positions, or the
        regression's mean squared error over every token and output."""
        if batch.ids is None:
            pred = self.forward(batch.inputs)
            return float(((pred - batch.targets.astype(np.float64)) ** 2).mean())
        logits = self.forward(batch.ids)
        top = logits.max(axis=-1, keepdims=True)
        log_z = (top + np.log(np.exp(logits - top).sum(axis=-1, keepdims=True)))[:, 0]
        nll = log_z - logits[np.arange(len(batch.next)), batch.next.astype(np.int64)]
        scored = np.ones(len(nll), bool) if batch.scored is None else batch.scored.astype(bool)
        return float(nll[scored].mean())

    def probe_loss(self, batches):
        """The loss on the probe batch (the report's `final.probe_loss` for the same weights)."""
        return self.loss(batches.probe)

    def val_loss(self, batches):
        """The held-out loss: the mean of the held-out batches' losses (the report's last
        `task.val_loss` for the same weights)."""
        if not batches.held_out:
            raise ValueError("the regression has no held-out set: its loss is the probe batch's")
        return float(np.mean([self.loss(b) for b in batches.held_out]))
