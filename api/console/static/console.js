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
