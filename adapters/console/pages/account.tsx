import { useState } from 'preact/hooks';
import { callData, explained, send } from '../api.js';
import { useAction } from '../components/action.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { DataTable } from '../components/data-table.js';
import { Alert } from '../components/feedback.js';
import { TextInput } from '../components/fields.js';
import { SecretOnce } from '../components/secret-once.js';
import { formatCount, formatTime } from '../format.js';
import { account } from '../state.js';
import type { AccountUsage, ApiKey } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { SubmitButton } from '../components/busy-button.js';

// The account: this month's use of its quota, and its API keys (a new key is shown once).

export function AccountPage() {
  return (
    <>
      <h1>Account: {account.value?.name}</h1>
      <Usage />
      <ApiKeys />
    </>
  );
}

function Usage() {
  const usage = useLoad(() => callData<AccountUsage>('GET', '/account'), []);
  return (
    <section class="card" aria-labelledby="usage-title">
      <h2 id="usage-title">This month</h2>
      <Show loaded={usage} label="Loading the quota" retries="this month’s use">
        {({ quota, usage: used }) => (
          <>
            <p>
              Messages in {used.period}: {formatCount(used.messages)} of {formatCount(quota.messagesPerMonth)}
            </p>
            <progress aria-label="Messages used this month" max={quota.messagesPerMonth} value={Math.min(used.messages, quota.messagesPerMonth)} />
            <p>Chatbots: up to {formatCount(quota.maxChatbots)}</p>
          </>
        )}
      </Show>
    </section>
  );
}

/** The API's 400 body is the bare "Invalid request data". */
const LABEL_REFUSED = 'A key’s label is 1 to 100 characters, not only spaces.';
/** The API refuses to revoke the last key of a session signed in with a key (403): it would lock the account out. */
const LAST_KEY =
  'This is the account’s last key: revoking it would lock the account out. Create another key first, or sign in with a one-time link (npm run admin -- console-link ACCOUNT) to revoke the last one.';

function ApiKeys() {
  const keys = useLoad(() => callData<ApiKey[]>('GET', '/api-keys'), []);
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<string>();
  const action = useAction();

  const create = async (event: Event) => {
    event.preventDefault();
    setCreated(undefined);
    await action.run(async () => {
      const { key } = await explained(callData<ApiKey & { key: string }>('POST', '/api-keys', { label: label.trim() }), { 400: LABEL_REFUSED });
      setCreated(key);
      setLabel('');
      keys.reload();
    });
  };
  const revoke = async (id: string) => {
    setCreated(undefined);
    if (await action.run(() => explained(send('DELETE', `/api-keys/${encodeURIComponent(id)}`), { 403: LAST_KEY }))) keys.reload();
  };

  return (
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <Show loaded={keys} label="Loading the keys" retries="the API keys">
        {(list) => (
          <DataTable
            columns={['Label', 'Starts with', 'Made', '']}
            rows={list}
            rowKey={(key) => key.id}
            cells={(key) => [
              <span class="long-text">{key.label || '(no label)'}</span>,
              key.prefix ? <code>{key.prefix}…</code> : <span class="muted">not recorded</span>,
              formatTime(key.created_at),
              <span class="actions">
                <ConfirmButton verb="Revoke" name={key.label || key.prefix || 'this key'} busy={action.busy} onConfirm={() => revoke(key.id)} />
              </span>,
            ]}
          />
        )}
      </Show>
      {created && <SecretOnce lead="Your new key" secret={created} copyLabel="Copy key" />}
      <form onSubmit={create}>
        <TextInput label="Key label" value={label} onValue={setLabel} autoComplete="off" hint="What the key is for, e.g. “CRM sync”." />
        {action.failure && <Alert>{action.failure}</Alert>}
        <SubmitButton busy={action.busy} busyLabel="Working">Create key</SubmitButton>
      </form>
    </section>
  );
}
