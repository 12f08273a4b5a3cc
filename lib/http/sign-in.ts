/**
 * Whether this server is a team deployment that requires signing in (docs/design.md §13.1), in a
 * module of its own so that both the access module and Better Auth's hooks (auth.ts) read it.
 */

/**
 * True when `TOOLFLOW_REQUIRE_SIGN_IN=1`: a team deployment with no guests. Every API request
 * without a session is then 401, and every page that shows a workspace sends the browser to
 * /sign-in. Share links stay readable by anyone who has one. The server's first account is its
 * owner (lib/db/workspaces.ts, ensureServerWorkspace).
 */
export function isSignInRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TOOLFLOW_REQUIRE_SIGN_IN?.trim() === '1';
}
