import { useEffect, useRef, useState } from 'preact/hooks';
import { BusyButton } from './busy-button.js';
import { Alert, Busy } from './feedback.js';
import { focusAfterRemoval, headingOfPart } from './focus-moves.js';

// A load that failed: the API's message and "Try again", which loads only that part of the page
// again. While it does, the progress replaces the message, as a first load shows it, so a failure
// again is a new alert that a screen reader reads out; the button keeps the focus meanwhile, and
// once the load succeeds and the button goes, the focus goes to the heading of its part of the page.
// Rereading by itself (a list kept up to date) leaves the message alone, so it is not read out again.

type Props = {
  error: string;
  label: string;
  loading: boolean;
  /** Without it, only the message: asking again would fail the same way. */
  onRetry: (() => void) | undefined;
  /** What "Try again" loads, for its name where several may fail side by side ("Try again: conversations of Support"). */
  retries?: string;
};

export function LoadFailure({ error, label, loading, onRetry, retries }: Props) {
  const [retrying, setRetrying] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!loading) setRetrying(false);
  }, [loading]);
  useEffect(
    () => () => {
      if (button.current && button.current === document.activeElement) focusAfterRemoval(headingOfPart(button.current));
    },
    [],
  );
  if (!onRetry) return <Alert>{error}</Alert>;
  const retry = () => {
    setRetrying(true);
    onRetry();
  };
  return (
    <div class="load-failure">
      {retrying ? <Busy label={label} /> : <Alert>{error}</Alert>}
      <BusyButton class="secondary" busy={loading} onClick={retry} buttonRef={button} aria-label={retries && `Try again: ${retries}`}>
        Try again
      </BusyButton>
    </div>
  );
}
