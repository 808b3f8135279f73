import { useEffect, useRef, useState } from 'preact/hooks';
import { call, callData, explained } from '../api.js';
import { Alert } from '../components/feedback.js';
import { Select, TemperatureInput, TextInput } from '../components/fields.js';
import { UsedSources } from '../components/used-sources.js';
import { errorText } from '../format.js';
import { MODEL_IDS, modelOptions } from '../models.js';
import type { CitedSource } from '../types.js';
import type { ChatbotPageProps } from './chatbot-section.js';
import { BusyButton } from '../components/busy-button.js';
import { useFocusFirstProblem } from '../components/focus-moves.js';

// Chat with the chatbot as visitors would; "Model" and "Temperature" try other settings for this
// chat only. The chat is saved with source Playground, under a conversation id of its own, so
// each answer names its saved message (X-Message-Id), whose cited sources are listed under it.

type Turn = { role: 'user' | 'assistant'; content: string; done?: boolean; sources?: CitedSource[] };

/** The API's 403 body for a chat past the account's monthly messages is "Access denied or quota exceeded". */
const QUOTA_USED =
  'The account has used this month’s messages (see Account), so the chatbot answers no more until next month or until its quota is raised (npm run admin -- set-quota ACCOUNT --messages-per-month N).';

const newConversationId = () => `playground-${crypto.randomUUID()}`;

export function PlaygroundPage({ chatbot }: ChatbotPageProps) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [message, setMessage] = useState('');
  const [model, setModel] = useState(chatbot.settings.model);
  const [temperature, setTemperature] = useState(String(chatbot.settings.temp));
  const [conversationId, setConversationId] = useState(newConversationId);
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const log = useRef<HTMLDivElement>(null);
  const { scope, refused } = useFocusFirstProblem<HTMLDivElement>();

  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [turns]);

  const temperatureValue = Number(temperature);
  const temperatureError = temperature.trim() === '' || !(temperatureValue >= 0 && temperatureValue <= 1) ? 'Between 0 and 1, e.g. 0.3.' : undefined;

  const send = async (event: Event) => {
    event.preventDefault();
    const text = message.trim();
    if (!text || busy) return;
    if (temperatureError) {
      refused();
      return;
    }
    setFailure(undefined);
    setMessage('');
    setBusy(true);
    const asked: Turn[] = [...turns, { role: 'user', content: text, done: true }];
    setTurns([...asked, { role: 'assistant', content: '' }]);
    const answer = (update: (turn: Turn) => Turn) =>
      setTurns((current) => [...current.slice(0, -1), update(current.at(-1) ?? { role: 'assistant', content: '' })]);
    try {
      const chat = call('POST', '/chat', {
        chatbotId: chatbot.id,
        messages: asked.map(({ role, content }) => ({ role, content })),
        conversationId,
        model,
        temperature: temperatureValue,
        stream: true,
        source: 'Playground',
      });
      const response = await explained(chat, { 403: QUOTA_USED });
      await readStream(response, (piece) => answer((turn) => ({ ...turn, content: turn.content + piece })));
      // The answer stands even when its sources cannot be read.
      const sources = await usedSources(chatbot.id, response.headers.get('X-Message-Id')).catch((error: unknown) => {
        setFailure(errorText(error));
        return [];
      });
      answer((turn) => ({ ...turn, done: true, sources }));
    } catch (error) {
      setFailure(errorText(error));
      setTurns((current) => current.slice(0, -1));
    } finally {
      setBusy(false);
    }
  };

  const restart = () => {
    setTurns([]);
    setConversationId(newConversationId());
  };

  return (
    <div ref={scope}>
      <div class="row">
        <Select label="Model" value={model} options={modelOptions(MODEL_IDS)} onValue={setModel} hint="For this chat only; Settings keeps the saved one." />
        <TemperatureInput value={temperature} onValue={setTemperature} error={temperatureError} />
      </div>
      <div class="card">
        <div class="log" role="log" aria-label="Conversation" aria-live="polite" ref={log}>
          {turns.length === 0 && <p class="muted">Ask something to see how the chatbot answers.</p>}
          {turns.map((turn, index) => (
            <div key={index} class={`bubble ${turn.role}`} dir="auto" aria-busy={turn.role === 'assistant' && !turn.done ? 'true' : undefined}>
              {turn.content || (turn.role === 'assistant' && !turn.done ? '…' : '')}
              {turn.sources && <UsedSources sources={turn.sources} />}
            </div>
          ))}
        </div>
        {failure && <Alert>{failure}</Alert>}
        <form class="composer" onSubmit={send}>
          <TextInput label="Message" value={message} onValue={setMessage} autoComplete="off" maxLength={4000} />
          <BusyButton type="submit" busy={busy}>
            Send
          </BusyButton>
        </form>
        <div class="actions">
          <BusyButton class="secondary" onClick={restart} busy={busy}>
            New chat
          </BusyButton>
        </div>
      </div>
    </div>
  );
}

/** The sources a saved answer cited; none when it was not saved or cited nothing. */
async function usedSources(chatbotId: string, messageId: string | null): Promise<CitedSource[]> {
  if (!messageId) return [];
  const path = `/chatbots/${encodeURIComponent(chatbotId)}/messages/${encodeURIComponent(messageId)}/sources`;
  return callData<CitedSource[]>('GET', path);
}

/** The reply streams as plain text: each piece is shown as it arrives. */
async function readStream(response: Response, onPiece: (piece: string) => void): Promise<void> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) return;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    onPiece(value);
  }
}
