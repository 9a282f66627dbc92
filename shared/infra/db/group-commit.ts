/**
 * Group commit (the send-message job's recording of sent messages, messaging.service.ts): keys asked for while a run is in flight go together into the next
 * run, which starts as soon as that one ends; a key asked for while nothing is in flight runs at
 * once, alone (no wait to fill a batch). Each caller gets whether its own key was done, or the
 * run's error. `max` bounds a run; the rest waits for the next.
 */
export function groupCommit(run: (keys: string[]) => Promise<ReadonlySet<string>>, max = 100): (key: string) => Promise<boolean> {
  type Waiter = { key: string; resolve: (done: boolean) => void; reject: (err: unknown) => void };
  let waiting: Waiter[] = [];
  let running = false;
  const next = (): void => {
    if (running || waiting.length === 0) return;
    const batch = waiting.slice(0, max);
    waiting = waiting.slice(max);
    running = true;
    run(batch.map((w) => w.key))
      .then(
        (done) => batch.forEach((w) => w.resolve(done.has(w.key))),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        running = false;
        next();
      });
  };
  return (key) =>
    new Promise<boolean>((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      next();
    });
}
