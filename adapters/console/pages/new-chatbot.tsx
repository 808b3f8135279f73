import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { MAX_NAME } from '../../../src/settings/limits.js';
import { callJson, explained } from '../api.js';
import { madeNote, namedAs, readChatbots } from '../chatbot-names.js';
import type { ChatbotItem } from '../types.js';
import { Alert } from '../components/feedback.js';
import { TextArea, TextInput } from '../components/fields.js';
import { errorText } from '../format.js';
import { addWebsite, DEFAULT_MAX_PAGES, sourcesPath, uploadFiles } from '../knowledge/add.js';
import { FilesField, maxPagesError, WebsiteFields, type Website } from '../knowledge/fields.js';
import { websiteUrlError } from '../knowledge/website-check.js';
import { SubmitButton } from '../components/busy-button.js';
import { useFocusFirstProblem } from '../components/focus-moves.js';

// A new chatbot: a name, and optionally its first sources (text, files, a website). The text goes
// with the chatbot; files and the website are added after it, through the sources API. "Create"
// opens it; if a source is refused, the chatbot stays made and the page says so. A name another
// chatbot has is allowed, as by the API, but "Create" first says so, and a second press makes it.

const MIN_NAME = 3;
/** The API's 403 body for either is "Access denied or quota exceeded". */
const NO_ROOM =
  'The account has as many chatbots as its quota allows (delete one, or raise it with npm run admin -- set-quota ACCOUNT --max-chatbots N), or the text is longer than a chatbot’s sources may hold (SOURCES_MAX_CHARS_PER_CHATBOT).';

export function NewChatbotPage() {
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [website, setWebsite] = useState<Website>({ url: '', maxPages: String(DEFAULT_MAX_PAGES) });
  const [nameError, setNameError] = useState<string>();
  const [urlError, setUrlError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [made, setMade] = useState<string>();
  const [busy, setBusy] = useState(false);
  /** The name "Create" warned of, with the chatbots that have it: pressed again with it, the chatbot is made. */
  const [warning, setWarning] = useState<{ name: string; chatbots: ChatbotItem[] }>();
  const { scope, refused } = useFocusFirstProblem();

  const create = async (event: Event) => {
    event.preventDefault();
    setFailure(undefined);
    // Checked before the chatbot is made: a source refused after it would leave it made without.
    const url = website.url.trim();
    const problems = { name: nameProblem(name.trim()), url: url ? websiteUrlError(url) : undefined, maxPages: url ? maxPagesError(website.maxPages) : undefined };
    setNameError(problems.name);
    setUrlError(problems.url);
    if (problems.name || problems.url || problems.maxPages) {
      refused();
      return;
    }
    setBusy(true);
    if (warning?.name !== name.trim()) {
      // Read as they are now (made in another tab too): a list that cannot be read warns of nothing.
      const sameName = namedAs(await readChatbots(), name.trim());
      if (sameName.length > 0) {
        setWarning({ name: name.trim(), chatbots: sameName });
        setBusy(false);
        return;
      }
    }
    let chatbotId: string | undefined;
    try {
      const made = callJson<{ chatbotId: string }>('POST', '/create-chatbot', { chatbotName: name.trim(), ...(text.trim() && { sourceText: text }) });
      ({ chatbotId } = await explained(made, { 403: NO_ROOM }));
      const base = sourcesPath(chatbotId);
      if (files.length > 0) await uploadFiles(base, files);
      if (url) await addWebsite(base, url, Number(website.maxPages));
      route(`/console/chatbots/${encodeURIComponent(chatbotId)}/playground`);
    } catch (error) {
      setMade(chatbotId);
      setFailure(chatbotId ? `The chatbot is made, but a source was refused: ${errorText(error)}` : errorText(error));
      setBusy(false);
    }
  };

  return (
    <>
      <h1>New chatbot</h1>
      <form class="card" onSubmit={create} noValidate ref={scope}>
        <TextInput label="Name" value={name} onValue={setName} error={nameError} required autoComplete="off" />
        <TextArea
          label="Text"
          value={text}
          onValue={setText}
          rows={10}
          hint="Optional: what the chatbot should know, as plain text. You can add more sources later."
        />
        <FilesField files={files} onFiles={setFiles} />
        <WebsiteFields website={website} onWebsite={setWebsite} urlError={urlError} />
        {warning?.name === name.trim() && (
          <Alert>
            {sameNameWarning(warning.chatbots)} Press “Create” again to make another; the chatbots list tells them apart by when each was made.
          </Alert>
        )}
        {failure && (
          <Alert>
            {failure} {made && <a href={`/console/chatbots/${encodeURIComponent(made)}/sources`}>Open its sources</a>}
          </Alert>
        )}
        <SubmitButton busy={busy} busyLabel="Creating the chatbot" disabled={made !== undefined}>Create</SubmitButton>
      </form>
    </>
  );
}

function sameNameWarning(chatbots: ChatbotItem[]): string {
  const [first] = chatbots;
  if (chatbots.length > 1 || !first) return `${chatbots.length} of your chatbots already have this name.`;
  return `You already have a chatbot named “${first.name}” (${madeNote(first)}).`;
}

function nameProblem(name: string): string | undefined {
  if (name.length < MIN_NAME) return `The name needs at least ${MIN_NAME} characters.`;
  if (name.length > MAX_NAME) return `The name has at most ${MAX_NAME} characters; this has ${name.length}.`;
  return undefined;
}
