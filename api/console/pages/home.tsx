import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Layout, NAVIGATION } from '../layout.js';
import { render } from '../render.js';

/** The console's first page: who is signed in, and where to go. */
export function homeRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const pctx = pageContext(req, res);
    await render(
      res,
      <Layout ctx={pctx} title="Home">
        <h1>{user.companyName}</h1>
        <p>
          Signed in as {user.name} ({user.email}), {user.role}.
        </p>
        <ul>
          {NAVIGATION.filter(([href, , ownerOnly]) => href !== '/app/' && (!ownerOnly || user.role === 'owner')).map(([href, label]) => (
            <li>
              <a href={href}>{label}</a>
            </li>
          ))}
        </ul>
      </Layout>,
    );
  });
  return router;
}
