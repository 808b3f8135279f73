import type { KnownBlock } from '@slack/types';
import type { APIEmbed } from 'discord-api-types/v10';
import { DateTime } from 'luxon';
import type { Lead, UnansweredGroup } from '../../src/store/port.js';
import { clip } from '../../adapters/clip.js';
import { escapeText } from '../../adapters/slack/text.js';
import { CSV_BOM, csvFile, csvLine } from '../../src/csv.js';

// The lead digest's message, for each platform, from the leads of one window (pure). Lead fields
// are typed by strangers (website visitors), so they are escaped for each platform's markup and
// can never mention anyone.

/** How many leads the message itself shows, newest first; the CSV holds all of them. */
export const SHOWN_LEADS = 10;

/** The CSV stops before this size (Discord's attachment limit for bots is 10 MiB). */
export const MAX_CSV_BYTES = 8 * 1024 * 1024;

const EMBED_COLOR = 0x0a7c59;
/** Per-value clamp: keeps ten leads well inside Slack's and Discord's size limits (Discord: 6000 per embed). */
const MAX_FIELD = 200;

export type DigestInput = {
  chatbotName: string;
  /** The subscription's IANA timezone: times are shown in it. */
  timezone: string;
  /** The local date of the run, `YYYY-MM-DD`: names the CSV file. */
  localDate: string;
  /** The window the leads were created in (from exclusive-ish, to inclusive). */
  from: Date;
  to: Date;
  /** Every lead of the window, newest first. */
  leads: Lead[];
  /** The open groups of unanswered questions asked in the window: how many, and the most asked. */
  unanswered: { count: number; top: Pick<UnansweredGroup, 'question' | 'count'>[] };
};

export type DigestCsv = {
  filename: string;
  content: string;
  /** Leads in the file: fewer than the count only when the file hit MAX_CSV_BYTES. */
  rows: number;
};

export type DigestMessage = {
  count: number;
  slack: { text: string; blocks: KnownBlock[] };
  discord: { content: string; embeds: APIEmbed[] };
  /** Attached when there are more leads than the message shows. */
  csv: DigestCsv | undefined;
};

const clamp = (text: string, max = MAX_FIELD) => clip(text, max);


/** Discord markdown: escaped so a visitor's text renders as typed (no masked links, no headings or lists). */
const discordEscape = (text: string) => text.replace(/[\\*_~`|<>#[\]]/g, '\\$&').replace(/^-/gm, '\\-');

const local = (instant: Date, timezone: string, format: string) =>
  DateTime.fromJSDate(instant, { zone: timezone }).setLocale('en-GB').toFormat(format);

const leadTime = (lead: Lead, timezone: string) => local(lead.createdAt, timezone, 'd LLL HH:mm');

const leadsWord = (count: number) => `${count} new lead${count === 1 ? '' : 's'}`;

/** How many of the most asked unanswered questions the digest names. */
export const SHOWN_UNANSWERED = 3;

const unansweredLine = (count: number) => `${count} question${count === 1 ? '' : 's'} went unanswered`;
const timesAsked = (count: number) => (count === 1 ? 'asked once' : `asked ${count} times`);

/** `9 Mar 09:00 – 10 Mar 09:00 (Europe/Oslo)` */
const period = (input: DigestInput) =>
  `${local(input.from, input.timezone, 'd LLL HH:mm')} – ${local(input.to, input.timezone, 'd LLL HH:mm')} (${input.timezone})`;

export function composeDigest(input: DigestInput): DigestMessage {
  const count = input.leads.length;
  const shown = input.leads.slice(0, SHOWN_LEADS);
  const csv = count > shown.length ? leadsCsv(input.leads, `leads-${input.localDate}.csv`) : undefined;
  const name = clamp(input.chatbotName, 80);
  const when = period(input);
  const summary = count === 0 ? 'No new leads' : leadsWord(count);

  const more =
    csv === undefined
      ? undefined
      : csv.rows === count
        ? `Showing the ${shown.length} newest of ${count}. All of them are in ${csv.filename}.`
        : `Showing the ${shown.length} newest of ${count}. ${csv.filename} holds the newest ${csv.rows} (the file size limit); GET /get-leads has the rest.`;

  const slackBlocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: clamp(`Lead digest: ${input.chatbotName}`, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: `*${summary}* · ${escapeText(when)}` } },
  ];
  if (shown.length > 0) slackBlocks.push({ type: 'divider' });
  for (const lead of shown) {
    slackBlocks.push({
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: `*Name*\n${escapeText(clamp(lead.name ?? '—'))}` },
        { type: 'mrkdwn', text: `*Email*\n${escapeText(clamp(lead.email ?? '—'))}` },
        { type: 'mrkdwn', text: `*Phone*\n${escapeText(clamp(lead.phone ?? '—'))}` },
        { type: 'mrkdwn', text: `*Time*\n${leadTime(lead, input.timezone)}` },
      ],
    });
  }
  if (more) slackBlocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeText(more) }] });
  const { unanswered } = input;
  const asked = unanswered.top.slice(0, SHOWN_UNANSWERED);
  if (unanswered.count > 0) {
    const list = asked.map((group) => `• ${escapeText(clamp(group.question))} (${timesAsked(group.count)})`);
    slackBlocks.push({ type: 'divider' }, { type: 'section', text: { type: 'mrkdwn', text: [`*${unansweredLine(unanswered.count)}*`, ...list].join('\n') } });
  }

  const embed: APIEmbed = {
    title: clamp(`Lead digest: ${input.chatbotName}`, 256),
    description: `**${summary}** · ${discordEscape(when)}`,
    color: EMBED_COLOR,
    timestamp: input.to.toISOString(),
    ...(shown.length > 0
      ? {
          fields: shown.map((lead) => ({
            name: lead.name ? clamp(discordEscape(lead.name), 100) : 'No name',
            value: [lead.email, lead.phone]
              .filter((value): value is string => Boolean(value))
              .map((value) => clamp(discordEscape(value), 150))
              .concat(leadTime(lead, input.timezone))
              .join('\n'),
          })),
        }
      : {}),
    ...(more ? { footer: { text: more } } : {}),
  };
  if (unanswered.count > 0) {
    embed.fields = [
      ...(embed.fields ?? []),
      {
        name: unansweredLine(unanswered.count),
        value: asked.map((group) => `• ${clamp(discordEscape(group.question), 150)} (${timesAsked(group.count)})`).join('\n'),
      },
    ];
  }

  return {
    count,
    slack: { text: escapeText(`Lead digest for ${name}: ${summary.toLowerCase()}, ${when}`), blocks: slackBlocks },
    discord: { content: `Lead digest for ${discordEscape(name)}: ${summary.toLowerCase()}`, embeds: [embed] },
    csv,
  };
}

const CSV_HEADER = ['id', 'name', 'email', 'phone', 'created_at', 'conversation_id'];

/** Every lead, newest first, up to MAX_CSV_BYTES. */
export function leadsCsv(leads: Lead[], filename: string): DigestCsv {
  const lines = [CSV_HEADER.join(',')];
  let bytes = Buffer.byteLength(CSV_BOM) + Buffer.byteLength(lines[0] as string) + 2;
  for (const lead of leads) {
    const line = csvLine([lead.id, lead.name, lead.email, lead.phone, lead.createdAt.toISOString(), lead.conversationId]);
    bytes += Buffer.byteLength(line) + 2;
    if (bytes > MAX_CSV_BYTES) break;
    lines.push(line);
  }
  return { filename, content: csvFile(lines), rows: lines.length - 1 };
}
