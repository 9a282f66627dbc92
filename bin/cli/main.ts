/*
 * The CLI's command line: finds the command, checks its arguments, opens the database (DATABASE_URL,
 * or the embedded one under DATA_DIR unless a server runs on it), runs it, and answers an exit code.
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { scopes } from '../../shared/domain/auth/index.js';
import { createRuntime } from '../../shared/app/runtime.js';
import { CONFIG_ERROR_EXIT_CODE, ConfigError, loadConfig, type Config } from '../../shared/infra/config.js';
import type { AppContext } from '../../shared/app/context.js';
import { createLogger } from '../../shared/infra/logger.js';
import { CommandError, commands as coreCommands, UsageError, type Command, type Io } from './commands.js';
import { transferCommands } from './transfer/transfer.commands.js';
import { oauthCommands } from './oauth.commands.js';
import { appCommands } from './app.commands.js';
import { userCommands } from './user.commands.js';
import { webhookCommands } from './webhook.commands.js';
import { channelCommands } from './channel.commands.js';
import { proposalCommands } from './proposal.commands.js';

const commands: Record<string, Command> = { ...coreCommands, ...webhookCommands, ...channelCommands, ...transferCommands, ...userCommands, ...oauthCommands, ...proposalCommands, ...appCommands };

const help = `Usage: npm run cli -- <command> [options]

Commands:
${Object.values(commands)
  .map((c) => `  ${c.usage}`)
  .join('\n')}

Results (a uid, a token) go to stdout, one line; notes and the progress bar to stderr.
Use \`npm run -s cli -- ...\` to capture a result: TOKEN=$(npm run -s cli -- token issue ...).

Scopes: ${scopes.join(', ')}; "all" grants every one.
Database: DATABASE_URL, or without it the embedded Postgres under DATA_DIR (.data) that npm start
uses; stop npm start first, as one data folder takes one Postgres.
Exit codes: 0 done, 1 failed (unknown company, app or token; database unreachable), 2 bad command line or environment.
`;

export const stdio: Io = {
  result: (line) => process.stdout.write(`${line}\n`),
  note: (line) => process.stderr.write(`${line}\n`),
  async readStdin() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

/**
 * `--token -Abc` as `--token=-Abc`: every option takes a value, and a token (base64url) starts
 * with "-" one time in 64, which parseArgs would otherwise refuse as a possible option.
 */
function joinOptionValues(args: string[], command: Command): string[] {
  const known = new Set(Object.entries(command.options).filter(([, spec]) => !spec.flag).map(([k]) => `--${k}`));
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (known.has(arg) && next !== undefined && !known.has(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

type Parsed = { help: string } | { command: Command; values: Record<string, string | undefined> };

/** Finds the command named by the first one or two words, and its options. */
function parseCommandLine(argv: string[]): Parsed {
  if (argv.length === 0) throw new UsageError('no command given');
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return { help: help.trimEnd() };
  const two = `${argv[0]} ${argv[1] ?? ''}`;
  const name = commands[two] ? two : argv[0]!;
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${argv.slice(0, 2).join(' ')}"`);
  const rest = argv.slice(name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) return { help: `Usage: npm run cli -- ${command.usage}` };
  let values: Record<string, string | undefined>;
  try {
    const options = Object.fromEntries(
      Object.entries(command.options).map(([k, spec]) => [k, spec.flag ? { type: 'boolean' as const } : { type: 'string' as const, multiple: spec.multiple ?? false }]),
    );
    const parsed = parseArgs({ args: joinOptionValues(rest, command), options, strict: true, allowPositionals: command.positional !== undefined });
    values = Object.fromEntries(
      Object.entries(parsed.values).map(([k, v]) => [k, Array.isArray(v) ? v.join('\n') : v === true ? 'true' : v === false ? undefined : v]),
    );
    if (parsed.positionals.length > 1) throw new UsageError(`one ${command.positional} at most (usage: ${command.usage})`);
    if (command.positional && parsed.positionals[0] !== undefined) {
      if (values[command.positional] !== undefined) throw new UsageError(`give the ${command.positional} once (usage: ${command.usage})`);
      values[command.positional] = parsed.positionals[0];
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // parseArgs throws TypeErrors with codes ERR_PARSE_ARGS_*: unknown option, missing value...
    throw new UsageError(`${(err as Error).message} (usage: ${command.usage})`);
  }
  for (const [key, spec] of Object.entries(command.options)) {
    if (spec.required && values[key] === undefined) throw new UsageError(`missing --${key} (usage: ${command.usage})`);
  }
  return { command, values };
}

async function withRuntime(config: Config, io: Io, logLevel: string, work: (app: AppContext) => Promise<void>): Promise<void> {
  // A data folder held by a running npm start is refused by startEmbeddedPostgres (EmbeddedInUseError).
  // Logs go to stderr, quieter than the service's unless LOG_LEVEL says otherwise.
  const logger = createLogger(logLevel, { proc: 'cli' }, pino.destination(2));
  // The CLI needs the database only: no queue or Redis connection even when REDIS_URL is set (what
  // it submits is durable, and a worker's re-enqueue sweep queues it).
  const runtime = await createRuntime(config, logger, { queue: 'offline' });
  // Interrupted (a long seed): close the database, which rolls the work back, and stop the
  // embedded Postgres before leaving.
  const onSignal = (signal: NodeJS.Signals) => {
    io.note(`interrupted (${signal})`);
    void runtime.close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    await work(runtime);
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await runtime.close();
  }
}

/** Runs one command line; answers the exit code (0 done, 1 failed, 2 bad command line). */
export async function runCli(argv: string[], opts: { env?: NodeJS.ProcessEnv; io?: Io } = {}): Promise<number> {
  const io = opts.io ?? stdio;
  const env = opts.env ?? process.env;
  try {
    const parsed = parseCommandLine(argv);
    if ('help' in parsed) {
      io.result(parsed.help);
      return 0;
    }
    const work = parsed.command.prepare(parsed.values);
    const config = loadConfig(env);
    await withRuntime(config, io, env.LOG_LEVEL ? config.log.level : 'warn', (app) => work(app, io));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.note(`error: ${err.message}\nRun \`npm run cli -- --help\` for the commands.`);
      return 2;
    }
    if (err instanceof ConfigError) {
      io.note(err.message);
      return CONFIG_ERROR_EXIT_CODE;
    }
    io.note(`error: ${err instanceof CommandError ? err.message : String((err as Error).message ?? err)}`);
    return 1;
  }
}
