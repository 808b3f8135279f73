import { useEffect, useRef } from 'preact/hooks';

// Where the focus goes when a button gives way to a form or a question (Edit, Answer, Revise,
// Delete): into the form when it opens, back to the button when it closes. Without these the
// focus falls to the page's body with the control that held it, and a keyboard or screen-reader
// user starts again from the top of the page.

/** A ref for the button that opens what replaces it: once that closes, the focus comes back to the button. */
export function useFocusBack<T extends HTMLElement>(open: boolean) {
  const opener = useRef<T>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (wasOpen.current && !open && lost) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return opener;
}

/** A ref for a form opened by a button it replaces: its first field takes the focus. */
export function useFocusFirstField() {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector<HTMLElement>('input, textarea, select')?.focus(), []);
  return form;
}
