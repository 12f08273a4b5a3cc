import { connection } from 'next/server';
import { describeOidcError, getOidcConfig, OIDC_PROVIDER_ID } from '@/lib/http/oidc-config';
import { SingleSignOn } from './single-sign-on';

/**
 * The single sign-on button when the server is configured for it (read per request: the
 * environment of the running server, not of the build), with the message for `error`, the code
 * the provider or Better Auth sent the browser back with; `next` is where a sign-in returns.
 */
export async function SingleSignOnSection({ error, next }: { error?: string; next?: string }) {
  await connection();
  const { config } = getOidcConfig(process.env);
  if (!config) return null;
  return (
    <SingleSignOn
      provider={OIDC_PROVIDER_ID}
      name={config.name}
      next={next}
      message={error ? describeOidcError(error, config.name) : undefined}
    />
  );
}
