// A reply cut into messages inside a Markdown code block: the first message closes the block and
// the next reopens it, so both show the code as code (Slack and Discord alike).

const FENCE = '```';

/** What closing a cut code block adds to a message: a line break and the fence. */
export const FENCE_ROOM = FENCE.length + 1;

/** Whether text ends inside a code block (an odd number of fences). */
export const insideCode = (text: string): boolean => text.split(FENCE).length % 2 === 0;

/** The two sides of a cut: a code block it falls in closed before it and reopened after. */
export function fencedCut(head: string, rest: string): [string, string] {
  return insideCode(head) ? [`${head}\n${FENCE}`, `${FENCE}\n${rest}`] : [head, rest];
}
