import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../../shared/app/context.js';
import type { ConsoleTaskRow, TeamMemberOption } from '../../../shared/domain/console/index.js';
import { DESCRIPTION_MAX_LENGTH, MAX_TASK_HOURS, taskStatuses, type UpdateTaskBody } from '../../../shared/domain/tasks/index.js';
import { AppError, badParam, notFound, shown } from '../../../shared/infra/errors.js';
import { calendarDate } from '../../../shared/infra/http/wire.js';
import { pageContext, requireUser, safeNext, userOf } from '../guard.js';
import { Form, Layout, type PageContext } from '../layout.js';
import { render } from '../render.js';
import { TASK_TYPE_LABELS, wallTime } from './day-parts.js';

/*
 * /app/tasks/:uid (issue 41): reassign, reschedule, edit the description and change the status of
 * one task through update-task's service (TasksService.update) with If-Match. The form carries the
 * version it was rendered from; when the task changed meanwhile the service refuses (412) and the
 * page shows the task as it now is, says so, and asks again: nothing is overwritten silently.
 * Only the fields that differ from the stored task are sent, so an untouched field is never written.
 */

const TASK_UID = /^[\w-]{1,100}$/;
const blank = (v: unknown) => (v === '' ? undefined : v);

export const taskFormSchema = z.object({
  version: z.coerce.number({ error: 'is missing: open the task again' }).int().min(1, 'is missing: open the task again'),
  back: z.string().max(500).optional(),
  // "" is a value here (unassign); absent keeps the cleaner.
  cleaner_uid: z.string().max(100, 'must be a team member').optional(),
  task_status: z.preprocess(blank, z.enum(taskStatuses, { error: 'must be a task status' }).optional()),
  dt: z.preprocess(blank, calendarDate.optional()),
  tm: z.preprocess(blank, z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time HH:MM').optional()),
  hr: z.preprocess(blank, z.coerce.number({ error: 'must be a number of hours' }).gt(0, 'must be greater than 0').max(MAX_TASK_HOURS, `must be at most ${MAX_TASK_HOURS}`).optional()),
  description: z.string().max(DESCRIPTION_MAX_LENGTH, `must be at most ${DESCRIPTION_MAX_LENGTH} characters`).optional(),
});
type TaskForm = z.output<typeof taskFormSchema>;

const hoursOf = (t: ConsoleTaskRow) => (Date.parse(`${t.local_end_dttm.replace(' ', 'T')}Z`) - Date.parse(`${t.local_start_dttm.replace(' ', 'T')}Z`)) / 3_600_000;

/** The update-task body of what the form changes against the stored task (same values are left out). */
export function changesOf(cur: ConsoleTaskRow, form: TaskForm): { body: Omit<UpdateTaskBody, 'task_uid'>; status?: (typeof taskStatuses)[number] } {
  const body: Omit<UpdateTaskBody, 'task_uid'> = {};
  if (form.cleaner_uid !== undefined && form.cleaner_uid !== (cur.team_member_uid ?? '')) body.cleaner_uid = form.cleaner_uid;
  if (form.dt !== undefined && form.dt !== cur.local_start_dttm.slice(0, 10)) body.dt = form.dt;
  const tm = form.tm === undefined ? undefined : form.tm.length === 5 ? `${form.tm}:00` : form.tm;
  if (tm !== undefined && tm !== cur.local_start_dttm.slice(11, 19)) body.tm = tm;
  if (form.hr !== undefined && Math.abs(form.hr - hoursOf(cur)) > 1 / 7200) body.hr = form.hr;
  if (form.description !== undefined && form.description.replace(/\r\n/g, '\n') !== (cur.description ?? '')) body.description = form.description.replace(/\r\n/g, '\n');
  const status = form.task_status !== undefined && form.task_status !== cur.task_status ? form.task_status : undefined;
  return status ? { body, status } : { body };
}

function TaskForm(props: { ctx: PageContext; t: ConsoleTaskRow; team: TeamMemberOption[] }) {
  const { t } = props;
  const done = t.task_status === 'completed';
  return (
    <Form ctx={props.ctx} action={`/app/tasks/${encodeURIComponent(t.task_uid)}`} class="stacked task-form">
      <input type="hidden" name="version" value={String(t.version)} />
      <label for="f-member">Team member</label>
      <select id="f-member" name="cleaner_uid" disabled={done}>
        <option value="">Nobody (unassigned)</option>
        {props.team.map((m) => (
          <option value={m.uid} selected={m.uid === t.team_member_uid} disabled={!m.active && m.uid !== t.team_member_uid}>
            {m.name}
            {m.active ? '' : ' (inactive)'}
          </option>
        ))}
      </select>
      <label for="f-status">Status</label>
      <select id="f-status" name="task_status" disabled={done}>
        {taskStatuses.map((s) => (
          <option value={s} selected={s === t.task_status}>
            {s}
          </option>
        ))}
      </select>
      <label for="f-date">Date (at {t.property_name})</label>
      <input id="f-date" type="date" name="dt" value={t.local_start_dttm.slice(0, 10)} disabled={done} />
      <label for="f-time">Start time ({wallTime(t.local_start_dttm, t.time_zone).slice(6)})</label>
      <input id="f-time" type="time" name="tm" value={t.local_start_dttm.slice(11, 16)} disabled={done} />
      <label for="f-hours">Hours</label>
      <input id="f-hours" type="number" name="hr" min="0.25" max={String(MAX_TASK_HOURS)} step="0.25" value={String(Math.round(hoursOf(t) * 100) / 100)} disabled={done} />
      <label for="f-description">Description</label>
      <textarea id="f-description" name="description" rows={4} maxlength={DESCRIPTION_MAX_LENGTH}>
        {t.description ?? ''}
      </textarea>
      <button type="submit">Save task</button>
      {done && <p class="muted">A completed task keeps its team member, status and time: only its description can change.</p>}
    </Form>
  );
}

async function renderTask(req: Request, res: Response, t: ConsoleTaskRow, team: TeamMemberOption[], message?: { text: string; kind: 'notice' | 'error' }, status = 200) {
  const pctx = { ...pageContext(req, res), path: '/app/tasks' };
  await render(
    res,
    <Layout ctx={pctx} title={`${TASK_TYPE_LABELS[t.task_type] ?? t.task_type} at ${t.property_name}`}>
      <p class="crumbs">
        <a href="/app/tasks">Tasks</a>
      </p>
      <h1>
        {TASK_TYPE_LABELS[t.task_type] ?? t.task_type} at {t.property_name}
      </h1>
      {message && (
        <p class={message.kind === 'error' ? 'notice error' : 'notice'} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      <p>
        {wallTime(t.local_start_dttm, t.time_zone, true)} to {t.local_end_dttm.slice(11, 16)} · {t.team_member_name ?? 'nobody'} · {t.task_status}
      </p>
      <TaskForm ctx={pctx} t={t} team={team} />
      <p class="muted details">
        Task {t.task_uid} · version {t.version}
      </p>
    </Layout>,
    status,
  );
}

export function taskEditRoutes(ctx: AppContext): Router {
  const router = Router();
  const load = async (companyUid: string, raw: string) => {
    if (!TASK_UID.test(raw)) throw badParam('task_uid', 'task_uid must be a task id');
    const found = await ctx.services.consoleDay.task(companyUid, raw);
    if (!found.task) throw notFound('task_uid', `Unknown task ${shown(raw)}`);
    return { task: found.task, team: found.team };
  };

  router.get('/tasks/:uid', requireUser(ctx), async (req, res) => {
    const { task, team } = await load(userOf(res).companyUid, String(req.params.uid));
    await renderTask(req, res, task, team, req.query.saved === '1' ? { text: 'Saved.', kind: 'notice' } : undefined);
  });

  router.post('/tasks/:uid', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const { task: cur, team } = await load(user.companyUid, String(req.params.uid));
    const parsed = taskFormSchema.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      await renderTask(req, res, cur, team, { text: `${String(issue?.path[0] ?? 'form')} ${issue?.message ?? 'is invalid'}. Nothing was saved.`, kind: 'error' }, 400);
      return;
    }
    const form = parsed.data;
    const { body, status } = changesOf(cur, form);
    try {
      await ctx.services.tasks.update(user.companyUid, { task_uid: cur.task_uid, ...body }, { any: false, versions: [form.version] }, status ? { task_status: status } : {});
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      const now = (await load(user.companyUid, cur.task_uid)).task;
      const text =
        err.status === 412
          ? `This task changed while you had it open (you had version ${form.version}, it is now at version ${now.version}). Nothing was saved: here it is as it is now; make your change again.`
          : `${err.message}. Nothing was saved.`;
      await renderTask(req, res, now, team, { text, kind: 'error' }, err.status === 412 ? 409 : err.status);
      return;
    }
    ctx.logger.info({ taskUid: cur.task_uid, userUid: user.uid, fields: Object.keys(body), status }, 'task changed in the console');
    const back = form.back !== undefined ? safeNext(form.back) : undefined;
    res.redirect(303, back ?? `/app/tasks/${encodeURIComponent(cur.task_uid)}?saved=1`);
  });
  return router;
}
