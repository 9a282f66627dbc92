import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../api/endpoints/index.js';
import { scopes as allScopes, type Scope } from '../../shared/domain/auth/index.js';
import { createTask, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { callJson, connectMcp, type McpTransportKind } from '../support/mcp.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * The MCP server (api/mcp/, bin/mcp.ts) through the MCP SDK's own client, over Streamable HTTP
 * (POST /mcp) and over stdio (npm run mcp): tools listed by the token's scopes, reads, calendar
 * writes as a preview unless confirmed, update-task guarded by the task's version, refusals as
 * tool errors carrying the API's code, and hostile arguments that never bring the server down.
 */

const w = useWorld({ queue: 'redis', workers: 1, seed: { scopes: [...allScopes] } });

/** The API methods a token of `scopes` may call, by operationId: the endpoint definitions' own rule. */
const methodsFor = (scopes: readonly Scope[]) =>
  endpoints.filter((d) => d.scopes !== 'public' && (d.scopes === 'any' || d.scopes.some((s) => scopes.includes(s)))).map((d) => d.operationId);
const snake = (id: string) => id.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

async function rows() {
  const [r] = await w.tdb.database.db.execute<{ requests: number; days: number }>(sql`
    select (select count(*)::int from calendar_requests) as requests, (select count(*)::int from calendar_days) as days`);
  return r;
}

// A stdio client is a child process (bin/mcp.ts under tsx): seconds to start on a busy machine.
describe.each<McpTransportKind>(['http', 'stdio'])('MCP server over %s', { timeout: 120_000 }, (kind) => {
  /** Clients of a token with every scope, with tasks only, and with calendar-control only. */
  let all: Client;
  let tasksOnly: Client;
  let calendarOnly: Client;
  beforeAll(async () => {
    const db = w.tdb.database.db;
    const [tasksToken, calendarToken] = await Promise.all([createToken(db, w.company, ['tasks']), createToken(db, w.company, ['calendar-control'])]);
    const made = await Promise.all([w.token, tasksToken.token, calendarToken.token].map((token) => connectMcp(kind, w.p.api.baseUrl, token)));
    [all, tasksOnly, calendarOnly] = made as [Client, Client, Client];
    return () => Promise.all(made.map((c) => c.close())).then(() => undefined);
  }, 180_000);

  it('lists one tool per method the token may call, and only those', async () => {
    const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();
    expect(await names(all)).toEqual(methodsFor(allScopes).map(snake).sort());
    const tasks = await names(tasksOnly);
    expect(tasks).toEqual(methodsFor(['tasks']).map(snake).sort());
    expect(tasks).toEqual(expect.arrayContaining(['list_tasks', 'update_task', 'get_company']));
    expect(tasks).not.toContain('set_calendar_batch');
    const calendar = await names(calendarOnly);
    expect(calendar).toEqual(expect.arrayContaining(['set_calendar_batch', 'get_request_status', 'get_calendar_data']));
    expect(calendar).not.toContain('update_task');
    const batch = (await all.listTools()).tools.find((t) => t.name === 'set_calendar_batch');
    expect(batch?.inputSchema.properties).toHaveProperty('confirm');
    expect(batch?.inputSchema.properties).not.toHaveProperty('dry_run');
    expect(batch?.inputSchema.required).toEqual(expect.arrayContaining(['property_uid', 'days']));
  });

  it('reads through a read tool as the method answers', async () => {
    const company = await callJson(all, 'get_company', {});
    expect(company.isError).toBe(false);
    expect(company.body.data.company_uid).toBe(w.company);
    const property = await callJson(all, 'get_property', { property_uid: w.property });
    expect(property.body.data.property_uid).toBe(w.property);
  });

  it('answers a calendar write with a preview and stores nothing unless confirm is true', async () => {
    const [d1, d2] = futureDates(2, kind === 'http' ? 30 : 60);
    const args = { property_uid: w.property, days: [{ date: d1, price: 150, currency: 'EUR' }, { date: d2, is_available: 0 }] };
    const before = await rows();
    const preview = await callJson(all, 'set_calendar_batch', args);
    expect(preview.isError).toBe(false);
    expect(preview.body.data.request_uids).toEqual([]);
    expect(preview.body.data.preview[d1!]).toMatchObject({ price: 150, currency: 'EUR' });
    expect(preview.body.data.preview[d2!]).toMatchObject({ is_available: 0, unavailable_reason: 'Blocked by host' });
    expect(preview.texts[1]).toMatch(/Dry run: nothing was stored.*"confirm": true/);
    expect(await rows()).toEqual(before);

    const applied = await callJson(all, 'set_calendar_batch', { ...args, confirm: true });
    expect(applied.isError).toBe(false);
    const uids: string[] = applied.body.data.request_uids;
    expect(uids).toHaveLength(1);
    expect((await waitForFinal(w.p.api, w.token, uids)).map((s) => s.request_status)).toEqual(['completed']);
    const read = await callJson(all, 'get_calendar_data', { property_uid: w.property, from_date: d1, to_date: d2 });
    expect(read.body.data.map((d: any) => [d.date, d.price, d.is_available])).toEqual([[d1, 150, 1], [d2, null, 0]]);
  });

  it('refuses update_task without a version and with a stale one, and applies it with the current one', async () => {
    const task = await createTask(w.tdb.database.db, w.company, w.property);
    const missing = await callJson(all, 'update_task', { task_uid: task.taskUid, description: 'no version' });
    expect(missing.isError).toBe(true);
    expect(missing.body.error).toMatchObject({ code: 11, param: 'version' });
    const stale = await callJson(all, 'update_task', { task_uid: task.taskUid, description: 'stale', version: 7 });
    expect(stale.isError).toBe(true);
    expect(stale.body.error).toMatchObject({ code: 11, param: 'If-Match', current: { task_uid: task.taskUid, version: 1, description: 'Turnover clean' } });
    const done = await callJson(all, 'update_task', { task_uid: task.taskUid, description: 'current', version: 1 });
    expect(done.isError).toBe(false);
    expect(done.body.data[0]).toMatchObject({ description: 'current', version: 2 });
  });

  it('refuses a tool of a scope the token lacks with the API code 14, storing nothing', async () => {
    const before = await rows();
    const refused = await callJson(tasksOnly, 'set_calendar_batch', { property_uid: w.property, days: [{ date: futureDates(1, 90)[0], price: 1, currency: 'EUR' }], confirm: true });
    expect(refused.isError).toBe(true);
    expect(refused.body.error).toMatchObject({ code: 14 });
    expect(refused.body.error.message).toMatch(/calendar-control/);
    expect(await rows()).toEqual(before);
  });

  it('answers hostile arguments as tool errors and keeps serving', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = { a: deep };
    const hostile: [string, Record<string, unknown>][] = [
      ['set_calendar_batch', { property_uid: { $ne: null }, days: 'all', confirm: true }],
      ['set_calendar_batch', { property_uid: w.property, days: [deep], confirm: 'yes' }],
      ['set_calendar_batch', { property_uid: w.property, days: deep, confirm: true }],
      ['set_calendar_batch', { property_uid: 'x'.repeat(100_000), days: [], 'Idempotency-Key': 'a\r\nX-Evil: 1', confirm: true }],
      ['update_task', { task_uid: ['tk_1'], version: 'latest' }],
      ['update_task', { task_uid: 'tk_1', version: -1 }],
      ['get_property', { property_uid: { toString: 1 } }],
      ['get_property', {}],
      ['list_bookings', { page: 'minus one', booking_uids: [{}, []], ['__proto__']: { polluted: true } }],
      ['get_request_status', { request_uids: 'rq_'.repeat(5000) }],
    ];
    for (const [name, args] of hostile) {
      const answer = await callJson(all, name, args);
      expect(answer.isError, `${name} ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(true);
      expect(answer.body.error.code, name).toBe(11);
    }
    await expect(all.callTool({ name: 'drop_database', arguments: {} })).rejects.toThrow(/Unknown tool/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await callJson(all, 'get_company', {})).body.data.company_uid).toBe(w.company);
    expect(await rows()).toMatchObject({ requests: expect.any(Number) });
  });
});

describe('MCP server over http, raw messages', () => {
  const post = (body: string, token = w.token) =>
    fetch(`${w.p.api.baseUrl}/mcp`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body });

  it('answers arguments nested 100,000 levels deep as a tool error (no client could even serialise them)', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const res = await post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"set_calendar_batch","arguments":{"property_uid":"pr_x","days":[${deep}]}}}`);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as any;
    expect(answer).toMatchObject({ id: 7, result: { isError: true } });
    expect(JSON.parse(answer.result.content[0].text).error).toMatchObject({ code: 11, param: 'arguments' });
  });

  it('refuses a message without a valid token as the API refuses one (401, code 12)', async () => {
    const res = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', 'not-a-token');
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe(12);
  });
});
