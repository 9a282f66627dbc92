/*
 * The second baseline of (d) (issue 23): the same durable work as an accepted batch with nothing
 * else: bare node:http + JSON.parse, the same insert of the request rows (insertRequests, one
 * transaction, chunks of CALENDAR_CHUNK_DAYS) and the same queue add (the runtime's calendar jobs),
 * then the same answer. No Express, zod, token, rate limit, idempotency or logging: what the full
 * API costs beyond this is what its own layers cost.
 */
import http from 'node:http';
import { createRuntime } from '../shared/app/runtime.js';
import { insertRequests } from '../shared/platform/requests/index.js';
import { loadConfig } from '../shared/infra/config.js';
import { createLogger } from '../shared/infra/logger.js';

const config = loadConfig();
const runtime = await createRuntime(config, createLogger('silent', { proc: 'bench-durable' }));
const company = process.env.BENCH_COMPANY ?? 'co_bench';
const chunkDays = config.calendar.chunkDays;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { property_uid: string; days: object[] };
      const parts: object[][] = [];
      for (let i = 0; i < body.days.length; i += chunkDays) parts.push(body.days.slice(i, i + chunkDays));
      const uids = await runtime.database.db.transaction((tx) => insertRequests(tx, company, body.property_uid, parts, []));
      await runtime.jobs.calendar.enqueue(uids);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { request_uid: uids[0], request_uids: uids, warnings: {} } }));
    })().catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => void runtime.close().then(() => process.exit(0))));
