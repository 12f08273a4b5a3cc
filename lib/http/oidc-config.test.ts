import { describe, expect, it } from 'vitest';
import { describeOidcError, getOidcConfig, getOidcConfigProblem } from './oidc-config';

const env = (vars: Record<string, string>) => vars as unknown as NodeJS.ProcessEnv;

const FULL = {
  TOOLFLOW_OIDC_ISSUER: 'https://id.example.org/realms/team/',
  TOOLFLOW_OIDC_CLIENT_ID: 'toolflow',
  TOOLFLOW_OIDC_CLIENT_SECRET: 's3cret',
  BETTER_AUTH_URL: 'https://toolflow.example.com/',
};

describe('getOidcConfig', () => {
  it('is off, with nothing to fix, when none of the variables is set or all are blank', () => {
    expect(getOidcConfig(env({}))).toEqual({});
    expect(
      getOidcConfig(
        env({ TOOLFLOW_OIDC_ISSUER: ' ', TOOLFLOW_OIDC_CLIENT_ID: '', TOOLFLOW_OIDC_NAME: 'Okta' }),
      ),
    ).toEqual({});
  });

  it('reads a full configuration: discovery under the issuer, the default label', () => {
    expect(getOidcConfig(env(FULL))).toEqual({
      config: {
        issuer: 'https://id.example.org/realms/team',
        discoveryUrl: 'https://id.example.org/realms/team/.well-known/openid-configuration',
        clientId: 'toolflow',
        clientSecret: 's3cret',
        name: 'single sign-on',
        redirectUri: 'https://toolflow.example.com/api/auth/callback/oidc',
      },
    });
    expect(getOidcConfig(env({ ...FULL, TOOLFLOW_OIDC_NAME: ' Okta ' })).config?.name).toBe('Okta');
  });

  it('names the one variable missing from a partial configuration, and how to fix it', () => {
    for (const missing of [
      'TOOLFLOW_OIDC_ISSUER',
      'TOOLFLOW_OIDC_CLIENT_ID',
      'TOOLFLOW_OIDC_CLIENT_SECRET',
    ]) {
      const partial = { ...FULL, [missing]: '' };
      const problem = getOidcConfigProblem(env(partial));
      expect(problem).toMatch(new RegExp(`^${missing} is not set, but `));
      expect(problem).toContain('redirect URI <BETTER_AUTH_URL>/api/auth/callback/oidc');
      expect(problem).toContain('or none of them to turn single sign-on off');
    }
  });

  it('names every missing variable when only one is set', () => {
    expect(getOidcConfigProblem(env({ TOOLFLOW_OIDC_CLIENT_ID: 'toolflow' }))).toMatch(
      /^TOOLFLOW_OIDC_ISSUER and TOOLFLOW_OIDC_CLIENT_SECRET are not set, but TOOLFLOW_OIDC_CLIENT_ID is\./,
    );
  });

  it("needs Toolflow's own address, the redirect URI registered at the provider", () => {
    expect(getOidcConfigProblem(env({ ...FULL, BETTER_AUTH_URL: '' }))).toMatch(
      /^BETTER_AUTH_URL is not set, but TOOLFLOW_OIDC_ISSUER is\. .*<BETTER_AUTH_URL>\/api\/auth\/callback\/oidc/,
    );
    for (const address of [
      'toolflow.example.com',
      'ftp://toolflow.example.com',
      'https://t.example.com/?a=1',
    ])
      expect(getOidcConfigProblem(env({ ...FULL, BETTER_AUTH_URL: address })), address).toMatch(
        /^BETTER_AUTH_URL must be the http:\/\/ or https:\/\/ address people reach Toolflow at/,
      );
    // Without single sign-on, Better Auth takes the address from each request as before.
    expect(getOidcConfig(env({ BETTER_AUTH_URL: '' }))).toEqual({});
    expect(
      getOidcConfig(env({ ...FULL, BETTER_AUTH_URL: 'http://127.0.0.1:3000' })).config?.redirectUri,
    ).toBe('http://127.0.0.1:3000/api/auth/callback/oidc');
  });

  it('takes http:// only for a provider on this machine', () => {
    for (const issuer of ['http://127.0.0.1:3212', 'http://localhost:8080/realms/dev', 'http://[::1]:9000']) {
      expect(getOidcConfigProblem(env({ ...FULL, TOOLFLOW_OIDC_ISSUER: issuer })), issuer).toBeUndefined();
    }
    for (const issuer of [
      'http://id.example.org',
      'id.example.org',
      'ftp://id.example.org',
      'https://id.example.org/?tenant=a',
      'https://user:pw@id.example.org',
      'http://127.0.0.1.example.org',
    ]) {
      expect(getOidcConfigProblem(env({ ...FULL, TOOLFLOW_OIDC_ISSUER: issuer })), issuer).toMatch(
        /^TOOLFLOW_OIDC_ISSUER must be the provider's https:\/\/ issuer address/,
      );
    }
  });
});

describe('describeOidcError', () => {
  it('says what happened in words, for refusals, lost attempts and unknown codes alike', () => {
    expect(describeOidcError('access_denied', 'Okta')).toMatch(
      /^Signing in with Okta was cancelled or refused/,
    );
    for (const code of ['state_mismatch', 'state_not_found', 'state_invalid'])
      expect(describeOidcError(code, 'Okta')).toMatch(/started in another browser or tab/);
    expect(describeOidcError('email_not_found', 'Okta')).toContain('"email" scope');
  });

  it('echoes an unknown code only as a short word, never markup or a trace', () => {
    const message = describeOidcError('<script>alert(1)</script>\n    at x (/app/y.js:1:2)', 'Okta');
    expect(message).toMatch(/^Signing in with Okta did not work \(scriptalert1scriptatxappy.js12\)/);
    expect(message).not.toMatch(/[<>/\n]/);
  });
});
