import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // `server-only` throws outside a React Server environment; tests are plain Node.
      'server-only': fileURLToPath(new URL('./tests/server-only-stub.ts', import.meta.url)),
    },
  },
  test: {
    include: [
      'lib/**/*.test.ts',
      'app/**/*.test.ts',
      'bin/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tests/**/*.test.ts',
    ],
    exclude: ['node_modules', 'e2e', '.next'],
    environment: 'node',
    // toEqual ignores key order; this makes it compare the order of JSON Schema `properties` too.
    setupFiles: ['tests/declaration-order-tester.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Database tests share one server; keep files from racing on it.
    fileParallelism: true,
    pool: 'forks',
    server: { deps: { inline: ['server-only'] } },
  },
});
