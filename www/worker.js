// The playground's Web Worker: loads the wasm core and runs the training loop (engine.js) off
// the page's thread. The first message says where the bindings, the wasm and the engine are;
// every later message is an engine command. Frames go back as transferred byte buffers.
// It imports nothing statically, so that a bundler may copy it as a file on its own.

let engine = null;
const early = [];

self.onmessage = async (e) => {
  const m = e.data;
  if (m?.type !== 'boot') {
    if (engine) engine.command(m);
    else early.push(m);
    return;
  }
  try {
    const [bindings, { createEngine }] = await Promise.all([import(m.bindings), import(m.engine)]);
    await bindings.default({ module_or_path: m.wasm });
    engine = createEngine(bindings, (bytes, seq, timings) =>
        self.postMessage({ type: 'frame', bytes, seq, memory: bindings.memoryBytes(), timings }, [bytes.buffer]), {
      onError: (message) => self.postMessage({ type: 'error', message }),
      postLab: (bytes, timings) => self.postMessage({ type: 'lab', bytes, timings }, [bytes.buffer]),
    });
    self.postMessage({ type: 'ready' });
    for (const c of early.splice(0)) engine.command(c);
  } catch (err) {
    self.postMessage({ type: 'boot-failed', message: String(err?.message ?? err) });
  }
};
