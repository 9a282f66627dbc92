/*
 * A local server of the fault suite that goes down for windows and comes back on the same port
 * (the webhook receiver, the SMTP server): what every instance received is kept in one list.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Instance<R> {
  received: R[];
  close(): Promise<void>;
}

export abstract class RestartableServer<R> {
  readonly received: R[] = [];
  private current: Instance<R> | undefined;
  downWindows = 0;

  constructor(readonly port: number) {}

  /** Starts one instance on `port`. */
  protected abstract open(port: number): Promise<Instance<R>>;

  async start() {
    this.current = await this.open(this.port);
    const mine = this.current.received;
    const push = mine.push.bind(mine);
    mine.push = (...items: R[]) => {
      this.received.push(...items);
      return push(...items);
    };
  }

  /** Down (connection refused) for `ms`, then back on the same port. */
  async down(ms: number) {
    this.downWindows++;
    await this.current?.close();
    this.current = undefined;
    await sleep(ms);
    await this.start();
  }

  async stop() {
    await this.current?.close();
  }
}
