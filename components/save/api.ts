/** Fetch wrapper for the save UI: JSON in and out, and an error message a person can act on. */

export type ApiResult<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; message: string; body: Record<string, unknown> };

/** Calls the API; never throws. Network failures come back as status 0 with a message. */
export async function callApi<T>(url: string, init: RequestInit = {}): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      headers: init.body ? { 'content-type': 'application/json', ...init.headers } : init.headers,
    });
  } catch {
    return {
      ok: false,
      status: 0,
      message: 'Cannot reach the server: check your connection and try again.',
      body: {},
    };
  }
  const body = res.status === 204 ? {} : await res.json().catch(() => ({}));
  if (res.ok) return { ok: true, status: res.status, body: body as T };
  const message =
    typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : `The server answered HTTP ${res.status}; try again in a moment.`;
  return { ok: false, status: res.status, message, body: body as Record<string, unknown> };
}

/** "3 minutes ago", "2 days ago", or the date, for lists of versions and links. */
export function formatWhen(value: string | Date, now = Date.now()): string {
  const t = new Date(value).getTime();
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 14) return `${d} day${d === 1 ? '' : 's'} ago`;
  return new Date(t).toISOString().slice(0, 10);
}
