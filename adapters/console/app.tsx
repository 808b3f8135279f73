import { errorText } from './format.js';
import { useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { Alert, Busy } from './components/feedback.js';
import { Layout } from './components/layout.js';
import { AccountPage } from './pages/account.js';
import { ChatbotPage } from './pages/chatbot.js';
import { ChatbotsPage } from './pages/chatbots.js';
import { LinkPage } from './pages/link.js';
import { NewChatbotPage } from './pages/new-chatbot.js';
import { NotFound } from './pages/not-found.js';
import { SignInPage } from './pages/sign-in.js';
import { checkSession } from './session.js';
import { account } from './state.js';

// The console: the one-time link page works signed out; everything else asks for a sign-in
// first, in place, so the page asked for shows once signed in.

export function App() {
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    checkSession().catch((error: unknown) => setFailure(errorText(error)));
  }, []);
  return (
    <LocationProvider scope="/console">
      <Shell failure={failure} />
    </LocationProvider>
  );
}

function Shell({ failure }: { failure: string | undefined }) {
  const { path } = useLocation();
  if (path === '/console/link') return <LinkPage />;
  if (account.value === undefined) {
    return <main class="narrow">{failure ? <Alert>{failure}</Alert> : <Busy label="Opening the console" />}</main>;
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
