/*
 * `npm run cli -- <command>`: operator commands (tokens, apps, companies, properties, demo data)
 * over the same database the service uses: DATABASE_URL, or without it the embedded Postgres under
 * DATA_DIR that `npm start` boots (not while npm start runs on it). `--help` lists the commands.
 */
import { runCli } from './cli/main.js';

process.exit(await runCli(process.argv.slice(2)));
