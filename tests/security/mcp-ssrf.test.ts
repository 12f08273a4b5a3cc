/**
 * SSRF through the API: adding (or refreshing) a toolkit from an MCP URL makes this server fetch
 * that URL, so POST /api/toolkits must refuse loopback, private, link-local and metadata
 * addresses — as literals, as names that resolve to them, and as redirect targets — unless
 * TOOLFLOW_MCP_ALLOW_PRIVATE is set. lib/mcp/url-guard.test.ts proves the guard; this proves the
 * routes go through it, say why, write nothing, and forward none of the caller's credentials.
 */
import type * as Dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startChangingHttpServer, type ChangingHttpServer } from '@/lib/mcp/__fixtures__/http-server';
import { getTestBackends, useTestDatabase, type TestDatabase } from '@/tests/db';
import { createOwnerClient, type OwnerClient } from '@/tests/owner-client';
import { GET as listToolkits, POST as createToolkit } from '@/app/api/toolkits/route';
import { POST as refreshToolkit } from '@/app/api/toolkits/[id]/refresh/route';
import { snapshotDatabase } from './api-routes';

// Public-looking names whose DNS answer is private (a rebinding or hostile record): stand in for
// DNS where the guard resolves names; everything else resolves as usual.
vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof Dns>();
  const records: Record<string, string[]> = {
    'mcp.rebind.test': ['127.0.0.1'],
    'mixed.rebind.test': ['93.184.216.34', '10.0.0.7'],
    'metadata.rebind.test': ['169.254.169.254'],
    'v6.rebind.test': ['::1'],
  };
  const lookup = ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const fake = records[hostname];
    if (!fake) return (real.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    const all = fake.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const cb = typeof options === 'function' ? (options as typeof callback) : callback;
    const wantsAll = typeof options === 'object' && (options as { all?: boolean }).all;
    process.nextTick(() => (wantsAll ? cb(null, all) : cb(null, all[0].address, all[0].family)));
  }) as typeof real.lookup;
  return { ...real, lookup, default: { ...real, lookup } };
});

const backends = await getTestBackends();

