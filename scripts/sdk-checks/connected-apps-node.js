// The real @freshbooks/api SDK (unchanged) against a ledgerlink server, before and after the user
// disconnects the application (docs/oauth.md, "Connected applications").
// Usage: node connected-apps-node.js <base_url> <client_id> <client_secret> <redirect_uri> <access_token> <refresh_token> live|disconnected
//   live:         users.me() answers, and a refresh gives a new pair (printed as one JSON line: {"accessToken", "refreshToken"})
//   disconnected: users.me() with the access token is refused, and so is a refresh with the refresh token
const { Client } = require('@freshbooks/api');
const [apiUrl, clientId, clientSecret, redirectUri, accessToken, refreshToken, expect] = process.argv.slice(2);
const assert = (c, m) => { if (!c) { console.error('FAIL', m); process.exit(1); } else console.error('ok', m); };
const call = async (f) => { try { return { ok: true, value: await f() }; } catch (e) { return { ok: false, error: e }; } };
(async () => {
  const client = new Client(clientId, { clientSecret, redirectUri, accessToken, refreshToken, apiUrl, retryOptions: { retries: 0 } });
  const me = await call(() => client.users.me());
  if (expect === 'live') {
    assert(me.ok && me.value.ok && me.value.data.email, 'users.me() with the access token ' + JSON.stringify(me.value && me.value.data));
    const refreshed = await call(() => client.refreshAccessToken(refreshToken));
    assert(refreshed.ok && refreshed.value && refreshed.value.accessToken, 'refresh ' + JSON.stringify(refreshed.error && refreshed.error.message));
    console.log(JSON.stringify({ accessToken: refreshed.value.accessToken, refreshToken: refreshed.value.refreshToken }));
  } else {
    const refused = !me.ok || !me.value.ok;
    assert(refused, 'users.me() refused after the disconnect: ' + JSON.stringify(me.ok ? me.value : me.error.message));
    const refreshed = await call(() => client.refreshAccessToken(refreshToken));
    assert(!refreshed.ok || refreshed.value === undefined, 'refresh refused after the disconnect: ' + (refreshed.ok ? JSON.stringify(refreshed.value) : refreshed.error.message));
    console.log(JSON.stringify({ refused: true }));
  }
  console.error('ALL OK');
})();
