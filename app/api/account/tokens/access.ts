/**
 * Who may manage API tokens: a signed-in browser, never a token (a leaked token must not mint
 * more tokens or keep itself alive), and a guest not at all (docs/design.md §13.5).
 */
import { getRequestOwner, requireSignedIn } from '@/lib/http/access';
import { AppError } from '@/lib/http/errors';

/** The signed-in user of a token-management request. */
export async function requireTokenManager(request: Request, what: string): Promise<string> {
  const owner = await getRequestOwner(request);
  if (owner.tokenId)
    throw new AppError(
      'forbidden:token',
      `An API token cannot ${what}. Sign in to your account page (/account) in a browser.`,
    );
  return requireSignedIn(owner, what);
}
