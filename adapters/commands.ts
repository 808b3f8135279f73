import { csvFile, csvLine } from '../src/csv.js';
import { holdsCredentials, MAX_WEBSITE_URL_CHARS, webAddress } from '../src/domain/website-url.js';
import { clip } from './clip.js';
import {
  HubApiError,
  isOpenHandoff,
  type Binding,
  type ChatbotItem,
  type HubClient,
  type Lead,
  type Platform,
  type SourceItem,
  type UnansweredQuestion,
} from './hub-client.js';
import { crawlPagesText } from './crawl-pages.js';
import { learnStartedText, type Learning } from './learn-watch.js';
import type { PlatformWords } from './platform-words.js';
import { notBoundText } from './relay.js';

// The `/chatbot` command, platform-neutral: what each subcommand does, its wording, the parsing
// of `set` fields and values, the leads summary and CSV, and who may do what. A platform adapter
// turns its command payload into a CommandInput, says who is asking and where, and shows the
// CommandReply (privately to the person who asked).

export type CommandName = 'help' | 'list' | 'use' | 'settings' | 'set' | 'leads' | 'digest' | 'unanswered' | 'learn' | 'sources' | 'resolve';

/** `args` as typed: `set` takes [field, value] (the value may hold spaces). */
export type CommandInput = { name: string; args: string[] };

export type CommandContext = {
  hub: HubClient;
  platform: Platform;
  /** Slack team or Discord guild (Discord DMs use DM_WORKSPACE). */
  workspaceId: string;
  /** Where the command was typed: the channel `use` binds and `digest` posts to (a thread's parent). */
  channelId: string;
  /** The thread it was typed in, on platforms with commands in threads (Discord). */
  threadId?: string;
  /** May change bindings, settings and digests and read leads. */
  isAdmin: boolean;
  /** How the platform names things in replies. */
  words: PlatformWords;
  /** Watches a website `learn` started, to say in the channel when it is done; answers whether it will. */
  watchLearning?: (learning: Learning) => boolean;
  /** What the platform can tell of the channel, for `use` and `digest on`: see ChannelCheck. */
  checkChannel?: (need: ChannelNeed) => Promise<ChannelCheck>;
  /** Shows what strangers typed (lead details, questions) as typed in the platform's markup; as it is unless given. */
  asTyped?: (text: string) => string;
};

/** What a command needs of the bot in its channel: to see and answer messages (`use`), or to post a digest. */
export type ChannelNeed = 'answer' | 'digest';

/**
 * Why the bot cannot do what the command needs in the channel (it is not in it, or cannot be):
 * the command refuses, changing nothing. Or it can, as far as the platform tells: whether everyone
 * in the workspace reads the channel (`digest on` warns), and why it could not check, if it could
 * not, with what to do (the command goes ahead, and the asker is told).
 */
export type ChannelCheck = { refusal: string } | { everyoneSees: boolean; doubt?: string };

export type CommandReply = {
  text: string;
  /** A file to attach (the lead list as CSV when it is long). */
  attachment?: { filename: string; contentType: string; content: string };
  /** Questions to offer an "Answer" button for (`unanswered`), in the order listed. */
  questions?: QuestionToAnswer[];
};

/** What an "Answer" button carries, and the question its modal shows. */
export type QuestionToAnswer = { chatbotId: string; groupId: string; question: string };

/** Open unanswered questions `unanswered` lists (each with its button). */
export const LISTED_QUESTIONS = 5;

/** Leads listed in the reply itself; longer lists come as a CSV attachment. */
const INLINE_LEADS = 10;
/** Most leads one `leads` command fetches (pages of 100). */
const MAX_LEADS = 10_000;
const LEADS_PAGE_SIZE = 100;

const DEFAULT_DIGEST_TIME = '09:00';
const DEFAULT_DIGEST_TIMEZONE = 'UTC';

/**
 * Who may run each subcommand: all but `help` and `resolve` (a handoff thread's, for the team in it)
 * are for admins. Members of a community workspace are customers: not for them the account's other
 * chatbots (`list`), a chatbot's instructions (`settings`), changes, or personal data (leads).
 */
