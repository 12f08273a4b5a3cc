// @ts-check

/**
 * Sent with every response (SECURITY.md). Scripts may be inline because Next's own bootstrap
 * and RSC payload scripts are (a nonce instead would make every page dynamic), and may use eval
 * because the inspector compiles each tool's JSON Schema into a validator with Ajv in the
 * browser. The policy still keeps scripts, connections, images, frames, objects and form targets
 * to this origin and forbids framing Toolflow.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: CONTENT_SECURITY_POLICY },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
];

/** @type {import('next').NextConfig} */
const config = {
  // PGlite ships wasm and data files; keep it (and its adapter) out of the server bundle and load
  // it from node_modules at run time (docs/design.md §10.6).
  serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', '@modelcontextprotocol/sdk'],
  poweredByHeader: false,
  // Rendered copies of shared versions (app/s/v/[hash]/[version]) stay in memory (Next's LRU,
  // 50 MB by default), never on disk: each holds a workflow, and a restart should drop them.
  experimental: { isrFlushToDisk: false },
  reactStrictMode: true,
  // The browser's d3-color is a stub: React Flow's zoom animations never interpolate a colour,
  // and the real one costs the editor ~4.3 KB of first-load JavaScript (lib/editor/d3-color-stub.ts).
  turbopack: { resolveAlias: { 'd3-color': { browser: './lib/editor/d3-color-stub.ts' } } },
  typedRoutes: false,
  // `npm run typecheck` and `npm run lint` are their own CI steps; the build does not repeat them.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [
      // Pages and API responses. The build's static files (scripts, styles, fonts) carry only
      // nosniff: a policy, a framing rule or a referrer policy does nothing for a script file,
      // and those headers would cost ~0.5 KB on each of the dozen scripts a page loads.
      { source: '/((?!_next/static/).*)', headers: SECURITY_HEADERS },
      { source: '/_next/static/:path*', headers: [{ key: 'X-Content-Type-Options', value: 'nosniff' }] },
      // Every API answer is kept by no cache, shared or not: most belong to one owner (a workflow,
      // a run, toolkits), many issue the owner cookie, and the rest (health, shared workflows) must
      // be fresh. Route handlers set no Cache-Control of their own, so this is the one place.
      // Pages: dynamic ones get Next's own `private, no-store`, and proxy.ts makes a page that
      // issues the cookie private too.
      { source: '/api/:path*', headers: [{ key: 'Cache-Control', value: 'private, no-store' }] },
      // A share link's token must never leave in a Referer (the last matching rule wins), and
      // its page must never be kept by a browser or a shared cache: the server serves a rendered
      // copy, but only after checking on each request that the link is still live (proxy.ts), and
      // Next would otherwise mark that copy cacheable for a year.
      {
        source: '/s/:path*',
        headers: [
          { key: 'Referrer-Policy', value: 'no-referrer' },
          { key: 'Cache-Control', value: 'private, no-store' },
        ],
      },
    ];
  },
};

export default config;
