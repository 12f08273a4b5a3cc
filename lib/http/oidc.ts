import 'server-only';
/**
 * Single sign-on with any OpenID Connect provider (docs/design.md §13.1), through Better Auth's
 * generic OAuth plugin: endpoints from the provider's discovery document, the authorization code
 * flow with PKCE, scopes `openid email profile`, and the ID token checked against the provider's
 * published keys and issuer before anyone is signed in. Configured by TOOLFLOW_OIDC_* (oidc-config.ts);
 * with none of them set there is no plugin and no button.
 */
import { genericOAuth } from 'better-auth/plugins';
import { getOidcConfig, OIDC_PROVIDER_ID } from './oidc-config';

/** The generic OAuth plugin for the configured provider, or nothing when none is configured. */
export function getOidcPlugins(env: NodeJS.ProcessEnv = process.env) {
  const { config, problem } = getOidcConfig(env);
  // The server answers 503 before Better Auth is made (errors.ts); this is for anything else.
  if (problem) throw new Error(problem);
  if (!config) return [];
  return [
    genericOAuth({
      config: [
        {
          providerId: OIDC_PROVIDER_ID,
          name: config.name,
          discoveryUrl: config.discoveryUrl,
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          redirectURI: config.redirectUri,
          scopes: ['openid', 'email', 'profile'],
          pkce: true,
          // Identity comes from the ID token: never accept one that was not signed by the issuer.
          requireIdTokenVerification: true,
          // Signing out ends the Toolflow session only, as with any app one signs in to with a
          // provider; the account bar does not follow a provider's logout page (SECURITY.md).
          disableProviderLogout: true,
        },
      ],
    }),
  ];
}
