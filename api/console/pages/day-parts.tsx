import type { ConsoleTaskRow, TeamMemberOption } from '../../../shared/domain/console/index.js';
import { Form, type PageContext } from '../layout.js';

/*
 * What Today, Bookings and Tasks (issue 41) show alike: a wall-clock time at a property with its
 * zone named, the time left before an instant, a task's one-line summary and its quick reassign form.
 */

const DAY_LABEL = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
const DAY_LABEL_YEAR = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });

/**
 * format.ts's dateLabel (`Fri, Nov 27`) through one formatter made once: dateLabel builds one per
 * call (toLocaleDateString), 0.2 ms each on a busy machine, and a list of 25 bookings has 50 dates.
 */
export function dayLabel(date: string, withYear = false): string {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : (withYear ? DAY_LABEL_YEAR : DAY_LABEL).format(d);
}

/** `Asia/Tokyo` -> `Tokyo time`: the zone a person recognises, named beside a time that could be mistaken. */
export function zoneName(zone: string): string {
  const city = zone.split('/').at(-1)?.replace(/_/g, ' ');
  return city ? `${city} time` : zone;
}

/**
 * A wall-clock time at the property (`2026-11-27 15:00:00`, as bookings and tasks store them: already
 * in the property's zone, so no conversion): `15:00 Tokyo time`, or with the date `Fri, Nov 27, 15:00 Tokyo time`.
 */
export function wallTime(local: string, zone: string, withDate = false): string {
  const time = `${local.slice(11, 16)} ${zoneName(zone)}`;
  return withDate ? `${dayLabel(local.slice(0, 10))}, ${time}` : time;
}

/** The time from now until a UTC wire instant, as a person says it: `3 h 20 min`, `2 days 4 h`, or `expired`. */
export function timeLeft(utc: string, now: Date = new Date()): string {
  const ms = Date.parse(`${utc.replace(' ', 'T')}Z`) - now.getTime();
  if (!Number.isFinite(ms)) return utc;
  if (ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} day${days === 1 ? '' : 's'} ${hours} h`;
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

export const TASK_TYPE_LABELS: Record<string, string> = { cleaning: 'Cleaning', handyman: 'Handyman', task: 'Task' };
export const NOBODY = new Set(['unassigned', 'rejected']);

/** A task as a line: what, where, when (in the property's zone), who. */
export function TaskSummary(props: { t: ConsoleTaskRow; withDate?: boolean }) {
  const { t } = props;
  return (
    <>
      <a href={`/app/tasks/${encodeURIComponent(t.task_uid)}`}>
        {TASK_TYPE_LABELS[t.task_type] ?? t.task_type} at {t.property_name}
      </a>{' '}
      · {wallTime(t.local_start_dttm, t.time_zone, props.withDate)} to {t.local_end_dttm.slice(11, 16)} ·{' '}
      {t.team_member_name && !NOBODY.has(t.task_status) ? t.team_member_name : <strong class="flag">{t.task_status === 'rejected' ? `Rejected by ${t.team_member_name ?? 'its cleaner'}` : 'Unassigned'}</strong>}
      {t.task_status !== 'unassigned' && t.task_status !== 'rejected' && <span class="muted"> ({t.task_status})</span>}
    </>
  );
}

/** Give the task to a team member in one step: the form carries the version it was rendered from. */
export function ReassignForm(props: { ctx: PageContext; t: ConsoleTaskRow; team: TeamMemberOption[]; back: string }) {
  const { t } = props;
  if (t.task_status === 'completed') return <></>;
  const id = `assign-${t.task_uid}`;
  return (
    <Form ctx={props.ctx} action={`/app/tasks/${encodeURIComponent(t.task_uid)}`} class="inline quick">
      <input type="hidden" name="version" value={String(t.version)} />
      <input type="hidden" name="back" value={props.back} />
      <label for={id} class="sr-only">
        Team member for {t.task_uid}
      </label>
      <select id={id} name="cleaner_uid">
        <option value="">Nobody (unassigned)</option>
        {props.team
          .filter((m) => m.active)
          .map((m) => (
            <option value={m.uid} selected={m.uid === t.team_member_uid}>
              {m.name}
            </option>
          ))}
      </select>{' '}
      <button type="submit" class="secondary" aria-label={`Assign ${t.task_uid}`}>
        Assign
      </button>
    </Form>
  );
}
