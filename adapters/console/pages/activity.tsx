import { Contacts } from '../activity/contacts.js';
import { Conversations } from '../activity/conversations.js';
import { Leads } from '../activity/leads.js';
import { chatbotUrl, type ChatbotPageProps } from './chatbot-section.js';
import { NotFound } from './not-found.js';

// What happened with the chatbot: conversations, leads and contacts, each at a URL of its own.

const TABS = [
  { item: 'conversations', title: 'Conversations', page: Conversations },
  { item: 'leads', title: 'Leads', page: Leads },
  { item: 'contacts', title: 'Contacts', page: Contacts },
];

export function ActivityPage({ chatbot, item = 'conversations' }: ChatbotPageProps) {
  const tab = TABS.find((candidate) => candidate.item === item);
  if (!tab) return <NotFound />;
  const Tab = tab.page;
  return (
    <>
      <nav class="tabs" aria-label="Activity">
        {TABS.map((candidate) => (
          <a key={candidate.item} class="button secondary" href={`${chatbotUrl(chatbot.id, 'activity')}/${candidate.item}`} aria-current={candidate === tab ? 'page' : undefined}>
            {candidate.title}
          </a>
        ))}
      </nav>
      <Tab chatbot={chatbot} />
    </>
  );
}
