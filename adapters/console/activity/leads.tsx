import { useEffect, useMemo, useRef } from 'preact/hooks';
import { csvFile, csvLine } from '../../../src/csv.js';
import { DataTable } from '../components/data-table.js';
import { formatTime } from '../format.js';
import type { Chatbot, Lead } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { LIST_REFRESH_MS, useRefresh } from '../use-refresh.js';
import { EraseButton } from './erase-button.js';
import { readLeads } from './lead-list.js';

// The leads visitors left, newest first, and a CSV file of them. The list is read again by
// itself, as Activity's conversations are, so a console left open shows new leads; only its
// newest pages are (./lead-list.ts). "Delete lead" erases one (a person's erasure request).

const COLUMNS = ['name', 'email', 'phone', 'created_at'] as const;

type Shown = { chatbotId: string; list: Lead[] };

export function Leads({ chatbot }: { chatbot: Chatbot }) {
  // What is shown, for the next reading to start from (none when it is another chatbot's).
  const shown = useRef<Shown>();
  // Erased here: gone from what is shown, which the next reading keeps beyond the pages it reads.
  const erased = useRef(new Set<string>());
  const leads = useLoad(async (): Promise<Shown> => {
    const before = shown.current?.chatbotId === chatbot.id ? shown.current.list.filter((lead) => !erased.current.has(lead.id)) : undefined;
    return { chatbotId: chatbot.id, list: await readLeads(chatbot.id, before) };
  }, [chatbot.id]);
  shown.current = leads.data;
  // Read again in place: the rows keep their elements, so the table's scroll stays where it was.
  useRefresh(leads, LIST_REFRESH_MS);

  return (
    <Show loaded={leads} label="Loading the leads">
      {({ list }) =>
        list.length === 0 ? (
          <p class="muted">No leads yet.</p>
        ) : (
          <LeadTable
            chatbotId={chatbot.id}
            list={list}
            onErased={(lead) => {
              erased.current.add(lead.id);
              leads.reload();
            }}
          />
        )
      }
    </Show>
  );
}

type TableProps = { chatbotId: string; list: Lead[]; onErased: (lead: Lead) => void };

function LeadTable({ chatbotId, list, onErased }: TableProps) {
  const href = useMemo(() => csvUrl(list), [list]);
  // Each reading makes a new file: the one it replaces is let go, or a day's readings would pile up.
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <>
      <div class="actions">
        <a class="button" href={href} download={`leads-${chatbotId}.csv`}>
          Export CSV
        </a>
      </div>
      <DataTable
        columns={['Name', 'Email', 'Phone', 'Left', '']}
        rows={list}
        rowKey={(lead) => lead.id}
        cells={(lead) => [
          <span class="long-text">{lead.name ?? '—'}</span>,
          <span class="long-text">{lead.email ?? '—'}</span>,
          lead.phone ?? '—',
          formatTime(lead.created_at),
          <EraseButton
            key={lead.id}
            path={`/chatbots/${encodeURIComponent(chatbotId)}/leads/${encodeURIComponent(lead.id)}`}
            verb="Delete lead"
            name={lead.email || lead.phone || lead.name || formatTime(lead.created_at)}
            onErased={() => onErased(lead)}
          />,
        ]}
      />
    </>
  );
}

/** The leads as CSV, by the hub's one CSV rule (csvFile: formulas defused, phone numbers kept, a byte-order mark). */
function csvUrl(leads: Lead[]): string {
  const rows = [COLUMNS.join(','), ...leads.map((lead) => csvLine(COLUMNS.map((column) => lead[column])))];
  return URL.createObjectURL(new Blob([csvFile(rows)], { type: 'text/csv;charset=utf-8' }));
}
