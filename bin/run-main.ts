import { ConfigError } from '../shared/config.js';
import { EmbeddedInUseError } from '../shared/db/postmaster-owner.js';
import type { Logger } from '../shared/logger.js';

/** Signals closer together than this are one signal delivered twice (see onSignal). */
const REPEAT_WINDOW_MS = 1000;

/**
 * Runs a process entry point: builds it, then on SIGTERM/SIGINT runs its stop function once and
 * exits 0 (1 if stopping failed). A second signal, a second or more after the first, forces the exit.
 */
export function runMain(
  name: string,
  main: (logger: Logger) => Promise<() => Promise<void>>,
  makeLogger: (level: string, bindings: Record<string, unknown>) => Logger,
): void {
  const logger = makeLogger(process.env.LOG_LEVEL ?? 'info', { proc: name });
  let stoppingSince: number | undefined;
  main(logger).then(
    (stop) => {
      const onSignal = (signal: string) => {
        if (stoppingSince !== undefined) {
          // Ctrl-C reaches every process of the terminal's group, and tsx (npm start runs under
          // it) relays it once more when it did not see us get it: about 3 in 10 Ctrl-C arrived
          // twice within ~30 ms. Only a signal sent later is a person insisting.
          if (Date.now() - stoppingSince < REPEAT_WINDOW_MS) return;
          logger.warn({ signal }, 'second signal: exiting now');
          process.exit(1);
        }
        stoppingSince = Date.now();
        logger.info({ signal }, 'shutting down');
        stop().then(
          () => {
            logger.info('stopped');
            process.exit(0);
          },
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', () => onSignal('SIGTERM'));
      process.on('SIGINT', () => onSignal('SIGINT'));
    },
    (err: unknown) => {
      // Mistakes of set-up a person fixes: one plain message, no stack.
      if (err instanceof ConfigError || err instanceof EmbeddedInUseError) {
        process.stderr.write(`${err.message}\n`);
      } else {
        logger.fatal({ err }, 'failed to start');
      }
      process.exit(1);
    },
  );
}