const ADMIN_ONLY: ReadonlySet<string> = new Set<CommandName>(['list', 'use', 'settings', 'set', 'leads', 'digest', 'unanswered', 'learn', 'sources']);

/** Whether a subcommand is for admins only: the platform need look up the user only then. */
export const needsAdmin = (name: string): boolean => ADMIN_ONLY.has(name.toLowerCase());

const COMMAND_NAMES: readonly CommandName[] = ['help', 'list', 'use', 'settings', 'set', 'leads', 'digest', 'unanswered', 'learn', 'sources', 'resolve'];

/** One line per subcommand: usage and what it does (help text and command registration). */
const COMMAND_HELP: Record<CommandName, { usage: string; description: string }> = {
  help: { usage: 'help', description: 'Show what the chatbot command can do' },
  list: { usage: 'list', description: 'List the chatbots of this hub' },
  use: {
    usage: 'use <chatbotId> [mentions|all] [channel|default]',
    description: 'Answer with a chatbot here: on mentions (default) or every message; `default` sets it for the whole {workspace}',
  },
  settings: { usage: 'settings', description: "Show the settings of this channel's chatbot" },
  set: { usage: 'set <field> <value>', description: "Change a setting of this channel's chatbot" },
  leads: { usage: 'leads [startDate] [endDate]', description: 'Leads the chatbot collected (dates as YYYY-MM-DD)' },
  digest: {
    usage: 'digest on|off [HH:MM] [timezone]',
    description: 'Post a daily lead digest in this channel (default 09:00 UTC)',
  },
  unanswered: { usage: 'unanswered', description: "The questions this channel's chatbot could not answer, to answer them" },
  learn: { usage: 'learn <url>', description: "Teach this channel's chatbot a website (read in the background)" },
  sources: { usage: 'sources', description: "What this channel's chatbot knows, with each source's status" },
  resolve: { usage: 'resolve', description: 'Inside a handoff thread: hand the conversation back to the chatbot' },
};

export const COMMAND_FAILED = "Sorry, I can't reach the chatbot hub right now. Please try again in a moment.";
const QUOTA_EXCEEDED = 'Sorry, the hub refused: access denied or the message quota is used up.';
/** A new source's 403: the chatbot's sources hold the characters SOURCES_MAX_CHARS_PER_CHATBOT allows. */
export const CHATBOT_FULL =
  "The chatbot's sources already hold as many characters as the hub allows a chatbot, so nothing was added. Remove a source it no longer needs (or have the hub's limit raised) and try again.";
/** A new source (a website, an answer's Q&A) is refused with 403 only when the chatbot is full. */
const isChatbotFull = (error: unknown) => error instanceof HubApiError && error.status === 403;

export const refusal = (words: PlatformWords, name: CommandName) =>
  `Sorry, only ${words.admins} can use \`${words.command} ${name}\`.`;

const unknownCommand = (words: PlatformWords, name: string) =>
  `I don't know \`${name}\`. Try \`${words.command} help\`.`;

/** Splits `/chatbot …` text as typed (Slack): the subcommand, then its words; `set` keeps its value whole. */
export function parseCommandText(text: string): CommandInput {
  const trimmed = text.trim();
  const [first = 'help', ...rest] = trimmed.split(/\s+/).filter(Boolean);
  const name = first.toLowerCase();
  if (name === 'set') {
    const afterName = trimmed.slice(first.length).trimStart();
    const field = afterName.split(/\s+/, 1)[0] ?? '';
    const value = afterName.slice(field.length).trim();
    return { name, args: field ? [field, value] : [] };
  }
  return { name, args: rest };
}

const isCommandName = (name: string): name is CommandName => (COMMAND_NAMES as readonly string[]).includes(name);

/** Runs one subcommand and answers what to show; never throws. */
export async function runCommand(input: CommandInput, context: CommandContext): Promise<CommandReply> {
  const name = input.name.toLowerCase();
  if (!isCommandName(name)) return { text: unknownCommand(context.words, input.name) };
  if (ADMIN_ONLY.has(name) && !context.isAdmin) return { text: refusal(context.words, name) };
  try {
    return await handlers[name](input.args.map((arg) => arg.trim()), context);
  } catch (error) {
    return { text: failureText(error) };
  }
}

