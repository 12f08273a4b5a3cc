import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthForm } from '@/components/account/auth-form';
import { SingleSignOnSection } from '@/components/account/single-sign-on-section';

export const metadata: Metadata = { title: 'Create an account' };

/**
 * Create an account: e-mail and password (Better Auth), or single sign-on when configured, which
 * makes the account on its first use. Guests need neither; this is for keeping work across browsers.
 */
export default function Page() {
  return (
    <main className="page auth">
      <p className="muted" style={{ margin: '0 0 8px' }}>
        <Link href="/">← Workflows</Link>
      </p>
      <h1>Create an account</h1>
      <SingleSignOnSection />
      <AuthForm mode="sign-up" />
    </main>
  );
}
