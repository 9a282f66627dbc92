// Temporary probe (not committed): where the idle submit -> completed time goes.
import { submitAndWait } from '../sdk/index.js';
import { benchClient } from './lib/load.js';
import { freePort, startProc } from './lib/procs.js';
import { createBenchEnv, futureDays, redisUrl, serviceEnv } from './lib/setup.js';

const env = await createBenchEnv(5);
const port = await freePort();
const api = await startProc('bin/api.ts', serviceEnv(env, port, redisUrl), /API listening/, 60_000);
const worker = await startProc('bin/worker.ts', serviceEnv(env, 0, redisUrl), /worker started/);
const client = benchClient(`http://127.0.0.1:${port}`, env.token);
const s = env.database.sql;
try {
  const rows: number[][] = [];
  for (let r = 0; r < 60; r++) {
    const t0 = Date.now();
    const p0 = performance.now();
    const done = await submitAndWait(client, { property_uid: env.propertyUids[r % 5]!, days: futureDays(30, 400, r) });
    const total = performance.now() - p0;
    const uid = done.statuses[0]!.request_uid;
    const [row] = await s<{ c: number; st: number; f: number }[]>`select extract(epoch from created_dttm)*1000 as c, extract(epoch from started_dttm)*1000 as st, extract(epoch from finished_dttm)*1000 as f from calendar_requests where uid = ${uid}`;
    if (r >= 10) rows.push([total, row!.c - t0, row!.st - row!.c, row!.f - row!.st, t0 + total - row!.f]);
  }
  const med = (i: number) => rows.map((x) => x[i]!).sort((a, b) => a - b)[Math.floor(rows.length / 2)]!.toFixed(2);
  console.log('total', med(0), 'client->created(txn start)', med(1), 'created->started', med(2), 'started->finished(txn start)', med(3), 'finished->answer', med(4));
} finally {
  await worker.stop();
  await api.stop();
  await env.cleanup();
}
process.exit(0);
