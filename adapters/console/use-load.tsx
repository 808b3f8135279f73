import { mayPass } from './api.js';
import { errorText } from './format.js';
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Busy } from './components/feedback.js';
import { LoadFailure } from './components/load-failure.js';

// Loading what a page shows: progress while it comes, the API's message if it fails, and
// "Try again" when asking again may help (not for a chatbot that is not there, or a refused range).

type LoadState<T> = { data?: T; error?: string; mayPass?: boolean; loading: boolean };
export type Loaded<T> = LoadState<T> & { reload: () => void };

const sameValues = (a: unknown[] | undefined, b: unknown[]) => a?.length === b.length && a.every((value, index) => Object.is(value, b[index]));

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<LoadState<T>>({ loading: true });
  const [round, setRound] = useState(0);
  const loadedFor = useRef<unknown[]>();
  useEffect(() => {
    let current = true;
    // A reload that fails keeps what is shown (a list read again every few seconds stays in place,
    // with what is typed beside it); a load of something else that fails drops it.
    const again = sameValues(loadedFor.current, deps);
    loadedFor.current = deps;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) =>
        current && setState((previous) => ({ data: again ? previous.data : undefined, error: errorText(error), mayPass: mayPass(error), loading: false })),
    );
    return () => {
      current = false;
    };
    // The caller names what the load depends on.
  }, [...deps, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}

/** What "Try again" does for a load that failed: load it again, when asking again may help (none otherwise). */
export const retryOf = (loaded: Loaded<unknown>): (() => void) | undefined => (loaded.mayPass ? loaded.reload : undefined);

type ShowProps<T> = {
  loaded: Loaded<T>;
  label: string;
  /** What "Try again" loads, on a page of several parts that may fail side by side (see LoadFailure). */
  retries?: string;
  children: (data: T) => ComponentChildren;
};

/** Shows progress, the error with "Try again", or the data once there is some (kept while it reloads, and with the error of a reload that failed). */
export function Show<T>({ loaded, label, retries, children }: ShowProps<T>) {
  const failure = loaded.error && <LoadFailure error={loaded.error} label={label} loading={loaded.loading} onRetry={retryOf(loaded)} retries={retries} />;
  if (loaded.data === undefined) return failure || <Busy label={label} />;
  return (
    <>
      {failure}
      {children(loaded.data)}
    </>
  );
}
