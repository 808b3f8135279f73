import { useState } from 'preact/hooks';
import { MAX_ANSWER_CHARS } from '../../../src/domain/qa-limits.js';
import { callData, explained } from '../api.js';
import { useAction } from '../components/action.js';
import { AnswerForm } from '../components/answer-form.js';
import { Alert } from '../components/feedback.js';
import { FULL } from '../knowledge/add.js';
import type { Revision } from '../types.js';
import { useFocusBack } from '../components/focus-moves.js';

// Correcting one of the chatbot's answers, as messages/{id}/revision does: the question it answered
// and the revision become a question-and-answer source, so the chatbot gives the revision from then
// on. The answer stays as it was given; its latest revision shows under it.

const REFUSED = {
  400: `The hub refused the revision: it needs an answer of at most ${MAX_ANSWER_CHARS.toLocaleString('en')} characters, not blank.`,
  403: FULL,
};

type Props = { path: string; revision: Revision | undefined };

export function ReviseAnswer({ path, revision: given }: Props) {
  // The one saved here until the transcript, read again, has it.
  const [saved, setSaved] = useState<Revision>();
  const revision = saved ?? given;
  const [editing, setEditing] = useState(false);
  const opener = useFocusBack<HTMLButtonElement>(editing);
  const [answer, setAnswer] = useState('');
  const action = useAction();
  const save = async (event: Event) => {
    event.preventDefault();
    const done = await action.run(async () => {
      setSaved((await explained(callData<{ revision: Revision }>('POST', `${path}/revision`, { answer: answer.trim() }), REFUSED)).revision);
    });
    if (done) setEditing(false);
  };
  return (
    <>
      {revision && (
        <div class="revision">
          <div class="author">Revised answer (the chatbot gives this from now on)</div>
          {revision.answer}
        </div>
      )}
      {editing ? (
        <AnswerForm
          name="Revise this answer"
          label="Revised answer"
          value={answer}
          onValue={setAnswer}
          busy={action.busy}
          save={{ label: 'Save revision', busy: 'Saving the revision' }}
          onSubmit={save}
          onCancel={() => setEditing(false)}
        >
          {action.failure && <Alert>{action.failure}</Alert>}
        </AnswerForm>
      ) : (
        <button
          type="button"
          class="secondary"
          ref={opener}
          onClick={() => {
            setAnswer(revision?.answer ?? '');
            setEditing(true);
          }}
        >
          Revise
        </button>
      )}
    </>
  );
}
