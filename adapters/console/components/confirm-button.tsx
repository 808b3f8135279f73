import { useState } from 'preact/hooks';

// A button for what cannot be undone: the first press asks, "Yes, … “name”" does it, "Keep it"
// takes the question back.

type Props = { verb: string; name: string; busy: boolean; onConfirm: () => void };

export function ConfirmButton({ verb, name, busy, onConfirm }: Props) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" class="secondary" onClick={() => setConfirming(true)} aria-label={`${verb} ${name}`}>
        {verb}
      </button>
    );
  }
  return (
    <>
      <button type="button" class="danger" onClick={onConfirm} disabled={busy}>
        Yes, {verb.toLowerCase()} “{name}”
      </button>
      <button type="button" class="secondary" onClick={() => setConfirming(false)}>
        Keep it
      </button>
    </>
  );
}
