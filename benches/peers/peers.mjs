// The playground's training step in TensorFlow.js, for BENCHMARKS.md's peers: the stack, data and
// optimiser of peers.py (the `mlp` row of `cargo bench --bench step` at depth 96: width 32, 64
// tokens, float32), its gradients by tf.variableGrads, on TF.js's WebAssembly backend (the one a
// page would choose without a GPU; SIMD, one thread as Node runs it here) and its plain JavaScript
// backend. Prints one line per backend: the median of 7 timed batches of 20 steps, ms per step.
//
//   bash benches/peers/run.sh

import { createRequire } from 'node:module';

// (TF.js's CommonJS builds: its ES modules import files by names without their extension)
const require = createRequire(import.meta.url);
const tf = require('@tensorflow/tfjs');
require('@tensorflow/tfjs-backend-wasm');

const D = 32;
const T = 64;
const L = 96;

function layerNorm(x, g, b) {
  const { mean, variance } = tf.moments(x, 1, true);
  return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5))), g), b);
}

function stack() {
  const s = 1 / Math.sqrt(D);
  const w = Array.from({ length: L }, () => tf.variable(tf.randomNormal([D, D], 0, s)));
  const g = Array.from({ length: L + 1 }, () => tf.variable(tf.ones([D])));
  const b = Array.from({ length: L + 1 }, () => tf.variable(tf.zeros([D])));
  const r = tf.variable(tf.randomNormal([D, D], 0, s));
  const a = tf.randomNormal([D, D], 0, s);
  const optimizer = tf.train.adam(0.01, 0.9, 0.999, 1e-8);
  return () =>
    tf.tidy(() => {
      const x0 = tf.randomNormal([T, D]);
      const y = tf.matMul(x0, a);
      const cost = optimizer.minimize(() => {
        let x = x0;
        for (let l = 0; l < L; l++) x = tf.add(x, tf.relu(tf.matMul(layerNorm(x, g[l], b[l]), w[l])));
        return tf.mean(tf.square(tf.sub(tf.matMul(layerNorm(x, g[L], b[L]), r), y)));
      }, true);
      return cost.dataSync()[0];
    });
}

function timed(step, batches = 7, per = 20) {
  for (let i = 0; i < per; i++) step();
  const times = [];
  for (let k = 0; k < batches; k++) {
    const t0 = performance.now();
    for (let i = 0; i < per; i++) step();
    times.push((performance.now() - t0) / per);
  }
  times.sort((p, q) => p - q);
  return { median: times[batches >> 1], best: times[0] };
}

for (const backend of ['wasm', 'cpu']) {
  await tf.setBackend(backend);
  await tf.ready();
  tf.randomNormal([1]).dispose();
  const step = stack();
  const first = step();
  const { median, best } = timed(step);
  console.log(`tfjs ${tf.version_core} (${backend} backend): ${median.toFixed(3)} ms a step (fastest batch ${best.toFixed(3)}); first loss ${first.toFixed(3)}`);
  tf.disposeVariables();
}
