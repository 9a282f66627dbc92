/*
 * The client side: every answer the API gives is recorded with the fault phase it happened in, so
 * the suite can say what the API answered while Postgres or Redis was down.
 */

export interface Answer {
  status: number;
  /** Error code of the envelope, when there is one. */
  code: number | undefined;
  body: any;
  /** ms from sending to the full answer. */
  latencyMs: number;
  /** When it was sent (Date.now()). */
  sentAt: number;
  /** The Retry-After header, when there is one. */
  retryAfter?: string;
  /** Phase label(s) active when the request was sent and when the answer arrived. */
  phase: string;
  what: string;
}

export class ApiClient {
  readonly answers: Answer[] = [];
  /** Labels of the faults in progress, e.g. "postgres-down". Set by the fault injector. */
  readonly phases = new Set<string>();

  private readonly baseUrls: readonly string[];
  private sent = 0;

  /** Several base URLs (API processes): each request goes to the next, in turn. */
  constructor(
    baseUrl: string | readonly string[],
    private readonly token: string,
    private readonly timeoutMs = 20_000,
  ) {
    this.baseUrls = typeof baseUrl === 'string' ? [baseUrl] : baseUrl;
  }

  get baseUrl(): string {
    return this.baseUrls[0]!;
  }

  private phaseNow(): string {
    return [...this.phases].sort().join('+') || 'normal';
  }

  async request(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const started = Date.now();
    const before = this.phaseNow();
    const what = `${method} ${path.split('?')[0] ?? path}`;
    let answer: Answer;
    try {
      const base = this.baseUrls[this.sent++ % this.baseUrls.length]!;
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await res.text();
      let parsed: any = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* keep the text */
      }
      const code = typeof parsed?.error?.code === 'number' ? (parsed.error.code as number) : undefined;
      const retryAfter = res.headers.get('retry-after') ?? undefined;
      answer = { status: res.status, code, body: parsed, latencyMs: Date.now() - started, sentAt: started, phase: '', what, ...(retryAfter ? { retryAfter } : {}) };
    } catch (err) {
      // No answer at all (connection refused/reset, or our timeout): status 0.
      answer = { status: 0, code: undefined, body: String(err), latencyMs: Date.now() - started, sentAt: started, phase: '', what };
    }
    const after = this.phaseNow();
    answer.phase = before === after ? before : `${before}->${after}`;
    this.answers.push(answer);
    return answer;
  }

  get(path: string): Promise<Answer> {
    return this.request('GET', path);
  }

  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer> {
    return this.request('POST', path, body, headers);
  }

  /**
   * A POST as a client sends it through faults: a 503 code 15 or no answer is sent again as it
   * was (its Idempotency-Key included), backing off 250 ms more each try up to 1 s, for at most
   * `retryForMs`. Answers the last answer (200, or the one it gave up on) and the tries it took.
   */
  async postRetrying(path: string, body: unknown, headers: Record<string, string>, retryForMs: number): Promise<{ answer: Answer; tries: number }> {
    const giveUpAt = Date.now() + retryForMs;
    for (let tries = 1; ; tries++) {
      const answer = await this.post(path, body, headers);
      const transient = (answer.status === 503 && answer.code === 15) || answer.status === 0;
      if (answer.status === 200 || !transient || Date.now() > giveUpAt) return { answer, tries };
      await new Promise((r) => setTimeout(r, Math.min(250 * tries, 1000)));
    }
  }
}
