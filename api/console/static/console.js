// The console's progressive enhancement (served as a file: the CSP allows no inline script).
// Everything works without it; with it, destructive buttons ask first and live parts refresh.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  // A button of its own (formaction) may ask its own question: the Proposals page's Reject.
  const question = event.submitter?.getAttribute('data-confirm') ?? form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});

// Live parts (api/console/pages/live.ts): an element with data-live="<url>" gets its inner HTML
// from that url every data-live-ms milliseconds while the tab is visible (one request at a time),
// until the answer says X-Live-Done, is not a fragment (signed out: a redirect), or fails.
function keepLive(el) {
  const url = el.getAttribute('data-live');
  const every = Math.max(1000, Number(el.getAttribute('data-live-ms')) || 3000);
  const tick = async () => {
    if (document.hidden) return setTimeout(tick, every);
    try {
      const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!res.ok || res.redirected) return;
      const html = await res.text();
      if (html !== el.innerHTML) el.innerHTML = html;
      if (res.headers.get('X-Live-Done') === '1') return;
    } catch {
      // The network dropped: try again at the next tick.
    }
    setTimeout(tick, every);
  };
  setTimeout(tick, every);
}
document.addEventListener('DOMContentLoaded', () => {
  for (const el of document.querySelectorAll('[data-live]')) keepLive(el);
});

// Selecting dates on a calendar grid (issue 41): a drag across cells, or a shift-click after a
// first date, fills the change form's From and To (data-range-form) instead of opening the date;
// on the multi-calendar it also ticks the row's property. Without script the form's own date
// fields do the same.
(() => {
  const form = document.querySelector('form[data-range-form]');
  if (!form) return;
  const cellOf = (el) => (el instanceof Element ? el.closest('td[data-date]') : null);
  let start = null;
  let dragged = false;
  const select = (a, b) => {
    const [from, to] = a.dataset.date <= b.dataset.date ? [a, b] : [b, a];
    form.elements.namedItem('from').value = from.dataset.date;
    form.elements.namedItem('to').value = to.dataset.date;
    const propertyOf = (cell) => cell.closest('tr[data-property]')?.dataset.property;
    for (const cell of [a, b]) {
      const box = propertyOf(cell) && document.querySelector(`input[type=checkbox][form="${form.id}"][value="${CSS.escape(propertyOf(cell))}"]`);
      if (box) box.checked = true;
    }
    document.querySelectorAll('td.in-range').forEach((c) => c.classList.remove('in-range'));
    document.querySelectorAll('td[data-date]').forEach((c) => {
      if (c.dataset.date >= from.dataset.date && c.dataset.date <= to.dataset.date && (!propertyOf(c) || propertyOf(c) === propertyOf(a) || propertyOf(c) === propertyOf(b))) c.classList.add('in-range');
    });
  };
  document.addEventListener('mousedown', (e) => {
    start = e.button === 0 ? cellOf(e.target) : null;
    dragged = false;
  });
  document.addEventListener('mouseover', (e) => {
    const cell = cellOf(e.target);
    if (start && e.buttons === 1 && cell && cell !== start) {
      dragged = true;
      select(start, cell);
    }
  });
  document.addEventListener('click', (e) => {
    const cell = cellOf(e.target);
    if (!cell) return;
    if (dragged) {
      e.preventDefault();
      dragged = false;
      return;
    }
    if (e.shiftKey) {
      e.preventDefault();
      const first = document.querySelector(`td[data-date="${form.elements.namedItem('from').value}"]`) ?? cell;
      select(first, cell);
    }
  });
  document.addEventListener('dragstart', (e) => {
    if (cellOf(e.target)) e.preventDefault();
  });
})();
