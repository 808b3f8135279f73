import { errorText } from '../format.js';
import type { ComponentChildren } from 'preact';
import { useErrorBoundary, useRef, useState } from 'preact/hooks';
import { signOut } from '../session.js';
import { account } from '../state.js';
import { usePageChange } from '../use-page-change.js';
import { Alert } from './feedback.js';

// The frame of every signed-in page: the console's name, the account, and "Sign out".

export function Layout({ children }: { children: ComponentChildren }) {
  const [failure, setFailure] = useState<string>();
  // A page that breaks while drawing shows what broke, not a blank screen.
  const [broken, retry] = useErrorBoundary();
  const main = useRef<HTMLElement>(null);
  usePageChange(main);
  const leave = () => signOut().catch((error: unknown) => setFailure(errorText(error)));
  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/console">
          Switchboard
        </a>
        <nav aria-label="Console">
          <a href="/console">Chatbots</a>
          <a href="/console/account">Account</a>
          <span class="muted">{account.value?.name}</span>
          <button type="button" class="secondary" onClick={leave}>
            Sign out
          </button>
        </nav>
      </header>
      <main id="content" tabIndex={-1} ref={main}>
        {failure && <Alert>{failure}</Alert>}
        {broken ? (
          <>
            <Alert>This page failed: {errorText(broken)}</Alert>
            <button type="button" onClick={retry}>
              Try again
            </button>
          </>
        ) : (
          children
        )}
      </main>
    </>
  );
}
