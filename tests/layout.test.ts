/**
 * The top level the design card names (docs/design.md §11.1): the Next.js configuration is `next.config.js`,
 * an ES module typed with a JSDoc `@type` import (checked by `npm run typecheck`), and it is the
 * one Next.js loads: the security headers SECURITY.md promises come from it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../next.config.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

describe('next.config.js', () => {
  it('is the only Next.js configuration, an ES module typed by JSDoc', () => {
    for (const other of ['next.config.ts', 'next.config.mjs', 'next.config.cjs'])
      expect(existsSync(ROOT + other), other).toBe(false);
    const text = readFileSync(ROOT + 'next.config.js', 'utf8');
    expect(text).toMatch(/^\/\/ @ts-check$/m);
    expect(text).toContain("/** @type {import('next').NextConfig} */");
    expect(text).toMatch(/^export default config;$/m);
    const tsconfig = JSON.parse(readFileSync(ROOT + 'tsconfig.json', 'utf8'));
    expect(tsconfig.include).toContain('next.config.js');
  });

  it('keeps PGlite out of the server bundle and sends the security headers', async () => {
    expect(config.serverExternalPackages).toEqual(
      expect.arrayContaining(['@electric-sql/pglite', 'pglite-prisma-adapter']),
    );
    const rules = await config.headers!();
    // Every page and route gets the security headers; static scripts only nosniff (dc140ea).
    const pages = rules.find((r) => r.source === '/((?!_next/static/).*)')!.headers.map((h) => h.key);
    expect(pages).toEqual([
      'Content-Security-Policy',
      'X-Content-Type-Options',
      'X-Frame-Options',
      'Referrer-Policy',
    ]);
    expect(rules.find((r) => r.source === '/_next/static/:path*')!.headers).toEqual([
      { key: 'X-Content-Type-Options', value: 'nosniff' },
    ]);
    // Every API answer: private, never stored (e2e/caching.spec.ts walks the routes).
    expect(rules.find((r) => r.source === '/api/:path*')!.headers).toEqual([
      { key: 'Cache-Control', value: 'private, no-store' },
    ]);
    expect(rules.at(-1)).toEqual({
      source: '/s/:path*',
      headers: [
        { key: 'Referrer-Policy', value: 'no-referrer' },
        { key: 'Cache-Control', value: 'private, no-store' },
      ],
    });
  });
});
