import { useState } from 'preact/hooks';
import { callJson, explained } from '../api.js';
import { Alert, Busy, Notice } from '../components/feedback.js';
import { errorText } from '../format.js';

// The chatbot's profile picture and chat icon: upload (multipart, as the API takes them) and delete.

export type ImageKind = 'profile-picture' | 'icon';

const NAMES: Record<ImageKind, { title: string; part: string }> = {
  'profile-picture': { title: 'Profile picture', part: 'profilePictureFile' },
  icon: { title: 'Chat icon', part: 'chatbotIconFile' },
};

/** The API's refusal of another file is the bare "Invalid request data". */
const REFUSED = 'The hub refused the file: upload a PNG, JPEG, GIF or WebP image of at most 5 MB (the type is read from its content).';

export function ImageSetting({ chatbotId, kind, url, onChange }: { chatbotId: string; kind: ImageKind; url: string | null; onChange: () => void }) {
  const { title, part } = NAMES[kind];
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [done, setDone] = useState<string>();
  const inputId = `image-${kind}`;

  const run = async (work: () => Promise<{ message: string }>) => {
    setBusy(true);
    setFailure(undefined);
    setDone(undefined);
    try {
      const { message } = await work();
      setDone(message);
      onChange();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const upload = (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.append('chatbotId', chatbotId);
    form.append(part, file, file.name);
    input.value = '';
    void run(() => explained(callJson<{ message: string }>('POST', kind === 'icon' ? '/upload-chatbot-icon' : '/upload-chatbot-profile-picture', form), { 400: REFUSED }));
  };

  const remove = () =>
    run(() => callJson<{ message: string }>('DELETE', `${kind === 'icon' ? '/delete-chatbot-icon' : '/delete-chatbot-profile-picture'}?chatbotId=${encodeURIComponent(chatbotId)}`));

  return (
    <div class="field">
      <span class="label">{title}</span>
      <div class="image-row">
        {url ? <img src={url} alt={`Current ${title.toLowerCase()}`} /> : <span class="muted">None</span>}
        <label for={inputId}>Upload {title.toLowerCase()}</label>
        <input id={inputId} type="file" accept="image/png,image/jpeg,image/gif,image/webp" onChange={upload} disabled={busy} />
        {url && (
          <button type="button" class="secondary" onClick={remove} disabled={busy}>
            Delete {title.toLowerCase()}
          </button>
        )}
      </div>
      {busy && <Busy label={`Saving the ${title.toLowerCase()}`} />}
      {done && <Notice>{done}</Notice>}
      {failure && <Alert>{failure}</Alert>}
    </div>
  );
}
