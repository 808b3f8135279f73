import { errorText } from './format.js';
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { Alert, Busy } from './components/feedback.js';

// Loading what a page shows: progress while it comes, the API's message if it fails.

export type Loaded<T> = { data?: T; error?: string; loading: boolean; reload: () => void };

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: errorText(error), loading: false }),
    );
    return () => {
      current = false;
    };
    // The caller names what the load depends on.
  }, [...deps, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  return { ...state, reload };
}

/** Shows progress, the error, or the data once there is some (kept while it reloads). */
export function Show<T>({ loaded, label, children }: { loaded: Loaded<T>; label: string; children: (data: T) => ComponentChildren }) {
  if (loaded.error) return <Alert>{loaded.error}</Alert>;
  if (loaded.data === undefined) return <Busy label={label} />;
  return <>{children(loaded.data)}</>;
}
