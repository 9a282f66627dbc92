/*
 * `npm run bench -- --console-day`: the server time of the console's Today, Bookings and Tasks pages
 * (issue 41: under 100 ms each on the demo data). Seeds the demo company (npm start's, 300 bookings)
 * in a scratch database, starts the API, signs in as a manager and asks each page 20 times in turn
 * (after 3 to warm up); prints the median and the slowest server time (the API's own request log,
 * `responseTime`) and the median the client saw. Not a test: it asserts nothing.
 */
import { seedDemo } from '../bin/demo/seed.js';
import { hashPassword, insertUser } from '../shared/domain/accounts/index.js';
import { freePort, startProc } from './lib/procs.js';
import { benchRuntime, createBenchEnv, serviceEnv } from './lib/setup.js';

const ROUNDS = 20;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

// One bench property of its own company beside the demo (createBenchEnv makes at least one).
const env = await createBenchEnv(1);
try {
  const seeder = await benchRuntime(env);
  const demo = await seedDemo(seeder.services, { companyName: 'Demo Stays' }).finally(() => seeder.close());
  const password = 'bench console day';
  await insertUser(env.database.db, { companyUid: demo.companyUid, email: 'manager@bench.example', name: 'Bench Manager', role: 'manager', passwordHash: await hashPassword(password) });
  const [booking] = await env.database.sql<{ booking_uid: string }[]>`select booking_uid from bookings where company_uid = ${demo.companyUid} order by local_checkin_dttm desc limit 1`;
  const [task] = await env.database.sql<{ task_uid: string }[]>`select task_uid from tasks where company_uid = ${demo.companyUid} limit 1`;
  const [property] = await env.database.sql<{ uid: string }[]>`select uid from properties where company_uid = ${demo.companyUid} order by name limit 1`;
  // The change previewed: next week's Friday to Sunday of every demo property, prices up 10% (a dry run: nothing stored).
  const friday = new Date();
  friday.setUTCDate(friday.getUTCDate() + 7 + ((5 - friday.getUTCDay() + 7) % 7));
  const day = (n: number) => new Date(friday.getTime() + n * 86_400_000).toISOString().slice(0, 10);
  const change = `/app/calendar/change?property_uids=all&from=${day(0)}&to=${day(2)}&price_mode=percent&price=10`;
  const port = await freePort();
  const api = await startProc('bin/api.ts', serviceEnv(env, port), /API listening/);
  const server = new Map<string, number[]>();
  let pending = '';
  api.child.stdout?.on('data', (c: Buffer) => {
    const lines = (pending + c.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"responseTime"')) continue;
      const entry = JSON.parse(line) as { req: { url: string; headers?: Record<string, string> }; responseTime: number };
      server.get(entry.req.url)?.push(entry.responseTime);
    }
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    let cookie = '';
    const keep = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const pair = c.split(';')[0]!;
        const name = pair.split('=')[0]!;
        cookie = [...cookie.split('; ').filter((x) => x && !x.startsWith(`${name}=`)), pair].join('; ');
      }
    };
    const form = await fetch(`${base}/app/login.html`, { redirect: 'manual' });
    keep(form);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    keep(
      await fetch(`${base}/app/login.html`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, email: 'manager@bench.example', password }),
      }),
    );
    const pages = [
      '/app/',
      '/app/bookings',
      '/app/bookings?q=berg',
      `/app/bookings/${booking!.booking_uid}`,
      '/app/tasks',
      '/app/tasks?view=board',
      `/app/tasks/${task!.task_uid}`,
      '/app/calendar',
      `/app/properties/${property!.uid}`,
      `/app/properties/${property!.uid}?date=${day(0)}`,
      change,
      '/app/properties',
      '/app/proposals',
      '/app/requests',
      '/app/inbox',
      '/app/settings',
    ];
    const client = new Map<string, number[]>();
    for (const page of pages) {
      for (let i = 0; i < 3; i++) await (await fetch(base + page, { headers: { cookie } })).text();
      await new Promise((done) => setTimeout(done, 100));
      server.set(page, []);
      client.set(page, []);
      for (let i = 0; i < ROUNDS; i++) {
        const t0 = performance.now();
        const res = await fetch(base + page, { headers: { cookie } });
        await res.text();
        if (res.status !== 200) throw new Error(`${page} answered ${res.status}`);
        client.get(page)!.push(performance.now() - t0);
      }
    }
    await new Promise((done) => setTimeout(done, 300));
    console.log(`console pages on the demo data (${ROUNDS} requests each, one at a time):`);
    for (const page of pages) {
      const s = server.get(page)!;
      console.log(`  ${(page === change ? '/app/calendar/change (preview, every property)' : page).padEnd(48)} server median ${median(s)} ms, slowest ${Math.max(...s)} ms; client median ${median(client.get(page)!).toFixed(1)} ms`);
    }
  } finally {
    await api.stop();
  }
} finally {
  await env.cleanup();
}
