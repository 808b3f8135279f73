import { errorText } from '../format.js';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { Alert, Busy } from '../components/feedback.js';
import { useFocusOnLeaving } from '../components/focus-moves.js';
import { signIn } from '../session.js';

// The one-time sign-in link: its token rides in the URL's fragment, which no request carries,
// and is spent only by a click, so link scanners that open the page cannot use it up.

export function LinkPage() {
  const { route } = useLocation();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const token = location.hash.slice(1);
  useFocusOnLeaving();

  const use = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      await signIn({ linkToken: token });
      history.replaceState(null, '', '/console/link');
      route('/console', true);
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="narrow" id="content">
      <h1>Sign in to the Switchboard console</h1>
      <div class="card">
        {token ? (
          <p>This link signs you in once, within 15 minutes of its making.</p>
        ) : (
          <Alert>This link has no sign-in token. Ask for a new one with npm run admin -- console-link ACCOUNT.</Alert>
        )}
        {failure && <Alert>{failure}</Alert>}
        {busy ? (
          <Busy label="Signing in" />
        ) : (
          <div class="actions">
            <button type="button" onClick={use} disabled={!token}>
              Sign in
            </button>
            <a href="/console">Sign in with an API key instead</a>
          </div>
        )}
      </div>
    </main>
  );
}
