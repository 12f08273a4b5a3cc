import { describe, expect, it } from 'vitest';
import { getSecretConfigProblem } from './secret-config';

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

describe('getSecretConfigProblem', () => {
  it('accepts a long secret in production and nothing outside it', () => {
    expect(
      getSecretConfigProblem(env({ NODE_ENV: 'production', TOOLFLOW_SECRET: 'x'.repeat(16) })),
    ).toBeUndefined();
    expect(getSecretConfigProblem(env({}))).toBeUndefined();
  });

  it('says how to set the secret when production has none', () => {
    for (const problem of [
      getSecretConfigProblem(env({ NODE_ENV: 'production' })),
      getSecretConfigProblem(env({ TOOLFLOW_SECRET: '   ' }), { production: true }),
    ]) {
      expect(problem).toMatch(/^TOOLFLOW_SECRET is not set\./);
      expect(problem).toContain('TOOLFLOW_SECRET=$(openssl rand -hex 32) npm start');
    }
  });

  it('refuses a short secret anywhere', () => {
    expect(getSecretConfigProblem(env({ TOOLFLOW_SECRET: 'short' }))).toMatch(/shorter than 16 characters/);
  });
});
