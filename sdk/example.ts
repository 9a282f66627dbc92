/*
 * The SDK at work (sdk/README.md shows this file): bookings page by page, a calendar batch
 * submitted and waited for, and webhook deliveries verified. Run against a service:
 *   ACCESS_TOKEN=... API_URL=http://localhost:3000 npx tsx sdk/example.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createPropertyOpsClient, dataOf, paginate, submitAndWait, verifyWebhook, WebhookVerificationError } from './index.js';

const client = createPropertyOpsClient({ baseUrl: process.env.API_URL ?? 'http://localhost:3000', token: process.env.ACCESS_TOKEN ?? '' });

// 1. Bookings, page by page (25 a page; the walk ends on the last page).
let bookings = 0;
for await (const page of paginate(client, '/api/v1/bookings', { query: { booking_status: 'accepted' } })) {
  bookings += page.data.length;
  console.log(`page ${page.meta.page}: ${page.data.map((b) => b.booking_uid).slice(0, 2).join(', ')}... (${page.data.length})`);
}
console.log(`${bookings} accepted bookings`);

// 2. A webhook to a receiver of ours that verifies every delivery before trusting it.
let secret = '';
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    try {
      const event = verifyWebhook({ body: Buffer.concat(chunks), headers: req.headers, secret });
      console.log(`webhook verified: ${event.type} ${event.event_uid}`);
      res.writeHead(204).end();
    } catch (err) {
      console.log(`webhook refused: ${err instanceof WebhookVerificationError ? err.message : String(err)}`);
      res.writeHead(400).end();
    }
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
try {
  const set = dataOf(await client.POST('/api/v1/set-webhook', { body: { url, events: ['calendar.request.finished'] } }));
  secret = set.data.secret;
  console.log(`webhook set: ${set.data.url}`);
} catch (err) {
  // A service that refuses private targets (its default) cannot call back to this machine.
  console.log(`webhook not set: ${err instanceof ApiError ? `code ${err.code}: ${err.message}` : String(err)}`);
}

// 3. A calendar batch, submitted and waited for (long-polled: no polling interval).
const [property] = dataOf(await client.GET('/api/v1/property')).data;
if (!property) throw new Error('the company has no property');
const date = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const done = await submitAndWait(client, {
  property_uid: property.property_uid,
  days: [
    { date: date(30), price: 180, currency: property.currency, min_stay: 2 },
    { date: date(31), is_available: 0, notes: 'Owner stay' },
  ],
});
for (const s of done.statuses) console.log(`request ${s.request_uid}: ${s.request_status}, ${s.days_applied}/${s.days_total} days applied`);

// The request's calendar.request.finished event reaches the receiver within moments.
await new Promise((r) => setTimeout(r, secret ? 2000 : 0));
receiver.close();
