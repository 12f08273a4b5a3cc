/**
 * A real OpenID Connect provider on this machine for the single sign-on journeys (e2e/oidc.spec.ts):
 * the `oidc-provider` package, the same library many production issuers are built on, with one
 * client whose redirect URI is Toolflow's callback. Its development login form takes any login
 * (the password is not checked); the login is the account's subject, `<login>@example.com` its
 * verified address, and PERSON_NAMES its display name.
 *
 *   tsx e2e/support/oidc-provider.ts --port 3212 --client-id toolflow --client-secret s3cret \
 *     --redirect-uri http://127.0.0.1:3210/api/auth/callback/oidc
 *
 * playwright.config.ts starts it as a web server and gives the app the matching TOOLFLOW_OIDC_*.
 */
import { generateKeyPairSync } from 'node:crypto';
import { parseArgs } from 'node:util';
import Provider, { type Configuration } from 'oidc-provider';

/** Display names of the logins the journeys use; any other login is named after itself. */
const PERSON_NAMES: Record<string, string> = { lin: 'Lin Okafor', sam: 'Sam Reyes' };

interface Client {
  id: string;
  secret: string;
  redirectUri: string;
}

function createProvider(issuer: string, client: Client): Provider {
  // A fresh signing key per run: ID tokens are checked against the published one, as in production.
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const configuration: Configuration = {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: 'e2e', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['e2e-only-oidc-provider-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      const login = id.trim().toLowerCase();
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: `${login}@example.com`,
            email_verified: true,
            name: PERSON_NAMES[login] ?? login,
          };
        },
      };
    },
  };
  return new Provider(issuer, configuration);
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.E2E_OIDC_PORT ?? '3212' },
    'redirect-uri': { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
  },
});
const port = Number(values.port);
const { 'redirect-uri': redirectUri, 'client-id': id, 'client-secret': secret } = values;
if (!redirectUri || !id || !secret) {
  console.error('--redirect-uri (the app callback), --client-id and --client-secret are required');
  process.exit(2);
}
const issuer = `http://127.0.0.1:${port}`;
createProvider(issuer, { id, secret, redirectUri }).listen(port, '127.0.0.1', () => {
  console.log(`OpenID Connect provider at ${issuer} for ${redirectUri}`);
});
