import 'server-only';
/**
 * Cross-site request forgery: the owner cookie is SameSite=Lax, which already keeps it off
 * cross-site POSTs in current browsers; this check refuses them outright as well, for older
 * browsers and for same-site-but-cross-origin pages. Browsers send `Sec-Fetch-Site` and
 * `Origin` on every state-changing fetch or form post; clients that send neither (curl, scripts,
 * server-side calls) cannot be driven by another site, so they pass.
 */
import { AppError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True when the configuration says a reverse proxy is in front (`TOOLFLOW_TRUST_PROXY=1`), so
 * the `X-Forwarded-*` headers are the proxy's. Otherwise they are whatever the client sent:
 * Next's server keeps a client's own and only fills in those that are missing.
 */
export function isProxyTrusted(env: Record<string, string | undefined> = process.env): boolean {
  return env.TOOLFLOW_TRUST_PROXY?.trim() === '1';
}

/** The host the request was addressed to, as the browser saw it. */
export function getRequestHost(request: Request): string {
  // Behind a trusted proxy, the proxy's X-Forwarded-Host names the host the browser used (the
  // proxy may send its own Host upstream). Without one, a client could name any host there and
  // make its Origin match, so only Host counts.
  if (isProxyTrusted()) {
    const forwarded = request.headers.get('x-forwarded-host')?.split(',')[0].trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get('host') || new URL(request.url).host;
}

function refuse(detail: string): never {
  throw new AppError(
    'forbidden:cross_origin',
    `Refused a cross-site request (${detail}). Changes can only be made from Toolflow's own pages; API clients should not send Origin or Sec-Fetch-Site headers from another site.`,
  );
}

/** Throws 403 when a state-changing request comes from another origin. */
export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') refuse(`Sec-Fetch-Site: ${site}`);
  const origin = request.headers.get('origin');
  if (origin === null) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    refuse(`Origin: ${origin}`);
  }
  if (!originHost || originHost !== getRequestHost(request)) refuse(`Origin: ${origin}`);
}
