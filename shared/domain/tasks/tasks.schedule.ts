/*
 * Wall-clock arithmetic on `YYYY-MM-DD HH:MM:SS` strings. Task times are the property's local wall
 * clock, so they are computed as if they were UTC: UTC has no DST, which is exactly "no zone
 * conversion". setUTCFullYear avoids Date.UTC's mapping of years 0-99 to 1900-1999.
 */

const WALL_CLOCK_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** The latest wall-clock time the wire format can show (four-digit year). */
export const MAX_WALL_CLOCK = '9999-12-31 23:59:59';

function toMillis(wallClock: string): number {
  const m = WALL_CLOCK_RE.exec(wallClock);
  if (!m) throw new Error(`not a wall-clock time: ${wallClock}`);
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  return d.getTime();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function fromMillis(ms: number): string {
  const d = new Date(ms);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

export function secondsBetween(start: string, end: string): number {
  return Math.round((toMillis(end) - toMillis(start)) / 1000);
}

/** `start` plus whole seconds, or undefined when the result would not fit the wire format. */
export function addSeconds(start: string, seconds: number): string | undefined {
  const ms = toMillis(start) + seconds * 1000;
  return ms > toMillis(MAX_WALL_CLOCK) ? undefined : fromMillis(ms);
}

export const datePart = (wallClock: string) => wallClock.slice(0, 10);
export const timePart = (wallClock: string) => wallClock.slice(11, 19);
