import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { query, send } from '../api.js';
import { Alert, Busy } from '../components/feedback.js';
import { TextInput } from '../components/fields.js';
import { errorText } from '../format.js';
import type { Chatbot } from '../types.js';

// Deleting a chatbot ends its conversations, leads and bindings too: the owner types its name first.

export function DeleteChatbot({ chatbot }: { chatbot: Chatbot }) {
  const { route } = useLocation();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  const remove = async (event: Event) => {
    event.preventDefault();
    if (typed !== chatbot.name) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await send('DELETE', `/delete-chatbot${query({ chatbotId: chatbot.id })}`);
      route('/console');
    } catch (error) {
      setFailure(errorText(error));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={remove}>
      <fieldset>
        <legend>Delete chatbot</legend>
        <p>This deletes the chatbot with its sources, conversations, leads and bindings. It cannot be undone.</p>
        <TextInput label={`Type “${chatbot.name}” to confirm`} value={typed} onValue={setTyped} autoComplete="off" />
        {failure && <Alert>{failure}</Alert>}
        {busy ? (
          <Busy label="Deleting the chatbot" />
        ) : (
          <button type="submit" class="danger" disabled={typed !== chatbot.name}>
            Delete chatbot
          </button>
        )}
      </fieldset>
    </form>
  );
}
