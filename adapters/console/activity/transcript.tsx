import { useEffect, useRef, useState } from 'preact/hooks';
import { callData } from '../api.js';
import { useAction } from '../components/action.js';
import { Alert } from '../components/feedback.js';
import { UsedSources } from '../components/used-sources.js';
import { formatTime } from '../format.js';
import type { Conversation, Message } from '../types.js';
import { handoffText } from './handoff-text.js';
import { leadText, placeText } from './conversation-people.js';
import { ReviseAnswer } from './revise-answer.js';
import { CLOSED, isOpen, TeamReply } from './team-reply.js';
import { BusyButton } from '../components/busy-button.js';
import { THUMB_PATH, THUMB_SVG, thumbTurn } from '../../thumb-icon.js';
import { EraseButton } from './erase-button.js';
import { useFocusBack } from '../components/focus-moves.js';

// One conversation, message by message (as text, never markup), with where a handoff to the team
// stands; each of the chatbot's answers lists the sources it cited and can be rated or revised, and
// a team member's reply is marked with their name (it is not the chatbot's, so it is not rated, nor
// is what the handoff says). While the handoff is open the team can reply here and hand the
// conversation back; a reply the closed handoff refused stays in view, with why. "Delete
// conversation" erases it, with the lead given in it, and closes it.

type Rating = 'up' | 'down';

type Props = {
  chatbotId: string;
  conversation: Conversation | undefined;
  /** The contact's name and email, when the hub has them. */
  contact?: string;
  onClose: () => void;
  onChanged: () => void;
};

export function Transcript({ chatbotId, conversation, contact, onClose, onChanged }: Props) {
  const [unsent, setUnsent] = useState<{ conversationId: string; text: string }>();
  // The reply form goes with the handoff (handed back here or elsewhere, or timed out): the focus it held comes to the transcript.
  const heading = useFocusBack<HTMLHeadingElement>(isOpen(conversation?.handoff));
  const shown = useRef<string>();
  // An opened conversation takes the focus and, out of view, is scrolled to the top: on a narrow
  // screen it is under the whole list, where a tap on the list seemed to do nothing. Once per
  // conversation: its readings, or its leaving the list for a filter and coming back, move nothing.
  useEffect(() => {
    const element = heading.current;
    if (!element || !conversation || shown.current === conversation.id) return;
    shown.current = conversation.id;
    element.focus({ preventScroll: true });
    const { top, bottom } = element.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) element.scrollIntoView({ block: 'start' });
  }, [conversation?.id]);
  if (!conversation) return <p class="muted">This conversation is not among those loaded: change the filters or load more.</p>;
  const lead = leadText(conversation.lead);
  return (
    <section class="card" aria-labelledby="transcript-title">
      <div class="actions">
        <h2 id="transcript-title" class="grow" tabIndex={-1} ref={heading}>
          Conversation of {formatTime(conversation.created_at)}
        </h2>
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <p class="muted">
        {[conversation.source, placeText(conversation)].filter(Boolean).join(' · ')}
        {conversation.contact_id ? ` · contact ${conversation.contact_id}${contact ? ` (${contact})` : ''}` : ''}
        {lead ? ` · lead (${lead})` : ''}
        {conversation.handoff ? ` · ${handoffText(conversation.handoff)}` : ''}
      </p>
      <div class="log" role="log" aria-label="Transcript">
        {conversation.messages.map((message) => (
          <Line key={message.id} chatbotId={chatbotId} message={message} />
        ))}
      </div>
      {isOpen(conversation.handoff) ? (
        <TeamReply
          key={conversation.id}
          chatbotId={chatbotId}
          conversation={conversation}
          onChanged={onChanged}
          onClosed={(text) => setUnsent({ conversationId: conversation.id, text })}
        />
      ) : (
        unsent?.conversationId === conversation.id && (
          <Alert>
            {CLOSED} Your reply, not sent: “{unsent.text}”
          </Alert>
        )
      )}
      <div class="actions">
        <EraseButton
          key={conversation.id}
          path={`/chatbots/${encodeURIComponent(chatbotId)}/conversations/${encodeURIComponent(conversation.id)}`}
          verb="Delete conversation"
          name={formatTime(conversation.created_at)}
          onErased={() => {
            onClose();
            onChanged();
          }}
        />
      </div>
    </section>
  );
}

/**
 * The chatbot's answers and declines, which are rated and corrected here; a team member's reply and
 * what a handoff says (waiting for the team, nobody came, handed back) answer no question of the chatbot's.
 */
const answersQuestion = (message: Message) => message.role === 'assistant' && !message.author && message.kind !== 'handoff';

function Line({ chatbotId, message }: { chatbotId: string; message: Message }) {
  const [rating, setRating] = useState<Rating | undefined>(message.feedback);
  const action = useAction();
  const path = `/chatbots/${encodeURIComponent(chatbotId)}/messages/${encodeURIComponent(message.id)}`;
  const rate = (feedback: Rating) =>
    action.run(async () => {
      setRating((await callData<{ feedback: Rating }>('POST', `${path}/feedback`, { feedback })).feedback);
    });
  return (
    <div class={`bubble ${message.role}`}>
      {/* Each a block of its own direction: an Arabic reply under a name in Latin letters reads from the right. */}
      {message.author && (
        <div class="author" dir="auto">
          {message.author.name} (team)
        </div>
      )}
      <div dir="auto">{message.content}</div>
      {message.sources && <UsedSources sources={message.sources} />}
      {answersQuestion(message) && (
        <div class="actions" role="group" aria-label="Rate this answer">
          <BusyButton class="secondary rate" aria-pressed={rating === 'up'} onClick={() => rate('up')} busy={action.busy}>
            <Thumb direction="up" /> Helpful
          </BusyButton>
          <BusyButton class="secondary rate" aria-pressed={rating === 'down'} onClick={() => rate('down')} busy={action.busy}>
            <Thumb direction="down" /> Not helpful
          </BusyButton>
        </div>
      )}
      {answersQuestion(message) && <ReviseAnswer path={path} revision={message.revision} />}
      {action.failure && <Alert>{action.failure}</Alert>}
    </div>
  );
}

/** 👍/👎 drawn, as the widget draws them (thumb-icon.ts), so they show whatever fonts the system has. */
function Thumb({ direction }: { direction: 'up' | 'down' }) {
  return (
    <svg {...THUMB_SVG} width="16" height="16">
      <path d={THUMB_PATH} transform={thumbTurn(direction)} />
    </svg>
  );
}
