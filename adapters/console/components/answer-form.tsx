import type { ComponentChildren } from 'preact';
import { MAX_ANSWER_CHARS } from '../../../src/domain/qa-limits.js';
import { TextArea } from './fields.js';
import { useFocusFirstField } from './focus-moves.js';
import { SubmitButton } from './busy-button.js';

// An answer the team writes (to an open question, or revising one of the chatbot's), within the
// API's length of an answer, saved or cancelled.

type Props = {
  name: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  busy: boolean;
  /** The button, and what the progress says while it saves. */
  save: { label: string; busy: string };
  onSubmit: (event: Event) => void;
  onCancel: () => void;
  children?: ComponentChildren;
};

export function AnswerForm({ name, label, value, onValue, busy, save, onSubmit, onCancel, children }: Props) {
  const form = useFocusFirstField();
  return (
    <form onSubmit={onSubmit} aria-label={name} ref={form}>
      <TextArea label={label} value={value} onValue={onValue} rows={3} required maxLength={MAX_ANSWER_CHARS} />
      {children}
      <div class="actions">
        <SubmitButton busy={busy} busyLabel={save.busy}>{save.label}</SubmitButton>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
