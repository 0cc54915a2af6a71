// What the page around a widget does to it: its size, the screen's pixel density, the colour
// scheme, and whether it is near the viewport. Each is watched by the browser's own observers
// (never polled), and all of them are let go together.

/**
 * Watches widget `w`'s surroundings: `changed()` after a resize, a density or colour-scheme
 * change; `visibility(near)` when the widget comes near the viewport or leaves it.
 * Returns a function that stops watching.
 */
export function watchSurroundings(w, { changed, visibility }) {
  const { root, el } = w;
  const ro = new ResizeObserver(changed);
  ro.observe(el('panels'));
  w.renderer.dark.addEventListener('change', changed);
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
  // Lazy and polite: compute only near the viewport (200 px ahead), pause when scrolled away.
  const io = new IntersectionObserver((entries) => visibility(entries[entries.length - 1].isIntersecting), {
    rootMargin: '200px',
  });
  io.observe(root);
  return () => {
    io.disconnect();
    ro.disconnect();
    w.renderer.dark.removeEventListener('change', changed);
    density.removeEventListener('change', densityChanged);
  };
}
