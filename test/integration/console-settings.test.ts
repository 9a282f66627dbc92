import { beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * /app/settings over HTTP (issue 42): a person's notification modes saved and read back, the
 * company's guest reply minutes for owners only, bad input the page again with its message, and
 * every form guarded by its CSRF token.
 */

const t = useWorld({ api: true });
const w = {} as { owner: ConsoleClient; manager: ConsoleClient; managerUid: string; company: string };

const allModes = (mode: string) => ({ reservation_request: mode, guest_waiting: mode, proposal_waiting: mode, webhook_failed: mode });

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db, 'Settings Co');
  const owner = await createUser(db, w.company, { role: 'owner' });
  const manager = await createUser(db, w.company, { role: 'manager' });
  w.managerUid = manager.uid;
  w.owner = new ConsoleClient(t.api.baseUrl);
  w.manager = new ConsoleClient(t.api.baseUrl);
  expect((await w.owner.signIn(owner.email, owner.password)).status).toBe(303);
  expect((await w.manager.signIn(manager.email, manager.password)).status).toBe(303);
});

describe('notification settings', () => {
  it('shows email for every kind at first, then what the person saved', async () => {
    const first = await w.manager.get('/app/settings');
    expect(first.status).toBe(200);
    expect(first.text.match(/value="email" checked/g)).toHaveLength(4);
    const csrf = await w.manager.csrf('/app/settings');
    const saved = await w.manager.post('/app/settings/notifications', { _csrf: csrf, ...allModes('digest'), webhook_failed: 'off' });
    expect(saved.status).toBe(303);
    expect(saved.location).toMatch(/\/app\/settings\?done=saved$/);
    expect(await t.api.ctx.services.notifications.settings(w.managerUid)).toEqual({ reservation_request: 'digest', guest_waiting: 'digest', proposal_waiting: 'digest', webhook_failed: 'off' });
    const again = await w.manager.get('/app/settings?done=saved');
    expect(again.text).toContain('Your notification settings are saved.');
    expect(again.text).toContain('value="off" checked');
  });

  it('refuses a mode it does not know, or a kind left out, with the page and its message (400)', async () => {
    const csrf = await w.manager.csrf('/app/settings');
    const bad = await w.manager.post('/app/settings/notifications', { _csrf: csrf, ...allModes('email'), guest_waiting: 'shout' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Not saved: choose email, digest or off for guest waiting');
    const missing = await w.manager.post('/app/settings/notifications', { _csrf: csrf, reservation_request: 'email' });
    expect(missing.status).toBe(400);
    expect((await t.api.ctx.services.notifications.settings(w.managerUid)).guest_waiting).toBe('digest');
  });

  it('refuses a post without its CSRF token (403)', async () => {
    expect((await w.manager.post('/app/settings/notifications', allModes('off'))).status).toBe(403);
    expect((await w.owner.post('/app/settings/guest-reply', { minutes: '45' })).status).toBe(403);
  });
});

describe("the company's guest reply minutes", () => {
  it('are set by an owner, within 5 to 1440 minutes', async () => {
    const csrf = await w.owner.csrf('/app/settings');
    expect((await w.owner.post('/app/settings/guest-reply', { _csrf: csrf, minutes: '45' })).status).toBe(303);
    expect(await t.api.ctx.services.notifications.guestReplyMinutes(w.company)).toBe(45);
    for (const minutes of ['2', '5000', 'soon', '']) {
      const bad = await w.owner.post('/app/settings/guest-reply', { _csrf: csrf, minutes });
      expect(bad.status, minutes).toBe(400);
      expect(bad.text).toContain('Not saved');
    }
    expect(await t.api.ctx.services.notifications.guestReplyMinutes(w.company)).toBe(45);
  });

  it('are not offered to a manager, and a manager posting them is refused (403)', async () => {
    expect((await w.manager.get('/app/settings')).text).not.toContain('name="minutes"');
    const csrf = await w.manager.csrf('/app/settings');
    expect((await w.manager.post('/app/settings/guest-reply', { _csrf: csrf, minutes: '10' })).status).toBe(403);
    expect(await t.api.ctx.services.notifications.guestReplyMinutes(w.company)).toBe(45);
  });
});
