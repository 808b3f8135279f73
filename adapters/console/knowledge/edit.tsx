import { useState } from 'preact/hooks';
import { callData, explained } from '../api.js';
import { useAction } from '../components/action.js';
import { Alert } from '../components/feedback.js';
import { TextArea, TextInput } from '../components/fields.js';
import type { Source, SourceDetail } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { QUESTION_REFUSED, TEXT_REFUSED } from './add.js';
import { useFocusFirstField } from '../components/focus-moves.js';
import { SubmitButton } from '../components/busy-button.js';

// Editing a question and answer, or a text, in place (PATCH); the chatbot answers from the new
// version once the hub has saved it. A text is edited only when the hub shows it whole.

/** The characters of a source's text the API shows (`text` of one source). */
export const SHOWN_TEXT_CHARS = 200_000;

export const editable = (source: Source): boolean => source.type === 'qa' || (source.type === 'text' && source.chars <= SHOWN_TEXT_CHARS);

type Fields = { first: string; second: string };

export function EditSource({ url, source, onDone }: { url: string; source: Source; onDone: (saved: boolean) => void }) {
  const detail = useLoad(() => callData<SourceDetail>('GET', url), [url]);
  return (
    <Show loaded={detail} label="Loading the source" retries={`${source.title}, to edit`}>
      {(loaded) => (
        <EditForm
          url={url}
          source={source}
          initial={source.type === 'qa' ? { first: loaded.question ?? '', second: loaded.answer ?? '' } : { first: loaded.title, second: loaded.text }}
          onDone={onDone}
        />
      )}
    </Show>
  );
}

function EditForm({ url, source, initial, onDone }: { url: string; source: Source; initial: Fields; onDone: (saved: boolean) => void }) {
  const [fields, setFields] = useState(initial);
  const action = useAction();
  const form = useFocusFirstField();
  const qa = source.type === 'qa';
  const save = async (event: Event) => {
    event.preventDefault();
    const patch = qa ? { question: fields.first, answer: fields.second } : { title: fields.first, text: fields.second };
    if (await action.run(() => explained(callData<Source>('PATCH', url, patch), qa ? QUESTION_REFUSED : TEXT_REFUSED))) onDone(true);
  };
  return (
    <form onSubmit={save} aria-label={`Edit ${source.title}`} ref={form}>
      <TextInput label={qa ? 'Question' : 'Title'} value={fields.first} onValue={(first) => setFields({ ...fields, first })} autoComplete="off" required />
      <TextArea label={qa ? 'Answer' : 'Text'} value={fields.second} onValue={(second) => setFields({ ...fields, second })} rows={qa ? 4 : 8} required />
      {action.failure && <Alert>{action.failure}</Alert>}
      <div class="actions">
        <SubmitButton busy={action.busy} busyLabel="Saving and indexing">Save</SubmitButton>
        <button type="button" class="secondary" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