/** Names /etc/hosts maps to loopback (other than `localhost`, which is refused by name too). */
function getLoopbackHostNames(): string[] {
  let text = '';
  try {
    text = fs.readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
    .filter(([address]) => address === '127.0.0.1' || address === '::1')
    .flatMap(([, ...names]) => names)
    .filter(
      (name) => name && name !== 'localhost' && !name.endsWith('.localhost') && !name.includes('localhost'),
    )
    .slice(0, 2);
}

const tool = {
  name: 'search',
  description: 'Search',
  inputSchema: { type: 'object' as const, properties: {} },
};

describe.each(backends)('MCP URL guard through /api/toolkits on $name', (backend) => {
  let database: TestDatabase;
  let mcp: ChangingHttpServer;
  let trap: http.Server;
  let trapPort: number;
  const hits: { path: string; headers: http.IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    database = await useTestDatabase(backend);
    mcp = await startChangingHttpServer([tool]);
    // Records every request; answers redirects where told to, anything else with an empty object.
    trap = http.createServer((req, res) => {
      hits.push({ path: req.url!, headers: req.headers });
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/redirect') {
        res.writeHead(307, { location: url.searchParams.get('to')! });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapPort = (trap.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await mcp?.close();
    trap?.closeAllConnections();
    await new Promise((resolve) => trap?.close(resolve));
    await database?.close();
  });
  beforeEach(() => {
    vi.unstubAllEnvs();
    vi.stubEnv('TOOLFLOW_MCP_ALLOW_PRIVATE', '');
    vi.stubEnv('TOOLFLOW_MCP_ALLOW_HOSTS', '');
    vi.stubEnv('TOOLFLOW_MCP_TIMEOUT_MS', '3000');
  });

  async function newClient(): Promise<OwnerClient> {
    const client = createOwnerClient();
    await client.send(listToolkits, 'GET', '/api/toolkits');
    return client;
  }

  /** Adds a toolkit from `mcpUrl`; expects the guard's refusal, naming why, and nothing stored. */
  async function expectRefused(mcpUrl: string, reason: RegExp) {
    const client = await newClient();
    const before = await snapshotDatabase(database.db);
    const res = await client.send(createToolkit, 'POST', '/api/toolkits', { name: 'Probe', mcpUrl });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.code).toBe('bad_request:mcpUrl');
    expect(body.mcp).toMatchObject({ step: 'connect', code: 'url_refused' });
    expect(body.message).toMatch(reason);
    expect(await snapshotDatabase(database.db)).toBe(before);
    return body.message as string;
  }

  const port = () => new URL(mcp.url).port;

  it('adds a toolkit from the same loopback server once an administrator allows private addresses', async () => {
    // The control: what is refused below is refused by the guard, not because nothing answers.
    vi.stubEnv('TOOLFLOW_MCP_ALLOW_PRIVATE', '1');
    const client = await newClient();
    const res = await client.send(createToolkit, 'POST', '/api/toolkits', { name: 'Local', mcpUrl: mcp.url });
    expect(res.status).toBe(201);
    expect((await res.json()).toolkit.tools.map((t: { name: string }) => t.name)).toEqual(['search']);
  });

  it.each([
    ['loopback', () => mcp.url, /127\.0\.0\.1 is .*loopback/],
    ['a private 10.x address', () => 'http://10.0.0.1/mcp', /10\.0\.0\.1 is .*private/],
    ['a private 192.168.x address', () => 'http://192.168.1.20:8080/mcp', /192\.168\.1\.20/],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254/],
    ['IPv6 loopback', () => `http://[::1]:${port()}/mcp`, /::1/],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${port()}/mcp`, /127\.0\.0\.1|::ffff/],
    ['the unspecified address', () => `http://0.0.0.0:${port()}/mcp`, /0\.0\.0\.0/],
    ['loopback written as one decimal number', () => `http://2130706433:${port()}/mcp`, /127\.0\.0\.1/],
    ['loopback written in hex', () => `http://0x7f.1:${port()}/mcp`, /127\.0\.0\.1/],
  ])('refuses %s', async (_, url, reason) => {
    await expectRefused(url(), reason);
    expect(mcp.getSessionCount()).toBe(0);
  });

  it('refuses localhost by name, whatever it resolves to', async () => {
    await expectRefused(`http://localhost:${port()}/mcp`, /"localhost" names this server/);
    await expectRefused(`http://api.localhost:${port()}/mcp`, /names this server/);
  });

  it.each([
    ['mcp.rebind.test', /"mcp\.rebind\.test" resolves to 127\.0\.0\.1/],
    ['mixed.rebind.test', /resolves to 10\.0\.0\.7/],
    ['metadata.rebind.test', /resolves to 169\.254\.169\.254/],
    ['v6.rebind.test', /resolves to ::1/],
  ])('refuses %s, a DNS name that resolves to a private address', async (host, reason) => {
    await expectRefused(`http://${host}:${port()}/mcp`, reason);
  });

  const hostsNames = getLoopbackHostNames();
  it.skipIf(hostsNames.length === 0)(
    `refuses names /etc/hosts maps to loopback (${hostsNames.join(', ') || 'none here'})`,
    async () => {
      for (const name of hostsNames)
        await expectRefused(`http://${name}:${port()}/mcp`, new RegExp(`"${name}" resolves to`));
    },
  );

  it.each([
    ['a loopback MCP server', () => mcp.url, /127\.0\.0\.1/],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254/],
    ['a private address', () => 'http://10.1.2.3/mcp', /10\.1\.2\.3/],
  ])('refuses a redirect from an allowed host to %s, without following it', async (_, target, reason) => {
    // The operator allowed one internal host by name; its redirect elsewhere is checked again.
    vi.stubEnv('TOOLFLOW_MCP_ALLOW_HOSTS', 'localhost');
    const before = hits.length;
    const message = await expectRefused(
      `http://localhost:${trapPort}/redirect?to=${encodeURIComponent(target())}`,
      reason,
    );
    expect(message).toContain('TOOLFLOW_MCP_ALLOW_PRIVATE=1');
    // The allowed host was asked; the redirect target never was.
    expect(hits.slice(before).map((h) => h.path.split('?')[0])).toEqual(['/redirect']);
    expect(mcp.getSessionCount()).toBe(0);
  });

  it("never forwards the caller's cookie or authorization to the MCP server", async () => {
    vi.stubEnv('TOOLFLOW_MCP_ALLOW_PRIVATE', '1');
    const client = await newClient();
    const before = hits.length;
    await client.send(
      createToolkit,
      'POST',
      '/api/toolkits',
      { name: 'Trap', mcpUrl: `http://127.0.0.1:${trapPort}/mcp` },
      {},
      // Not a Bearer header: that is read as a Toolflow API token (docs/design.md §13.5), and an
      // unknown one is refused before the server is called at all.
      { authorization: 'Basic dXNlcnMtb3duOnRva2Vu', 'x-api-key': 'users-key' },
    );
    const seen = hits.slice(before);
    expect(seen.length).toBeGreaterThan(0);
    for (const { headers } of seen) {
      expect(headers.cookie).toBeUndefined();
      expect(headers.authorization).toBeUndefined();
      expect(headers['x-api-key']).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain('toolflow_owner');
    }
  });

  it('refuses to refresh a toolkit whose server URL is private once private addresses are no longer allowed', async () => {
    vi.stubEnv('TOOLFLOW_MCP_ALLOW_PRIVATE', '1');
    const client = await newClient();
    const created = await client.send(createToolkit, 'POST', '/api/toolkits', {
      name: 'Was allowed',
      mcpUrl: mcp.url,
    });
    expect(created.status).toBe(201);
    const { toolkit } = await created.json();

    vi.stubEnv('TOOLFLOW_MCP_ALLOW_PRIVATE', '');
    const before = await snapshotDatabase(database.db);
    const res = await client.send(refreshToolkit, 'POST', '', undefined, { id: toolkit.id });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('bad_request:mcpUrl');
    expect(body.message).toMatch(/127\.0\.0\.1 is .*loopback/);
    expect(await snapshotDatabase(database.db)).toBe(before);
  });

  it('never takes a command to run from a request: stdio servers are named in server config only', async () => {
    vi.stubEnv('TOOLFLOW_MCP_SERVERS', JSON.stringify({ memory: { command: 'node', args: ['-e', '0'] } }));
    const client = await newClient();
    const before = await snapshotDatabase(database.db);
    for (const body of [
      { name: 'Run', command: 'touch /tmp/toolflow-pwned' },
      { name: 'Run', mcpServer: 'memory', args: ['-e', 'process.exit(1)'] },
      { name: 'Run', mcpServer: 'node -e "require(`fs`).writeFileSync(`/tmp/toolflow-pwned`, ``)"' },
    ]) {
      const res = await client.send(createToolkit, 'POST', '/api/toolkits', body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toMatch(/is not a known field|memory/);
    }
    expect(fs.existsSync('/tmp/toolflow-pwned')).toBe(false);
    expect(await snapshotDatabase(database.db)).toBe(before);
  });

  it('refuses schemes other than http(s) and credentials in the URL', async () => {
    await expectRefused('file:///etc/passwd', /file: URLs are not allowed/);
    await expectRefused('gopher://127.0.0.1:6379/_INFO', /gopher: URLs are not allowed/);
    await expectRefused('https://user:pass@mcp.example.com/mcp', /user name or password/);
  });
});
