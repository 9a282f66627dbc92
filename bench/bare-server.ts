/* The baseline of (d): a bare node:http server that reads the body and JSON.parses it, nothing else. */
import http from 'node:http';

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { days?: unknown[] };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { request_uids: [], warnings: {}, days: body.days?.length ?? 0 } }));
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
