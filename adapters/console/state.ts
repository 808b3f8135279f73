import { signal } from '@preact/signals';
import { markSignedIn } from './signed-in-mark.js';
import type { Account } from './types.js';

// The console's shared state, in one place: who is signed in. Pages keep their own form state.

/** undefined while the console asks the hub; null when no one is signed in. */
export const account = signal<Account | null | undefined>(undefined);
/** Set when a signed-in session ended on its own (idle expiry, signed out elsewhere). */
export const sessionEnded = signal(false);

export function signedIn(who: Account): void {
  markSignedIn(true);
  sessionEnded.value = false;
  account.value = who;
}

/** A 401 ends the session in the browser too; `expired` tells the sign-in page to say so. */
export function signedOut(expired: boolean): void {
  markSignedIn(false);
  if (account.value === null) return;
  sessionEnded.value = expired && account.value !== undefined;
  account.value = null;
}
