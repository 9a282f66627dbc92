import { Router } from 'express';
import type { AppContext } from '../../shared/context.js';
import { parseInput } from '../../shared/http/validation.js';
import { tasksQuerySchema, updateTaskBodySchema } from '../../shared/tasks/tasks.schema.js';
import { getTasksPage, updateTask } from '../../shared/tasks/tasks.service.js';
import { principalOf } from '../middleware/auth.js';
import { guard } from '../middleware/guard.js';

export function tasksRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/tasks', ...guard(ctx, 'tasks'), async (req, res) => {
    const query = parseInput(tasksQuerySchema, req.query);
    const { companyUid } = principalOf(res);
    res.json(await getTasksPage(ctx.database.db, companyUid, query));
  });
  router.post('/update-task', ...guard(ctx, 'tasks'), async (req, res) => {
    const body = parseInput(updateTaskBodySchema, req.body);
    const { companyUid } = principalOf(res);
    res.json(await updateTask(ctx.database.db, companyUid, body));
  });
  return router;
}
