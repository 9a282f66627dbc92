import { redirectUriProblem } from '../../shared/domain/oauth/index.js';
import { listOf, nonEmpty, scopeList, UsageError, type Command } from './commands.js';
import { errorModeOption } from './app.commands.js';

/* Developer apps (OAuth clients), docs/api.md "Apps connect themselves". */

/** A redirect URI as registered: absolute http(s), no fragment. */
export function redirectUri(text: string): string {
  const problem = redirectUriProblem(text);
  if (problem) throw new UsageError(`--redirect-uri "${text}" ${problem}`);
  return text;
}

export const oauthCommands: Record<string, Command> = {
  'oauth-client create': {
    usage: 'oauth-client create --name <name> --redirect-uri <url> [--redirect-uri <url> ...] [--scopes a,b|all] [--with-secret] [--error-mode http|igms]',
    options: { name: { required: true }, 'redirect-uri': { required: true, multiple: true }, scopes: {}, 'with-secret': { flag: true }, 'error-mode': {} },
    prepare(v) {
      const name = nonEmpty(v, 'name');
      const uris = listOf(v, 'redirect-uri').map(redirectUri);
      const granted = v.scopes === undefined ? undefined : scopeList(v.scopes);
      const errorMode = errorModeOption(v, false) ?? null;
      return async ({ services }, io) => {
        const made = await services.oauth.createClient({ name, redirectUris: uris, scopes: granted, withSecret: v['with-secret'] === 'true', errorMode });
        io.result(`client_id: ${made.clientId}`);
        if (made.clientSecret) {
          io.result(`client_secret: ${made.clientSecret}`);
          io.note('The client secret is shown this once: only its hash is stored.');
        }
      };
    },
  },
};
