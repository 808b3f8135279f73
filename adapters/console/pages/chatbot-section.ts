import type { Chatbot } from '../types.js';

// What each of one chatbot's pages (Playground, Sources, …) is given, and its address: apart from
// the chatbot's page, which shows them, so that they need not import it.

export type ChatbotPageProps = { chatbot: Chatbot; item: string | undefined; reload: () => void };

export const chatbotUrl = (chatbotId: string, section: string) => `/console/chatbots/${encodeURIComponent(chatbotId)}/${section}`;
