import { CONFIG_ERROR_EXIT_CODE, ConfigError, loadConfig, type Config } from '../shared/infra/config.js';
import { guardDriverRejections } from '../shared/infra/db/driver-rejections.js';
import { EmbeddedInUseError } from '../shared/infra/db/postmaster-owner.js';
import { createLogger, stdoutLog, type Logger } from '../shared/infra/logger.js';

/** Signals closer together than this are one signal delivered twice (see onSignal). */
const REPEAT_WINDOW_MS = 1000;

/**
 * How every process kind (start, api, worker, migrate; the CLI answers the same code) ends when
 * it cannot start: a bad configuration is one plain message on stderr and exit code 2, the
 * operator's to fix; a data folder in use is one plain message and exit code 1; anything else is logged (as JSON when a logger exists) and exit code 1.
 */
export function exitOnStartFailure(err: unknown, logger?: Logger): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(CONFIG_ERROR_EXIT_CODE);
  }
  // The data folder is held by a live service: a person's to resolve, one plain message.
  if (err instanceof EmbeddedInUseError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  if (logger) logger.fatal({ err }, 'failed to start');
  else process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

/**
 * The configuration and the logger of a process: the environment is parsed once, before any
 * logger exists, so a bad LOG_LEVEL is the same one-message config error as any other bad value.
 */
export function loadProcessConfig(name: string): { config: Config; logger: Logger } {
  try {
    const config = loadConfig();
    return { config, logger: createLogger(config.log.level, { proc: name }, stdoutLog(config.log.sync)) };
  } catch (err) {
    return exitOnStartFailure(err);
  }
}

/**
 * Runs a long-lived process entry point: builds it, then on SIGTERM/SIGINT runs its stop function
 * once and exits 0 (1 if stopping failed). A second signal, a second or more after the first,
 * forces the exit. The handlers are in place from the start: a signal that arrives while the
 * process is still starting (a worker already taking jobs while its schedulers are declared) is
 * kept and served as soon as the stop function exists, so it too ends in a clean stop, never in
 * the default "killed by SIGTERM".
 */
export function runMain(name: string, main: (config: Config, logger: Logger) => Promise<() => Promise<void>>): void {
  const { config, logger } = loadProcessConfig(name);
  guardDriverRejections(logger);
  let stoppingSince: number | undefined;
  let stop: (() => Promise<void>) | undefined;
  let pendingSignal: string | undefined;
  const beginStop = (signal: string, run: () => Promise<void>) => {
    stoppingSince = Date.now();
    logger.info({ signal }, 'shutting down');
    run().then(
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
  const onSignal = (signal: string) => {
    if (stoppingSince !== undefined || pendingSignal !== undefined) {
      // Ctrl-C reaches every process of the terminal's group, and tsx (npm start runs under
      // it) relays it once more when it did not see us get it: about 3 in 10 Ctrl-C arrived
      // twice within ~30 ms. Only a signal sent later is a person insisting.
      if (Date.now() - (stoppingSince ?? Date.now()) < REPEAT_WINDOW_MS) return;
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    if (stop) beginStop(signal, stop);
    else {
      logger.info({ signal }, 'signal while starting: stopping once started');
      pendingSignal = signal;
      stoppingSince = Date.now();
    }
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  main(config, logger).then(
    (started) => {
      stop = started;
      if (pendingSignal !== undefined) beginStop(pendingSignal, started);
    },
    (err: unknown) => exitOnStartFailure(err, logger),
  );
}
