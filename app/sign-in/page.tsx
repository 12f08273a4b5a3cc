import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthForm } from '@/components/account/auth-form';
import { readReturnPath } from '@/lib/http/return-path';

type Props = { searchParams: Promise<{ next?: string | string[] }> };

export const metadata: Metadata = { title: 'Sign in' };

/** Sign in: e-mail and password (Better Auth). Guests need neither; this is for keeping work across browsers. */
export default async function Page({ searchParams }: Props) {
  const next = readReturnPath((await searchParams).next);
  return (
    <main className="page auth">
      <p className="muted" style={{ margin: '0 0 8px' }}>
        <Link href="/">← Workflows</Link>
      </p>
      <h1>Sign in</h1>
      <AuthForm mode="sign-in" next={next} />
    </main>
  );
}
