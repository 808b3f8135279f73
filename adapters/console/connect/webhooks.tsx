import { useState } from 'preact/hooks';
import { callData, explained, query, send } from '../api.js';
import { useAction } from '../components/action.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { DataTable } from '../components/data-table.js';
import { Alert, Notice } from '../components/feedback.js';
import { TextInput } from '../components/fields.js';
import { actionOn } from '../components/item-name.js';
import { SecretOnce } from '../components/secret-once.js';
import { formatTime, formatTimeSeconds } from '../format.js';
import type { Chatbot } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { useRefresh } from '../use-refresh.js';
import { BusyButton, SubmitButton } from '../components/busy-button.js';

// Webhooks for the chatbot's leads: the signing secret is shown once, under its webhook, at
// creation or when "New secret" replaces it (one at a time, so a replaced secret shows no more);
// each webhook has its delivery log and a "Send test" ping. One the hub disabled (its receiver
// failing for days) is turned on again with its secret, and the events that failed meanwhile are
// sent again from the log.

type Webhook = { id: string; url: string; events: string[]; enabled: boolean; disabledReason: string | null; created_at: string };
/** A "Send test" or "Send again" that returned: the event it queued, when, and its attempts until then. */
type SentTest = { eventId: string; at: number; after: number };
/** The secret the hub answered this once, and whose it is. */
type ShownSecret = { webhookId: string; lead: string; secret: string };
type Attempt = { eventId: string; event: string; attempt: number; status: string; responseCode: number | null; error: string | null; at: string };

const WEBHOOK_REFUSED =
  'The hub refused the address: a webhook needs an http:// or https:// URL that reaches a public address, not a loopback, private or link-local one (WEBHOOK_ALLOW_PRIVATE=true allows those).';

const ROTATE_WARNING = 'The old secret stops working at once: every delivery from now on, retries too, is signed with the new one.';

export function Webhooks({ chatbot }: { chatbot: Chatbot }) {
  const list = useLoad(() => callData<Webhook[]>('GET', `/integrations/webhooks${query({ chatbotId: chatbot.id, size: 100 })}`), [chatbot.id]);
  const [url, setUrl] = useState('');
  const [shown, setShown] = useState<ShownSecret>();
  const action = useAction();

  const add = async (event: Event) => {
    event.preventDefault();
    setShown(undefined);
    await action.run(async () => {
      const body = { url: url.trim(), events: ['leads.submit'], chatbotId: chatbot.id };
      const created = await explained(callData<Webhook & { secret: string }>('POST', '/integrations/webhooks', body), { 400: WEBHOOK_REFUSED });
      setShown({ webhookId: created.id, lead: 'Webhook added. Its signing secret', secret: created.secret });
      setUrl('');
      list.reload();
    });
  };
  const remove = async (id: string) => {
    if (await action.run(() => send('DELETE', `/integrations/webhooks/${encodeURIComponent(id)}`))) list.reload();
  };

  return (
    <section class="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p class="muted">Each new lead, and each correction of one, is sent, signed, to these addresses (event leads.submit).</p>
      <Show loaded={list} label="Loading the webhooks" retries="the webhooks">
        {(webhooks) =>
          webhooks.length === 0 ? (
            <p class="muted">No webhooks yet.</p>
          ) : (
            <ul class="plain">
              {webhooks.map((webhook) => (
                <WebhookRow
                  key={webhook.id}
                  webhook={webhook}
                  secret={shown?.webhookId === webhook.id ? shown : undefined}
                  onSecret={(secret) => setShown({ webhookId: webhook.id, lead: 'Its new signing secret', secret })}
                  onRemove={() => remove(webhook.id)}
                  onChange={list.reload}
                />
              ))}
            </ul>
          )
        }
      </Show>
      <form onSubmit={add}>
        <h3>Add a webhook</h3>
        <TextInput label="Webhook URL" type="url" value={url} onValue={setUrl} placeholder="https://crm.example.com/hooks/switchboard" required />
        {action.failure && <Alert>{action.failure}</Alert>}
        <SubmitButton busy={action.busy} busyLabel="Saving">Add webhook</SubmitButton>
      </form>
    </section>
  );
}

type RowProps = { webhook: Webhook; secret: ShownSecret | undefined; onSecret: (secret: string) => void; onRemove: () => void; onChange: () => void };

