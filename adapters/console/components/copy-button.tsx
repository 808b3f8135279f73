import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so in a status line. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<string>();
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setState('Copied.'),
      () => setState('The browser refused to copy: select the text and copy it yourself.'),
    );
  return (
    <span class="actions">
      <button type="button" class="secondary" onClick={copy}>
        {label}
      </button>
      <span role="status">{state}</span>
    </span>
  );
}
