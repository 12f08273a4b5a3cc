'use client';
/**
 * "Sign in with <provider>" on /sign-in and /sign-up, when single sign-on is configured
 * (lib/http/oidc-config.ts): asks Better Auth for the provider's address and goes there. Back from
 * the provider the browser lands home, signed in, with its guest work in the account
 * (docs/design.md §13.2); a refusal or an expired attempt comes back here as `message`.
 */
import { useState } from 'react';
import { startSingleSignOn } from '@/lib/api/account';
import './account.css';

export function SingleSignOn({
  provider,
  name,
  message,
  next,
}: {
  provider: string;
  name: string;
  message?: string;
  /** Where the browser returns signed in (a path on this site, already checked); home by default. */
  next?: string;
}) {
  const [error, setError] = useState<string | null>(message ?? null);
  const [busy, setBusy] = useState(false);

  async function onClick() {
    setBusy(true);
    setError(null);
    const result = await startSingleSignOn(provider, next ?? '/');
    if (!result.ok) {
      setError(result.error.message);
      setBusy(false);
      return;
    }
    // Stays busy: the page is leaving for the provider.
    window.location.assign(result.value.url);
  }

  return (
    <div className="auth__sso" data-testid="sso">
      {error && (
        <p className="error-text auth__error" role="alert" data-testid="sso-error">
          {error}
        </p>
      )}
      <button type="button" className="btn" onClick={onClick} disabled={busy} data-testid="sso-sign-in">
        Sign in with {name}
      </button>
      <p className="muted auth__or">or with your e-mail address</p>
    </div>
  );
}
