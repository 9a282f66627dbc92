/**
 * Group run: keys asked for while a run is in flight go together into the next run, which starts
 * as soon as that one ends; a key asked for while nothing is in flight runs at once, alone (no wait
 * to fill a batch). Each caller gets its own key's value from the run's map (undefined when the
 * run left it out), or the run's error. `max` bounds a run; the rest waits for the next. A key asked
 * for twice before its run gets the same value twice (the run sees it once).
 *
 * Users (issue 37: one statement for many callers, where each was one): the worker's claim of
 * messages to send and its recording of sent ones (messaging.service.ts).
 */
export function groupRun<V>(run: (keys: string[]) => Promise<ReadonlyMap<string, V>>, max = 100): (key: string) => Promise<V | undefined> {
  type Waiter = { key: string; resolve: (value: V | undefined) => void; reject: (err: unknown) => void };
  const waiting: Waiter[] = [];
  let running = false;
  const next = (): void => {
    if (running || waiting.length === 0) return;
    const batch: Waiter[] = [];
    const keys = new Set<string>();
    // Up to `max` distinct keys; a repeated key rides along with its first asker.
    while (waiting.length > 0 && (keys.size < max || keys.has((waiting[0] as Waiter).key))) {
      const w = waiting.shift() as Waiter;
      keys.add(w.key);
      batch.push(w);
    }
    running = true;
    run([...keys])
      .then(
        (values) => batch.forEach((w) => w.resolve(values.get(w.key))),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        running = false;
        next();
      });
  };
  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      next();
    });
}

/** groupRun for a run that answers which keys it did: each caller gets whether its own key was done. */
export function groupCommit(run: (keys: string[]) => Promise<ReadonlySet<string>>, max = 100): (key: string) => Promise<boolean> {
  const grouped = groupRun(async (keys) => {
    const done = await run(keys);
    return new Map(keys.map((k) => [k, done.has(k)]));
  }, max);
  return async (key) => (await grouped(key)) ?? false;
}
