import { ApiError, call, callJson } from './api.js';
import { signedIn, signedOut } from './state.js';
import type { Account } from './types.js';

// Signing in and out: the hub keeps the session; the browser holds only its HttpOnly cookie.

type SessionAnswer = { data: { account: Account } };

/** Asks the hub who the cookie belongs to, if anyone. */
export async function checkSession(): Promise<void> {
  try {
    signedIn((await callJson<SessionAnswer>('GET', '/console/session')).data.account);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) signedOut(false);
    else throw error;
  }
}

export async function signIn(credential: { apiKey: string } | { linkToken: string }): Promise<void> {
  signedIn((await callJson<SessionAnswer>('POST', '/console/sessions', credential)).data.account);
}

export async function signOut(): Promise<void> {
  await call('DELETE', '/console/session');
  signedOut(false);
}
