// The console's progressive enhancement (served as a file: the CSP allows no inline script).
// Everything works without it; with it, destructive buttons ask first.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});
