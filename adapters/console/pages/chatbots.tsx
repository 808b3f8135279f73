import { callJson, query } from '../api.js';
import { dayAgo } from '../format.js';
import type { ChatbotItem, Conversation } from '../types.js';
import { Show, useLoad } from '../use-load.js';

// The account's chatbots, with how busy each was over the last seven days.

/** The most get-conversations answers in one page; past it the count reads "100+". */
const PAGE = 100;

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
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">Model</th>
                    <th scope="col">Visibility</th>
                    <th scope="col">Conversations (7 days)</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((bot) => (
                    <tr key={bot.id}>
                      <td>
                        <a href={`/console/chatbots/${encodeURIComponent(bot.id)}`}>{bot.name}</a>
                      </td>
                      <td>{bot.status}</td>
                      <td>{bot.model}</td>
                      <td>{bot.visibility}</td>
                      <td>
                        <RecentConversations chatbotId={bot.id} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
    </>
  );
}

function RecentConversations({ chatbotId }: { chatbotId: string }) {
  const count = useLoad(
    () =>
      callJson<{ data: Conversation[] }>('GET', `/get-conversations${query({ chatbotId, startDate: dayAgo(6), size: PAGE })}`).then(
        (body) => body.data.length,
      ),
    [chatbotId],
  );
  if (count.error) return <span class="muted">unknown</span>;
  if (count.data === undefined) return <span class="muted">…</span>;
  return <>{count.data >= PAGE ? `${PAGE}+` : count.data}</>;
}
