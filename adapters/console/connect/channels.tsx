import { useState } from 'preact/hooks';
import { callData, explained, query, send } from '../api.js';
import { useAction } from '../components/action.js';
import { Alert } from '../components/feedback.js';
import { Checkbox, Select, TextInput } from '../components/fields.js';
import { RemovableList } from '../components/removable-list.js';
import type { Chatbot } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { SubmitButton } from '../components/busy-button.js';

// Slack and Discord: the channels the chatbot answers in (bindings) and the daily lead digests
// it posts. The adapters must run with their tokens for either to take effect.

type Platform = 'slack' | 'discord';
type Channel = { id: string; platform: Platform; workspaceId: string; channelId: string };
type Binding = Channel & { mode: 'mentions' | 'all' };
type DigestRun = { localDate: string; status: 'posted' | 'skipped' | 'missed' | 'failed'; error: string | null };
type Digest = Channel & { time: string; timezone: string; postWhenEmpty: boolean; lastRun: DigestRun | null };

const PLATFORMS = [
  { value: 'slack', label: 'Slack' },
  { value: 'discord', label: 'Discord' },
] as const;

/** What the channel fields are called on each platform. */
const WORDS: Record<Platform, { workspace: string; channel: string }> = {
  slack: { workspace: 'Workspace ID', channel: 'Channel ID' },
  discord: { workspace: 'Server ID', channel: 'Channel ID' },
};

function useChannelForm() {
  const [platform, setPlatform] = useState<Platform>('slack');
  const [workspaceId, setWorkspaceId] = useState('');
  const [channelId, setChannelId] = useState('');
  const fields = (channelHint?: string) => (
    <div class="row">
      <Select label="Platform" value={platform} options={PLATFORMS} onValue={setPlatform} />
      <TextInput label={WORDS[platform].workspace} value={workspaceId} onValue={setWorkspaceId} autoComplete="off" required />
      <TextInput label={WORDS[platform].channel} value={channelId} onValue={setChannelId} autoComplete="off" required hint={channelHint} />
    </div>
  );
  return { value: { platform, workspaceId: workspaceId.trim(), channelId: channelId.trim() }, fields };
}

/** What the API takes as IDs (its refusal of anything else is the bare "Invalid request data"). */
const IDS = 'the workspace (or server) and channel IDs are up to 64 letters, digits and . _ : - each, as Slack or Discord shows them (T0123ABCD, C0456EFGH)';
const CHANNEL_REFUSED = `The hub refused the channel: ${IDS}; * as the channel makes the chatbot the workspace’s default.`;
const DIGEST_REFUSED = `The hub refused the digest: ${IDS}, and the time zone is an IANA name such as Europe/Oslo.`;

const where = (item: Channel) =>
  `${item.platform === 'slack' ? 'Slack' : 'Discord'} ${item.workspaceId} / ${item.channelId === '*' ? 'every channel' : item.channelId}`;

export function Bindings({ chatbot }: { chatbot: Chatbot }) {
  const list = useLoad(() => callData<Binding[]>('GET', `/integrations/bindings${query({ chatbotId: chatbot.id, size: 100 })}`), [chatbot.id]);
  const channel = useChannelForm();
  const [everyMessage, setEveryMessage] = useState(false);
  const action = useAction();

  const add = async (event: Event) => {
    event.preventDefault();
    const body = { ...channel.value, chatbotId: chatbot.id, mode: everyMessage ? 'all' : 'mentions' };
    if (await action.run(() => explained(send('POST', '/integrations/bindings', body), { 400: CHANNEL_REFUSED }))) list.reload();
  };
  const remove = async (id: string) => {
    if (await action.run(() => send('DELETE', `/integrations/bindings/${encodeURIComponent(id)}`))) list.reload();
  };

  return (
    <section class="card" aria-labelledby="bindings-title">
      <h2 id="bindings-title">Slack and Discord channels</h2>
      <Show loaded={list} label="Loading the channels" retries="the channels">
        {(bindings) => (
          <RemovableList
            items={bindings}
            empty="No channels yet."
            describe={(binding) => `${where(binding)} · ${binding.mode === 'all' ? 'every message' : 'mentions only'}`}
            onRemove={(binding) => remove(binding.id)}
          />
        )}
      </Show>
      <form onSubmit={add}>
        <h3>Add a channel</h3>
        {channel.fields('* makes the chatbot the whole workspace’s default.')}
        <Checkbox label="Answer every message, not only mentions" checked={everyMessage} onValue={setEveryMessage} />
        {action.failure && <Alert>{action.failure}</Alert>}
        <SubmitButton busy={action.busy} busyLabel="Saving">Add channel</SubmitButton>
      </form>
    </section>
  );
}

/** How a digest's latest day went, and why when it was not posted (a bot not in the channel says so every day). */
const lastRunText = ({ lastRun }: Digest) =>
  lastRun && `Last run ${lastRun.localDate}: ${lastRun.status}${lastRun.error ? ` (${lastRun.error})` : ''}.`;

export function Digests({ chatbot }: { chatbot: Chatbot }) {
  const list = useLoad(() => callData<Digest[]>('GET', `/integrations/digests${query({ chatbotId: chatbot.id, size: 100 })}`), [chatbot.id]);
  const channel = useChannelForm();
  const [time, setTime] = useState('09:00');
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [postWhenEmpty, setPostWhenEmpty] = useState(false);
  const action = useAction();

  const add = async (event: Event) => {
    event.preventDefault();
    const body = { ...channel.value, chatbotId: chatbot.id, time, timezone: timezone.trim(), postWhenEmpty };
    if (await action.run(() => explained(send('POST', '/integrations/digests', body), { 400: DIGEST_REFUSED }))) list.reload();
  };
  const remove = async (id: string) => {
    if (await action.run(() => send('DELETE', `/integrations/digests/${encodeURIComponent(id)}`))) list.reload();
  };

  return (
    <section class="card" aria-labelledby="digests-title">
      <h2 id="digests-title">Lead digests</h2>
      <p class="muted">A daily message in a channel listing the day’s new leads.</p>
      <Show loaded={list} label="Loading the digests" retries="the digests">
        {(digests) => (
          <RemovableList
            items={digests}
            empty="No digests yet."
            describe={(digest) => `${where(digest)} · ${digest.time} ${digest.timezone}${digest.postWhenEmpty ? ' · also when empty' : ''}`}
            note={(digest) => lastRunText(digest) ?? undefined}
            onRemove={(digest) => remove(digest.id)}
          />
        )}
      </Show>
      <form onSubmit={add}>
        <h3>Add a digest</h3>
        {channel.fields()}
        <div class="row">
          <TextInput label="Time" type="time" value={time} onValue={setTime} required />
          <TextInput label="Time zone" value={timezone} onValue={setTimezone} hint="e.g. Europe/Oslo" required />
        </div>
        <Checkbox label="Post even when there are no new leads" checked={postWhenEmpty} onValue={setPostWhenEmpty} />
        {action.failure && <Alert>{action.failure}</Alert>}
        <SubmitButton busy={action.busy} busyLabel="Saving">Add digest</SubmitButton>
      </form>
    </section>
  );
}
