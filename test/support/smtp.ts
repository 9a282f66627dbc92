import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server (the smtp-server package) on a free port, answering as the test says. */
export interface TestSmtp {
  url: string;
  /** Raw messages accepted, in order. */
  received: string[];
  /** DATA attempts seen (accepted or refused). */
  attempts: number;
  /** What the next DATA answers: accept, or a reply code (4xx temporary, 5xx permanent). */
  answers: Array<'accept' | number>;
  /** Client connections opened in all, open now, and the most ever open at once. */
  connections: number;
  open: number;
  maxOpen: number;
  close(): Promise<void>;
}

/** `port`: 0 for a free one; a fixed one to start it again where the service expects it (the fault suite). */
export async function startSmtp(port = 0): Promise<TestSmtp> {
  const state: TestSmtp = { url: '', received: [], attempts: 0, answers: [], connections: 0, open: 0, maxOpen: 0, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    // No reverse DNS of the client: it would stall each connection on a machine without a resolver.
    disableReverseLookup: true,
    // The service's pooled transport keeps its connection open: close does not wait for it.
    closeTimeout: 100,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      state.connections++;
      state.maxOpen = Math.max(state.maxOpen, ++state.open);
      callback();
    },
    onClose() {
      state.open--;
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        state.attempts++;
        const answer = state.answers.shift() ?? 'accept';
        if (answer === 'accept') {
          state.received.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        } else {
          callback(Object.assign(new Error(answer >= 500 ? 'mailbox unavailable' : 'try again later'), { responseCode: answer }));
        }
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** A server that greets like SMTP, then drops the connection at the client's first command. */
export async function startDroppingSmtp(): Promise<{ url: string; connections: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { url: '', connections: 0, close: async () => {} };
  const server: Server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.write('220 dropper ESMTP\r\n');
    socket.once('data', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}

/** A raw message as a person reads it: quoted-printable parts decoded (soft breaks joined, =XX bytes as UTF-8). */
export function readableMail(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  return Buffer.from(joined.replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
}
