// The real @freshbooks/api SDK (unchanged) against a ledgerlink server: the whole callbacks cycle.
// Usage: (cd scripts/sdk-checks && npm install && node callbacks-node.js <base_url> <account_id> <access token>)
// The token needs user:invoices:read; the server must run with --dev (the receiver here is http on loopback).
const http = require('http');
const { Client } = require('@freshbooks/api');
const { SearchQueryBuilder, PaginationQueryBuilder } = require('@freshbooks/api/dist/models/builders');
const [apiUrl, accountId, token] = process.argv.slice(2);
const assert = (c, m) => { if (!c) { console.error('FAIL', m); process.exit(1); } else console.log('ok', m); };
const codes = [];
const call = async (f) => { try { return await f(); } catch (e) { return { ok: false, error: e }; } };
let waiter = null;
const rx = http.createServer((req, res) => {
  let b = ''; req.on('data', d => b += d); req.on('end', () => {
    const p = new URLSearchParams(b);
    if (p.get('name') === 'callback.verify') { codes.push(p.get('verifier')); if (waiter) { waiter(); waiter = null; } }
    res.writeHead(200); res.end();
  });
});
const nextCode = (n) => new Promise(r => { const check = () => codes.length >= n ? r(codes[n - 1]) : (waiter = check); check(); });
rx.listen(0, '127.0.0.1', async () => {
  const uri = `http://127.0.0.1:${rx.address().port}/hook`;
  const client = new Client('client-id', { accessToken: token, apiUrl, retryOptions: { retries: 0 } });
  let r = await call(() => client.callbacks.create({ event: 'invoice.create', uri }, accountId));
  assert(r.ok && r.data.verified === false && r.data.uri === uri && r.data.callbackId > 0, 'create ' + JSON.stringify(r.data));
  const id = r.data.callbackId;
  assert(r.data.updatedAt instanceof Date && !isNaN(r.data.updatedAt), 'updatedAt parsed as a date');
  const code = await nextCode(1);
  r = await call(() => client.callbacks.verify(accountId, id, 'wrong'));
  assert(!r.ok && r.error && r.error.message, 'wrong verifier error: ' + JSON.stringify(r.error));
  r = await call(() => client.callbacks.verify(accountId, id, code));
  assert(r.ok && r.data.verified === true, 'verify');
  r = await call(() => client.callbacks.single(accountId, id));
  assert(r.ok && r.data.callbackId === id && r.data.event === 'invoice.create', 'single');
  r = await call(() => client.callbacks.list(accountId, [new SearchQueryBuilder().equals('verified', true).equals('event', 'invoice'), new PaginationQueryBuilder().page(1).perPage(10)]));
  assert(r.ok && r.data.callbacks.length === 1 && r.data.pages.total === 1 && r.data.pages.size === 10 && r.data.pages.page === 1, 'list with raw search[...] ' + JSON.stringify(r.data.pages));
  r = await call(() => client.callbacks.list(accountId, [new SearchQueryBuilder().equals('verified', false)]));
  assert(r.ok && r.data.callbacks.length === 0, 'list verified=false');
  r = await call(() => client.callbacks.resendVerification(accountId, id));
  assert(r.ok && r.data.verified === false, 'resend');
  const code2 = await nextCode(2);
  assert(code2 !== code, 'a fresh code');
  r = await call(() => client.callbacks.update({ event: 'invoice', uri }, accountId, id));
  assert(r.ok && r.data.event === 'invoice', 'update (same uri, new event)');
  r = await call(() => client.callbacks.verify(accountId, id, code2));
  assert(r.ok && r.data.verified, 'verify with the new code');
  r = await call(() => client.callbacks.create({ event: 'expense', uri }, accountId));
  assert(!r.ok && /user:expenses:read/.test(r.error.message), 'scope refusal: ' + JSON.stringify(r.error));
  r = await call(() => client.callbacks.delete(accountId, id));
  assert(r.ok, 'delete');
  r = await call(() => client.callbacks.single(accountId, id));
  assert(!r.ok && r.error.message, 'gone: ' + JSON.stringify(r.error));
  rx.close();
  console.log('ALL OK');
});
