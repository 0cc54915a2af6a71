// The playground's Web Worker: loads the wasm core and runs the live run (engine.js), the
// comparisons' jobs (jobs.js), or a helper's share of the live run's split steps, off the
// page's thread. The first message (`boot`) says which,
// and where the bindings and the loops are, the wasm (the page's compiled module, or its URL),
// with the protocol's message kinds (protocol.js). It imports nothing statically, so that a bundler may copy it as a file on its
// own.

let handle = null;
let KIND = null;
const early = [];

function receive(m) {
  if (m.kind === KIND.text) answer(KIND.textChecked, m.request, () => handle.checkText(m.bytes));
  else if (m.kind === KIND.export) answer(KIND.exported, m.request, () => ({ data: handle.exportRun(m.what) }));
  else if (m.kind === KIND.load) {
    handle.loadWeights(m.bytes, (message) => self.postMessage({ kind: KIND.loaded, request: m.request, ...(message === undefined ? {} : { message }) }));
  }
  else if (m.kind === KIND.state) handle.want(m.state, m.done, m.resume);
  else if (m.kind === KIND.suspend) handle.suspend();
  else if (m.kind === KIND.job) handle.run(m.bytes, m.text);
  else if (m.kind === KIND.cancel) handle.cancel();
  else if (m.kind === KIND.pace) handle.pace(m.share);
  else if (m.kind === KIND.helpers) handle.helpers(m.ports, m.always, relayPorts(m.relays, m.wiring));
  else if (m.kind === KIND.port) handle.port(m.port);
  // (a helper's task through the page, or, in the live worker, a helper's answer)
  else if (m.kind === KIND.relayed) (handle.relayed ?? toRelayPort)(m);
}

/** The live worker's ways to its helpers through the page, one per helper id: each looks
 *  like a MessagePort to engine.js (`postMessage`, `onmessage`, `close`). `wiring` numbers
 *  the page's wiring of the helpers they belong to: an answer to an earlier wiring's task
 *  (another live worker's, whose steps were numbered from 1 too) is dropped. */
let relays = [];
let relaysWiring = 0;
function relayPorts(ids = [], wiring = 0) {
  relaysWiring = wiring;
  relays = ids.map((to) => ({
    to,
    onmessage: null,
    postMessage(message, moved = []) {
      self.postMessage({ kind: KIND.relay, to, wiring, message, moved }, moved);
    },
    close() {},
  }));
  return relays;
}

/** In the live worker, a helper's message through the page, to the relay port it answers
 *  (a helper's own `handle.relayed` answers a task instead). */
function toRelayPort(m) {
  if (m.wiring === relaysWiring) relays.find((r) => r.to === m.from)?.onmessage?.({ data: m.message });
}

/** A helper of the live run: answers the shards of its split steps on the port the page
 *  gives it (one at a time: a new port replaces the old), or through the page. */
function shardHelper(bindings) {
  const helper = new bindings.ShardHelper();
  let current = null;
  /** The answer to a task and the buffers it moves (null for another message): the gradients
   *  written into the spare buffer the task brought, if it holds them; the weights' buffer,
   *  unless shared, goes back with them for the next task. */
  function answerTask(m) {
    if (m?.kind !== KIND.shardTask) return null;
    try {
      const bytes = helper.run(m.bytes, m.weights, m.spare);
      const gradients = helper.takeGradients();
      const weights = m.weights?.buffer instanceof ArrayBuffer ? m.weights : undefined;
      return [{ kind: KIND.shardAnswer, split: m.split, bytes, gradients, weights }, [bytes.buffer, gradients.buffer, ...(weights ? [weights.buffer] : [])]];
    } catch (err) {
      return [{ kind: KIND.shardAnswer, split: m.split, message: String(err?.message ?? err) }, []];
    }
  }
  return {
    port(port) {
      current?.close();
      current = port;
      port.onmessage = (e) => {
        const reply = answerTask(e.data);
        if (reply) port.postMessage(...reply);
      };
    },
    /** A task through the page: answered through it. */
    relayed(m) {
      const reply = answerTask(m.message);
      if (reply) self.postMessage({ kind: KIND.relay, wiring: m.wiring, message: reply[0], moved: reply[1] }, reply[1]);
    },
  };
}

/** Answers a request with what `make()` gives, or with its error's message. */
function answer(kind, request, make) {
  let reply;
  try {
    reply = { kind, request, ...make() };
  } catch (e) {
    reply = { kind, request, message: String(e?.message ?? e) };
  }
  self.postMessage(reply, reply.data?.buffer ? [reply.data.buffer] : []);
}

self.onmessage = async (e) => {
  const m = e.data;
  if (m?.kind !== 'boot') {
    if (handle) receive(m);
    else early.push(m);
    return;
  }
  KIND = m.kinds;
  try {
    const live = m.role === 'live';
    const [bindings, engine, loop] = await Promise.all([import(m.bindings), import(m.engine), import(live ? m.engine : m.jobs)]);
    await bindings.default({ module_or_path: m.wasm });
    if (m.role === 'shards') {
      handle = shardHelper(bindings);
      self.postMessage({ kind: KIND.ready });
      for (const c of early.splice(0)) receive(c);
      return;
    }
    const onError = (message) => self.postMessage({ kind: KIND.error, message });
    const ensureText = engine.textLoader(bindings, m.text);
    if (live) {
      const post = {
        frame: (bytes, timings) =>
          self.postMessage({ kind: KIND.frame, bytes, memory: bindings.memoryBytes(), timings }, [bytes.buffer]),
        knockout: (bytes, generation, purpose) => self.postMessage({ kind: KIND.knockout, bytes, generation, purpose }, [bytes.buffer]),
        textFailed: (message, generation) => self.postMessage({ kind: KIND.textFailed, message, generation }),
        suspended: (bytes) => self.postMessage({ kind: KIND.suspended, bytes }, bytes ? [bytes.buffer] : []),
      };
      handle = loop.createEngine(bindings, post, { onError, ensureText, kinds: KIND });
    } else {
      const report = (bytes, done, id) =>
        self.postMessage({ kind: KIND.report, bytes, done, id, memory: bindings.memoryBytes() }, [bytes.buffer]);
      handle = loop.createJobLoop(bindings, report, { turnTaker: engine.turnTaker, onError, ensureText });
    }
    self.postMessage({ kind: KIND.ready });
    for (const c of early.splice(0)) receive(c);
  } catch (err) {
    self.postMessage({ kind: KIND.bootFailed, message: String(err?.message ?? err) });
  }
};
