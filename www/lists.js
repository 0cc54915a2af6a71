// The comparisons' DOM, apart from the widget's main file: All four's table and the pins'
// list. Both take text the core wrote (table cells, pin labels) and rebuild only when it
// changes, so a reader's keyboard focus on a Remove button stays put between frames.

/** A table filled from rows of cells (arrays of text), the first row its header. */
export function tableWriter(table) {
  let shown = '';
  return (rows) => {
    const text = rows.map((row) => row.join('\u0001')).join('\u0002');
    if (text === shown) return;
    shown = text;
    table.replaceChildren();
    rows.forEach((row, r) => {
      const tr = document.createElement('tr');
      for (const text of row) {
        const cell = document.createElement(r === 0 ? 'th' : 'td');
        if (r === 0) cell.scope = 'col';
        cell.textContent = text;
        tr.append(cell);
      }
      (r === 0 ? table.createTHead() : table.tBodies[0] ?? table.createTBody()).append(tr);
    });
  };
}

/** The pins' list: each label, numbered, with a Remove button that calls `onRemove(index)`
 *  (its words `say`'s).
 *  A double click removes one pin, not also the next one, whose button comes to stand where
 *  the removed one was: a click disables every Remove button until the list is written again,
 *  and the second click of a double click (its `detail` counts the clicks) does nothing. */
export function pinListWriter(list, onRemove, say) {
  let shown = '';
  return (labels) => {
    // (with the language: the buttons are in its words)
    const text = [say('pin-remove'), ...labels].join('\u0001');
    if (text === shown) return;
    shown = text;
    list.replaceChildren(
      ...labels.map((label, i) => {
        const li = document.createElement('li');
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.textContent = say('pin-remove');
        remove.setAttribute('aria-label', say('pin-remove-label', { pin: i + 1, label }));
        remove.addEventListener('click', (e) => {
          if (e.detail > 1) return;
          for (const b of list.querySelectorAll('button')) b.disabled = true;
          onRemove(i);
        });
        li.append(`${i + 1} ${label} `, remove);
        return li;
      }),
    );
    list.hidden = labels.length === 0;
  };
}
