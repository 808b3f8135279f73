import { callJson, query } from '../api.js';
import { madeNote, sharesItsName } from '../chatbot-names.js';
import { DataTable } from '../components/data-table.js';
import { LoadFailure } from '../components/load-failure.js';
import { readerTimeZone } from '../date-range.js';
import { localDayAgo } from '../format.js';
import type { ChatbotItem, Conversation } from '../types.js';
import { retryOf, Show, useLoad } from '../use-load.js';

// The account's chatbots, with how busy each was over the last seven days (the reader's days, as
// everywhere in the console). A name two chatbots share says, in its link, which one it is.

/** The most get-conversations answers in one page; past it the count reads "100+". */
const PAGE = 100;
const COUNTING = 'Counting the conversations';

export function ChatbotsPage() {
  const chatbots = useLoad(() => callJson<{ chatbots: ChatbotItem[] }>('GET', '/get-chatbots').then((body) => body.chatbots), []);
  return (
    <>
      <div class="actions">
        <h1 class="grow">Chatbots</h1>
        <a class="button" href="/console/new">
          New chatbot
        </a>
      </div>
      <Show loaded={chatbots} label="Loading your chatbots">
        {(list) =>
          list.length === 0 ? (
            <p>No chatbots yet. Make your first with “New chatbot”.</p>
          ) : (
            <DataTable
              columns={['Name', 'Status', 'Model', 'Visibility', 'Conversations (7 days)']}
              rows={list}
              rowKey={(bot) => bot.id}
              cells={(bot) => [
                <a class="long-text" href={`/console/chatbots/${encodeURIComponent(bot.id)}`}>
                  {bot.name}
                  {sharesItsName(list, bot) && <span class="item-note"> {madeNote(bot)}</span>}
                </a>,
                bot.status,
                bot.model,
                bot.visibility,
                <RecentConversations chatbot={bot} named={sharesItsName(list, bot) ? `${bot.name}, ${madeNote(bot)}` : bot.name} />,
              ]}
            />
          )
        }
      </Show>
    </>
  );
}

/** The conversations of the reader's last seven days, in their time zone: a full page is "100+". `named`: the chatbot as the list names it. */
function RecentConversations({ chatbot, named }: { chatbot: ChatbotItem; named: string }) {
  const count = useLoad(() => {
    const days = { startDate: localDayAgo(6), timezone: readerTimeZone() };
    return callJson<{ data: Conversation[] }>('GET', `/get-conversations${query({ chatbotId: chatbot.id, ...days, size: PAGE })}`).then((body) => body.data.length);
  }, [chatbot.id]);
  if (count.error) {
    return <LoadFailure error={count.error} label={COUNTING} loading={count.loading} onRetry={retryOf(count)} retries={`conversations of ${named}`} />;
  }
  if (count.data === undefined) return <span class="muted">…</span>;
  return <>{count.data >= PAGE ? `${PAGE}+` : count.data}</>;
}
