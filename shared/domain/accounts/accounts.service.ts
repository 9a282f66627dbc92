import { eq } from 'drizzle-orm';
import { companies, type UserRole } from '../../infra/db/schema/index.js';
import { BaseService } from '../service.js';
import { hashPassword, verifyPassword } from './password.js';
import * as repo from './users.repository.js';

/** A signed-in person, as the console sees them. */
export interface ConsoleUser {
  uid: string;
  companyUid: string;
  companyName: string;
  email: string;
  name: string;
  role: UserRole;
}

/** docs/api.md "Accounts and the console": 10 failures per email within 15 minutes lock it 15 minutes. */
export const SIGN_IN_LIMITS = { max: 10, windowSeconds: 15 * 60, lockSeconds: 15 * 60 } as const;

export class DuplicateEmailError extends Error {}

const emailKey = (email: string) => email.trim().toLowerCase();

/** Console users (owners and managers of a company): sign-in, the CLI's user commands. */
export class AccountsService extends BaseService {
  /**
   * The user when the email and password match an enabled user and the email is not locked; else
   * undefined, whatever was wrong (unknown email, wrong password, disabled, locked). The argon2
   * work is done in every case, so the timing does not tell either.
   */
  async signIn(email: string, password: string): Promise<ConsoleUser | undefined> {
    const key = emailKey(email);
    const [user, locked] = await Promise.all([repo.findUserByEmail(this.db, key), repo.lockedUntil(this.db, key)]);
    const usable = user && !user.disabled ? user : undefined;
    const matches = await verifyPassword(usable?.passwordHash, password);
    if (!matches || locked) {
      if (!locked) await repo.recordFailure(this.db, key, SIGN_IN_LIMITS);
      return undefined;
    }
    await repo.clearFailures(this.db, key);
    return this.consoleUser(usable!.uid);
  }

  /** The session's user, while they exist and are enabled. */
  async consoleUser(uid: string): Promise<ConsoleUser | undefined> {
    const user = await repo.findUser(this.db, uid);
    if (!user || user.disabled) return undefined;
    const company = await this.db.select({ name: companies.name }).from(companies).where(eq(companies.uid, user.companyUid));
    return {
      uid: user.uid,
      companyUid: user.companyUid,
      companyName: company[0]?.name ?? user.companyUid,
      email: user.email,
      name: user.name,
      role: user.role,
    };
  }

  async create(user: { companyUid: string; email: string; name: string; role: UserRole; password: string }): Promise<string> {
    if (await repo.findUserByEmail(this.db, user.email)) throw new DuplicateEmailError(`a user with email ${user.email} exists`);
    const passwordHash = await hashPassword(user.password);
    return repo.insertUser(this.db, { companyUid: user.companyUid, email: user.email.trim(), name: user.name, role: user.role, passwordHash });
  }

  /** Sets a new password (and lifts a lock on the email); false when no user has the email. */
  async resetPassword(email: string, password: string): Promise<boolean> {
    const done = await repo.updateUserByEmail(this.db, email, { passwordHash: await hashPassword(password) });
    if (done) await repo.clearFailures(this.db, emailKey(email));
    return done;
  }

  setDisabled(email: string, disabled: boolean): Promise<boolean> {
    return repo.updateUserByEmail(this.db, email, { disabled });
  }

  findByEmail(email: string) {
    return repo.findUserByEmail(this.db, email);
  }
}

export { emailKey };
