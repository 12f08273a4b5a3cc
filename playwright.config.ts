import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './scripts/chromium';

const PORT = Number(process.env.E2E_PORT ?? 3210);
/** The scripted OpenAI-protocol server (lib/llm/testing) the LLM journeys plan against. */
const LLM_PORT = Number(process.env.E2E_LLM_PORT ?? 3211);
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/toolflow-e2e-${process.pid}`;

/**
 * E2E against the production build (`npm run build` first), a fresh embedded database, Debian's
 * Chromium, and never the network.
 */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: CHROMIUM_LAUNCH,
  },
  webServer: [
    {
      command: `npm run --silent mock-llm -- --scenario e2e/scenarios/llm-journey.json --port ${LLM_PORT}`,
      url: `http://127.0.0.1:${LLM_PORT}/v1/models`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `rm -rf ${dataDir} && npm run start -- --port ${PORT}`,
      url: `http://127.0.0.1:${PORT}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        TOOLFLOW_DATA_DIR: dataDir,
        NEXT_TELEMETRY_DISABLED: '1',
        TOOLFLOW_MCP_ALLOW_PRIVATE: '1',
        // `npm start` is production, where the owner-cookie secret is required (lib/http/owner.ts).
        TOOLFLOW_SECRET: process.env.TOOLFLOW_SECRET ?? 'e2e-only-secret-not-for-real-use',
        // A language model is configured (the scripted server), but a plan request names its
        // planner, so journeys choose the offline planner or this one per run.
        OPENAI_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
        OPENAI_API_KEY: 'scripted',
        TOOLFLOW_MODEL: 'scripted-model',
      },
    },
  ],
});
