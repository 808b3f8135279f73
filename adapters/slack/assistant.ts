import { Assistant } from '@slack/bolt';
import type { Logger } from 'pino';
import type { HubClient } from '../hub-client.js';
import { HUB_UNAVAILABLE } from '../relay.js';
import { toDelivery, type MessageHandler } from './messages.js';
import { countSlackError } from './metrics.js';
import { escapeText, plainText } from './text.js';

// The Agents & AI Apps surface (Bolt's Assistant): Slack opens an assistant thread in the user's
// DM with the app. A new thread is greeted with the chatbot's first greeting and offers its
// suggested questions as prompts. Questions in it are answered like any direct message (the
// workspace default binding, one conversation per thread, the same streamed reply), with the
// status "is thinking…" while the hub works, and the thread is titled after its first question.

export const THINKING_STATUS = 'is thinking…';

/** Said in an assistant thread when no chatbot answers direct messages in the workspace. */
export const noDefaultText = (command: string) =>
  `No chatbot answers here yet. An admin can choose one for the whole workspace with \`${command} use <chatbotId> default\`.`;

/** Slack shows at most four suggested prompts. */
const MAX_PROMPTS = 4;
/** Titles (the thread's, a prompt's) are labels: one line of at most this many characters. */
const LABEL_LIMIT = 60;
/** How long a thread stays titled: as long as the bot keeps its threads. */
const TITLED_SECONDS = 30 * 24 * 60 * 60;

export type AssistantDeps = {
  hub: () => HubClient | undefined;
  /** The direct-message path every question in an assistant thread takes. */
  handle: MessageHandler;
  logger: Logger;
  /** The slash command, named in the hint when no chatbot answers. */
  command: string;
};

export function createAssistant({ hub: currentHub, handle, logger, command }: AssistantDeps): Assistant {
  const notBound = noDefaultText(command);

  // Status, title and prompts are decoration: where Slack refuses them (a DM thread outside the
  // assistant view, an app without the feature) the conversation goes on. An app without the
  // feature is refused every time, so each kind of refusal is a warning once, then debug.
  const warned = new Set<string>();
  async function decorate(what: string, call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
    } catch (error) {
      countSlackError(error);
      const level = warned.has(what) ? 'debug' : 'warn';
      warned.add(what);
      logger[level]({ err: error }, `could not set the ${what} of a Slack assistant thread`);
    }
  }

  return new Assistant({
    async threadStarted({ event, body, context, say, setSuggestedPrompts }) {
      const hub = currentHub();
      if (!hub || context.retryNum) return;
      const { channel_id: channelId, thread_ts: threadTs } = event.assistant_thread;
      let chatbot: Awaited<ReturnType<HubClient['chatbotPrompts']>>;
      try {
        const binding = await hub.findBinding({ platform: 'slack', workspaceId: body.team_id ?? context.teamId ?? '', channelId });
        if (!binding) {
          await say(escapeText(notBound));
          return;
        }
        chatbot = await hub.chatbotPrompts(binding.chatbotId);
      } catch (error) {
        logger.error({ err: error, channelId, threadTs }, 'could not greet in a Slack assistant thread');
        await say(escapeText(HUB_UNAVAILABLE));
        return;
      }
      const [greeting] = chatbot.initialMessages;
      if (greeting) await say(escapeText(greeting));
      const suggested = chatbot.suggestedMessages.slice(0, MAX_PROMPTS);
      // Slack wants at least one prompt: none suggested, none set.
      if (suggested.length > 0) {
        const prompts = suggested.map((message) => ({ title: label(message), message }));
        await decorate('suggested prompts', () => setSuggestedPrompts({ prompts }));
      }
    },

    // Questions route like direct messages whatever channel the user is viewing, so the context is
    // not kept (Bolt's default would rewrite the greeting's metadata at every move).
    threadContextChanged: async () => undefined,

    async userMessage(args) {
      const delivery = toDelivery(args);
      const { message, teamId } = delivery;
      const title = label(plainText(message.text ?? '', delivery.botUserId));
      const titleOnce = async () => {
        const hub = currentHub();
        const key = `slack:titled:${teamId}:${message.channel}:${message.thread_ts}`;
        if (title && hub && (await hub.claim(key, TITLED_SECONDS))) await args.setTitle(title);
      };
      await handle(delivery, {
        notBound,
        beforeAnswer: async () => {
          await Promise.all([
            decorate('status', () => args.setStatus(THINKING_STATUS)),
            decorate('title', titleOnce),
          ]);
        },
        // Slack clears the status when the app posts; a message for the team gets no post.
        afterSilence: () => decorate('status', () => args.setStatus('')),
      });
    },
  });
}

/** Text as a label: one line of at most LABEL_LIMIT characters, cut at a word where one is near. */
export function label(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const characters = [...line];
  if (characters.length <= LABEL_LIMIT) return line;
  const cut = characters.slice(0, LABEL_LIMIT - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space >= cut.length / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