function failureText(error: unknown): string {
  if (error instanceof HubApiError) {
    if (error.status === 403) return QUOTA_EXCEEDED;
    if (error.status === 400) return `The hub refused that: ${error.hubMessage}.`;
    if (error.status === 404) return 'The hub no longer knows that chatbot. Try `list`.';
  }
  return COMMAND_FAILED;
}

type Handler = (args: string[], context: CommandContext) => Promise<CommandReply>;

const handlers: Record<CommandName, Handler> = {
  async help(_args, { words }) {
    const lines = COMMAND_NAMES.filter((name) => name !== 'resolve' || words.threadCommands).map((name) => {
      const { usage, description } = COMMAND_HELP[name];
      return `\`${words.command} ${usage}\` — ${description.replace('{workspace}', words.workspace)}`;
    });
    return {
      text: [
        'I answer messages with a chatbot of this hub: mention me, message me directly, or bind a channel to answer every message.',
        ...lines,
        `All but \`${words.command} help\`${words.threadCommands ? ` and \`${words.command} resolve\`` : ''} are for ${words.admins}.`,
      ].join('\n'),
    };
  },

  async list(_args, context) {
    const [chatbots, binding] = await Promise.all([context.hub.listChatbots(), bindingHere(context)]);
    if (chatbots.length === 0) return { text: 'This hub has no chatbots yet.' };
    // The one answering here first, and the list stops within one Discord message.
    const ordered = [...chatbots.filter((chatbot) => chatbot.id === binding?.chatbotId), ...chatbots.filter((chatbot) => chatbot.id !== binding?.chatbotId)];
    const lines = [`Chatbots (${chatbots.length}):`];
    let length = lines[0]?.length ?? 0;
    for (const [index, chatbot] of ordered.entries()) {
      const here = binding?.chatbotId === chatbot.id ? ` ← ${whereText(binding, context.words)}` : '';
      const line = `• ${clip(chatbot.name, CHATBOT_NAME_CHARS)} \`${chatbot.id}\` (${chatbot.model}, ${chatbot.visibility})${here}`;
      const more = moreChatbots(ordered.length - index - 1);
      if (length + line.length + 1 + (more ? more.length + 1 : 0) > REPLY_CHARS) {
        lines.push(moreChatbots(ordered.length - index));
        break;
      }
      lines.push(line);
      length += line.length + 1;
    }
    return { text: lines.join('\n') };
  },

  async use(args, context) {
    const [chatbotId, ...options] = args;
    if (!chatbotId) return { text: usage(context.words, 'use') };
    let mode: Binding['mode'] = 'mentions';
    let wholeWorkspace = false;
    for (const option of options.map((value) => value.toLowerCase())) {
      if (option === 'mentions' || option === 'all') mode = option;
      else if (option === 'default' || option === 'server' || option === 'workspace') wholeWorkspace = true;
      else if (option !== 'channel' && option !== '') return { text: usage(context.words, 'use') };
    }
    const chatbot = (await context.hub.listChatbots()).find((item) => item.id === chatbotId);
    if (!chatbot) return { text: `No chatbot has the id \`${chatbotId}\`. Try \`${context.words.command} list\`.` };
    // A channel the bot is not in never brings it a message: bound there, the chatbot would answer none.
    const check = wholeWorkspace ? undefined : await context.checkChannel?.('answer');
    if (check && 'refusal' in check) return { text: check.refusal };
    const binding = await context.hub.bind({
      platform: context.platform,
      workspaceId: context.workspaceId,
      channelId: wholeWorkspace ? '*' : context.channelId,
      chatbotId,
      mode,
    });
    const how = mode === 'all' ? 'every message' : 'mentions and direct messages';
    return { text: [`${chatbot.name} now answers ${how} ${whereText(binding, context.words)}.`, check?.doubt].filter(Boolean).join(' ') };
  },

  async settings(_args, context) {
    const found = await boundChatbot(context);
    if ('reply' in found) return found.reply;
    const { chatbot, binding } = found;
    return {
      text: [
        `${chatbot.name} \`${chatbot.id}\` answers ${binding.mode === 'all' ? 'every message' : 'mentions'} ` +
          `${whereText(binding, context.words)}.`,
        `status: ${chatbot.status}`,
        `model: ${chatbot.model}`,
        `visibility: ${chatbot.visibility}`,
        `instructions: ${clip(chatbot.instructions, 500)}`,
        `Change one with \`${context.words.command} set <field> <value>\`; fields: ${SETTING_FIELDS.join(', ')}.`,
      ].join('\n'),
    };
  },

  async set(args, context) {
    const [field = '', value = ''] = args;
    if (!field) return { text: usage(context.words, 'set') };
    const parsed = parseSetting(field, value);
    if (!parsed.ok) return { text: parsed.message };
    const found = await boundChatbot(context);
    if ('reply' in found) return found.reply;
    await context.hub.updateSettings(found.chatbot.id, { [parsed.field]: parsed.value });
    // The lists (initialMessages, suggestedMessages, domains) are plural: "are now".
    const verb = Array.isArray(parsed.value) ? 'are' : 'is';
    return { text: `Saved: the ${parsed.field} of ${found.chatbot.name} ${verb} now ${describeValue(parsed.value)}.` };
  },

  async leads(args, context) {
    const [startDate, endDate] = args.map(orUndefined);
    for (const date of [startDate, endDate]) {
      if (date !== undefined && !isCalendarDay(date)) return { text: `\`${date}\` is not a date; write it as YYYY-MM-DD.` };
    }
    if (startDate && endDate && startDate > endDate) return { text: 'The start date is after the end date.' };
    const found = await boundChatbot(context);
    if ('reply' in found) return found.reply;
    const leads = await fetchLeads(context.hub, found.chatbot.id, startDate, endDate);
    return leadsReply(found.chatbot, leads, context.asTyped ?? asIs, startDate, endDate);
  },

  async digest(args, context) {
    const [switchTo = '', ...when] = args.map(orUndefined);
    const { time, timezone } = digestWhen(when[0], when[1]);
    const onOff = switchTo.toLowerCase();
    if (onOff !== 'on' && onOff !== 'off') return { text: usage(context.words, 'digest') };
    const here = { platform: context.platform, workspaceId: context.workspaceId, channelId: context.channelId };
    if (onOff === 'off') return digestsOff(context, here);
    const found = await boundChatbot(context);
    if ('reply' in found) return found.reply;
    const { chatbot } = found;
    const hhmm = normaliseTime(time);
    if (!hhmm) return { text: `\`${time}\` is not a time; write it as HH:MM (24-hour), e.g. 09:00.` };
    if (!isTimeZone(timezone)) return { text: `\`${timezone}\` is not a time zone; use an IANA name such as Europe/Oslo.` };
    const check = await context.checkChannel?.('digest');
    if (check && 'refusal' in check) return { text: check.refusal };
    // Posting again replaces postWhenEmpty too: an owner's choice (the API's, the console's) is kept.
    const [existing] = await context.hub.listDigests({ chatbotId: chatbot.id, ...here });
    await context.hub.subscribeDigest({ chatbotId: chatbot.id, ...here, time: hhmm, timezone, postWhenEmpty: existing?.postWhenEmpty ?? false });
    const notes = [check?.everyoneSees && everyoneSeesDigest(context.words), check?.doubt].filter(Boolean);
    return { text: [`Every day at ${hhmm} (${timezone}) I'll post the new leads of ${chatbot.name} here.`, ...notes].join(' ') };
  },

  async learn(args, context) {
    const [url] = args;
    if (!url) return { text: usage(context.words, 'learn') };
    if (!webAddress.safeParse(url).success) return { text: `\`${url}\` is not a web address; give one that starts with https:// (or http://).` };
    if (holdsCredentials(url)) return { text: LEARN_CREDENTIALS };
    if (url.length > MAX_WEBSITE_URL_CHARS) return { text: LEARN_TOO_LONG };
    const found = await boundChatbot(context);
    if ('reply' in found) return found.reply;
    let added: { source: SourceItem; known: boolean };
    try {
      added = await context.hub.addWebsiteSource(found.chatbot.id, url);
    } catch (error) {
      if (isChatbotFull(error)) return { text: CHATBOT_FULL };
      if (isPrivateSite(error)) return { text: LEARN_PRIVATE };
      throw error;
    }
    const { source, known } = added;
    const learning = { chatbotId: found.chatbot.id, chatbotName: found.chatbot.name, sourceId: source.id, url: source.url ?? url };
    return { text: learnStartedText(learning, context.watchLearning?.(learning) ?? false, context.words, known) };
  },

  async sources(_args, context) {
    const found = await boundChatbot(context);
    if ('reply' in found) return found.reply;
    const sources = await context.hub.listSources(found.chatbot.id);
    if (sources.length === 0) return { text: `${found.chatbot.name} has no knowledge sources yet.` };
    // Questions and answers pile up as the team answers what the chatbot could not: the files,
    // websites and texts come first, and the list stops within one Discord message.
    const ordered = [...sources.filter((source) => source.type !== 'qa'), ...sources.filter((source) => source.type === 'qa')];
    const listed = ordered.slice(0, MAX_SOURCES_LISTED);
    const rest = ordered.length - listed.length;
    const heading = `What ${found.chatbot.name} knows (${sources.length}):`;
    const more = rest > 0 ? [`…and ${rest} more, which the console's Sources page lists.`] : [];
    // Each line gets an equal share of what the heading and the last line leave of one message.
    const shared = REPLY_CHARS - heading.length - more.join('').length - (listed.length + more.length);
    const share = Math.floor(shared / listed.length);
    return { text: [heading, ...listed.map((source) => sourceLine(source, share)), ...more].join('\n') };
  },

  async resolve(_args, { hub, platform, channelId, threadId, words }) {
    if (!words.threadCommands) return { text: RESOLVE_WITH_BUTTON };
    if (!threadId) return { text: handoffThreadOnly(words) };
    const found = await hub.findHandoffByThread({ platform, channelId, threadId });
    if (!found) return { text: handoffThreadOnly(words) };
    if (!isOpenHandoff(found.handoff)) return { text: `This handoff is already ${found.handoff.status}.` };
    try {
      await hub.resolveHandoff(found.chatbotId, found.conversationId);
    } catch (error) {
      // Closed meanwhile (a timeout, a click).
      if (error instanceof HubApiError && error.status === 404) return { text: 'This handoff is already closed.' };
      throw error;
    }
    return { text: HANDOFF_RESOLVED };
  },

  async unanswered(_args, context) {
    const found = await boundChatbot(context);
    if ('reply' in found) return found.reply;
    const { chatbot } = found;
    const open = await context.hub.listOpenQuestions(chatbot.id, LISTED_QUESTIONS);
    if (open.length === 0) return { text: `${chatbot.name} has no unanswered questions.` };
    return {
      text: [`Questions ${chatbot.name} could not answer, most asked first:`, ...open.map((group, index) => questionLine(group, index, context.asTyped ?? asIs))].join('\n'),
      questions: open.map((group) => ({ chatbotId: chatbot.id, groupId: group.id, question: group.question })),
    };
  },
};

