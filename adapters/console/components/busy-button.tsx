import type { JSX, Ref } from 'preact';
import { Busy } from './feedback.js';

// A button that cannot be pressed while its work runs, and a form's submit button made of one. It is marked aria-disabled rather than
// disabled: a disabled button loses the focus, so the keyboard user who pressed it (Send, Helpful,
// Yes, delete) would find themselves at the top of the page, and a screen reader told nothing.

type Props = JSX.ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean; buttonRef?: Ref<HTMLButtonElement> };

export function BusyButton({ busy, onClick, buttonRef, ...rest }: Props) {
  return (
    <button
      type="button"
      {...rest}
      ref={buttonRef}
      aria-disabled={busy ? 'true' : undefined}
      onClick={(event) => {
        // Also keeps a submit button (or Enter in its form's field) from submitting meanwhile.
        if (busy) event.preventDefault();
        else onClick?.call(event.currentTarget as never, event);
      }}
    />
  );
}

type SubmitProps = JSX.ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean; busyLabel: string };

/** A form's submit button, kept (and focused) while the form's work runs, with the progress beside it. */
export function SubmitButton({ busy, busyLabel, ...rest }: SubmitProps) {
  return (
    <>
      <BusyButton type="submit" busy={busy} {...rest} />
      {busy && <Busy label={busyLabel} />}
    </>
  );
}
