import { ConfigError } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';

/**
 * Runs a process entry point: builds it, then on SIGTERM/SIGINT runs its stop function once and
 * exits 0 (1 if stopping failed). A second signal forces the exit.
 */
export function runMain(
  name: string,
  main: (logger: Logger) => Promise<() => Promise<void>>,
  makeLogger: (level: string, bindings: Record<string, unknown>) => Logger,
): void {
  const logger = makeLogger(process.env.LOG_LEVEL ?? 'info', { proc: name });
  let stopping = false;
  main(logger).then(
    (stop) => {
      const onSignal = (signal: string) => {
        if (stopping) {
          logger.warn({ signal }, 'second signal: exiting now');
          process.exit(1);
        }
        stopping = true;
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
      if (err instanceof ConfigError) {
        process.stderr.write(`${err.message}\n`);
      } else {
        logger.fatal({ err }, 'failed to start');
      }
      process.exit(1);
    },
  );
}