/**
 * `digest off` stops every digest posted in the channel, whichever chatbot's: one taken before the
 * channel was bound to another chatbot (or unbound) posts there still, and only this can stop it here.
 */
async function digestsOff(context: CommandContext, here: Pick<Binding, 'platform' | 'workspaceId' | 'channelId'>): Promise<CommandReply> {
  const digests = await context.hub.listDigests(here);
  if (digests.length === 0) return { text: 'No lead digest was on for this channel.' };
  for (const digest of digests) await context.hub.unsubscribeDigest(digest.id);
  const chatbots = await context.hub.listChatbots();
  const names = digests.map((digest) => chatbots.find((chatbot) => chatbot.id === digest.chatbotId)?.name ?? `\`${digest.chatbotId}\``);
  const which = names.length === 1 ? `The daily lead digest of ${names[0]} is` : `The daily lead digests of ${names.slice(0, -1).join(', ')} and ${names.at(-1)} are`;
  return { text: `${which} off for this channel.` };
}

/** Sources `/chatbot sources` lists, each title cut to SOURCE_TITLE_CHARS at most. */
const MAX_SOURCES_LISTED = 15;
const SOURCE_TITLE_CHARS = 80;
/** The `list`, `sources` and `leads` replies fit one Discord message (2,000 characters; a Slack section holds 3,000). */
const REPLY_CHARS = 2_000;
/** A chatbot's name in `list` (names may have 200 characters). */
const CHATBOT_NAME_CHARS = 80;
const moreChatbots = (count: number) => (count > 0 ? `…and ${count} more, which the console's Chatbots page lists.` : '');

