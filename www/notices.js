// The notices above the controls: what the widget replaced, ignored or could not do. Each is its
// own node, added to a live region, so that a screen reader announces only the new one; the
// last MAX_SHOWN stay, with a count of the earlier ones.

const MAX_SHOWN = 8;

/** A `notice(lines)` function writing into `box`. */
export function noticeBoard(box, { earlier: earlierWords = (n) => `…and ${n} earlier` } = {}) {
  let count = 0;
  return function notice(lines) {
    for (const line of lines) {
      const item = document.createElement('span');
      item.dataset.notice = '';
      item.textContent = count ? ` · ${line}` : line;
      count++;
      box.append(item);
    }
    const items = box.querySelectorAll('[data-notice]');
    for (let i = 0; i < items.length - MAX_SHOWN; i++) items[i].remove();
    const earlier = count - MAX_SHOWN;
    let counter = box.querySelector('[data-earlier]');
    if (earlier > 0) {
      if (!counter) {
        counter = document.createElement('span');
        counter.dataset.earlier = '';
        counter.setAttribute('aria-hidden', 'true');
        box.prepend(counter);
      }
      counter.textContent = earlierWords(earlier);
    }
  };
}
