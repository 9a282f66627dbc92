import type { NotificationKind } from '../../infra/db/schema/index.js';
import type { WaitingEvent } from './notifications.events.js';

/*
 * The words of each notification: a subject that says what waits and for whom, a body that says
 * what to do and links to where it is done. Names, not ids; times in the property's zone, named.
 */

export interface Composed {
  subject: string;
  body: string;
}

const str = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** "Mon 12 Jan 2030, 15:00 (Asia/Tokyo)": an instant in a zone, the zone named. */
export function instantIn(iso: string, zone: string): string {
  const d = new Date(iso);
  const safeZone = isZone(zone) ? zone : 'UTC';
  const text = new Intl.DateTimeFormat('en-GB', { timeZone: safeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
  return `${text} (${safeZone})`;
}

/** A wall-clock "YYYY-MM-DD HH:MM" as "Mon 12 Jan 2030, 15:00". */
function wallClock(local: string): string {
  const d = new Date(`${local.replace(' ', 'T')}:00Z`);
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
}

/** A stay's dates as words: "Mon 10 Mar to Wed 12 Mar 2031" (the year once, at the end). */
function stayDates(from: string, to: string): string {
  const f = (d: string, year: boolean) => {
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).formatToParts(new Date(`${d.slice(0, 10)}T00:00:00Z`));
    const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
    return [part('weekday'), part('day'), part('month'), ...(year ? [part('year')] : [])].join(' ');
  };
  return `${f(from, from.slice(0, 4) !== to.slice(0, 4))} to ${f(to, true)}`;
}

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function money(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(Number(amount));
  } catch {
    return `${amount} ${currency}`;
  }
}

const footer = (consoleUrl: string) => `\n\nYou are told because you are an owner or manager of this company. Choose what you are told, and how: ${consoleUrl}/settings`;

export function compose(kind: NotificationKind, e: WaitingEvent, ctx: { consoleUrl: string; requestHours: number }): Composed {
  const f = e.fields;
  switch (kind) {
    case 'reservation_request': {
      const guest = str(f.guest) || 'A guest';
      const expires = new Date(Date.parse(str(f.booked)) + ctx.requestHours * 3600_000).toISOString();
      return {
        subject: `Reservation request: ${guest}, ${str(f.property)}, ${stayDates(str(f.checkin), str(f.checkout))}`,
        body:
          `${guest} asks to stay at ${str(f.property)}:\n` +
          `  arriving ${wallClock(str(f.checkin))}, leaving ${wallClock(str(f.checkout))} (local time)\n` +
          `  ${str(f.guests)} guest(s), total ${money(str(f.total), str(f.currency))}, reservation ${str(f.reservation_code)}\n\n` +
          `It expires unanswered at ${instantIn(expires, str(f.time_zone))}.\nAccept or decline it: ${ctx.consoleUrl}/reservation-requests` +
          footer(ctx.consoleUrl),
      };
    }
    case 'guest_waiting': {
      const guest = str(f.guest) || 'A guest';
      return {
        subject: `${guest} is waiting for a reply (${str(f.property)})`,
        body:
          `${guest}, staying at ${str(f.property)}, wrote at ${instantIn(str(f.sent), str(f.time_zone))} and nobody has answered yet:\n\n` +
          `  "${str(f.text)}"\n\nReply: ${ctx.consoleUrl}/inbox/${str(f.thread_id)}` +
          footer(ctx.consoleUrl),
      };
    }
    case 'proposal_waiting': {
      const app = str(f.app) || 'A pricing app';
      const range = f.first_date === f.last_date ? stayDates(str(f.first_date), str(f.first_date)).split(' to ')[1] : stayDates(str(f.first_date), str(f.last_date));
      return {
        subject: `${app} proposes calendar changes for ${str(f.property)}`,
        body:
          `${app} proposes changes to ${str(f.dates)} date(s) of ${str(f.property)} (${range}). Nothing changes until you approve them.\n` +
          `Review them: ${ctx.consoleUrl}/proposals` +
          footer(ctx.consoleUrl),
      };
    }
    case 'webhook_failed':
      return {
        subject: `A webhook event to ${str(f.app)} could not be delivered`,
        body:
          `The ${str(f.type)} event for ${str(f.app)} failed for good after ${str(f.attempts)} attempt(s) to ${str(f.url) || 'its webhook URL'}.\n` +
          `Last answer: ${str(f.last_error) || 'none'}\n\nSee the attempts and redeliver it: ${ctx.consoleUrl}/webhooks` +
          footer(ctx.consoleUrl),
      };
  }
}

/** The daily digest: every item's subject, then every item's body. */
export function composeDigest(items: ReadonlyArray<{ subject: string; body: string }>, day: string, consoleUrl: string): Composed {
  const lines = items.map((i, n) => `${n + 1}. ${i.subject}`).join('\n');
  const bodies = items.map((i, n) => `--- ${n + 1}. ${i.subject}\n${i.body.split('\n\nYou are told because')[0] ?? ''}`).join('\n\n');
  return {
    subject: `Daily digest ${day}: ${items.length} thing${items.length === 1 ? '' : 's'} waiting`,
    body: `${lines}\n\n${bodies}${footer(consoleUrl)}`,
  };
}
