import { utcDateTime } from '../../shared/infra/time.js';
import { ConnectorRefusedError } from '../../shared/domain/messaging/index.js';
import { CommandError, nonEmpty, type Command } from './commands.js';

/*
 * `channel set|show|remove|list` (docs/api.md "Channels"; issue 39 L6): a company's channel
 * connectors, through the connectors service (the webhooks' URL and SSRF rules). The signing
 * secret is printed once, by `set` (a second `set` makes a new one); `show` and `list` never print it.
 */

const refusedAsCommandError = async <T>(work: Promise<T>): Promise<T> => {
  try {
    return await work;
  } catch (err) {
    if (err instanceof ConnectorRefusedError) throw new CommandError(err.message);
    throw err;
  }
};

export const channelCommands: Record<string, Command> = {
  'channel set': {
    usage: 'channel set --company <uid> --platform <airbnb|booking|...> --url <https://...>   (prints the signing secret, once)',
    options: { company: { required: true }, platform: { required: true }, url: { required: true } },
    prepare(v) {
      const [company, platform, url] = [nonEmpty(v, 'company'), nonEmpty(v, 'platform'), nonEmpty(v, 'url')];
      return async ({ services }, io) => {
        const secret = await refusedAsCommandError(services.connectors.set(company, platform, url));
        io.result(secret);
        io.note(`${platform} connector of company ${company} set to ${url}`);
        io.note('The signing secret is shown this once (a new `channel set` makes a new one).');
      };
    },
  },

  'channel show': {
    usage: 'channel show --company <uid> --platform <platform>',
    options: { company: { required: true }, platform: { required: true } },
    prepare(v) {
      const [company, platform] = [nonEmpty(v, 'company'), nonEmpty(v, 'platform')];
      return async ({ services }, io) => {
        const found = await services.connectors.find(company, platform);
        if (!found) throw new CommandError(`company ${company} has no ${platform} connector`);
        io.result(found.url);
        io.note(`set ${utcDateTime(found.createdAt)} UTC; the secret is not shown again`);
      };
    },
  },

  'channel remove': {
    usage: 'channel remove --company <uid> --platform <platform>',
    options: { company: { required: true }, platform: { required: true } },
    prepare(v) {
      const [company, platform] = [nonEmpty(v, 'company'), nonEmpty(v, 'platform')];
      return async ({ services }, io) => {
        if (!(await services.connectors.remove(company, platform))) throw new CommandError(`company ${company} has no ${platform} connector`);
        io.result('removed');
      };
    },
  },

  'channel list': {
    usage: 'channel list --company <uid>',
    options: { company: { required: true } },
    prepare(v) {
      const company = nonEmpty(v, 'company');
      return async ({ services }, io) => {
        const all = await refusedAsCommandError(services.connectors.list(company));
        if (all.length === 0) io.note(`company ${company} has no channel connector`);
        for (const c of all) io.result(`${c.platform}  ${c.url}  set ${utcDateTime(c.createdAt)} UTC`);
      };
    },
  },
};
