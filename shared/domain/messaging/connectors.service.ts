import { platformTypes, type PlatformType } from '../bookings/index.js';
import { BaseService } from '../service.js';
import { newWebhookSecret } from '../../platform/outbound-http/index.js';
import { CALLBACK_URL_PROBLEMS, callbackTargetProblem, callbackUrlProblem } from '../webhooks/index.js';
import type { ConnectorsRepository } from './connectors.repository.js';
import type { Infra } from '../../infra/infra.js';

/*
 * A company's channel connectors (docs/api.md "Channels"; issue 39 L6): the operator's `channel
 * set|show|remove|list`. A connector's URL follows the webhooks' rules (http(s), no credentials,
 * the SSRF guard at set time and again at every connect); its signing secret is made here and
 * shown once, by `set`.
 */

export interface ConnectorView {
  platform: string;
  url: string;
  createdAt: Date;
}

/** Why a connector cannot be registered: the CLI's message. */
export class ConnectorRefusedError extends Error {}

export const isPlatform = (p: string): p is PlatformType => (platformTypes as readonly string[]).includes(p);

export class ConnectorsService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: ConnectorsRepository,
  ) {
    super(infra);
  }

  private async requireCompany(companyUid: string): Promise<void> {
    if (!(await this.repo.companyExists(this.db, companyUid))) throw new ConnectorRefusedError(`unknown company ${companyUid}`);
  }

  /** Registers (or replaces) the company's connector for a platform; answers its new secret, once. */
  async set(companyUid: string, platform: string, url: string): Promise<string> {
    if (!isPlatform(platform)) throw new ConnectorRefusedError(`--platform must be one of ${platformTypes.join(', ')}, got "${platform}"`);
    const problem = callbackUrlProblem(url);
    if (problem !== undefined) throw new ConnectorRefusedError(`--url ${CALLBACK_URL_PROBLEMS[problem]}`);
    const why = await callbackTargetProblem(url, this.config.outbound.allowPrivateTargets, (host, address) => this.logger.info({ host, address }, 'connector target refused'));
    if (why !== undefined) throw new ConnectorRefusedError(`--url refused: ${why}`);
    await this.requireCompany(companyUid);
    const secret = newWebhookSecret();
    await this.repo.upsertConnector(this.db, { companyUid, platform, url: new URL(url).toString(), secret });
    return secret;
  }

  async find(companyUid: string, platform: string): Promise<ConnectorView | undefined> {
    const row = await this.repo.findConnector(this.db, companyUid, platform);
    return row ? { platform: row.platform, url: row.url, createdAt: row.createdAt } : undefined;
  }

  async list(companyUid: string): Promise<ConnectorView[]> {
    await this.requireCompany(companyUid);
    return (await this.repo.connectorsOfCompany(this.db, companyUid)).map((r) => ({ platform: r.platform, url: r.url, createdAt: r.createdAt }));
  }

  remove(companyUid: string, platform: string): Promise<boolean> {
    return this.repo.deleteConnector(this.db, companyUid, platform);
  }
}
