import { z } from 'zod';
import { bookingReadScopes, calendarReadScopes, type Scope } from '../auth/index.js';
import { badParam } from '../../infra/errors.js';
import { changeKinds, changeOps, type ChangeKind } from '../../infra/db/schema/change-kinds.js';

export const MAX_CHANGES_WAIT_SECONDS = 30;

export const changesQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  kinds: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const list = [...new Set(v.split(',').map((k) => k.trim()))];
      const bad = list.find((k) => !(changeKinds as readonly string[]).includes(k));
      if (bad === undefined) return list as ChangeKind[];
      ctx.addIssue({ code: 'custom', message: `must be a comma list of ${changeKinds.join(', ')}` });
      return z.NEVER;
    }),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  wait: z.coerce.number().min(0).max(MAX_CHANGES_WAIT_SECONDS).optional(),
});
export type ChangesQuery = z.output<typeof changesQuerySchema>;

export const changeSchema = z.object({
  change_uid: z.string(),
  kind: z.enum(changeKinds),
  uid: z.string(),
  op: z.enum(changeOps),
  changed_dttm: z.string(),
  object: z.unknown(),
});
export type Change = z.infer<typeof changeSchema>;

/** Which scopes can read each kind (those of its list method; properties and listings: any token). */
export const kindScopes: Record<ChangeKind, readonly Scope[] | 'any'> = {
  booking: bookingReadScopes,
  task: ['tasks'],
  calendar_day: calendarReadScopes,
  property: 'any',
  listing: 'any',
  thread: ['messaging'],
  message: ['messaging'],
};

export const readableKinds = (scopes: readonly Scope[]): ChangeKind[] =>
  changeKinds.filter((k) => {
    const need = kindScopes[k];
    return need === 'any' || need.some((s) => scopes.includes(s));
  });

/**
 * Position in the feed: the next read starts at feed position `pos`, skipping its first `skip`
 * entries (a calendar_day change holds one entry per date, so a page may end inside one).
 * Opaque on the wire: base64url of "v1.<pos>.<skip>".
 */
export interface Cursor {
  pos: number;
  skip: number;
}

export const encodeCursor = (c: Cursor) => Buffer.from(`v1.${c.pos}.${c.skip}`).toString('base64url');

export function decodeCursor(text: string): Cursor {
  const m = /^v1\.(\d{1,15})\.(\d{1,6})$/.exec(Buffer.from(text, 'base64url').toString('latin1'));
  if (!m) throw badParam('cursor', 'Invalid parameter cursor: not a cursor get-changes gave (or "now")');
  return { pos: Number(m[1]), skip: Number(m[2]) };
}
