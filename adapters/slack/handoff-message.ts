import { randomUUID } from 'node:crypto';
import type { types, webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { HandoffNotice, HandoffState } from '../hub-client.js';
import { countSlackError } from './metrics.js';
import { escapeText, splitMessage } from './text.js';

// A handoff's root message in the team's channel, and what is said in its thread: who asks (the
// chatbot, the source, the person's details), the conversation so far, and the state with the
// buttons it allows ("Take" while pending, "Resolve" while open, none once closed). The parts
// that never change are kept as Slack returns them; the state line and the buttons are redrawn.

export const TAKE_ACTION_ID = 'handoff_take';
export const RESOLVE_ACTION_ID = 'handoff_resolve';

/** The root message as chat.postMessage and chat.update take it. */
export type RootMessage = { text: string; blocks: types.KnownBlock[] };

/** Where a root message is, and what it holds now (a click's payload carries it; else it is read back). */
export type PostedRoot = { channel: string; ts: string } & Partial<RootMessage>;

// Slack's limits: 50 blocks a message, 3,000 characters of section text, 2,000 of a field, 150 of a
// header; and the blocks of one message together somewhat over 12,000 characters (beyond them
// Slack answers msg_blocks_too_long). The transcript keeps its latest turns within a budget below.
const MAX_TRANSCRIPT_BLOCKS = 40;
const MAX_TRANSCRIPT_CHARS = 8_000;
const MAX_TURN_CHARS = 2_800;
const MAX_FIELD_CHARS = 300;
const MAX_HEADER_CHARS = 150;

/** Block ids of the redrawn parts start so; each drawing gets a new one, as Slack asks of updates. */
const STATUS_BLOCK = 'handoff_status';
const ACTIONS_BLOCK = 'handoff_actions';

/** What the person's turns are labelled with in the thread and the transcript. */
const PERSON_LABEL = 'Person';

/** The root message of a `requested` notice, with the pending state and both buttons. */
export function rootMessage(notice: HandoffNotice): RootMessage {
  const person = notice.person;
  const fields = [
    ['Chatbot', notice.chatbotName],
    ['Source', notice.source],
    ['Name', person?.name],
    ['Email', person?.email],
    ['Phone', person?.phone],
  ].filter((field): field is [string, string] => Boolean(field[1]));
  const content: types.KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(`${notice.chatbotName}: someone asks for a person`, MAX_HEADER_CHARS) } },
    {
      type: 'section',
      fields: fields.map(([label, value]) => ({ type: 'mrkdwn', text: `*${label}*\n${escapedClip(value, MAX_FIELD_CHARS)}` })),
    },
    ...transcriptBlocks(notice),
  ];
  const who = person?.name ?? 'Someone';
  return {
    text: escapeText(`${who} asks for a person (${notice.chatbotName}, ${notice.source})`),
    blocks: [...content, ...stateBlocks(notice.handoff)],
  };
}

/** The conversation so far, latest turns first to be kept; a note says how many earlier ones are left out. */
function transcriptBlocks(notice: HandoffNotice): types.KnownBlock[] {
  const turns = notice.transcript ?? [];
  const kept: types.KnownBlock[] = [];
  let chars = 0;
  for (const turn of [...turns].reverse()) {
    const label = turn.author ? `${turn.author.name} (team)` : turn.role === 'user' ? PERSON_LABEL : notice.chatbotName;
    const text = `*${escapedClip(label, MAX_FIELD_CHARS)}*\n${escapedClip(turn.content, MAX_TURN_CHARS)}`;
    if (kept.length === MAX_TRANSCRIPT_BLOCKS || chars + text.length > MAX_TRANSCRIPT_CHARS) break;
    chars += text.length;
    kept.unshift({ type: 'section', text: { type: 'mrkdwn', text } });
  }
  const left = turns.length - kept.length;
  const note = (text: string): types.KnownBlock => ({ type: 'context', elements: [{ type: 'mrkdwn', text }] });
  if (turns.length === 0) return [note('_No messages before the request._')];
  return left > 0 ? [note(`_${left} earlier ${left === 1 ? 'message is' : 'messages are'} not shown._`), ...kept] : kept;
}

/** The state line, and the buttons the state allows. */
function stateBlocks(handoff: HandoffState): types.KnownBlock[] {
  const drawing = randomUUID().slice(0, 8);
  const blocks: types.KnownBlock[] = [
    { type: 'context', block_id: `${STATUS_BLOCK}.${drawing}`, elements: [{ type: 'mrkdwn', text: stateLine(handoff) }] },
  ];
  const take: types.Button = {
    type: 'button',
    action_id: TAKE_ACTION_ID,
    text: { type: 'plain_text', text: 'Take' },
    style: 'primary',
  };
  const resolve: types.Button = { type: 'button', action_id: RESOLVE_ACTION_ID, text: { type: 'plain_text', text: 'Resolve' } };
  const buttons = handoff.status === 'pending' ? [take, resolve] : handoff.status === 'active' ? [resolve] : [];
  if (buttons.length > 0) blocks.push({ type: 'actions', block_id: `${ACTIONS_BLOCK}.${drawing}`, elements: buttons });
  return blocks;
}

