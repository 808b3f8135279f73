// Whether this browser signed in to the console and has not signed out since: a mark in local
// storage (never the key, nor the session, which only the hub's HttpOnly cookie holds). Without
// it the console shows the sign-in form at once, rather than asking the hub for a session it
// cannot have: the hub's documented 401 would be logged as an error on every signed-out visit.

const MARK = 'switchboard-console-signed-in';

export const markedSignedIn = (): boolean => localStorage.getItem(MARK) !== null;

export function markSignedIn(signedIn: boolean): void {
  if (signedIn) localStorage.setItem(MARK, '1');
  else localStorage.removeItem(MARK);
}
