'use client';
/**
 * Sign-in and sign-up: one form posting to Better Auth's endpoints (/api/auth/sign-in/email,
 * /api/auth/sign-up/email). On success the browser goes home, where the work it did as a guest is
 * now in the account's workspace (docs/design.md §13.2), or back to `next` (a path on this site
 * that sent it here, such as an edit link's page: lib/http/return-path.ts).
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { signInOrUp } from '@/lib/api/account';
import './account.css';

export function AuthForm({ mode, next = '/' }: { mode: 'sign-in' | 'sign-up'; next?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body: { email: string; password: string; name?: string } = {
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    };
    if (mode === 'sign-up') body.name = String(form.get('name') ?? '');
    setBusy(true);
    setError(null);
    try {
      const result = await signInOrUp(mode, body);
      if (!result.ok) {
        setError(result.error.message);
        return;
      }
      router.push(next);
      router.refresh();
    } finally {
      setBusy(false);
    }
  }

  const signUp = mode === 'sign-up';
  return (
    <form className="auth__form" onSubmit={onSubmit} data-testid={`${mode}-form`}>
      {signUp && (
        <label>
          Name
          <input name="name" autoComplete="name" required maxLength={100} data-testid="auth-name" />
        </label>
      )}
      <label>
        E-mail
        <input name="email" type="email" autoComplete="email" required data-testid="auth-email" />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete={signUp ? 'new-password' : 'current-password'}
          required
          minLength={8}
          data-testid="auth-password"
        />
      </label>
      {error && (
        <p className="error-text auth__error" role="alert" data-testid="auth-error">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid="auth-submit">
        {signUp ? 'Create account' : 'Sign in'}
      </button>
      <p className="muted" style={{ margin: 0 }}>
        {signUp ? (
          <>
            Have an account? <Link href={`/sign-in${keepNext(next)}`}>Sign in</Link>
          </>
        ) : (
          <>
            No account yet? <Link href={`/sign-up${keepNext(next)}`}>Create one</Link>
          </>
        )}
        . Your workflows from this browser come with you.
      </p>
    </form>
  );
}

/** The query that keeps where to go afterwards on the way to the other form (none for home). */
function keepNext(next: string): string {
  return next === '/' ? '' : `?next=${encodeURIComponent(next)}`;
}
