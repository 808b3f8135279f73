import { ApiError, callJson, explained } from './api.js';
import { markedSignedIn } from './signed-in-mark.js';
import { signedIn, signedOut } from './state.js';
import type { Account } from './types.js';

// Signing in and out: the hub keeps the session; the browser holds only its HttpOnly cookie.

type SessionAnswer = { data: { account: Account } };

/** Asks the hub who the cookie belongs to, if this browser signed in; else no one is. */
export async function checkSession(): Promise<void> {
  if (!markedSignedIn()) return signedOut(false);
  try {
    signedIn((await callJson<SessionAnswer>('GET', '/console/session')).data.account);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) signedOut(false);
    else throw error;
  }
}

/** What a refused credential means; the hub's 401 body is the contract's "No API key provided." */
const REFUSED = {
  apiKey: 'The hub knows no such API key (or it was revoked). Check it, or issue another with npm run admin -- create-key ACCOUNT.',
  linkToken:
    'This link was used already or is more than 15 minutes old. Ask for a new one with npm run admin -- console-link ACCOUNT, or sign in with an API key.',
};
/** The hub's 429 after ten refused sign-ins from one address within ten minutes. */
const TOO_MANY_FAILURES = 'Too many sign-ins from your address failed, so the hub refuses more for a few minutes. Wait ten minutes, then try again.';

export async function signIn(credential: { apiKey: string } | { linkToken: string }): Promise<void> {
  const answer = callJson<SessionAnswer>('POST', '/console/sessions', credential);
  const refused = 'apiKey' in credential ? REFUSED.apiKey : REFUSED.linkToken;
  signedIn((await explained(answer, { 401: refused, 429: TOO_MANY_FAILURES })).data.account);
}

export async function signOut(): Promise<void> {
  await callJson('DELETE', '/console/session');
  signedOut(false);
}
