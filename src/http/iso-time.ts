const MAX_REMEMBERED = 10_000;
const remembered = new Map<number, string>();

/**
 * `date.toISOString()`, remembered: a list answered again and again (get-chatbots, a dashboard's
 * poll) formats the same few times on every request, and V8's toISOString takes about half a
 * microsecond (get-chatbots' six times were 4% of its CPU time).
 */
export function isoTime(date: Date): string {
  const time = date.getTime();
  let text = remembered.get(time);
  if (text === undefined) {
    text = date.toISOString();
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(time, text);
  }
  return text;
}
