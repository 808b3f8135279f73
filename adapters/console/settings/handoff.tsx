import { Checkbox, Select, TextArea, TextInput } from '../components/fields.js';
import type { FieldErrors, HandoffDraft } from './draft.js';

// The Settings group of human handoff: whether a person can be handed to the team, what starts
// it, where requests go besides the console's Activity (a Slack or Discord channel), how long
// the team has, and what the person is told.

const PLATFORMS = [
  { value: '', label: 'Only here, in Activity' },
  { value: 'slack', label: 'Also a Slack channel' },
  { value: 'discord', label: 'Also a Discord channel' },
] as const;

type Props = { handoff: HandoffDraft; errors: FieldErrors; onChange: (change: Partial<HandoffDraft>) => void };

export function HandoffSettings({ handoff, errors, onChange }: Props) {
  const workspace = handoff.platform === 'discord' ? 'Server ID' : 'Workspace ID';
  return (
    <fieldset>
      <legend>Human handoff</legend>
      <Checkbox
        label="Hand conversations to the team"
        checked={handoff.enabled}
        onValue={(enabled) => onChange({ enabled })}
        hint="The chatbot stays silent while a team member answers in Activity (or Slack or Discord), until they hand it back."
      />
      <Select label="Requests go" value={handoff.platform} options={PLATFORMS} onValue={(platform) => onChange({ platform })} />
      {handoff.platform && (
        <div class="row">
          <TextInput label={workspace} value={handoff.workspaceId} onValue={(workspaceId) => onChange({ workspaceId })} error={errors['handoff.workspaceId']} autoComplete="off" />
          <TextInput label="Channel ID" value={handoff.channelId} onValue={(channelId) => onChange({ channelId })} error={errors['handoff.channelId']} autoComplete="off" />
        </div>
      )}
      <Checkbox label="Start one when a person asks for one" checked={handoff.onRequest} onValue={(onRequest) => onChange({ onRequest })} />
      <TextInput
        label="Start one after this many declined replies in a row"
        type="number"
        min="0"
        inputMode="numeric"
        value={handoff.afterDeclines}
        onValue={(afterDeclines) => onChange({ afterDeclines })}
        error={errors['handoff.afterDeclines']}
        hint="0 never does."
      />
      <TextArea
        label="Keywords"
        rows={3}
        value={handoff.keywords}
        onValue={(keywords) => onChange({ keywords })}
        error={errors['handoff.keywords']}
        hint="One a line: words or phrases that start one, in any inflection (refund matches refunds)."
      />
      <div class="row">
        <TextInput
          label="Wait for the team (minutes)"
          type="number"
          inputMode="decimal"
          value={handoff.waitMinutes}
          onValue={(waitMinutes) => onChange({ waitMinutes })}
          error={errors['handoff.waitMinutes']}
          hint="Nobody answering by then, the person is told so."
        />
        <TextInput
          label="Hand back when idle (minutes)"
          type="number"
          inputMode="decimal"
          value={handoff.idleMinutes}
          onValue={(idleMinutes) => onChange({ idleMinutes })}
          error={errors['handoff.idleMinutes']}
          hint="Without a team message this long."
        />
      </div>
      <TextInput label="Waiting message" value={handoff.waitingMessage} onValue={(waitingMessage) => onChange({ waitingMessage })} error={errors['handoff.waitingMessage']} />
      <TextInput label="Offline message" value={handoff.offlineMessage} onValue={(offlineMessage) => onChange({ offlineMessage })} error={errors['handoff.offlineMessage']} />
    </fieldset>
  );
}
