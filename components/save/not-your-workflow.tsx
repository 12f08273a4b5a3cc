import Link from 'next/link';

/** What /w/[id] shows to anyone but the owner: the same for every id, so nothing about it leaks. */
export function NotYourWorkflow() {
  return (
    <main className="page" data-testid="not-your-workflow">
      <h1>This workflow belongs to someone else</h1>
      <p>
        Workflows open only in the browser that created them. To see this one, ask its owner for a share link;
        from there you can fork a copy of your own to edit.
      </p>
      <p>
        <Link href="/">Go to my workflows</Link>
      </p>
    </main>
  );
}
