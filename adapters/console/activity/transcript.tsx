import { useState } from 'preact/hooks';
import { callData } from '../api.js';
import { useAction } from '../components/action.js';
import { Alert } from '../components/feedback.js';
import { formatTime } from '../format.js';
import type { Conversation, Message } from '../types.js';

// One conversation, message by message (as text, never markup); each answer can be rated.

type Rating = 'up' | 'down';

export function Transcript({ chatbotId, conversation, onClose }: { chatbotId: string; conversation: Conversation | undefined; onClose: () => void }) {
  if (!conversation) return <p class="muted">This conversation is not among those loaded: change the filters or load more.</p>;
  return (
    <section class="card" aria-labelledby="transcript-title">
      <div class="actions">
        <h2 id="transcript-title" class="grow">
          Conversation of {formatTime(conversation.created_at)}
        </h2>
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <p class="muted">
        {conversation.source}
        {conversation.contact_id ? ` · contact ${conversation.contact_id}` : ''}
      </p>
      <div class="log" role="log" aria-label="Transcript">
        {conversation.messages.map((message) => (
          <Line key={message.id} chatbotId={chatbotId} message={message} />
        ))}
      </div>
    </section>
  );
}

function Line({ chatbotId, message }: { chatbotId: string; message: Message }) {
  const [rating, setRating] = useState<Rating | undefined>(message.feedback);
  const action = useAction();
  const rate = (feedback: Rating) =>
    action.run(async () => {
      const path = `/chatbots/${encodeURIComponent(chatbotId)}/messages/${encodeURIComponent(message.id)}/feedback`;
      setRating((await callData<{ feedback: Rating }>('POST', path, { feedback })).feedback);
    });
  return (
    <div class={`bubble ${message.role}`}>
      {message.content}
      {message.role === 'assistant' && (
        <div class="actions" role="group" aria-label="Rate this answer">
          <button type="button" class="secondary" aria-pressed={rating === 'up'} onClick={() => rate('up')} disabled={action.busy} aria-label="Helpful">
            👍
          </button>
          <button type="button" class="secondary" aria-pressed={rating === 'down'} onClick={() => rate('down')} disabled={action.busy} aria-label="Not helpful">
            👎
          </button>
        </div>
      )}
      {action.failure && <Alert>{action.failure}</Alert>}
    </div>
  );
}
