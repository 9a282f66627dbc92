/**
 * A yes/no read from the queue (is it paused?) that answers at once from memory and is refreshed
 * in the background once older than `maxAgeMs`. Asked on every get-request-status of a queued
 * request: without it each such answer waited for Redis, up to the 2 s bound during an outage.
 * A failed refresh keeps the last value read (the flag changes only when an operator acts); before
 * any read succeeded the flag reads false. Only the very first call waits for a read.
 */
export function cachedFlag(read: () => Promise<boolean>, maxAgeMs: number): { get(): Promise<boolean> } {
  let value: boolean | undefined;
  let readAt = -Infinity;
  let inFlight: Promise<void> | undefined;
  const refresh = () =>
    (inFlight ??= read()
      .then(
        (v) => {
          value = v;
        },
        () => {},
      )
      .finally(() => {
        readAt = Date.now();
        inFlight = undefined;
      }));
  return {
    async get() {
      if (readAt === -Infinity) await refresh();
      else if (Date.now() - readAt > maxAgeMs) void refresh();
      return value ?? false;
    },
  };
}
