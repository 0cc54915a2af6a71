// Wires the page's controls to the wasm `Playground` handle and runs the training loop.
// No maths here: every number and every sentence comes from the Rust core.

const TRAIN_BUDGET_MS = 8; // per animation frame, so a frame stays well under 50 ms
const STATUS_EVERY_MS = 250; // the role="status" line is read aloud: do not flood it
const CAPTION_EVERY_MS = 1000;

function wasmReady(timeoutMs = 20000) {
  if (window.wasmBindings) return Promise.resolve(window.wasmBindings);
  return new Promise((resolve, reject) => {
    addEventListener('TrunkApplicationStarted', () => resolve(window.wasmBindings), { once: true });
    addEventListener('unhandledrejection', (e) => reject(e.reason), { once: true });
    setTimeout(() => reject(new Error('the WebAssembly module did not load in time')), timeoutMs);
  });
}

function showError(root, message) {
  const box = root.querySelector('[data-el="error"]');
  box.textContent = `The playground stopped: ${message}. Reload the page to try again.`;
  box.hidden = false;
  const status = root.querySelector('[data-el="status"]');
  if (status && status.textContent === 'Loading…') status.textContent = 'The playground could not start.';
}

export function mount(root, bindings, query = '') {
  const el = (name) => root.querySelector(`[data-el="${name}"]`);
  const params = [...root.querySelectorAll('[data-param]')];
  const canvases = { histogram: el('histogram'), loss: el('loss'), depth: el('depthplot') };
  const dark = matchMedia('(prefers-color-scheme: dark)');
  let pg = new bindings.Playground(query);
  let playing = !matchMedia('(prefers-reduced-motion: reduce)').matches;
  let dirty = true;
  let textDue = 0;
  let captionDue = 0;

  function notice(lines) {
    const box = el('notice');
    if (!lines.length) return;
    box.textContent = lines.join(' · ');
    box.hidden = false;
  }

  // Controls show the handle's state (after a restart, after a bad value, on load).
  function syncControls() {
    const depth = pg.get('depth');
    el('depth').value = depth;
    el('depth').setAttribute('aria-valuetext', `${depth} layers`);
    el('depth-value').textContent = depth;
    el('residual').checked = pg.get('residual') === 'on';
    const norm = pg.get('norm');
    el('layernorm').checked = norm !== 'off';
    el('placement').hidden = norm === 'off';
    for (const r of el('placement').querySelectorAll('input')) {
      if (norm !== 'off') r.checked = r.value === norm;
    }
    for (const input of params) input.value = pg.get(input.dataset.param);
    el('play').textContent = playing ? 'Pause' : 'Play';
    el('play').setAttribute('aria-pressed', String(playing));
  }

  function set(name, value) {
    try {
      pg.set(name, value);
    } catch (e) {
      notice([e.message ?? String(e)]);
    }
    syncControls();
    dirty = true;
    textDue = 0;
    captionDue = 0;
  }

  function sizeCanvas(canvas) {
    const scale = devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * scale));
    const h = Math.max(1, Math.round(canvas.clientHeight * scale));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    return scale;
  }

  function draw() {
    const isDark = dark.matches;
    const s1 = sizeCanvas(canvases.histogram);
    pg.drawHistogram(canvases.histogram, s1, isDark);
    const s2 = sizeCanvas(canvases.loss);
    pg.drawLoss(canvases.loss, s2, isDark);
    const s3 = sizeCanvas(canvases.depth);
    pg.drawDepth(canvases.depth, s3, isDark);
  }

  function updateText(now) {
    if (now >= textDue) {
      el('status').textContent = pg.status;
      el('histogram-summary').textContent = pg.histogramSummary;
      el('loss-summary').textContent = pg.lossSummary;
      el('depth-summary').textContent = pg.depthSummary;
      canvases.histogram.setAttribute('aria-label', pg.histogramSummary);
      canvases.loss.setAttribute('aria-label', pg.lossSummary);
      canvases.depth.setAttribute('aria-label', pg.depthSummary);
      textDue = now + STATUS_EVERY_MS;
    }
    if (now >= captionDue) {
      el('caption').textContent = pg.caption;
      captionDue = now + CAPTION_EVERY_MS;
    }
  }

  let stopped = false;
  function frame(now) {
    if (stopped) return;
    try {
      if (playing && pg.divergedAt === undefined) {
        pg.train(TRAIN_BUDGET_MS, 1000);
        dirty = true;
      }
      if (dirty) {
        pg.measure();
        draw();
        dirty = false;
        updateText(now);
      }
    } catch (e) {
      stopped = true;
      showError(root, e.message ?? String(e));
      return;
    }
    requestAnimationFrame(frame);
  }

  // ---- events ----
  el('depth').addEventListener('input', (e) => set('depth', e.target.value));
  el('residual').addEventListener('change', (e) => set('residual', e.target.checked ? 'on' : 'off'));
  el('layernorm').addEventListener('change', (e) => {
    const placement = el('placement').querySelector('input:checked')?.value ?? 'pre';
    set('norm', e.target.checked ? placement : 'off');
  });
  for (const r of el('placement').querySelectorAll('input')) {
    r.addEventListener('change', () => set('norm', r.value));
  }
  for (const input of params) input.addEventListener('change', () => set(input.dataset.param, input.value));
  el('play').addEventListener('click', () => {
    playing = !playing;
    syncControls();
  });
  el('step').addEventListener('click', () => {
    playing = false;
    pg.train(Infinity, 1);
    syncControls();
    dirty = true;
    textDue = 0;
    captionDue = 0;
  });
  el('reset').addEventListener('click', () => {
    pg.reset();
    dirty = true;
    textDue = 0;
    captionDue = 0;
  });
  el('rescale').addEventListener('click', () => {
    pg.rescale();
    dirty = true;
  });
  el('reset-scale').addEventListener('click', () => {
    pg.resetScale();
    dirty = true;
  });
  new ResizeObserver(() => (dirty = true)).observe(el('panels'));
  dark.addEventListener('change', () => (dirty = true));

  notice(pg.takeNotices());
  syncControls();
  requestAnimationFrame(frame);
  return {
    get playground() {
      return pg;
    },
    get playing() {
      return playing;
    },
    set,
  };
}

const root = document.querySelector('[data-ap-root]');
if (root) {
  wasmReady()
    .then((bindings) => {
      window.ablationPlayground = mount(root, bindings, location.search);
    })
    .catch((e) => showError(root, e?.message ?? String(e)));
}
