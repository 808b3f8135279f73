import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

// Where the focus goes when a button gives way to a form or a question (Edit, Answer, Revise,
// Delete): into the form when it opens, back to the button when it closes, and to the heading of
// its part of the page when what it did took its item away. Without these the focus falls to the
// page's body with the control that held it, and a keyboard or screen-reader user starts again
// from the top of the page. The focus moves in the render that removes or adds the control
// (a layout effect), so there is no moment when it rests on the body.

/** A ref for the button that opens what replaces it: once that closes, the focus comes back to the button. */
export function useFocusBack<T extends HTMLElement>(open: boolean) {
  const opener = useRef<T>(null);
  const wasOpen = useRef(open);
  useLayoutEffect(() => {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (wasOpen.current && !open && lost) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return opener;
}

/** A ref for a form opened by a button it replaces: its first field takes the focus. */
export function useFocusFirstField() {
  const form = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => form.current?.querySelector<HTMLElement>('input, textarea, select')?.focus(), []);
  return form;
}

/**
 * A ref for what holds the fields of a form checked before it is sent (the form, mostly), and
 * `refused` to call when the check stops it: once its notes show, its first field that needs a fix
 * takes the focus, and so comes into view and is read out with its note. Else the notes appear
 * beside fields scrolled out of view (a narrow screen's long form) and a screen reader says
 * nothing: pressing the button seemed to do nothing.
 */
export function useFocusFirstProblem<T extends HTMLElement = HTMLFormElement>() {
  const scope = useRef<T>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) scope.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  return { scope, refused: () => setRefusals((count) => count + 1) };
}

/** The heading of the part of the page an element is in (its section's), where the focus goes once the element's item is gone. */
export function headingOfPart(element: HTMLElement | null): HTMLElement | null {
  return element?.closest('section')?.querySelector<HTMLElement>('h2, h3') ?? null;
}

/**
 * Once a removal took its item, and the focus with it, away: the focus goes to `heading` (made
 * focusable), or to the page's content where the heading went too. Left where it is if it went
 * elsewhere meanwhile.
 */
export function focusAfterRemoval(heading: HTMLElement | null): void {
  setTimeout(() => {
    if (document.activeElement && document.activeElement !== document.body) return;
    const target = heading?.isConnected ? heading : document.getElementById('content');
    if (!target) return;
    if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
    target.focus();
  });
}

/**
 * For a page shown in place of the console (signing in, a one-time link): once it gives way to the
 * console, the console's page takes the focus, as a page the console opens does, rather than the body.
 */
export function useFocusOnLeaving(): void {
  useEffect(() => () => focusAfterRemoval(null), []);
}
