import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { BusyButton } from './busy-button.js';
import { focusAfterRemoval, headingOfPart, useFocusBack } from './focus-moves.js';
import { actionOn } from './item-name.js';

// A button for what cannot be undone: the first press asks, "Yes, … “name”" does it, "Keep it"
// takes the question back (named for its question, as one row may ask two at once). The focus goes
// to the question's "Yes, …" (which names what it does), back to the first button after "Keep it",
// and to the heading of the part of the page it was in once what it did took its item (and the
// button) away.

type Props = {
  verb: string;
  name: string;
  busy: boolean;
  /** Resolving to true closes the question: what it did left its item, and the button, in place. */
  onConfirm: () => unknown;
  /** What doing it costs, said beside the question and read out with its "Yes, …". */
  warning?: string;
};

export function ConfirmButton({ verb, name, busy, onConfirm, warning }: Props) {
  const [confirming, setConfirming] = useState(false);
  const warningId = useId();
  const opener = useFocusBack<HTMLButtonElement>(confirming);
  const yes = useRef<HTMLButtonElement>(null);
  /** Where the focus goes should "Yes, …" take its item away: set as it is pressed. */
  const removedFrom = useRef<HTMLElement | null | undefined>(undefined);
  useEffect(() => {
    if (confirming) yes.current?.focus();
  }, [confirming]);
  useEffect(
    () => () => {
      if (removedFrom.current !== undefined) focusAfterRemoval(removedFrom.current);
    },
    [],
  );
  const confirm = async () => {
    removedFrom.current = headingOfPart(yes.current);
    if ((await onConfirm()) !== true) return;
    removedFrom.current = undefined;
    setConfirming(false);
  };
  if (!confirming) {
    return (
      <button type="button" class="secondary" ref={opener} onClick={() => setConfirming(true)} aria-label={actionOn(verb, name)}>
        {verb}
      </button>
    );
  }
  return (
    <>
      {warning && <span id={warningId}>{warning}</span>}
      <BusyButton class="danger" onClick={confirm} busy={busy} buttonRef={yes} aria-describedby={warning && warningId}>
        Yes, {verb.toLowerCase()} “{name}”
      </BusyButton>
      <button type="button" class="secondary" onClick={() => setConfirming(false)} aria-label={`Keep it, cancel “${actionOn(verb, name)}”`}>
        Keep it
      </button>
    </>
  );
}
