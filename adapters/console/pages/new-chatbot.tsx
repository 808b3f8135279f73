import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { callJson } from '../api.js';
import { Alert, Busy } from '../components/feedback.js';
import { TextArea, TextInput } from '../components/fields.js';
import { errorText } from '../format.js';

// A new chatbot: a name, and optionally its first training text. "Create" opens it.

const MIN_NAME = 3;

export function NewChatbotPage() {
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [nameError, setNameError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  const create = async (event: Event) => {
    event.preventDefault();
    setFailure(undefined);
    if (name.trim().length < MIN_NAME) {
      setNameError(`The name needs at least ${MIN_NAME} characters.`);
      return;
    }
    setNameError(undefined);
    setBusy(true);
    try {
      const { chatbotId } = await callJson<{ chatbotId: string }>('POST', '/create-chatbot', {
        chatbotName: name.trim(),
        ...(text.trim() && { sourceText: text }),
      });
      route(`/console/chatbots/${encodeURIComponent(chatbotId)}/playground`);
    } catch (error) {
      setFailure(errorText(error));
      setBusy(false);
    }
  };

  return (
    <>
      <h1>New chatbot</h1>
      <form class="card" onSubmit={create} noValidate>
        <TextInput label="Name" value={name} onValue={setName} error={nameError} required autoComplete="off" />
        <TextArea
          label="Text"
          value={text}
          onValue={setText}
          rows={10}
          hint="Optional: what the chatbot should know, as plain text. You can add more sources later."
        />
        {failure && <Alert>{failure}</Alert>}
        {busy ? <Busy label="Creating the chatbot" /> : <button type="submit">Create</button>}
      </form>
    </>
  );
}
