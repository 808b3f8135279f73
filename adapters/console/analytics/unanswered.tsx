import { useEffect, useRef, useState } from 'preact/hooks';
import { MAX_ANSWER_CHARS } from '../../../src/domain/qa-limits.js';
import { explained, query, send } from '../api.js';
import { useAction } from '../components/action.js';
import { AnswerForm } from '../components/answer-form.js';
import { Alert, Notice } from '../components/feedback.js';
import { counted, formatTime } from '../format.js';
import { FULL } from '../knowledge/add.js';
import { readPages } from '../paged.js';
import { Show, useLoad } from '../use-load.js';
import { focusAfterRemoval, headingOfPart, useFocusBack } from '../components/focus-moves.js';
import { BusyButton } from '../components/busy-button.js';

// The open questions the chatbot could not answer, most asked first, a page at a time, each
// answered here (the answer becomes a question-and-answer source, so the chatbot gives it from
// then on) or dismissed.

type Unanswered = { id: string; question: string; count: number; last_asked_at: string };

const PAGE_SIZE = 20;
/** The API's 400 body is the bare "Invalid request data"; its 403, the chatbot's sources full. */
const REFUSED = {
  400: `The hub refused the answer: it needs an answer of at most ${MAX_ANSWER_CHARS.toLocaleString('en')} characters, not blank.`,
  403: FULL,
};

export function UnansweredQuestions({ base }: { base: string }) {
  const [pages, setPages] = useState(1);
  const groups = useLoad(
    () => readPages<Unanswered>(pages, PAGE_SIZE, (page) => `${base}/unanswered${query({ status: 'open', page, size: PAGE_SIZE })}`),
    [base, pages],
  );
  const [done, setDone] = useState<string>();
  const settled = (outcome: string) => {
    setDone(outcome);
    groups.reload();
  };
  return (
    <section class="card" aria-labelledby="declined-title">
      <h2 id="declined-title">Questions it could not answer</h2>
      {done && <Notice>{done}</Notice>}
      <Show loaded={groups} label="Loading the questions" retries="the questions it could not answer">
        {({ list, total }) =>
          list.length === 0 ? (
            <p class="muted">None open.</p>
          ) : (
            <>
              <p class="muted" role="status">
                {list.length < total ? `The ${list.length} most asked of ${total} open questions.` : `${counted(total, 'open question')}.`}
              </p>
              <ul class="plain" aria-label="Open questions">
                {list.map((group) => (
                  <Question key={group.id} base={base} group={group} onSettled={settled} />
                ))}
              </ul>
              {list.length < total && (
                <button type="button" class="secondary" onClick={() => setPages(pages + 1)}>
                  Load more
                </button>
              )}
            </>
          )
        }
      </Show>
    </section>
  );
}

function Question({ base, group, onSettled }: { base: string; group: Unanswered; onSettled: (outcome: string) => void }) {
  const [answering, setAnswering] = useState(false);
  const opener = useFocusBack<HTMLButtonElement>(answering);
  const [answer, setAnswer] = useState('');
  const action = useAction();
  const item = useRef<HTMLLIElement>(null);
  // Answered or dismissed, the question leaves the list, and the focus it held with it.
  useEffect(() => () => focusAfterRemoval(headingOfPart(item.current)), []);
  const url = `${base}/unanswered/${encodeURIComponent(group.id)}`;
  const resolve = async (event: Event) => {
    event.preventDefault();
    // The answer becomes a source, within the chatbot's characters like any other.
    if (await action.run(() => explained(send('POST', `${url}/resolve`, { answer: answer.trim() }), REFUSED))) {
      onSettled(`Answered “${group.question}”: the chatbot gives this answer from now on (it is a question and answer on Sources).`);
    }
  };
  const dismiss = async () => {
    if (await action.run(() => send('POST', `${url}/dismiss`))) onSettled(`Dismissed “${group.question}”.`);
  };
  return (
    <li ref={item}>
      <div class="actions">
        <div class="grow">
          {group.question}
          <div class="muted">
            asked {counted(group.count, 'time')}, last {formatTime(group.last_asked_at)}
          </div>
        </div>
        {!answering && (
          <button type="button" class="secondary" ref={opener} onClick={() => setAnswering(true)} aria-label={`Answer “${group.question}”`}>
            Answer
          </button>
        )}
        <BusyButton class="secondary" onClick={dismiss} busy={action.busy} aria-label={`Dismiss “${group.question}”`}>
          Dismiss
        </BusyButton>
      </div>
      {answering && (
        <AnswerForm
          name={`Answer to “${group.question}”`}
          label="Answer"
          value={answer}
          onValue={setAnswer}
          busy={action.busy}
          save={{ label: 'Save answer', busy: 'Saving the answer' }}
          onSubmit={resolve}
          onCancel={() => setAnswering(false)}
        />
      )}
      {action.failure && <Alert>{action.failure}</Alert>}
    </li>
  );
}