/**
 * One source in at most `room` characters: its title, its state, and why it failed. Title and
 * error share what the state leaves, the title at least half of it unless the error needs less.
 */
function sourceLine(source: SourceItem, room: number): string {
  const progress = source.pages ? `, ${crawlPagesText(source)}` : '';
  const state = ` (${source.type}, ${source.status}${progress})`;
  const error = source.status === 'failed' ? source.error : null;
  const left = room - state.length - (error ? 3 : 2);
  const titleRoom = Math.min(SOURCE_TITLE_CHARS, error ? Math.max(Math.ceil(left / 2), left - error.length) : left);
  const line = `• ${clip(source.title, titleRoom)}${state}`;
  return error ? `${line} ${clip(error, room - line.length - 1)}` : line;
}

/** One line per question, however many lines it was asked in: Slack shows each line beside its question's button. */
const questionLine = (group: UnansweredQuestion, index: number, asTyped: (text: string) => string) =>
  `${index + 1}. ${asTyped(clip(group.question.replace(/\s+/g, ' '), 200))} (asked ${group.count === 1 ? 'once' : `${group.count} times`})`;

// ---- handing a conversation back ----------------------------------------------------------------

export const HANDOFF_RESOLVED = 'Resolved: the conversation is back with the chatbot.';
/** Where commands cannot be typed in threads (Slack), a handoff is handed back with its request's button. */
export const RESOLVE_WITH_BUTTON = 'To hand a conversation back to the chatbot, use the Resolve button on its handoff request.';
export const handoffThreadOnly = (words: PlatformWords) =>
  `\`${words.command} resolve\` works inside a handoff thread: it hands that conversation back to the chatbot.`;

