"""The playground's training step in numpy (and PyTorch, where it is installed), for BENCHMARKS.md's
peers: the same stack, data and optimiser as `cargo bench --bench step`'s `mlp` row at depth 96
(width 32, 64 tokens), in float32 on one thread.

    bash benches/peers/run.sh          (installs numpy, and @tensorflow/tfjs for peers.mjs, under
                                        target/peers/, then runs both)

The stack: x_{l+1} = x_l + relu(LN_l(x_l) W_l) for 96 layers (pre-norm, LayerNorm with its gain and
bias), a final LayerNorm, a linear readout; the loss the mean squared error against a random linear
teacher y = x A on 64 fresh tokens x ~ N(0, I) a step; Adam (lr 0.01, betas 0.9 and 0.999, eps 1e-8).
numpy's backward is written out as the core's is; PyTorch's is its autograd. What differs from the
core: the random draws (numpy's and torch's generators, not the core's), so the numbers, not the
work, differ. Prints one line per peer: the median of 7 timed batches of 50 steps, ms per step.
"""

import os
import statistics
import sys
import time

import numpy as np

D, T, L = 32, 64, 96
LR, B1, B2, EPS = 0.01, 0.9, 0.999, 1e-8
f32 = np.float32


def layer_norm(x, g, b):
    mu = x.mean(1, keepdims=True)
    xc = x - mu
    inv = 1.0 / np.sqrt((xc * xc).mean(1, keepdims=True) + f32(1e-5))
    xh = xc * inv
    return xh * g + b, (xh, inv)


def layer_norm_back(dy, g, cache):
    xh, inv = cache
    dxh = dy * g
    dx = inv * (dxh - dxh.mean(1, keepdims=True) - xh * (dxh * xh).mean(1, keepdims=True))
    return dx, (dy * xh).sum(0), dy.sum(0)


class NumpyStack:
    def __init__(self, rng):
        s = 1.0 / np.sqrt(D)
        self.w = [rng.normal(0, s, (D, D)).astype(f32) for _ in range(L)]
        self.g = [np.ones(D, f32) for _ in range(L + 1)]
        self.b = [np.zeros(D, f32) for _ in range(L + 1)]
        self.r = rng.normal(0, s, (D, D)).astype(f32)
        self.a = rng.normal(0, s, (D, D)).astype(f32)
        self.params = self.w + self.g + self.b + [self.r]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0
        self.rng = rng

    def step(self):
        x = self.rng.standard_normal((T, D), dtype=f32)
        y = x @ self.a
        caches = []
        for l in range(L):
            h, c = layer_norm(x, self.g[l], self.b[l])
            z = h @ self.w[l]
            caches.append((h, c, z))
            x = x + np.maximum(z, 0)
        hf, cf = layer_norm(x, self.g[L], self.b[L])
        out = hf @ self.r
        diff = out - y
        loss = float((diff * diff).mean())
        dout = diff * f32(2.0 / diff.size)
        dr = hf.T @ dout
        dx, dgf, dbf = layer_norm_back(dout @ self.r.T, self.g[L], cf)
        dw, dg, db = [None] * L, [None] * (L + 1), [None] * (L + 1)
        dg[L], db[L] = dgf, dbf
        for l in reversed(range(L)):
            h, c, z = caches[l]
            dz = dx * (z > 0)
            dw[l] = h.T @ dz
            dh, dg[l], db[l] = layer_norm_back(dz @ self.w[l].T, self.g[l], c)
            dx = dx + dh
        grads = dw + dg + db + [dr]
        self.t += 1
        c1, c2 = 1 - B1**self.t, 1 - B2**self.t
        for p, gr, m, v in zip(self.params, grads, self.m, self.v):
            m *= B1
            m += (1 - B1) * gr
            v *= B2
            v += (1 - B2) * gr * gr
            p -= f32(LR / c1) * m / (np.sqrt(v / c2) + f32(EPS))
        return loss


def torch_stack():
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    s = 1.0 / D**0.5
    w = [torch.nn.Parameter(torch.randn(D, D) * s) for _ in range(L)]
    norms = [torch.nn.LayerNorm(D, eps=1e-5) for _ in range(L + 1)]
    r = torch.nn.Parameter(torch.randn(D, D) * s)
    a = torch.randn(D, D) * s
    params = w + [p for n in norms for p in n.parameters()] + [r]
    opt = torch.optim.Adam(params, lr=LR, betas=(B1, B2), eps=EPS)

    def step():
        x = torch.randn(T, D)
        y = x @ a
        for l in range(L):
            x = x + torch.relu(norms[l](x) @ w[l])
        loss = ((norms[L](x) @ r - y) ** 2).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return float(loss)

    return torch.__version__, step


def timed(step, batches=7, per=50):
    for _ in range(per):  # warm
        step()
    times = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(per):
            step()
        times.append((time.perf_counter() - t0) * 1000 / per)
    return statistics.median(times), min(times)


def main():
    stack = NumpyStack(np.random.default_rng(0))
    first = stack.step()
    med, best = timed(stack.step)
    print(f"numpy {np.__version__}, one thread: {med:.3f} ms a step (fastest batch {best:.3f}); first loss {first:.3f}")
    try:
        version, step = torch_stack()
    except ImportError as e:
        print(f"torch: not measured ({e})")
        return
    med, best = timed(step)
    print(f"torch {version} on the CPU, one thread: {med:.3f} ms a step (fastest batch {best:.3f})")


if __name__ == "__main__":
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        sys.exit("run with OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 (run.sh does): one thread, as the core's step")
    main()
