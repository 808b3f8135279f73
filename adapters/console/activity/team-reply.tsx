import { useState } from 'preact/hooks';
import { ApiError, callData, explained, send } from '../api.js';
import { useAction } from '../components/action.js';
import { Alert } from '../components/feedback.js';
import { TextArea, TextInput } from '../components/fields.js';
import type { Conversation, Handoff } from '../types.js';
import { BusyButton } from '../components/busy-button.js';

// The team's side of an open handoff, for a team that works in the console rather than Slack or
// Discord: a reply under the team member's name (the first takes a waiting handoff), which the
// person sees in the widget at once, and handing the conversation back to the chatbot. While it is
// shown the list reads the conversation again every few seconds (conversations.tsx), so the
// person's new messages appear.

/** The most the API takes in a name and in a reply. */
const MAX_NAME = 200;
const MAX_REPLY = 10_000;
/** The handoff was closed meanwhile: resolved elsewhere, or its time ran out. */
export const CLOSED = 'This handoff is closed (handed back or timed out), so the person can no longer be reached here.';
const takenMeanwhile = (taker: string) =>
  `${taker} took this conversation a moment ago, so your reply was not sent. Send it again to answer alongside ${taker}.`;

export const isOpen = (handoff: Handoff | undefined) => handoff?.status === 'pending' || handoff?.status === 'active';

/**
 * A reply being typed belongs to its conversation: opening another shows that one's own (a team
 * member answering several people at once found the reply meant for one under another's). The
 * name is the team member's, the same in every conversation they answer from this page.
 */
const drafts = new Map<string, string>();
let teamName = '';

type Props = {
  chatbotId: string;
  conversation: Conversation;
  onChanged: () => void;
  /** The handoff was closed before a reply could be sent: this form goes, the transcript keeps the reply. */
  onClosed: (unsent: string) => void;
};

export function TeamReply({ chatbotId, conversation, onChanged, onClosed }: Props) {
  const [name, setName] = useState(teamName);
  const [text, setText] = useState(drafts.get(conversation.id) ?? '');
  const nameAs = (value: string) => {
    teamName = value;
    setName(value);
  };
  const draft = (value: string) => {
    drafts.set(conversation.id, value);
    setText(value);
  };
  const action = useAction();
  const handoff = `/chatbots/${encodeURIComponent(chatbotId)}/conversations/${encodeURIComponent(conversation.id)}/handoff`;
  /** Who has the handoff, as the transcript showed it or a refused reply told. */
  const [toldTaker, setToldTaker] = useState<string | null>(null);
  const taker = conversation.handoff?.taken_by ?? toldTaker;
  const submit = async (event: Event) => {
    event.preventDefault();
    const reply = { name: name.trim(), text: text.trim() };
    const sent = await action.run(async () => {
      try {
        // Shown waiting, it is taken first: a colleague may have taken it since, whose reply the person has.
        if (!taker) {
          const taken = await callData<Handoff>('POST', `${handoff}/take`, { name: reply.name });
          if (taken.taken_by !== reply.name) {
            setToldTaker(taken.taken_by);
            throw new Error(takenMeanwhile(taken.taken_by ?? ''));
          }
        }
        await send('POST', `${handoff}/messages`, reply);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) onClosed(reply.text);
        throw error;
      }
    });
    if (sent) draft('');
    onChanged();
  };
  const handBack = async () => {
    await action.run(() => explained(send('POST', `${handoff}/resolve`), { 404: CLOSED }));
    onChanged();
  };
  return (
    <form class="team-reply" onSubmit={submit} aria-label="Reply as the team">
      <TextInput label="Your name" value={name} onValue={nameAs} required maxLength={MAX_NAME} hint="Shown to the person above your reply." />
      <TextArea label="Reply" value={text} onValue={draft} rows={3} required maxLength={MAX_REPLY} />
      {taker && taker !== name.trim() && <p class="muted">{taker} is answering this person: your reply reaches them too, under your name.</p>}
      {action.failure && <Alert>{action.failure}</Alert>}
      <div class="actions">
        <BusyButton type="submit" busy={action.busy}>
          Send reply
        </BusyButton>
        <BusyButton class="secondary" onClick={handBack} busy={action.busy}>
          Hand back to the chatbot
        </BusyButton>
      </div>
    </form>
  );
}
