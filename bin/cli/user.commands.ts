import { DuplicateEmailError } from '../../shared/domain/accounts/index.js';
import { generatePassword } from '../../shared/domain/accounts/index.js';
import { userRoles, type UserRole } from '../../shared/infra/db/schema/index.js';
import { isEmailAddress } from '../../shared/infra/email-address.js';
import { CommandError, nonEmpty, requireCompany, UsageError, type Command, type Io } from './commands.js';

/* Console users (docs/api.md "Accounts and the console"): create, reset-password, disable. */

const MIN_PASSWORD = 12;

/** The password: read from stdin (`--password-stdin`, one trailing newline dropped) or generated and printed once. */
async function passwordFor(stdin: boolean, io: Io): Promise<{ password: string; generated: boolean }> {
  if (!stdin) return { password: generatePassword(), generated: true };
  if (!io.readStdin) throw new CommandError('--password-stdin: no standard input here');
  const password = (await io.readStdin()).replace(/\r?\n$/, '');
  if (password.length < MIN_PASSWORD) throw new CommandError(`the password on stdin must be at least ${MIN_PASSWORD} characters`);
  return { password, generated: false };
}

function email(v: Record<string, string | undefined>): string {
  const e = nonEmpty(v, 'email');
  if (!isEmailAddress(e)) throw new UsageError(`--email ${JSON.stringify(e)} is not an email address`);
  return e;
}

export const userCommands: Record<string, Command> = {
  'user create': {
    usage: 'user create --company <uid> --email <email> --name <name> --role owner|manager [--password-stdin]',
    options: { company: { required: true }, email: { required: true }, name: { required: true }, role: { required: true }, 'password-stdin': { flag: true } },
    prepare(v) {
      const [company, address, name, role] = [nonEmpty(v, 'company'), email(v), nonEmpty(v, 'name'), nonEmpty(v, 'role')];
      if (!(userRoles as readonly string[]).includes(role)) throw new UsageError(`--role must be owner or manager, got "${role}"`);
      return async ({ services }, io) => {
        await requireCompany(services, company);
        const { password, generated } = await passwordFor(v['password-stdin'] === 'true', io);
        let uid: string;
        try {
          uid = await services.accounts.create({ companyUid: company, email: address, name, role: role as UserRole, password });
        } catch (err) {
          if (err instanceof DuplicateEmailError) throw new CommandError(err.message);
          throw err;
        }
        io.note(`user uid ${uid} (${role} of ${company}); sign in at /app/login.html`);
        if (generated) {
          io.note('The password is shown this once: only its hash is stored.');
          io.result(password);
        } else io.result(uid);
      };
    },
  },

  'user reset-password': {
    usage: 'user reset-password --email <email> [--password-stdin]',
    options: { email: { required: true }, 'password-stdin': { flag: true } },
    prepare(v) {
      const address = email(v);
      return async ({ services }, io) => {
        if (!(await services.accounts.findByEmail(address))) throw new CommandError(`no user has the email ${address}`);
        const { password, generated } = await passwordFor(v['password-stdin'] === 'true', io);
        await services.accounts.resetPassword(address, password);
        if (generated) {
          io.note('The new password is shown this once: only its hash is stored.');
          io.result(password);
        } else io.result('password set');
      };
    },
  },

  'user disable': {
    usage: 'user disable --email <email>',
    options: { email: { required: true } },
    prepare(v) {
      const address = email(v);
      return async ({ services }, io) => {
        if (!(await services.accounts.setDisabled(address, true))) throw new CommandError(`no user has the email ${address}`);
        io.result('disabled');
      };
    },
  },
};
