import { useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { isPersonAsked } from '../../../src/domain/person-asked.js';
import { callJson, query } from '../api.js';
import { Select, TextInput } from '../components/fields.js';
import { DayRangeFields } from '../components/day-range.js';
import { inRange, rangeProblem, readerTimeZone } from '../date-range.js';
import { counted, formatTime, formatTimeSeconds } from '../format.js';
import type { Chatbot, Conversation } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { LIST_REFRESH_MS, useRefresh } from '../use-refresh.js';
import { handoffText } from './handoff-text.js';
import { isOpen } from './team-reply.js';
import { Transcript } from './transcript.js';
import { placeText, contactText, personText, withContactsOf, type KnownContacts } from './conversation-people.js';
import { CONVERSATION_SOURCES } from '../sources.js';
import { searchKey } from '../search.js';

// The chatbot's conversations, newest first: filtered by source and day on the hub, searched by
// text in the browser (within what is loaded), and opened as a transcript. A conversation whose
// handoff is open says so, so the team finds the people waiting for it; those are also listed
// first, all of them whatever the filters and however old (get-conversations' handoffStatus), so
// none waits behind "Load more". The lists are read again by themselves, so a console left open
// shows new conversations and handoff requests.

const PAGE_SIZE = 50;
/** The handoff statuses the team has to act on: waiting for it, or with it. */
const OPEN_HANDOFF = 'pending,active';
/** While the open transcript's handoff is open, so the person's new messages appear within seconds. */
const HANDOFF_REFRESH_MS = 3_000;
const SOURCE_OPTIONS = [{ value: '', label: 'All sources' }, ...CONVERSATION_SOURCES.map((source) => ({ value: source, label: source }))];

export function Conversations({ chatbot }: { chatbot: Chatbot }) {
  const { query: params, path, route } = useLocation();
  const [source, setSource] = useState('');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState(1);
  const lists = useRef<HTMLDivElement>(null);
  // Each conversation's contact is read once, not at every reading of the lists.
  const known = useRef<{ chatbotId: string; contacts: KnownContacts }>({ chatbotId: chatbot.id, contacts: new Map() });

  const readConversations = async () => {
    const [listing, handedOff] = await Promise.all([
      readConversationPages({ chatbotId: chatbot.id, filteredSources: source, startDate, endDate, timezone: readerTimeZone() }, pages),
      readConversationPages({ chatbotId: chatbot.id, handoffStatus: OPEN_HANDOFF }, Infinity),
    ]);
    const before: KnownContacts = known.current.chatbotId === chatbot.id ? known.current.contacts : new Map();
    const contacts = await withContactsOf(chatbot.id, [...listing.list, ...handedOff.list], before);
    known.current = { chatbotId: chatbot.id, contacts };
    return { list: listing.list, more: listing.more, handedOff: handedOff.list.sort(byTurn), contacts };
  };
  const problem = rangeProblem(startDate, endDate);
  const loaded = useLoad(() => inRange(problem, readConversations), [chatbot.id, source, startDate, endDate, pages]);

  const open = params.conversation;
  const opened = [...(loaded.data?.handedOff ?? []), ...(loaded.data?.list ?? [])].find((conversation) => conversation.id === open);
  // Read again in place: the filters, the open transcript and a reply being typed stay as they are.
  useRefresh(loaded, isOpen(opened?.handoff) ? HANDOFF_REFRESH_MS : LIST_REFRESH_MS);
  const openUrl = (id: string) => `${path}?conversation=${encodeURIComponent(id)}`;
  const needle = searchKey(search.trim());
  // A conversation is found by its words and by who it is with (a lead's email, a contact's name).
  const matches = (contacts: KnownContacts) => (conversation: Conversation) =>
    !needle ||
    [personText(contacts.get(conversation.contact_id ?? ''), conversation.lead), ...conversation.messages.map((message) => message.content)].some(
      (text) => text !== undefined && searchKey(text).includes(needle),
    );

  return (
    <div class="split columns">
      <div ref={lists}>
        <div class="card">
          <Select label="Source" value={source} options={SOURCE_OPTIONS} onValue={setSource} />
          <DayRangeFields startDate={startDate} endDate={endDate} onStartDate={setStartDate} onEndDate={setEndDate} />
          <TextInput label="Search" type="search" value={search} onValue={setSearch} hint="Finds words, names and emails in the loaded conversations, with or without accents." />
        </div>
        <Show loaded={loaded} label="Loading the conversations">
          {({ list, more, handedOff, contacts }) => {
            const shown = list.filter(matches(contacts));
            return (
              <>
                {handedOff.length > 0 && (
                  <>
                    <h2>Open handoffs</h2>
                    <ConversationList label="Open handoffs" list={handedOff} contacts={contacts} open={open} openUrl={openUrl} titleOf={latestFromPerson} />
                  </>
                )}
                <p class="muted" role="status">
                  {counted(shown.length, 'conversation')}
                  {more && `, of the newest ${list.length}: “Load more” for older ones`}
                </p>
                <ConversationList label="Conversations" list={shown} contacts={contacts} open={open} openUrl={openUrl} titleOf={firstMessage} />
                {more && (
                  <button type="button" class="secondary" onClick={() => setPages(pages + 1)}>
                    Load more
                  </button>
                )}
              </>
            );
          }}
        </Show>
      </div>
      <div>
        {open ? (
          <Transcript
            chatbotId={chatbot.id}
            conversation={opened}
            contact={contactText(loaded.data?.contacts.get(opened?.contact_id ?? ''))}
            onClose={() => {
              // The focus goes back to the conversation in the list, not to the page's top with Close.
              lists.current?.querySelector<HTMLElement>('a[aria-current="true"]')?.focus();
              route(path);
            }}
            onChanged={loaded.reload}
          />
        ) : (
          <p class="muted">Choose a conversation to read it.</p>
        )}
      </div>
    </div>
  );
}

/**
 * The people waiting for the team first, then those with it, each longest waiting first: the API
 * lists conversations by when they began, so one who chatted long before asking came last.
 */
function byTurn(one: Conversation, other: Conversation): number {
  const rank = (conversation: Conversation) => (conversation.handoff?.status === 'pending' ? 0 : 1);
  return rank(one) - rank(other) || (one.handoff?.requested_at ?? '').localeCompare(other.handoff?.requested_at ?? '');
}

type ListProps = {
  label: string;
  list: Conversation[];
  contacts: KnownContacts;
  open: string | undefined;
  openUrl: (id: string) => string;
  /** What names a conversation in the list. */
  titleOf: (conversation: Conversation) => string | undefined;
};

const firstMessage = (conversation: Conversation) => conversation.messages[0]?.content;
/**
 * A person waiting for the team is told apart by what they said last: many pressed the widget's
 * "Talk to a person" last, which names nobody, so what they typed before it comes first.
 */
function latestFromPerson({ messages }: Conversation): string | undefined {
  const said = messages.filter((message) => message.role === 'user').map((message) => message.content);
  return said.findLast((content) => !isPersonAsked(content)) ?? said.at(-1);
}

/**
 * Times of the list to the minute, or to the second where two share a minute: many conversations
 * begin alike, and their times are then what tells them apart.
 */
function timesOf(list: Conversation[]): (conversation: Conversation) => string {
  const minutes = list.map((conversation) => formatTime(conversation.updated_at));
  const shared = new Set(minutes.filter((minute, index) => minutes.indexOf(minute) !== index));
  return ({ updated_at }) => (shared.has(formatTime(updated_at)) ? formatTimeSeconds(updated_at) : formatTime(updated_at));
}

/**
 * Links to conversations, each with who it is with (the contact's name and email, when the hub has
 * them, and the details a visitor left in its lead), its source and place (channel, or the API caller's id), time, length and, while open,
 * where its handoff stands.
 */
function ConversationList({ label, list, contacts, open, openUrl, titleOf }: ListProps) {
  const timeOf = timesOf(list);
  return (
    <ul class="plain" aria-label={label}>
      {list.map((conversation) => (
        <li key={conversation.id}>
          <a href={openUrl(conversation.id)} aria-current={conversation.id === open ? 'true' : undefined}>
            {titleOf(conversation)?.slice(0, 80) || '(empty)'}
          </a>
          <div class="muted">
            {[personText(contacts.get(conversation.contact_id ?? ''), conversation.lead), conversation.source, placeText(conversation), timeOf(conversation)]
              .filter(Boolean)
              .join(' · ')}{' '}
            · {conversation.messages.length} messages
            {conversation.handoff && isOpen(conversation.handoff) && (
              <strong>
                {' '}
                · {handoffText(conversation.handoff)}, asked {formatTime(conversation.handoff.requested_at)}
              </strong>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Pages 1 to `pages` of get-conversations with these parameters, stopping at one that comes short. */
async function readConversationPages(params: Record<string, string>, pages: number): Promise<{ list: Conversation[]; more: boolean }> {
  const list: Conversation[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const { data } = await callJson<{ data: Conversation[] }>('GET', `/get-conversations${query({ ...params, page, size: PAGE_SIZE })}`);
    list.push(...data);
    if (data.length < PAGE_SIZE) return { list, more: false };
  }
  return { list, more: true };
}
