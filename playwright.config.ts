import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './scripts/chromium';

const PORT = Number(process.env.E2E_PORT ?? 3210);
/** The scripted OpenAI-protocol server (lib/llm/testing) the LLM journeys plan against. */
const LLM_PORT = Number(process.env.E2E_LLM_PORT ?? 3211);
/** The OpenID Connect provider (e2e/support/oidc-provider.ts) the single sign-on journeys sign in at. */
// Beside the model (+1), configuration.spec (+2) and serve.spec (+3, +4).
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? PORT + 5);
const OIDC_CALLBACK = `http://127.0.0.1:${PORT}/api/auth/callback/oidc`;
/** The one client that provider registers: Toolflow. */
const OIDC_CLIENT = { id: 'toolflow-e2e', secret: 'e2e-only-oidc-client-secret' };
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/toolflow-e2e-${process.pid}`;

/**
 * E2E against the production build (`npm run build` first), a fresh embedded database, Debian's
 * Chromium, a real OpenID Connect provider on this machine, and never the network.
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
      command: `npx tsx e2e/support/oidc-provider.ts --port ${OIDC_PORT} --redirect-uri ${OIDC_CALLBACK} --client-id ${OIDC_CLIENT.id} --client-secret ${OIDC_CLIENT.secret}`,
      url: `http://127.0.0.1:${OIDC_PORT}/.well-known/openid-configuration`,
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
        // Single sign-on at the provider above, as the client it registers.
        // (It needs the app's own address: the redirect URI registered there is exact.)
        BETTER_AUTH_URL: `http://127.0.0.1:${PORT}`,
        TOOLFLOW_OIDC_ISSUER: `http://127.0.0.1:${OIDC_PORT}`,
        TOOLFLOW_OIDC_CLIENT_ID: OIDC_CLIENT.id,
        TOOLFLOW_OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
        TOOLFLOW_OIDC_NAME: 'Example ID',
      },
    },
  ],
});
