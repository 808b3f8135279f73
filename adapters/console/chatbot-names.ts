import { callJson } from './api.js';
import { formatTime } from './format.js';
import type { ChatbotItem } from './types.js';

// The API lets two chatbots have one name (the contract forbids nothing), so the console tells
// them apart where it lists them, and says so before making another of a name already used.

/** How a name reads: the same letters whatever their case and spacing. */
const nameKey = (name: string): string => name.trim().replace(/\s+/g, ' ').toLocaleLowerCase();

/** The chatbots among `chatbots` named as `name` reads. */
export const namedAs = (chatbots: readonly ChatbotItem[], name: string): ChatbotItem[] =>
  chatbots.filter((chatbot) => nameKey(chatbot.name) === nameKey(name));

/** Whether another of `chatbots` has `chatbot`'s name (itself among them or not, under whatever name it had when read). */
export const sharesItsName = (chatbots: readonly ChatbotItem[], chatbot: Pick<ChatbotItem, 'id' | 'name'>): boolean =>
  namedAs(chatbots, chatbot.name).some((other) => other.id !== chatbot.id);

/** What tells a chatbot from another of its name: when it was made, and the end of its id (made in one minute, those differ). */
export const madeNote = (chatbot: Pick<ChatbotItem, 'id' | 'created_at'>): string => `made ${formatTime(chatbot.created_at)}, id …${chatbot.id.slice(-6)}`;

/** The account's chatbots; none when they cannot be read, so that nothing is told apart or warned of then. */
export const readChatbots = (): Promise<ChatbotItem[]> =>
  callJson<{ chatbots: ChatbotItem[] }>('GET', '/get-chatbots').then(
    (body) => body.chatbots,
    () => [],
  );
