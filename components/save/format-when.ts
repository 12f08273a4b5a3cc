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
