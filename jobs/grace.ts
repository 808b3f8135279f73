/** Waits for work in progress to end, at most `graceMs` (a process manager kills soon after SIGTERM). */
export async function waitAtMost(running: Promise<unknown> | undefined, graceMs: number): Promise<void> {
  let graceTimer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (graceTimer = setTimeout(resolve, graceMs)));
  await Promise.race([running, grace]);
  clearTimeout(graceTimer);
}
