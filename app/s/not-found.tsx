import Link from 'next/link';

/** A share link that never existed, was revoked or expired: the same answer for all three. */
export default function ShareNotFound() {
  return (
    <main className="page" data-testid="share-gone">
      <h1>This link is not available</h1>
      <p>
        The share link does not exist, was revoked by its owner, or has expired. Ask the person who sent it
        for a new link.
      </p>
      <p>
        <Link href="/">Go to Toolflow</Link>
      </p>
    </main>
  );
}