// ---- answering a question from its modal -------------------------------------------------------

export const ANSWER_SAVED = 'Thanks! The chatbot will answer that question with your answer from now on.';
export const ANSWER_FAILED = "Sorry, your answer couldn't be saved. Please try again in a moment.";
export const QUESTION_GONE = 'That question is no longer there to answer.';

/** `{chatbotId}:{groupId}`: what a button and its modal carry. Group ids hold no `:`. */
export const questionToken = (question: Pick<QuestionToAnswer, 'chatbotId' | 'groupId'>) => `${question.chatbotId}:${question.groupId}`;

export function parseQuestionToken(token: string): Pick<QuestionToAnswer, 'chatbotId' | 'groupId'> | undefined {
  const match = /^(.+):([^:]+)$/.exec(token);
  return match ? { chatbotId: match[1] ?? '', groupId: match[2] ?? '' } : undefined;
}

/** Resolves the group a modal was opened for with the text typed in it; answers what to tell the admin. */
export async function answerQuestion(hub: HubClient, token: string, answer: string, context: Pick<CommandContext, 'isAdmin' | 'words'>): Promise<string> {
  if (!context.isAdmin) return refusal(context.words, 'unanswered');
  const target = parseQuestionToken(token);
  if (!target || !answer.trim()) return QUESTION_GONE;
  try {
    await hub.resolveQuestion(target.chatbotId, target.groupId, answer.trim());
    return ANSWER_SAVED;
  } catch (error) {
    if (error instanceof HubApiError && error.status === 404) return QUESTION_GONE;
    if (isChatbotFull(error)) return CHATBOT_FULL;
    return ANSWER_FAILED;
  }
}

const asIs = (text: string) => text;

/** An argument left empty counts as not given (platforms with named options pass blanks). */
const orUndefined = (arg: string) => arg || undefined;

/** The hub refuses a website with a user name or password in its address, as answers cite its pages' addresses. */
export const LEARN_CREDENTIALS =
  'That address holds a user name or password, which answers would show when they cite its pages; give the address without them (the site must be readable without signing in).';
export const LEARN_TOO_LONG = `That address is longer than the ${MAX_WEBSITE_URL_CHARS.toLocaleString('en')} characters the hub takes; give the address of the site's start page.`;
/**
 * The hub's 400 to a website that passed the checks above, which are its own schema's
 * (../src/domain/website-url.ts): its address is on the hub's own network (loopback, private,
 * link-local, a metadata service), which the hub does not crawl.
 */
