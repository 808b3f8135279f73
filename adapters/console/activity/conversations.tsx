import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { callJson, query } from '../api.js';
import { Select, TextInput } from '../components/fields.js';
import { inRange, rangeProblem } from '../date-range.js';
import { formatTime } from '../format.js';
import type { Chatbot, Conversation } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { useRefresh } from '../use-refresh.js';
import { handoffText } from './handoff-text.js';
import { isOpen } from './team-reply.js';
import { Transcript } from './transcript.js';
import { CONVERSATION_SOURCES } from '../sources.js';
import { searchKey } from '../search.js';

// The chatbot's conversations, newest first: filtered by source and day on the hub, searched by
// text in the browser (within what is loaded), and opened as a transcript. A conversation whose
// handoff is open says so, so the team finds the people waiting for it. The list is read again
// by itself, so a console left open shows new conversations and handoff requests.

const PAGE_SIZE = 50;
/** How soon the list shows a new conversation or handoff request by itself (see use-refresh.ts). */
const LIST_REFRESH_MS = 10_000;
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

  const readConversations = async () => {
    const all: Conversation[] = [];
    for (let page = 1; page <= pages; page += 1) {
      const listing = query({ chatbotId: chatbot.id, filteredSources: source, startDate, endDate, page, size: PAGE_SIZE });
      const { data } = await callJson<{ data: Conversation[] }>('GET', `/get-conversations${listing}`);
      all.push(...data);
      if (data.length < PAGE_SIZE) return { list: all, more: false };
    }
    return { list: all, more: true };
  };
  const problem = rangeProblem(startDate, endDate);
  const loaded = useLoad(() => inRange(problem, readConversations), [chatbot.id, source, startDate, endDate, pages]);

  const open = params.conversation;
  const opened = loaded.data?.list.find((conversation) => conversation.id === open);
  // Read again in place: the filters, the open transcript and a reply being typed stay as they are.
  useRefresh(loaded, isOpen(opened?.handoff) ? HANDOFF_REFRESH_MS : LIST_REFRESH_MS);
  const openUrl = (id: string) => `${path}?conversation=${encodeURIComponent(id)}`;
  const needle = searchKey(search.trim());
  const matches = (conversation: Conversation) => !needle || conversation.messages.some((message) => searchKey(message.content).includes(needle));

  return (
    <div class="split">
      <div>
        <div class="card">
          <Select label="Source" value={source} options={SOURCE_OPTIONS} onValue={setSource} />
          <div class="row">
            <TextInput label="From" type="date" value={startDate} onValue={setStartDate} />
            <TextInput label="To" type="date" value={endDate} onValue={setEndDate} />
          </div>
          <TextInput label="Search" type="search" value={search} onValue={setSearch} hint="Finds words in the loaded conversations, with or without accents." />
        </div>
        <Show loaded={loaded} label="Loading the conversations">
          {({ list, more }) => {
            const shown = list.filter(matches);
            return (
              <>
                <p class="muted" role="status">
                  {shown.length} conversation{shown.length === 1 ? '' : 's'}
                  {more && `, of the newest ${list.length}: “Load more” for older ones`}
                </p>
                <ul class="plain" aria-label="Conversations">
                  {shown.map((conversation) => (
                    <li key={conversation.id}>
                      <a href={openUrl(conversation.id)} aria-current={conversation.id === open ? 'true' : undefined}>
                        {conversation.messages[0]?.content.slice(0, 80) || '(empty)'}
                      </a>
                      <div class="muted">
                        {conversation.source} · {formatTime(conversation.updated_at)} · {conversation.messages.length} messages
                        {conversation.handoff && isOpen(conversation.handoff) && <strong> · {handoffText(conversation.handoff)}</strong>}
                      </div>
                    </li>
                  ))}
                </ul>
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
      <div class="reading-pane">
        {open ? (
          <Transcript
            chatbotId={chatbot.id}
            conversation={opened}
            onClose={() => route(path)}
            onChanged={loaded.reload}
          />
        ) : (
          <p class="muted">Choose a conversation to read it.</p>
        )}
      </div>
    </div>
  );
}
