import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthForm } from '@/components/account/auth-form';
import { SingleSignOnSection } from '@/components/account/single-sign-on-section';

export const metadata: Metadata = { title: 'Sign in' };

/**
 * Sign in: e-mail and password (Better Auth), or single sign-on when configured, whose failures
 * come back here as `?error=`. Guests need neither; this is for keeping work across browsers.
 */
export default async function Page({
  searchParams,
}: {
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const { error } = await searchParams;
  return (
    <main className="page auth">
      <p className="muted" style={{ margin: '0 0 8px' }}>
        <Link href="/">← Workflows</Link>
      </p>
      <h1>Sign in</h1>
      <SingleSignOnSection error={typeof error === 'string' ? error : undefined} />
      <AuthForm mode="sign-in" />
    </main>
  );
}
