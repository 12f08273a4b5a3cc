import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthForm } from '@/components/account/auth-form';
import { SingleSignOnSection } from '@/components/account/single-sign-on-section';
import { readReturnPath } from '@/lib/http/return-path';

type Props = { searchParams: Promise<{ next?: string | string[]; error?: string | string[] }> };

export const metadata: Metadata = { title: 'Sign in' };

/**
 * Sign in: e-mail and password (Better Auth), or single sign-on when configured, whose failures
 * come back here as `?error=`; `?next=` is where either returns. Guests need neither; this is for
 * keeping work across browsers.
 */
export default async function Page({ searchParams }: Props) {
  const { next: rawNext, error } = await searchParams;
  const next = readReturnPath(rawNext);
  return (
    <main className="page auth">
      <p className="muted" style={{ margin: '0 0 8px' }}>
        <Link href="/">← Workflows</Link>
      </p>
      <h1>Sign in</h1>
      <SingleSignOnSection error={typeof error === 'string' ? error : undefined} next={next} />
      <AuthForm mode="sign-in" next={next} />
    </main>
  );
}
