import type { ComponentChildren } from 'preact';
import { navigate } from '../router';

interface Props {
  href: string;
  children: ComponentChildren;
  class?: string;
  rel?: string;
  'aria-label'?: string;
  'aria-current'?: 'page';
}

/** A real link (keyboard, middle-click, "open in new tab") that navigates in place on a plain click. */
export function Link({ href, children, ...rest }: Props) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}
