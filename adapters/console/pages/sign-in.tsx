import { errorText } from '../format.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Alert, Notice } from '../components/feedback.js';
import { TextInput } from '../components/fields.js';
import { useFocusOnLeaving } from '../components/focus-moves.js';
import { signIn } from '../session.js';
import { sessionEnded } from '../state.js';
import { SubmitButton } from '../components/busy-button.js';

// The key goes to the hub once, which answers with an HttpOnly session cookie; the page keeps
// nothing, and the field is emptied once sent. Shown in place of the page that was open (signed
// out, or the session ended), it names itself in the window's title and takes the focus, as a
// page the console opens does, rather than leaving that page's title and the focus on nothing.

const TITLE = 'Switchboard console';

export function SignInPage() {
  const [apiKey, setApiKey] = useState('');
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const main = useRef<HTMLElement>(null);
  useFocusOnLeaving();
  useEffect(() => {
    document.title = TITLE;
    if (document.activeElement === document.body) main.current?.focus({ preventScroll: true });
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setFailure(undefined);
    setBusy(true);
    try {
      await signIn({ apiKey: apiKey.trim() });
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setApiKey('');
      setBusy(false);
    }
  };

  return (
    <main class="narrow" id="content" tabIndex={-1} ref={main}>
      <h1>{TITLE}</h1>
      {sessionEnded.value && <Notice>Your session has ended. Sign in again.</Notice>}
      <form class="card" onSubmit={submit}>
        <TextInput
          label="API key"
          type="password"
          autoComplete="off"
          required
          value={apiKey}
          onValue={setApiKey}
          hint="The key of your account, as given by the hub’s first start or npm run admin."
        />
        {failure && <Alert>{failure}</Alert>}
        <SubmitButton busy={busy} busyLabel="Signing in">Sign in</SubmitButton>
      </form>
    </main>
  );
}