export const LEARN_PRIVATE =
  'That address is on a private or local network (or names one), which the hub does not read unless its operator allows it; give the address of a public website.';
const isPrivateSite = (error: unknown) => error instanceof HubApiError && error.status === 400;

const usage = (words: PlatformWords, name: CommandName) => `Usage: \`${words.command} ${COMMAND_HELP[name].usage}\``;

/** "in this channel", or "across this server (its default)" for a workspace default binding. */
function whereText(binding: Pick<Binding, 'channelId'>, words: PlatformWords): string {
  return binding.channelId === '*' ? `across this ${words.workspace} (its default)` : 'in this channel';
}

const bindingHere = ({ hub, platform, workspaceId, channelId }: CommandContext) =>
  hub.findBinding({ platform, workspaceId, channelId });

/** The chatbot bound here (or the workspace default), or the reply saying there is none. */
async function boundChatbot(
  context: CommandContext,
): Promise<{ chatbot: ChatbotItem; binding: Binding } | { reply: CommandReply }> {
  const binding = await bindingHere(context);
  if (!binding) return { reply: { text: notBoundText(context.words.command) } };
  const chatbot = (await context.hub.listChatbots()).find((item) => item.id === binding.chatbotId);
  if (!chatbot) return { reply: { text: notBoundText(context.words.command) } };
  return { chatbot, binding };
}

// ---- `set`: fields and values ----------------------------------------------------------------

type SettingKind = 'text' | 'number' | 'count' | 'boolean' | 'list' | 'visibility';

const SETTING_KINDS: Record<string, SettingKind> = {
  name: 'text',
  instructions: 'text',
  model: 'text',
  visibility: 'visibility',
  temp: 'number',
  initialMessages: 'list',
  suggestedMessages: 'list',
  domains: 'list',
  onlyAllowOnAddedDomains: 'boolean',
  ipLimit: 'count',
  ipLimitTimeframe: 'count',
  ipLimitMessage: 'text',
};

export const SETTING_FIELDS: readonly string[] = Object.keys(SETTING_KINDS);

export type ParsedSetting =
  | { ok: true; field: string; value: string | number | boolean | string[] }
  | { ok: false; message: string };

/** A `set` field (any letter case) and its typed value, or why it cannot be. */
export function parseSetting(fieldAsTyped: string, raw: string): ParsedSetting {
  const field = SETTING_FIELDS.find((name) => name.toLowerCase() === fieldAsTyped.toLowerCase());
  if (!field) return { ok: false, message: `\`${fieldAsTyped}\` is not a setting. Fields: ${SETTING_FIELDS.join(', ')}.` };
  const value = raw.trim();
  const kind = SETTING_KINDS[field];
  const fail = (expected: string): ParsedSetting => ({ ok: false, message: `${field} takes ${expected}.` });
  switch (kind) {
    case 'text':
      return value ? { ok: true, field, value } : fail('some text');
    case 'visibility':
      return value === 'public' || value === 'private' ? { ok: true, field, value } : fail('`public` or `private`');
    case 'number': {
      const number = Number(value);
      return value !== '' && Number.isFinite(number) && number >= 0 && number <= 1
        ? { ok: true, field, value: number }
        : fail('a number from 0 to 1');
    }
    case 'count':
      return /^\d{1,10}$/.test(value) ? { ok: true, field, value: Number(value) } : fail('a whole number, 0 or more');
    case 'boolean': {
      const lowered = value.toLowerCase();
      if (['true', 'on', 'yes'].includes(lowered)) return { ok: true, field, value: true };
      if (['false', 'off', 'no'].includes(lowered)) return { ok: true, field, value: false };
      return fail('`on` or `off`');
    }
    case 'list': {
      // Domains are words; messages are sentences, so they are separated by `|`.
      const separator = field === 'domains' ? /[\s,]+/ : /\s*\|\s*/;
      const items = value
        .split(separator)
        .map((item) => item.trim())
        .filter(Boolean);
      return { ok: true, field, value: items };
    }
    default:
      return fail('a value');
  }
}

