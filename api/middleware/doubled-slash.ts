import type { RequestHandler } from 'express';

/**
 * The iGMS docs print their OAuth URLs with a doubled slash (`https://host//app/auth.html`,
 * `//auth/token`), and clients copy them. Those two paths are served as if written with one slash:
 * rewritten in place (a POST to the token URL keeps its body), never redirected, so no Location
 * header ever starts with `//` (which a browser would read as another host).
 */
const DOUBLED = /^\/{2,}(app\/auth\.html|auth\/token)(?=[?#]|$)/;

export const doubledSlashOAuth: RequestHandler = (req, _res, next) => {
  const m = DOUBLED.exec(req.url);
  if (m) {
    req.url = `/${m[1]}${req.url.slice(m[0].length)}`;
    req.originalUrl = req.url;
  }
  next();
};
