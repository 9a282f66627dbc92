import { WARNING_INVALID_PREFIX, WARNING_NO_CURRENCY, WARNING_NOTHING, WARNING_PAST } from './calendar.days.js';
import type { Metrics, SkipReason } from '../../infra/metrics/metrics.js';

const reasonOf: Record<string, SkipReason> = {
  [WARNING_PAST]: 'past',
  [WARNING_NO_CURRENCY]: 'no_currency',
  [WARNING_NOTHING]: 'nothing',
};

/** Counts one accepted batch: the days stored on its requests and each skipped day by its reason. */
export function countAcceptedBatch({ calendarDaysAccepted, calendarDaysSkipped }: Metrics, daysStored: number, warnings: Record<string, string>): void {
  calendarDaysAccepted.inc(daysStored);
  const skipped: Partial<Record<SkipReason, number>> = {};
  for (const message of Object.values(warnings)) {
    const reason = reasonOf[message] ?? (message.startsWith(WARNING_INVALID_PREFIX) ? 'invalid' : undefined);
    if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
  }
  for (const [reason, n] of Object.entries(skipped)) calendarDaysSkipped.labels(reason).inc(n);
}
