// Following the host's theme: when the host sets none of the --ap-* properties, the widget
// takes the text colour it inherits and the colour painted behind it (the first opaque
// background up the composed tree), and the core chooses its colours from them at WCAG AA
// contrast (`hostTheme`; no maths here). Watched cheaply: the attributes of <html> and
// <body> (a site's theme toggle), <head>'s stylesheets, the element's own style and class,
// and the colour-scheme media query; never polled.

const OWN = ['--ap-bg', '--ap-fg', '--ap-accent'];
/** A theme switch may fade the host's background: look again once it has settled. */
const SETTLE_MS = 400;

/**
 * Makes the widget root `root`, inside `host`'s shadow root, follow the host's colours;
 * `probe` is an element of that shadow root outside `root` that paints the system Canvas
 * colour (the page's own colour where nothing else is painted). `onChange(dark)` after the
 * colours changed. Returns { dark (null when the host themes the widget itself), stop() }.
 */
export function followHost(bindings, host, root, probe, onChange) {
  const state = { css: null, dark: null, timer: 0, frame: 0 };
  function ancestors() {
    const out = [];
    for (let el = host; el; ) {
      out.push(getComputedStyle(el).backgroundColor);
      const parent = el.parentElement;
      const shadowHost = el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null;
      el = parent ?? shadowHost;
    }
    return out;
  }
  function apply() {
    const hostStyle = getComputedStyle(host);
    const themed = OWN.some((p) => hostStyle.getPropertyValue(p).trim() !== '');
    const css = themed ? '' : bindings.hostTheme(hostStyle.color, ancestors(), getComputedStyle(probe).backgroundColor);
    if (css === state.css) return;
    if (state.css) for (const pair of state.css.split(';')) root.style.removeProperty(pair.split(':')[0]);
    state.css = css;
    state.dark = null;
    if (css) {
      for (const pair of css.split(';')) {
        const [name, value] = pair.split(':');
        root.style.setProperty(name, value);
      }
      state.dark = /^color-scheme:dark/.test(css);
    }
    onChange(state.dark);
  }
  function soon() {
    cancelAnimationFrame(state.frame);
    state.frame = requestAnimationFrame(apply);
    clearTimeout(state.timer);
    state.timer = setTimeout(apply, SETTLE_MS);
  }
  const observer = new MutationObserver(soon);
  observer.observe(document.documentElement, { attributes: true });
  if (document.body) observer.observe(document.body, { attributes: true });
  if (document.head) observer.observe(document.head, { childList: true, subtree: true, attributes: true });
  // the host's own style or class may set --ap-* (or drop them)
  observer.observe(host, { attributes: true, attributeFilter: ['style', 'class'] });
  const scheme = matchMedia('(prefers-color-scheme: dark)');
  scheme.addEventListener('change', soon);
  apply();
  return {
    get dark() {
      return state.dark;
    },
    stop() {
      observer.disconnect();
      scheme.removeEventListener('change', soon);
      clearTimeout(state.timer);
      cancelAnimationFrame(state.frame);
    },
  };
}
