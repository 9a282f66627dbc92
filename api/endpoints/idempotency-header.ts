import { z } from 'zod';

/**
 * The optional Idempotency-Key header of a submission (calendar batches and ranges, proposals,
 * messages, direct bookings): 1-255 characters, kept 24 h per token. `description` says what a
 * replay answers for the method.
 */
export const idempotencyKeyHeader = (description: string) =>
  z.object({
    'Idempotency-Key': z.string().min(1, 'must be 1 to 255 characters').max(255, 'must be 1 to 255 characters').optional().describe(description),
  });
