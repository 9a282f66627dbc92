import { describe, expect, it } from 'vitest';
import { endpoints } from '../../api/endpoints/index.js';
import { mcpTools, ToolInputError } from '../../api/mcp/tools.js';
import { loadConfig } from '../../shared/infra/config.js';

/*
 * The MCP tools made from the endpoint definitions (api/mcp/tools.ts): one per method that takes a
 * token, and how a call's arguments become the method's HTTP request.
 */
const tools = mcpTools(endpoints, loadConfig({}));
const tool = (name: string) => tools.find((t) => t.name === name)!;

describe('MCP tools from the endpoint definitions', () => {
  it('makes one tool per token-protected method, named after its operationId', () => {
    const methods = endpoints.filter((d) => d.scopes !== 'public');
    expect(tools.map((t) => t.name)).toEqual(methods.map((d) => d.operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    expect(tools.map((t) => t.name)).not.toContain('livez');
    expect(tools.map((t) => t.name)).not.toContain('receive_channel_message');
  });

  it('gives every method that takes dry_run a confirm instead, and update-task a required version', () => {
    const dryRunnable = endpoints.filter((d) => d.query && 'dry_run' in d.query.shape).map((d) => d.operationId);
    expect(dryRunnable.length).toBeGreaterThanOrEqual(5);
    for (const t of tools) {
      const props = t.inputSchema.properties as Record<string, unknown>;
      expect(props, t.name).not.toHaveProperty('dry_run');
      expect('confirm' in props, t.name).toBe(dryRunnable.some((id) => tool(id.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)) === t));
    }
    expect(tool('update_task').inputSchema.required).toEqual(expect.arrayContaining(['task_uid', 'version']));
    expect(tool('update_task').inputSchema.properties).not.toHaveProperty('If-Match');
  });

  it('turns arguments into the request of the method', () => {
    expect(tool('list_bookings').request({ booking_uids: ['bk_1', 'bk_2'], page: 2, order_by_created_dttm: true, ignored: 'x' })).toEqual({
      method: 'GET', url: '/api/v1/bookings?booking_uids=bk_1%2Cbk_2&order_by_created_dttm=true&page=2', headers: {}, dryRun: false,
    });
    expect(tool('get_property').request({ property_uid: 'pr/../x' }).url).toBe('/api/v1/property/pr%2F..%2Fx');
    expect(tool('set_calendar_batch').request({ property_uid: 'pr_1', days: [], 'Idempotency-Key': 'k1', dry_run: false })).toEqual({
      method: 'POST', url: '/api/v1/set-calendar-batch?dry_run=true', headers: { 'Idempotency-Key': 'k1', 'Content-Type': 'application/json' }, body: '{"property_uid":"pr_1","days":[]}', dryRun: true,
    });
    expect(tool('set_calendar_batch').request({ property_uid: 'pr_1', days: [], confirm: true })).toMatchObject({ url: '/api/v1/set-calendar-batch', dryRun: false });
    expect(tool('update_task').request({ task_uid: 'tk_1', version: 4 })).toMatchObject({ headers: { 'If-Match': '"4"' }, body: '{"task_uid":"tk_1"}' });
  });

  it('refuses what the MCP rules refuse, before any request', () => {
    const refusal = (name: string, args: Record<string, unknown>) => {
      try {
        tool(name).request(args);
      } catch (err) {
        return err instanceof ToolInputError ? err.param : 'other';
      }
      return undefined;
    };
    expect(refusal('update_task', { task_uid: 'tk_1' })).toBe('version');
    expect(refusal('update_task', { task_uid: 'tk_1', version: 1.5 })).toBe('version');
    expect(refusal('set_calendar_batch', { property_uid: 'p', days: [], confirm: 'yes' })).toBe('confirm');
    expect(refusal('set_calendar_batch', { property_uid: 'p', days: [], 'Idempotency-Key': 'a\r\nb' })).toBe('Idempotency-Key');
    expect(refusal('get_property', {})).toBe('property_uid');
  });
});
