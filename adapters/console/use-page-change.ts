import { useEffect, useRef } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';

// What a browser does on loading a page, done for the console's own page changes (client-side,
// which a browser does not see as a new page): the window's title names the page, the new page
// starts at its top, and a screen reader is told the page changed by the focus moving to it,
// rather than left on the link just followed (or on nothing, once that link is gone).

const CONSOLE = 'Switchboard console';

/** Keeps the title on `main`'s heading, and on each change of path scrolls and focuses `main`. */
export function usePageChange(main: { current: HTMLElement | null }): void {
  const { path } = useLocation();
  const previous = useRef(path);

  useEffect(() => {
    const element = main.current;
    if (!element) return;
    // The heading arrives with the page's data, after the path has changed.
    const name = () => {
      const heading = element.querySelector('h1')?.textContent?.trim();
      document.title = heading ? `${heading} · ${CONSOLE}` : CONSOLE;
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(element, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (previous.current === path) return;
    previous.current = path;
    window.scrollTo(0, 0);
    // A page that placed the focus itself keeps it; a link followed, or a control gone with the page before, does not.
    const focused = document.activeElement;
    if (!focused || focused === document.body || focused instanceof HTMLAnchorElement) main.current?.focus({ preventScroll: true });
  }, [path]);
}
