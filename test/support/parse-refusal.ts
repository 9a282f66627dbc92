import type { z } from 'zod';
import { AppError } from '../../shared/infra/errors.js';
import { parseInput } from '../../shared/infra/http/validation.js';

/** The code-11 error parseInput throws for an input, for asserting on its param and message. */
export function parseRefusal(schema: z.ZodType, input: unknown, prefix?: string): AppError {
  try {
    parseInput(schema, input, prefix);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}