/** The state as the root message shows it. */
function stateLine(handoff: HandoffState): string {
  const taker = handoff.taken_by && escapedClip(handoff.taken_by, MAX_FIELD_CHARS);
  switch (handoff.status) {
    case 'pending':
      return '⏳ Waiting for someone to take it. Reply in the thread to answer the person.';
    case 'active':
      return `🙋 Taken by ${taker}. Replies in the thread reach the person.`;
    case 'resolved':
      return taker ? `✅ Resolved. ${taker} had it.` : '✅ Resolved before anyone took it.';
    case 'missed':
      return '⏰ Missed: nobody took it in time.';
  }
}

/** What the thread is told when a handoff closes. */
export function closedText(handoff: HandoffState): string {
  const taker = handoff.taken_by && escapedClip(handoff.taken_by, MAX_FIELD_CHARS);
  if (handoff.status === 'missed') {
    return '⏰ Missed: nobody took this in time. The person was told nobody is available, and the chatbot answers again.';
  }
  return `✅ Resolved${taker ? ` (${taker} had it)` : ''}: the conversation is back with the chatbot. Replies here no longer reach the person.`;
}

/** The person's message as thread messages (more than one when it is longer than a message holds). */
export const personMessages = (text: string): string[] => splitMessage(`*${PERSON_LABEL}:* ${escapeText(text)}`);

/**
 * What the team tells a person who talks to the chatbot in Slack, as messages of their thread: a
 * team member's reply after their name, the hand-back or the offline message as the hub wrote it.
 * Escaped, and posted without markup (`mrkdwn: false`), so it reads as typed and mentions no one.
 */
export const toPerson = ({ text = '', author }: Pick<HandoffNotice, 'text' | 'author'>): string[] =>
  splitMessage(escapeText(author ? `${author.name}: ${text}` : text));

/** Redraws the root message for a new state: its content as it is, the state line and buttons anew. */
export async function showState(client: webApi.WebClient, root: PostedRoot, handoff: HandoffState): Promise<void> {
  const current = root.blocks && root.text !== undefined ? { text: root.text, blocks: root.blocks } : await readRoot(client, root);
  const content = current.blocks.filter((block) => !isRedrawn(block));
  await client.chat.update({
    channel: root.channel,
    ts: root.ts,
    text: current.text,
    blocks: [...content, ...stateBlocks(handoff)],
  });
}

/** showState, a failure counted and logged: the thread says what happened, stale buttons only answer that it is closed. */
export async function redraw(client: webApi.WebClient, root: PostedRoot, state: HandoffState, logger: Logger): Promise<void> {
  await showState(client, root, state).catch((error: unknown) => {
    countSlackError(error);
    logger.warn({ err: error, channel: root.channel, ts: root.ts }, 'could not update the root message of a Slack handoff');
  });
}

/** Whether a thread's root is a handoff request (its current handoff or an earlier one). */
export async function isHandoffRequest(client: webApi.WebClient, channel: string, ts: string): Promise<boolean> {
  return (await readRoot(client, { channel, ts })).blocks.some(isRedrawn);
}

async function readRoot(client: webApi.WebClient, { channel, ts }: PostedRoot): Promise<RootMessage> {
  const { messages } = await client.conversations.replies({ channel, ts, limit: 1 });
  const root = messages?.find((message) => message.ts === ts);
  if (!root) throw new Error(`the handoff's root message ${ts} is gone`);
  return { text: root.text ?? '', blocks: (root.blocks ?? []) as types.KnownBlock[] };
}

const isRedrawn = (block: { block_id?: string }) =>
  block.block_id?.startsWith(`${STATUS_BLOCK}.`) === true || block.block_id?.startsWith(`${ACTIONS_BLOCK}.`) === true;

/** At most `max` characters (UTF-16 units, as Slack counts), whole code points, an ellipsis marking a cut. */
const clip = (text: string, max: number) => fit(text, max, (point) => point);

/** Text escaped for mrkdwn in at most `max` characters (escapes count), never cutting an entity. */
const escapedClip = (text: string, max: number) => fit(text, max, escapeText);

function fit(text: string, max: number, render: (point: string) => string): string {
  const whole = render(text);
  if (whole.length <= max) return whole;
  let kept = '';
  for (const point of text) {
    const next = render(point);
    if (kept.length + next.length > max - 1) break;
    kept += next;
  }
  return `${kept}…`;
}
