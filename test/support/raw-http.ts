import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/**
 * A request whose path goes out byte for byte as written: no URL or URLSearchParams in between, so
 * an unencoded `+` or a doubled slash reaches the server as a client without encoding sends it.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; body: any; headers: Record<string, string | string[] | undefined> }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (res) => {
      readAnswer(res).then(resolve, reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The whole answer of a node:http response: its text, and the JSON the text holds (the text itself
 * where it holds none, an HTML page or a proxy's words, so that the assertion shows it).
 */
export function readAnswer(res: IncomingMessage): Promise<{ status: number; headers: IncomingHttpHeaders; text: string; body: any }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', reject);
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* kept as text */
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
    });
  });
}
