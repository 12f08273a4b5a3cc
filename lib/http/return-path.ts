/**
 * Where sign-in and sign-up send the browser afterwards: the `next` query parameter when it is a
 * path on this site (an edit link's page sends its visitors to sign in and back: docs/design.md
 * §13.4), else home. Anything that could leave the site (`//host`, `/\host`, a scheme) goes home.
 */
export function readReturnPath(next: string | string[] | undefined): string {
  const path = Array.isArray(next) ? next[0] : next;
  if (!path || !path.startsWith('/') || path.startsWith('//') || /[\\\s]/.test(path)) return '/';
  return path;
}
