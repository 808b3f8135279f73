import type { ComponentType } from 'preact';
import lazy from 'preact-iso/lazy';
import { useRoute } from 'preact-iso/router';
import { callData } from '../api.js';
import { madeNote, readChatbots, sharesItsName } from '../chatbot-names.js';
import type { Chatbot, ChatbotItem } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { ActivityPage } from './activity.js';
import { chatbotUrl, type ChatbotPageProps } from './chatbot-section.js';
import { ConnectPage } from './connect.js';
import { NotFound } from './not-found.js';
import { PlaygroundPage } from './playground.js';
import { SettingsPage } from './settings.js';
import { SourcesPage } from './sources.js';

// One chatbot: its name, its pages' navigation, and the page asked for (Playground by default).
// A name another of the account's chatbots has says which one this is, as the chatbots list does.

/** The charts' library loads with the Analytics page, not with the first page. */
const AnalyticsPage = lazy(() => import('./analytics.js').then((module) => module.AnalyticsPage));

const SECTIONS: { path: string; title: string; page: ComponentType<ChatbotPageProps> }[] = [
  { path: 'playground', title: 'Playground', page: PlaygroundPage },
  { path: 'sources', title: 'Sources', page: SourcesPage },
  { path: 'settings', title: 'Settings', page: SettingsPage },
  { path: 'connect', title: 'Connect', page: ConnectPage },
  { path: 'activity', title: 'Activity', page: ActivityPage },
  { path: 'analytics', title: 'Analytics', page: AnalyticsPage },
];

export function ChatbotPage() {
  const { params } = useRoute();
  const chatbotId = params.chatbotId ?? '';
  const chosen = params.section ?? 'playground';
  const section = SECTIONS.find((candidate) => candidate.path === chosen);
  const chatbot = useLoad(() => callData<Chatbot>('GET', `/chatbots/${encodeURIComponent(chatbotId)}`), [chatbotId]);
  // Read once: another chatbot renamed meanwhile is seen on the next visit; this one's own name is always its current one.
  const chatbots = useLoad(readChatbots, []);
  if (!section) return <NotFound />;
  const Page = section.page;
  return (
    <Show loaded={chatbot} label="Loading the chatbot">
      {(bot) => (
        <>
          <p class="muted">
            <a href="/console">Chatbots</a> / {bot.name}
            <WhichOne chatbot={bot} chatbots={chatbots.data} />
          </p>
          <nav class="bot" aria-label="Chatbot">
            {SECTIONS.map((candidate) => (
              <a
                key={candidate.path}
                href={chatbotUrl(bot.id, candidate.path)}
                aria-current={candidate === section ? 'page' : undefined}
              >
                {candidate.title}
              </a>
            ))}
          </nav>
          <h1>
            {section.title}: {bot.name}
            <WhichOne chatbot={bot} chatbots={chatbots.data} />
          </h1>
          <Page chatbot={bot} item={params.item} reload={chatbot.reload} />
        </>
      )}
    </Show>
  );
}

/** When and with which id `chatbot` was made, if another of `chatbots` has its name. */
function WhichOne({ chatbot, chatbots = [] }: { chatbot: Chatbot; chatbots: ChatbotItem[] | undefined }) {
  return sharesItsName(chatbots, chatbot) && <span class="item-note"> {madeNote(chatbot)}</span>;
}
