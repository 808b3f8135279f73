import { useEffect } from 'preact/hooks';
import type { Loaded } from './use-load.js';

// Reading a page's data again by itself, so what the console shows keeps up with what happens
// meanwhile (new conversations, a person's answer in a handoff, a crawl's progress). It waits a
// while after each reading ends, so a slow hub slows the rereading rather than piling requests
// up, and it pauses while the browser tab is hidden: a console left open in a background tab asks
// nothing, and reads again as soon as it is shown.

/** How soon an Activity list (conversations, leads, contacts) shows what is new by itself. */
export const LIST_REFRESH_MS = 10_000;

/** Reloads `loaded` `intervalMs` after each reading ends while `active`, and at once when a hidden tab is shown. */
export function useRefresh(loaded: Loaded<unknown>, intervalMs: number, active = true): void {
  const { data, error, loading, reload } = loaded;
  useEffect(() => {
    if (!active || loading) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const visible = () => document.visibilityState === 'visible';
    if (visible()) timer = setTimeout(reload, intervalMs);
    const onVisibility = () => {
      clearTimeout(timer);
      if (visible()) reload();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [data, error, loading, reload, intervalMs, active]);
}
