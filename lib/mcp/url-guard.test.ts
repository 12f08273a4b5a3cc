import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkMcpUrl,
  createGuardedFetch,
  getAllowedHosts,
  isPrivateAllowed,
  ResponseTooLargeError,
  UrlRefusedError,
  type ResolveHost,
} from './url-guard';

/** A resolver standing in for DNS: names map to fixed addresses; anything else does not exist. */
const fakeDns =
  (table: Record<string, string[]>): ResolveHost =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const dns = fakeDns({
  'mcp.example.com': ['93.184.216.34'],
  'evil.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.7'],
  'v6.example.com': ['::ffff:169.254.169.254'],
  'local.test': ['127.0.0.1'],
});
const strict = { allowPrivate: false, resolve: dns };

describe('checkMcpUrl', () => {
  it('accepts a public https URL and returns the checked addresses', async () => {
    const checked = await checkMcpUrl('https://mcp.example.com/mcp', strict);
    expect(checked).toMatchObject({
      ok: true,
      value: { addresses: [{ address: '93.184.216.34', family: 4 }] },
    });
  });

  it.each([
    ['http://127.0.0.1:3001/mcp', 'loopback'],
    ['http://[::1]/mcp', 'loopback'],
    ['http://[::ffff:127.0.0.1]/mcp', 'ipv4-mapped'],
    ['http://0.0.0.0:8080/', 'unspecified'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.1/', 'loopback'],
    ['http://10.0.0.1/', 'private'],
    ['http://192.168.0.10/', 'private'],
    ['http://100.64.1.1/', 'cgnat'],
    ['http://169.254.169.254/latest/meta-data/', 'metadata'],
    ['http://[fd00::1]/', 'unique-local'],
    ['http://[fe80::1]/', 'link-local'],
  ])('refuses %s (%s)', async (url, kind) => {
    const checked = await checkMcpUrl(url, strict);
    expect(checked).toMatchObject({ ok: false, error: { code: 'blocked_address', kind } });
    if (!checked.ok) expect(checked.error.message).toMatch(/TOOLFLOW_MCP_ALLOW_PRIVATE=1/);
  });

  it('refuses a DNS name that resolves to 127.0.0.1, naming the address', async () => {
    const checked = await checkMcpUrl('https://evil.example.com/mcp', strict);
    expect(checked).toMatchObject({
      ok: false,
      error: { code: 'blocked_address', address: '127.0.0.1', kind: 'loopback' },
    });
    if (!checked.ok) expect(checked.error.message).toContain('"evil.example.com" resolves to 127.0.0.1');
  });

  it('refuses a name when any one of its addresses is private', async () => {
    expect(await checkMcpUrl('https://mixed.example.com/', strict)).toMatchObject({
      ok: false,
      error: { address: '10.0.0.7' },
    });
    expect(await checkMcpUrl('https://v6.example.com/', strict)).toMatchObject({
      ok: false,
      error: { kind: 'ipv4-mapped' },
    });
  });

  it('refuses localhost and metadata names without asking DNS', async () => {
    const noDns: ResolveHost = async () => {
      throw new Error('DNS must not be asked');
    };
    for (const url of [
      'http://localhost:3000/mcp',
      'http://api.localhost/',
      'http://metadata.google.internal/',
    ]) {
      expect(await checkMcpUrl(url, { allowPrivate: false, resolve: noDns })).toMatchObject({
        ok: false,
        error: { code: 'blocked_host' },
      });
    }
  });

  it.each([
    ['file:///etc/passwd', 'bad_scheme'],
    ['ftp://mcp.example.com/', 'bad_scheme'],
    ['gopher://mcp.example.com/', 'bad_scheme'],
    ['https://user:secret@mcp.example.com/mcp', 'credentials_in_url'],
    ['not a url', 'bad_url'],
    ['https://nowhere.example.com/', 'dns_failed'],
  ])('refuses %s (%s)', async (url, code) => {
    expect(await checkMcpUrl(url, strict)).toMatchObject({ ok: false, error: { code } });
  });

  it('allows private addresses when TOOLFLOW_MCP_ALLOW_PRIVATE is set', async () => {
    expect(await checkMcpUrl('http://127.0.0.1:3001/mcp', { allowPrivate: true })).toMatchObject({
      ok: true,
    });
    expect(await checkMcpUrl('http://evil.example.com/', { allowPrivate: true, resolve: dns })).toMatchObject(
      { ok: true },
    );
  });

  it('allows exactly the hosts in the allow list', async () => {
    const options = { allowPrivate: false, allowHosts: ['local.test'], resolve: dns };
    expect(await checkMcpUrl('http://local.test:8080/mcp', options)).toMatchObject({ ok: true });
    expect(await checkMcpUrl('http://evil.example.com/', options)).toMatchObject({ ok: false });
  });
});

describe('environment switches', () => {
  it('reads TOOLFLOW_MCP_ALLOW_PRIVATE and TOOLFLOW_MCP_ALLOW_HOSTS', () => {
    expect(isPrivateAllowed({ TOOLFLOW_MCP_ALLOW_PRIVATE: '1' })).toBe(true);
    expect(isPrivateAllowed({ TOOLFLOW_MCP_ALLOW_PRIVATE: '0' })).toBe(false);
    expect(isPrivateAllowed({})).toBe(false);
    expect(getAllowedHosts({ TOOLFLOW_MCP_ALLOW_HOSTS: ' MCP.internal, [fd00::5] ,' })).toEqual([
      'mcp.internal',
      'fd00::5',
    ]);
  });
});

describe('createGuardedFetch', () => {
  let server: http.Server;
  let port = 0;
  const hits: { path: string; method: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        hits.push({ path: req.url!, method: req.method!, headers: req.headers, body });
        const url = new URL(req.url!, 'http://x');
        if (url.pathname === '/redirect') {
          res.writeHead(Number(url.searchParams.get('status') ?? 302), {
            location: url.searchParams.get('to')!,
          });
          return res.end();
        }
        if (url.pathname === '/loop') {
          res.writeHead(302, { location: '/loop' });
          return res.end();
        }
        if (url.pathname === '/big') {
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5000' });
          return res.end('x'.repeat(5000));
        }
        if (url.pathname === '/stream') {
          res.writeHead(200, { 'content-type': 'text/plain' }); // chunked, no length
          for (let i = 0; i < 10; i++) res.write('y'.repeat(500));
          return res.end();
        }
        if (url.pathname === '/hang') return; // never answers
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ path: url.pathname, method: req.method, body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const local = () => createGuardedFetch({ allowPrivate: true, maxBytes: 1000, timeoutMs: 2000 });

  it('fetches through the pinned address and reads the body', async () => {
    const response = await local()(`http://127.0.0.1:${port}/hello`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ path: '/hello', method: 'POST', body: '{"a":1}' });
  });

  it('refuses a loopback URL when private addresses are not allowed, sending nothing', async () => {
    const before = hits.length;
    const fetch = createGuardedFetch({ allowPrivate: false, maxBytes: 1000, timeoutMs: 2000 });
    await expect(fetch(`http://127.0.0.1:${port}/hello`)).rejects.toBeInstanceOf(UrlRefusedError);
    expect(hits.length).toBe(before);
  });

  it('re-checks every redirect hop and refuses a redirect to a private address', async () => {
    // local.test is allowed by name (an operator's allow list); the redirect target is not.
    const fetch = createGuardedFetch({
      allowPrivate: false,
      allowHosts: ['local.test'],
      resolve: dns,
      maxBytes: 1000,
      timeoutMs: 2000,
    });
    const target = `http://127.0.0.1:${port}/secret`;
    const before = hits.filter((h) => h.path === '/secret').length;
    const error = await fetch(`http://local.test:${port}/redirect?to=${encodeURIComponent(target)}`).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UrlRefusedError);
    expect((error as UrlRefusedError).refusal).toMatchObject({
      code: 'blocked_address',
      address: '127.0.0.1',
    });
    expect(hits.filter((h) => h.path === '/secret').length).toBe(before);
  });

  it('follows allowed redirects, turning a 303 into a GET and keeping the method on 307', async () => {
    const see = await local()(`http://127.0.0.1:${port}/redirect?status=303&to=/after`, {
      method: 'POST',
      body: 'x',
    });
    expect(await see.json()).toMatchObject({ path: '/after', method: 'GET', body: '' });
    const keep = await local()(`http://127.0.0.1:${port}/redirect?status=307&to=/after`, {
      method: 'POST',
      body: 'x',
    });
    expect(await keep.json()).toMatchObject({ path: '/after', method: 'POST', body: 'x' });
  });

  it('stops after too many redirects', async () => {
    await expect(local()(`http://127.0.0.1:${port}/loop`)).rejects.toThrow(/Too many redirects/);
  });

  it('never forwards cookies or authorization', async () => {
    await local()(`http://127.0.0.1:${port}/headers`, {
      headers: { cookie: 'session=abc', authorization: 'Bearer t', 'x-ok': '1' },
    });
    const last = hits[hits.length - 1];
    expect(last.headers.cookie).toBeUndefined();
    expect(last.headers.authorization).toBeUndefined();
    expect(last.headers['x-ok']).toBe('1');
  });

  it('refuses a response whose declared length is over the cap', async () => {
    await expect(local()(`http://127.0.0.1:${port}/big`)).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('stops reading a streamed response at the cap', async () => {
    const response = await local()(`http://127.0.0.1:${port}/stream`);
    await expect(response.text()).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('gives up when no response headers arrive in time', async () => {
    const fetch = createGuardedFetch({ allowPrivate: true, maxBytes: 1000, timeoutMs: 200 });
    await expect(fetch(`http://127.0.0.1:${port}/hang`)).rejects.toThrow(/No response .* within 200 ms/);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = local()(`http://127.0.0.1:${port}/hang`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});
