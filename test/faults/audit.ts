import type { Sql } from '../../shared/infra/db/client.js';

/*
 * A test-only trigger on calendar_requests in the suite's own database: every change of status or
 * finished_dttm is written to an audit table. From it the suite proves "completed exactly once":
 * one move into `completed` per request, never a move out of a final status, finished_dttm written
 * once. The service knows nothing of it.
 */

export async function installAudit(sql: Sql): Promise<void> {
  await sql.unsafe(`
    create table fault_audit (
      id bigserial primary key,
      uid text not null,
      old_status text not null,
      new_status text not null,
      old_finished timestamptz,
      new_finished timestamptz,
      at timestamptz not null default clock_timestamp());
    create function fault_audit_fn() returns trigger language plpgsql as $$
    begin
      if new.status is distinct from old.status or new.finished_dttm is distinct from old.finished_dttm then
        insert into fault_audit (uid, old_status, new_status, old_finished, new_finished)
        values (new.uid, old.status, new.status, old.finished_dttm, new.finished_dttm);
      end if;
      return new;
    end $$;
    create trigger fault_audit_trg after update on calendar_requests
      for each row execute function fault_audit_fn();`);
}

export interface AuditFindings {
  /** Requests that moved into `completed` more than once. */
  completedTwice: string[];
  /** Moves out of `completed` or `error`. */
  leftFinal: { uid: string; from: string; to: string }[];
  /** finished_dttm changed after it was first set. */
  finishedRewritten: string[];
  transitions: number;
}

export async function readAudit(sql: Sql, uids: readonly string[]): Promise<AuditFindings> {
  const twice = await sql<{ uid: string }[]>`
    select uid from fault_audit where new_status = 'completed' and old_status <> 'completed' and uid = any(${sql.array([...uids])})
     group by uid having count(*) > 1`;
  const left = await sql<{ uid: string; old_status: string; new_status: string }[]>`
    select uid, old_status, new_status from fault_audit
     where old_status in ('completed', 'error') and new_status <> old_status`;
  const rewritten = await sql<{ uid: string }[]>`
    select distinct uid from fault_audit where old_finished is not null and new_finished is distinct from old_finished`;
  const [count] = await sql<{ n: number }[]>`select count(*)::int as n from fault_audit`;
  return {
    completedTwice: twice.map((r) => r.uid),
    leftFinal: left.map((r) => ({ uid: r.uid, from: r.old_status, to: r.new_status })),
    finishedRewritten: rewritten.map((r) => r.uid),
    transitions: count?.n ?? 0,
  };
}
