import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../../shared/app/context.js';
import type { ConsoleTaskRow, PropertyOption, TeamMemberOption } from '../../../shared/domain/console/index.js';
import { taskStatuses, taskTypes } from '../../../shared/domain/tasks/index.js';
import { calendarDate } from '../../../shared/infra/http/wire.js';
import { addDays, datesOf, daysBetween } from '../../../shared/infra/time.js';
import { todayIn } from '../format.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Layout, type PageContext } from '../layout.js';
import { render } from '../render.js';
import { dayLabel, ReassignForm, TASK_TYPE_LABELS, TaskSummary } from './day-parts.js';

/*
 * /app/tasks (issue 41 "Work the tasks"): the company's tasks of a date window (a week from today
 * by default) as a list or as a board of one column a day, filtered by status, type, team member and
 * property, the ones nobody holds first. Each task links to its form (task-edit.tsx) and has a
 * one-step Assign; both go through update-task's service with the version they were rendered from.
 */

/** The board shows at most this many days; the list any window up to MAX_WINDOW_DAYS. */
const BOARD_DAYS = 14;
const MAX_WINDOW_DAYS = 92;

const blank = (v: unknown) => (v === '' ? undefined : v);

export const taskFilterSchema = z
  .object({
    from: z.preprocess(blank, calendarDate.optional()),
    to: z.preprocess(blank, calendarDate.optional()),
    status: z.preprocess(blank, z.enum(taskStatuses, { error: 'must be a task status' }).optional()),
    type: z.preprocess(blank, z.enum(taskTypes, { error: 'must be a task type' }).optional()),
    member: z.preprocess(blank, z.string().max(100, 'must be a team member').optional()),
    property: z.preprocess(blank, z.string().max(100, 'must be a property').optional()),
    view: z.preprocess(blank, z.enum(['list', 'board'], { error: 'must be list or board' }).default('list')),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'must not be before from', path: ['to'] })
  .refine((f) => !f.from || !f.to || daysBetween(f.from, f.to) < MAX_WINDOW_DAYS, { message: `must be within ${MAX_WINDOW_DAYS} days of from`, path: ['to'] });

type Filters = Record<string, string>;

function FilterForm(props: { f: Filters; from: string; to: string; team: TeamMemberOption[]; properties: PropertyOption[] }) {
  const { f } = props;
  const opt = (value: string, label: string, current: string | undefined) => (
    <option value={value} selected={value === current}>
      {label}
    </option>
  );
  return (
    <form method="get" action="/app/tasks" class="filters" role="search" aria-label="Filter tasks">
      <label>
        From <input type="date" name="from" value={props.from} />
      </label>
      <label>
        to <input type="date" name="to" value={props.to} />
      </label>
      <label>
        Status <select name="status">{[opt('', 'Any', f.status), ...taskStatuses.map((s) => opt(s, s, f.status))]}</select>
      </label>
      <label>
        Type <select name="type">{[opt('', 'Any', f.type), ...taskTypes.map((t) => opt(t, TASK_TYPE_LABELS[t] ?? t, f.type))]}</select>
      </label>
      <label>
        Team member <select name="member">{[opt('', 'Anyone', f.member), opt('none', 'Nobody (unassigned)', f.member), ...props.team.map((m) => opt(m.uid, m.name, f.member))]}</select>
      </label>
      <label>
        Property <select name="property">{[opt('', 'Any', f.property), ...props.properties.map((p) => opt(p.uid, p.name, f.property))]}</select>
      </label>
      <label>
        Show <select name="view">{[opt('list', 'List', f.view ?? 'list'), opt('board', 'Board by day', f.view ?? 'list')]}</select>
      </label>
      <button type="submit">Show</button>
    </form>
  );
}

function TaskList(props: { ctx: PageContext; tasks: ConsoleTaskRow[]; team: TeamMemberOption[]; back: string }) {
  if (props.tasks.length === 0) return <p>No task matches.</p>;
  return (
    <ul class="items tasks" aria-label="Tasks">
      {props.tasks.map((t) => (
        <li>
          <TaskSummary t={t} withDate /> <ReassignForm ctx={props.ctx} t={t} team={props.team} back={props.back} />
        </li>
      ))}
    </ul>
  );
}

function TaskBoard(props: { ctx: PageContext; tasks: ConsoleTaskRow[]; team: TeamMemberOption[]; from: string; to: string; back: string }) {
  const days = datesOf(props.from, props.to).slice(0, BOARD_DAYS);
  return (
    <div class="board" role="region" aria-label="Tasks by day" tabindex={0}>
      {days.map((day) => {
        const tasks = props.tasks.filter((t) => t.local_start_dttm.startsWith(day));
        return (
          <section class="day-column" aria-labelledby={`day-${day}`}>
            <h2 id={`day-${day}`}>
              {dayLabel(day)} <span class="muted">({tasks.length})</span>
            </h2>
            <ul class="items">
              {tasks.map((t) => (
                <li>
                  <TaskSummary t={t} /> <ReassignForm ctx={props.ctx} t={t} team={props.team} back={props.back} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

export function tasksRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/tasks', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const raw = req.query as Record<string, unknown>;
    const f = Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Filters;
    const parsed = taskFilterSchema.safeParse(raw);
    const properties = await ctx.services.consoleDay.propertyOptions(user.companyUid);
    // Today where it is earliest among the company's properties: no property's today is left out.
    const today = properties.map((p) => todayIn(p.time_zone)).sort()[0] ?? todayIn('UTC');
    const pctx = pageContext(req, res);
    let error: string | undefined;
    let from = f.from ?? today;
    let to = f.to ?? addDays(from, 6);
    let body = <></>;
    let team: TeamMemberOption[];
    if (parsed.success) {
      const p = parsed.data;
      from = p.from ?? today;
      to = p.to ?? addDays(from, 6);
      const found = await ctx.services.consoleDay.tasks(user.companyUid, { from, to, status: p.status, type: p.type, member: p.member, property_uid: p.property });
      team = found.team;
      const back = req.originalUrl.startsWith('/app/tasks') ? req.originalUrl : '/app/tasks';
      body =
        p.view === 'board' ? <TaskBoard ctx={pctx} tasks={found.tasks} team={team} from={from} to={to} back={back} /> : <TaskList ctx={pctx} tasks={found.tasks} team={team} back={back} />;
    } else {
      const issue = parsed.error.issues[0];
      error = `${String(issue?.path[0] ?? 'filter')} ${issue?.message ?? 'is invalid'}`;
      team = await ctx.services.consoleDay.team(user.companyUid);
    }
    await render(
      res,
      <Layout ctx={pctx} title="Tasks">
        <h1>Tasks</h1>
        <FilterForm f={f} from={from} to={to} team={team} properties={properties} />
        {error && (
          <p class="notice error" role="alert">
            {error}
          </p>
        )}
        <p class="muted">Times are at each property. Unassigned and rejected tasks come first.</p>
        {body}
      </Layout>,
      error ? 400 : 200,
    );
  });
  return router;
}
