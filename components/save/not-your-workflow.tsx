import { AppLink } from '@/components/ui/app-link';

/**
 * What /w/[id] shows to anyone but the owner: the same for every id, so nothing about it leaks.
 * Its link is an AppLink, not next/link: every client component this page may render loads with
 * the editor, and next/link would bring ~2.7 KB gzip that the editor does not otherwise need.
 */
export function NotYourWorkflow() {
  return (
    <main className="page" data-testid="not-your-workflow">
      <h1>This workflow belongs to someone else</h1>
      <p>
        Workflows open only in the browser that created them. To see this one, ask its owner for a share link;
        from there you can fork a copy of your own to edit.
      </p>
      <p>
        <AppLink href="/">Go to my workflows</AppLink>
      </p>
    </main>
  );
}
