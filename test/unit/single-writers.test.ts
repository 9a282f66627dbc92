import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * Issue 34 item 1: each table of durable work has one writer of its rows, a platform piece. A noun
 * that wrote webhook events or requests beside it would be a second outbox, or a second pipeline.
 */
const sources = () =>
  execFileSync('git', ['ls-files', 'api', 'worker', 'shared', 'bin'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'));

/** The source files whose text inserts into `table` (SQL text, any case and spacing). */
function insertersOf(table: string): string[] {
  const pattern = new RegExp(`insert\\s+into\\s+${table}\\b`, 'i');
  return sources().filter((f) => pattern.test(readFileSync(f, 'utf8')));
}

describe('one writer per table of durable work', () => {
  it('webhook_events: only the outbox (shared/platform/outbox) creates webhook events', () => {
    expect(insertersOf('webhook_events')).toEqual(['shared/platform/outbox/outbox.ts']);
  });

  it('calendar_requests: only the request pipeline (shared/platform/requests) stores requests', () => {
    expect(insertersOf('calendar_requests')).toEqual(['shared/platform/requests/requests.repository.ts']);
  });
});
