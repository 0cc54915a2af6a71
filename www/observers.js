// What the page around a widget does to it: its size, the screen's pixel density, the colour
// scheme (and, for the element, the host's own theme: theme.js), and whether it is near the
// viewport. Each is watched by the browser's own observers (never polled), and all of them are
// let go together.

import { followHost } from './theme.js';

/**
 * Watches widget `w`'s surroundings: `changed()` after a resize, a density or colour-scheme
 * change; `visibility(near)` when the widget comes near the viewport or leaves it.
 * Returns a function that stops watching.
 */
export function watchSurroundings(w, { changed, visibility }) {
  const { root, el } = w;
  const ro = new ResizeObserver(changed);
  ro.observe(el('panels'));
  w.parts.renderer.dark.addEventListener('change', changed);
  // Moved to a screen of another pixel density: redraw the canvases at the new resolution
  // (a media query for the current density, asked again after each change).
  let density = matchMedia(`(resolution: ${devicePixelRatio}dppx)`);
  function densityChanged() {
    density.removeEventListener('change', densityChanged);
    density = matchMedia(`(resolution: ${devicePixelRatio}dppx)`);
    density.addEventListener('change', densityChanged);
    changed();
  }
  density.addEventListener('change', densityChanged);
  // Lazy and polite: compute only near the viewport (200 px ahead) and when shown, pause when
  // scrolled away or hidden (a slide not yet shown in a deck is transparent, or invisible):
  // the ancestors' class, style and hidden attributes, and the end of their transitions, say
  // when to look again.
  const seen = { near: false, shown: null };
  const shown = () => !root.checkVisibility || root.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  function report() {
    const now = seen.near && shown();
    if (now !== seen.shown) visibility((seen.shown = now));
  }
  const io = new IntersectionObserver(
    (entries) => {
      seen.near = entries[entries.length - 1].isIntersecting;
      report();
    },
    { rootMargin: '200px' },
  );
  io.observe(root);
  const ancestors = new MutationObserver(report);
  const host = w.options.followHost?.host;
  const slide = fitSlide(root, host);
  for (let el = host?.parentElement; el; el = el.parentElement) {
    ancestors.observe(el, { attributes: true, attributeFilter: ['class', 'style', 'hidden'] });
  }
  const settled = (e) => {
    if (host && e.target instanceof Node && e.target.contains(host)) report();
  };
  document.addEventListener('transitionend', settled, true);
  // the element follows its host's colours unless the host sets --ap-* (theme.js)
  const follow = w.options.followHost;
  const theme = follow
    ? followHost(w.bindings, follow.host, root, follow.probe, () => {
        w.parts.renderer.forgetColours();
        changed();
      })
    : null;
  const stop = () => {
    theme?.stop();
    io.disconnect();
    ancestors.disconnect();
    document.removeEventListener('transitionend', settled, true);
    ro.disconnect();
    slide?.disconnect();
    w.parts.renderer.dark.removeEventListener('change', changed);
    density.removeEventListener('change', densityChanged);
  };
  return { theme, stop };
}

/**
 * On a slide of a Reveal.js deck (a fixed size, 960 × 700 by default, scaled as a whole) the
 * charts take the height the slide leaves: the slide's content (a heading, the widget's
 * controls, status and captions) must end inside the slide's own height, so each row of charts
 * gives up its share of the overflow, down to 7rem, from its 16:9 height. Measured in the
 * slide's own pixels (offsetTop and offsetHeight: the deck's scale does not enter), again
 * whenever the slide's content or the widget changes size. The slide's top counts as the deck
 * placed it: Reveal centres a slide when it shows it, and the widget's captions and charts fill
 * in after that (it computes only once shown), so the slide keeps a top chosen for a shorter
 * one until the deck lays out again (when it does, writing the slide's style, the charts are
 * fitted again). Returns the observers (null off a slide).
 */
function fitSlide(root, host) {
  const slides = host?.closest('.reveal .slides');
  const section = host?.closest('section');
  if (!slides || !section || root.dataset.layout !== 'slide') return null;
  const fit = () => {
    root.style.removeProperty('--ap-i-chart-h');
    const over = section.offsetTop + section.offsetHeight - slides.offsetHeight;
    const charts = [...root.querySelectorAll('.ap-panel canvas')].filter((c) => c.offsetParent);
    if (over <= 0 || !charts.length) return;
    const rows = new Set(charts.map((c) => c.getBoundingClientRect().top)).size;
    const natural = charts[0].offsetHeight;
    const least = 7 * parseFloat(getComputedStyle(root).fontSize);
    root.style.setProperty('--ap-i-chart-h', `${Math.max(least, Math.floor(natural - over / rows))}px`);
  };
  const ro = new ResizeObserver(fit);
  ro.observe(section);
  ro.observe(root);
  const placed = new MutationObserver(fit);
  placed.observe(section, { attributes: true, attributeFilter: ['style'] });
  return {
    disconnect() {
      ro.disconnect();
      placed.disconnect();
    },
  };
}
