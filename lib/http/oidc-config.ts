/**
 * Optional single sign-on with any OpenID Connect provider, configured by environment variables
 * (docs/design.md §13.1). Pure (no `server-only`, no IO): `npm start` and `npm run dev` check it
 * before starting the server (scripts/migrate.ts), and a server started anyway with a partial
 * configuration answers every request with 503 and the reason, as for the secret
 * (secret-config.ts).
 *
 * - `TOOLFLOW_OIDC_ISSUER`: the provider's issuer address; its discovery document is at
 *   `<issuer>/.well-known/openid-configuration`.
 * - `TOOLFLOW_OIDC_CLIENT_ID`, `TOOLFLOW_OIDC_CLIENT_SECRET`: the client registered at the provider,
 *   whose redirect URI is `<BETTER_AUTH_URL>/api/auth/callback/oidc`.
 * - `TOOLFLOW_OIDC_NAME`: the button's label, "Sign in with <name>" (default "single sign-on").
 *
 * `BETTER_AUTH_URL` (the address people reach Toolflow at) is required with them: a provider sends
 * the browser back only to the exact redirect URI registered there, so it cannot be guessed from
 * each request's Host.
 */

/** Better Auth's id of the provider: the callback is /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = 'oidc';

/** The label when TOOLFLOW_OIDC_NAME is not set. */
export const DEFAULT_OIDC_NAME = 'single sign-on';

/** Where the provider sends the browser back (Better Auth's callback under /api/auth). */
export const OIDC_CALLBACK_PATH = `/api/auth/callback/${OIDC_PROVIDER_ID}`;

/** The three variables a provider needs, in the order a person sets them. */
const REQUIRED = ['TOOLFLOW_OIDC_ISSUER', 'TOOLFLOW_OIDC_CLIENT_ID', 'TOOLFLOW_OIDC_CLIENT_SECRET'] as const;

/** What single sign-on needs to run. */
export interface OidcConfig {
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  name: string;
  /** `<BETTER_AUTH_URL>/api/auth/callback/oidc`, as registered at the provider. */
  redirectUri: string;
}

/** How to register the client, for every message about the configuration. */
const OIDC_HOW_TO =
  'Set TOOLFLOW_OIDC_ISSUER, TOOLFLOW_OIDC_CLIENT_ID and TOOLFLOW_OIDC_CLIENT_SECRET together (the client registered at your provider, with redirect URI <BETTER_AUTH_URL>/api/auth/callback/oidc), or none of them to turn single sign-on off.';

/** A loopback host, where plain http:// is a developer's own provider rather than a wire to read. */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The single sign-on configuration: `config` when all of it is set, neither field when none of it
 * is, `problem` (said the way a person fixes it) when part of it is or the issuer is not an
 * https:// address (http:// only on this machine).
 */
export function getOidcConfig(env: NodeJS.ProcessEnv): { config?: OidcConfig; problem?: string } {
  const values = REQUIRED.map((name) => env[name]?.trim() ?? '');
  const missing = REQUIRED.filter((_, i) => !values[i]);
  if (missing.length === REQUIRED.length) return {};
  if (missing.length > 0) {
    const set = REQUIRED.filter((_, i) => values[i]).join(' and ');
    const verb = missing.length === 1 ? 'is' : 'are';
    return {
      problem: `${missing.join(' and ')} ${verb} not set, but ${set} ${set.includes(' and ') ? 'are' : 'is'}. ${OIDC_HOW_TO}`,
    };
  }
  const [issuerText, clientId, clientSecret] = values;
  let issuer: URL;
  try {
    issuer = new URL(issuerText);
  } catch {
    return {
      problem: `TOOLFLOW_OIDC_ISSUER must be the provider's https:// issuer address, not "${issuerText}".`,
    };
  }
  const secure = issuer.protocol === 'https:' || (issuer.protocol === 'http:' && isLoopback(issuer.hostname));
  if (!secure || issuer.search || issuer.hash || issuer.username || issuer.password) {
    return {
      problem: `TOOLFLOW_OIDC_ISSUER must be the provider's https:// issuer address (http:// only for a provider on this machine), not "${issuerText}".`,
    };
  }
  const base = issuer.href.replace(/\/+$/, '');
  const appAddress = env.BETTER_AUTH_URL?.trim() ?? '';
  let app: URL | undefined;
  try {
    app = new URL(appAddress);
  } catch {
    app = undefined;
  }
  if (!app || (app.protocol !== 'https:' && app.protocol !== 'http:') || app.search || app.hash) {
    return {
      problem: `${appAddress ? `BETTER_AUTH_URL must be the http:// or https:// address people reach Toolflow at, not "${appAddress}"` : 'BETTER_AUTH_URL is not set, but TOOLFLOW_OIDC_ISSUER is'}. The provider sends people back only to the redirect URI registered there, <BETTER_AUTH_URL>${OIDC_CALLBACK_PATH}, so Toolflow must know its own address, e.g. BETTER_AUTH_URL=https://toolflow.example.org.`,
    };
  }
  return {
    config: {
      issuer: base,
      discoveryUrl: `${base}/.well-known/openid-configuration`,
      clientId,
      clientSecret,
      name: env.TOOLFLOW_OIDC_NAME?.trim() || DEFAULT_OIDC_NAME,
      redirectUri: `${app.href.replace(/\/+$/, '')}${OIDC_CALLBACK_PATH}`,
    },
  };
}

/** What is wrong with the single sign-on configuration, or undefined when nothing is. */
export function getOidcConfigProblem(env: NodeJS.ProcessEnv): string | undefined {
  return getOidcConfig(env).problem;
}

/**
 * What a person reads on /sign-in when the provider sent them back with `?error=<code>`: the
 * provider's refusal, an expired or foreign sign-in, or our own check failing, never a stack.
 */
export function describeOidcError(code: string, name: string): string {
  switch (code) {
    case 'access_denied':
    case 'consent_required':
    case 'login_required':
    case 'interaction_required':
      return `Signing in with ${name} was cancelled or refused, so you are not signed in. Try again, or sign in with your e-mail and password.`;
    case 'state_mismatch':
    case 'state_not_found':
    case 'state_invalid':
    case 'state_expired':
      return `That sign-in with ${name} was started in another browser or tab, or took too long. Start it again from this page.`;
    case 'email_not_found':
      return `${name} did not tell Toolflow your e-mail address, which an account needs. Ask whoever runs ${name} to allow the "email" scope.`;
    case 'account_not_linked':
      // Better Auth links a provider to an existing account only when that account's own address
      // is verified, which a password sign-up here never is: nobody's account is taken over.
      return `An account with your e-mail address already exists here. Sign in with its password.`;
    default:
      return `Signing in with ${name} did not work (${code.replace(/[^\w.-]/g, '').slice(0, 60) || 'unknown error'}). Try again; if it keeps happening, the server's log says why.`;
  }
}
