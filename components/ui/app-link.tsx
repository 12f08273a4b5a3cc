'use client';
import { useRouter } from 'next/navigation';
import type { AnchorHTMLAttributes, MouseEvent } from 'react';

/** Only a path on this origin: the type keeps data (a tool's URL, a model's text) out of the link. */
type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { href: `/${string}` };

/**
 * A link to another page of Toolflow for the editor: a plain click navigates in place with
 * Next.js's router, as next/link does; a modified or middle click, a target or a download is
 * left to the browser. Unlike next/link it does not prefetch the page it points to, which keeps
 * next/link's ~2.7 KB gzip (prefetching, URL objects) out of the editor's first load.
 */
export function AppLink({ href, onClick, ...rest }: Props) {
  const router = useRouter();
  const navigate = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      modified ||
      rest.target ||
      rest.download !== undefined
    )
      return;
    event.preventDefault();
    router.push(href);
  };
  return <a href={href} onClick={navigate} {...rest} />;
}
