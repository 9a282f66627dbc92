/** A promise that did not settle within its bound (see withTimeout). */
export class TimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * Settles like `p`, or rejects with a TimeoutError after `ms`. The work behind `p` is not
 * cancelled: this bounds how long a caller waits (an HTTP answer, a health check, a scrape) for a
 * dependency that does not answer.
 */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
