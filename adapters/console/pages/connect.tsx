import { Bindings, Digests } from '../connect/channels.js';
import { Embed } from '../connect/embed.js';
import { Webhooks } from '../connect/webhooks.js';
import type { ChatbotPageProps } from './chatbot-section.js';

// Where the chatbot reaches people: the website widget, Slack and Discord, and webhooks.

export function ConnectPage({ chatbot }: ChatbotPageProps) {
  return (
    <>
      <Embed chatbot={chatbot} />
      <Bindings chatbot={chatbot} />
      <Digests chatbot={chatbot} />
      <Webhooks chatbot={chatbot} />
    </>
  );
}
