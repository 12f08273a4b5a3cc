/**
 * Whether `TOOLFLOW_SECRET` is usable, said the way a person fixes it. Pure (no `server-only`,
 * no IO): `npm start` checks it before starting the server (scripts/migrate.ts --production),
 * the owner cookies (owner.ts) refuse to sign without it, and a server started anyway answers
 * every request with 503 and this reason (proxy.ts for pages, withErrors for the API).
 */

/** Headers of that 503, page or API: not stored, and asked again in a minute. */
export const MISCONFIGURED_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'retry-after': '60',
};

/** How to set the secret, for every message that asks for it. */
export const SECRET_HOW_TO =
  'Set it to a long random string that stays the same across restarts and deploys, e.g. `TOOLFLOW_SECRET=$(openssl rand -hex 32) npm start`, or put it in the environment of the service that runs Toolflow.';

/**
 * What is wrong with the secret configuration, or undefined when nothing is. Outside production
 * an unset secret is fine (one is generated into the data directory); in production it is not,
 * because a generated key on an ephemeral disk would orphan every browser's workflows on the next
 * deploy.
 */
export function getSecretConfigProblem(
  env: NodeJS.ProcessEnv,
  opts: { production?: boolean } = {},
): string | undefined {
  const configured = env.TOOLFLOW_SECRET?.trim();
  if (configured) {
    return configured.length < 16
      ? `TOOLFLOW_SECRET is shorter than 16 characters. ${SECRET_HOW_TO}`
      : undefined;
  }
  if (opts.production ?? env.NODE_ENV === 'production') {
    return `TOOLFLOW_SECRET is not set. In production it signs the owner cookies that say whose workflows are whose. ${SECRET_HOW_TO}`;
  }
  return undefined;
}
