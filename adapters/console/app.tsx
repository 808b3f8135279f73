import lazy from 'preact-iso/lazy';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { Busy } from './components/feedback.js';
import { Layout } from './components/layout.js';
import { LoadFailure } from './components/load-failure.js';
import { AccountPage } from './pages/account.js';
import { ChatbotPage } from './pages/chatbot.js';
import { ChatbotsPage } from './pages/chatbots.js';
import { LinkPage } from './pages/link.js';
import { NotFound } from './pages/not-found.js';
import { SignInPage } from './pages/sign-in.js';
import { checkSession } from './session.js';
import { account } from './state.js';
import { retryOf, useLoad, type Loaded } from './use-load.js';

// The console: the one-time link page works signed out; everything else asks for a sign-in
// first, in place, so the page asked for shows once signed in.

const OPENING = 'Opening the console';

/** Its website check is the hub's zod schema, which loads with this page rather than with the first. */
const NewChatbotPage = lazy(() => import('./pages/new-chatbot.js').then((module) => module.NewChatbotPage));

export function App() {
  const session = useLoad(checkSession, []);
  return (
    <LocationProvider scope="/console">
      <Shell session={session} />
    </LocationProvider>
  );
}

function Shell({ session }: { session: Loaded<void> }) {
  const { path } = useLocation();
  if (path === '/console/link') return <LinkPage />;
  if (account.value === undefined) {
    return (
      <main class="narrow">
        {session.error ? <LoadFailure error={session.error} label={OPENING} loading={session.loading} onRetry={retryOf(session)} /> : <Busy label={OPENING} />}
      </main>
    );
  }
  if (account.value === null) return <SignInPage />;
  return (
    <Layout>
      <Router>
        <Route path="/console" component={ChatbotsPage} />
        <Route path="/console/new" component={NewChatbotPage} />
        <Route path="/console/account" component={AccountPage} />
        <Route path="/console/chatbots/:chatbotId/:section?/:item?" component={ChatbotPage} />
        <Route default component={NotFound} />
      </Router>
    </Layout>
  );
}
