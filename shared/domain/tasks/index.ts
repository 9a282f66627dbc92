/*
 * tasks: get-tasks and update-task. The public surface of the noun.
 *   tasks.schema.ts      types, statuses, the update body, the query and a task as sent
 *   tasks.schedule.ts    wall-clock arithmetic on task times (no zone conversion)
 *   tasks.repository.ts  list, lock, update a task; the checks update-task makes
 *   tasks.service.ts     TasksService, taskToWire, planUpdate (body -> patch, no I/O)
 *   tasks.objects.ts     tasks as the change feed shows them (its reader of task)
 *   tasks.transfer.ts    tasks as `cli export` / `cli import` lines (shared/domain/transfer)
 */
export * from './tasks.schema.js';
export * from './tasks.schedule.js';
export * from './tasks.repository.js';
export * from './tasks.service.js';
export * from './tasks.objects.js';
export * from './tasks.transfer.js';