function describeValue(value: string | number | boolean | string[]): string {
  if (Array.isArray(value)) return value.length ? value.map((item) => `“${clip(item, 100)}”`).join(', ') : 'empty';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return `“${clip(String(value), 200)}”`;
}

// ---- leads ----------------------------------------------------------------------------------

async function fetchLeads(hub: HubClient, chatbotId: string, startDate?: string, endDate?: string): Promise<Lead[]> {
  const leads: Lead[] = [];
  for (let page = 1; leads.length < MAX_LEADS; page += 1) {
    const batch = await hub.listLeads({ chatbotId, startDate, endDate, page, size: LEADS_PAGE_SIZE });
    leads.push(...batch);
    if (batch.length < LEADS_PAGE_SIZE) break;
  }
  return leads.slice(0, MAX_LEADS);
}

function period(startDate?: string, endDate?: string): string {
  if (startDate && endDate) return ` from ${startDate} to ${endDate}`;
  if (startDate) return ` since ${startDate}`;
  if (endDate) return ` until ${endDate}`;
  return '';
}

/** The leads summary: the leads themselves when few and they fit one message, else a count with the list as CSV. */
function leadsReply(
  chatbot: Pick<ChatbotItem, 'id' | 'name'>,
  leads: Lead[],
  asTyped: (text: string) => string,
  startDate?: string,
  endDate?: string,
): CommandReply {
  const when = period(startDate, endDate);
  if (leads.length === 0) return { text: `${chatbot.name} has no leads${when}.` };
  const count = leads.length === 1 ? '1 lead' : `${leads.length} leads`;
  const capped = leads.length >= MAX_LEADS ? ` (the first ${MAX_LEADS})` : '';
  const heading = `${chatbot.name} has ${count}${when}${capped}`;
  const inline = [`${heading}:`, ...leads.map((lead) => leadLine(lead, asTyped))].join('\n');
  // Long names and addresses would be cut off a Discord message: then the file has them whole.
  if (leads.length <= INLINE_LEADS && inline.length <= REPLY_CHARS) return { text: inline };
  return {
    text: `${heading}; the list is attached as CSV.`,
    attachment: {
      filename: `leads-${chatbot.id}${startDate ? `-from-${startDate}` : ''}${endDate ? `-to-${endDate}` : ''}.csv`,
      contentType: 'text/csv',
      content: leadsCsv(leads),
    },
  };
}

function leadLine(lead: Lead, asTyped: (text: string) => string): string {
  const parts = [lead.name ? asTyped(lead.name) : '(no name)', ...[lead.email, lead.phone].filter(Boolean).map(asTyped)];
  return `• ${parts.join(' · ')} — ${lead.created_at.slice(0, 10)}`;
}

const CSV_COLUMNS = ['id', 'name', 'email', 'phone', 'created_at'] as const;

/** RFC 4180 CSV with a header row (csvFile: cells a spreadsheet would run as formulas get a leading `'`). */
export function leadsCsv(leads: Lead[]): string {
  return csvFile([CSV_COLUMNS.join(','), ...leads.map((lead) => csvLine(CSV_COLUMNS.map((column) => lead[column])))]);
}

// ---- small checks ---------------------------------------------------------------------------

function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

export const everyoneSeesDigest = (words: PlatformWords) =>
  `Everyone in the ${words.workspace} can read this channel, and the digest shows the leads' names, emails and phones: a channel only your team sees is the place for it.`;

/** A digest's time and zone as given, defaults for what is not; a zone alone (`on Europe/Oslo`) keeps the default time. */
function digestWhen(time?: string, timezone?: string): { time: string; timezone: string } {
  if (time !== undefined && timezone === undefined && !normaliseTime(time) && isTimeZone(time)) {
    return { time: DEFAULT_DIGEST_TIME, timezone: time };
  }
  return { time: time ?? DEFAULT_DIGEST_TIME, timezone: timezone ?? DEFAULT_DIGEST_TIMEZONE };
}

/** `9:05` → `09:05`; anything not a 24-hour time → undefined. */
function normaliseTime(text: string): string | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return undefined;
  return `${String(hours).padStart(2, '0')}:${match[2]}`;
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