function WebhookRow({ webhook, secret, onSecret, onRemove, onChange }: RowProps) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<SentTest>();
  // One action for the row's buttons: one write of the webhook's at a time, its failure said under them.
  const action = useAction();
  const path = `/integrations/webhooks/${encodeURIComponent(webhook.id)}`;
  const follow = (eventId: string, after = 0) => {
    setSent({ eventId, at: Date.now(), after });
    setOpen(true);
  };
  const sendTest = () => action.run(async () => follow((await callData<{ eventId: string }>('POST', `${path}/test`)).eventId));
  const rotate = () =>
    action.run(async () => onSecret((await callData<{ secret: string }>('POST', `${path}/rotate-secret`)).secret));
  const turnOn = () =>
    action.run(async () => {
      await send('PATCH', path, { enabled: true });
      onChange();
    });
  return (
    <li>
      <div class="actions">
        <span class="grow">
          <code>{webhook.url}</code> {webhook.enabled ? '' : `· disabled: ${webhook.disabledReason ?? 'by the hub'}`}
        </span>
        {!webhook.enabled && (
          <BusyButton class="secondary" onClick={turnOn} busy={action.busy} aria-label={actionOn('Turn on again', webhook.url)}>
            Turn on again
          </BusyButton>
        )}
        <BusyButton class="secondary" onClick={sendTest} busy={action.busy} aria-label={actionOn('Send test to', webhook.url)}>
          Send test
        </BusyButton>
        <button type="button" class="secondary" aria-expanded={open} onClick={() => setOpen(!open)} aria-label={actionOn('Delivery log of', webhook.url)}>
          Delivery log
        </button>
        <ConfirmButton verb="New secret" name={webhook.url} busy={action.busy} onConfirm={rotate} warning={ROTATE_WARNING} />
        <ConfirmButton verb="Remove" name={webhook.url} busy={false} onConfirm={onRemove} />
      </div>
      {action.failure && <Alert>{action.failure}</Alert>}
      {secret && <SecretOnce key={secret.secret} lead={secret.lead} secret={secret.secret} copyLabel="Copy secret" />}
      {sent && <Notice>Event queued: its delivery shows in the log.</Notice>}
      {open && <Deliveries webhook={webhook} sent={sent} onResent={follow} />}
    </li>
  );
}

/**
 * The test is delivered by the delivery job, which looks for work every second and waits up to
 * WEBHOOK_TIMEOUT_MS (10 s) for the receiver: the log is read again this often until the test
 * was delivered or failed for good, for this long at most (a failed try is retried 30 s or more later).
 */
const FOLLOW_TEST = { everyMs: 2_000, forMs: 30_000 };

type DeliveriesProps = { webhook: Webhook; sent: SentTest | undefined; onResent: (eventId: string, after: number) => void };

/**
 * Read once "Send test" or "Send again" returns, then again while its delivery is pending, as
 * `FOLLOW_TEST` says. An event whose last attempt failed for good can be sent again.
 */
function Deliveries({ webhook, sent, onResent }: DeliveriesProps) {
  const path = `/integrations/webhooks/${encodeURIComponent(webhook.id)}`;
  const attempts = useLoad(() => callData<Attempt[]>('GET', `${path}/deliveries`), [webhook.id, sent]);
  const settles = (attempt: Attempt) => attempt.eventId === sent?.eventId && attempt.attempt > sent.after && attempt.status !== 'pending';
  const pending = sent !== undefined && !attempts.data?.some(settles);
  useRefresh(attempts, FOLLOW_TEST.everyMs, pending && Date.now() - sent.at < FOLLOW_TEST.forMs);
  const resend = useAction();
  const sendAgain = ({ eventId, attempt }: Attempt) =>
    resend.run(async () => {
      await send('POST', `${path}/deliveries/${encodeURIComponent(eventId)}/resend`);
      onResent(eventId, attempt);
    });
  return (
    <>
      <Show loaded={attempts} label="Loading the deliveries" retries={`the deliveries to ${webhook.url}`}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No deliveries yet.</p>
          ) : (
            <DataTable
              caption="Deliveries, newest first"
              columns={['When', 'Event', 'Attempt', 'Status', 'Answer', '']}
              rows={list}
              rowKey={(attempt) => `${attempt.eventId}-${attempt.attempt}`}
              cells={(attempt) => [
                formatTime(attempt.at),
                attempt.event,
                attempt.attempt,
                attempt.status,
                attempt.responseCode ?? attempt.error ?? '—',
                canSendAgain(list, attempt) && (
                  <BusyButton class="secondary" onClick={() => sendAgain(attempt)} busy={resend.busy} aria-label={sendAgainName(webhook, list, attempt)}>
                    Send again
                  </BusyButton>
                ),
              ]}
            />
          )
        }
      </Show>
      {resend.failure && <Alert>{resend.failure}</Alert>}
      <button type="button" class="link" onClick={attempts.reload} aria-label={actionOn('Refresh the log of', webhook.url)}>
        Refresh the log
      </button>
    </>
  );
}

/**
 * The name of an event's "Send again": its type and its last attempt's time to the second, and
 * where another event of the log shares those, its id too, so no two of a log's buttons share a name.
 */
function sendAgainName(webhook: Webhook, log: Attempt[], attempt: Attempt): string {
  const name = (of: Attempt) => `${actionOn('Send again to', webhook.url)}: ${of.event} of ${formatTimeSeconds(of.at)}`;
  const alike = log.some((other) => other.eventId !== attempt.eventId && canSendAgain(log, other) && name(other) === name(attempt));
  return alike ? `${name(attempt)}, event ${attempt.eventId}` : name(attempt);
}

/** An event can be sent again from its last attempt (the log is newest first) when that failed for good. */
const canSendAgain = (log: Attempt[], attempt: Attempt) =>
  attempt.status === 'failed' && log.find((other) => other.eventId === attempt.eventId) === attempt;
