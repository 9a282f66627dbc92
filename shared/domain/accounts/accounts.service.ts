import type { UserRole } from '../../infra/db/schema/index.js';
import { isEmailAddress } from '../../infra/email-address.js';
import { BaseService } from '../service.js';
import { hashPassword, verifyPassword } from './password.js';
import type { UsersRepository } from './users.repository.js';
import type { Infra } from '../../infra/infra.js';

/** A signed-in person, as the console sees them. */
export interface ConsoleUser {
  uid: string;
  companyUid: string;
  companyName: string;
  /** The company's zone (IANA), in which the console shows company-wide lists (issue 42). */
  companyTimeZone: string;
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
  constructor(
    infra: Infra,
    private readonly repo: UsersRepository,
  ) {
    super(infra);
  }

  /**
   * The user when the email and password match an enabled user and the email's lock (if any) does
   * not hold for `address`; else undefined, whatever was wrong (unknown email, wrong password,
   * disabled, locked). A lock refuses only the addresses that failed on the email: from any other
   * the right password still signs in, and a wrong one adds that address to those refused (so the
   * lock slows guessing from new addresses to one try each, and nobody can lock the owner out;
   * issue 39 L1). The argon2 work is done in every case, so the timing does not tell either.
   */
  async signIn(email: string, password: string, address: string): Promise<ConsoleUser | undefined> {
    const key = emailKey(email);
    const [user, lock] = await Promise.all([this.repo.findUserByEmail(this.db, key), this.repo.lockOf(this.db, key, address)]);
    const usable = user && !user.disabled ? user : undefined;
    const matches = await verifyPassword(usable?.passwordHash, password);
    const refused = lock?.addressFailed === true;
    if (!matches || refused) {
      if (!refused) await this.repo.recordFailure(this.db, key, address, SIGN_IN_LIMITS);
      return undefined;
    }
    // A sign-in from elsewhere during a lock leaves the lock on the addresses that failed.
    if (!lock) await this.repo.clearFailures(this.db, key);
    return this.consoleUser(usable!.uid);
  }

  /** The session's user, while they exist and are enabled. */
  async consoleUser(uid: string): Promise<ConsoleUser | undefined> {
    const user = await this.repo.findUser(this.db, uid);
    if (!user || user.disabled) return undefined;
    const company = await this.repo.companyOfUser(this.db, user.companyUid);
    return {
      uid: user.uid,
      companyUid: user.companyUid,
      companyName: company?.name ?? user.companyUid,
      companyTimeZone: company?.timeZone ?? 'UTC',
      email: user.email,
      name: user.name,
      role: user.role,
    };
  }

  async create(user: { companyUid: string; email: string; name: string; role: UserRole; password: string }): Promise<string> {
    // The CLI checks first; here too, so no caller stores what is not an address (issue 39 L5).
    if (!isEmailAddress(user.email.trim())) throw new Error(`"${user.email.slice(0, 100)}" is not an email address`);
    if (await this.repo.findUserByEmail(this.db, user.email)) throw new DuplicateEmailError(`a user with email ${user.email} exists`);
    const passwordHash = await hashPassword(user.password);
    return this.repo.insertUser(this.db, { companyUid: user.companyUid, email: user.email.trim(), name: user.name, role: user.role, passwordHash });
  }

  /** Sets a new password (and lifts a lock on the email); false when no user has the email. */
  async resetPassword(email: string, password: string): Promise<boolean> {
    const done = await this.repo.updateUserByEmail(this.db, email, { passwordHash: await hashPassword(password) });
    if (done) await this.repo.clearFailures(this.db, emailKey(email));
    return done;
  }

  setDisabled(email: string, disabled: boolean): Promise<boolean> {
    return this.repo.updateUserByEmail(this.db, email, { disabled });
  }

  findByEmail(email: string) {
    return this.repo.findUserByEmail(this.db, email);
  }
}

export { emailKey };
