import { useState } from 'preact/hooks';
import { callJson } from '../api.js';
import { Alert, Notice } from '../components/feedback.js';
import { Checkbox, Select, TemperatureInput, TextArea, TextInput } from '../components/fields.js';
import { errorText } from '../format.js';
import { MODEL_IDS, modelOptions } from '../models.js';
import { DeleteChatbot } from '../settings/delete-chatbot.js';
import { checkDraft, draftOf, settingsBody, type Draft, type FieldErrors } from '../settings/draft.js';
import { HandoffSettings } from '../settings/handoff.js';
import { ImageSetting, type ImageKind } from '../settings/images.js';
import { WidgetPreview } from '../settings/preview.js';
import type { CollectField } from '../types.js';
import type { ChatbotPageProps } from './chatbot-section.js';
import { SubmitButton } from '../components/busy-button.js';
import { useFocusFirstProblem } from '../components/focus-moves.js';

// Every v1 setting in four groups and the human handoff's in a fifth, a live preview of the widget from the unsaved values, and
// "Save", which sends them all at once.

const LEAD_FIELDS = [
  { key: 'name', title: 'name' },
  { key: 'email', title: 'email' },
  { key: 'phone', title: 'phone number' },
] as const;

export function SettingsPage({ chatbot, reload }: ChatbotPageProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(chatbot));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { scope, refused } = useFocusFirstProblem();
  // The chatbot's data says where its images are (null: none), so nothing asks for a missing one.
  const images: Record<ImageKind, string | null> = { 'profile-picture': chatbot.profilePictureUrl, icon: chatbot.iconUrl };

  const edit = (change: Partial<Draft>) => {
    setSaved(undefined);
    setDraft((current) => ({ ...current, ...change }));
  };
  const editStyles = (change: Partial<Draft['styles']>) => edit({ styles: { ...draft.styles, ...change } });
  const editLeads = (change: Partial<Draft['collectCustomerInformation']>) =>
    edit({ collectCustomerInformation: { ...draft.collectCustomerInformation, ...change } });
  const editLeadField = (key: 'name' | 'email' | 'phone', change: Partial<CollectField>) =>
    editLeads({ [key]: { ...draft.collectCustomerInformation[key], ...change } });

  const save = async (event: Event) => {
    event.preventDefault();
    setFailure(undefined);
    setSaved(undefined);
    const found = checkDraft(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFailure('Some settings need a fix: see the notes next to them.');
      refused();
      return;
    }
    setBusy(true);
    try {
      const { message } = await callJson<{ message: string }>('POST', '/update-chatbot-settings', settingsBody(chatbot.id, draft));
      setSaved(message);
      reload();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const { styles, collectCustomerInformation: leads } = draft;
  return (
    <div class="settings-layout">
      <div>
        <form onSubmit={save} noValidate ref={scope}>
          <fieldset>
            <legend>General</legend>
            <TextInput label="Name" value={draft.name} onValue={(name) => edit({ name })} error={errors.name} />
            <TextArea label="Instructions" rows={6} value={draft.instructions} onValue={(instructions) => edit({ instructions })} error={errors.instructions} />
            <div class="row">
              <Select label="Model" value={draft.model} options={modelOptions(MODEL_IDS)} onValue={(model) => edit({ model })} error={errors.model} />
              <TemperatureInput
                value={draft.temp}
                onValue={(temp) => edit({ temp })}
                error={errors.temp}
                hint="0 sticks to the sources; 1 varies its wording most."
              />
            </div>
          </fieldset>

          <fieldset>
            <legend>Chat window</legend>
            <TextArea
              label="Initial messages"
              rows={3}
              value={draft.initialMessages}
              onValue={(initialMessages) => edit({ initialMessages })}
              error={errors.initialMessages}
              hint="One message a line, shown when the window opens."
            />
            <TextArea
              label="Suggested messages"
              rows={3}
              value={draft.suggestedMessages}
              onValue={(suggestedMessages) => edit({ suggestedMessages })}
              error={errors.suggestedMessages}
              hint="One a line: questions visitors can pick."
            />
            <TextInput label="Display name" value={styles.displayName} onValue={(displayName) => editStyles({ displayName })} error={errors['styles.displayName']} />
            <div class="row">
              <Select
                label="Theme"
                value={styles.theme}
                options={[
                  { value: 'light', label: 'Light' },
                  { value: 'dark', label: 'Dark' },
                ]}
                onValue={(theme) => editStyles({ theme })}
              />
              <Select
                label="Button alignment"
                value={styles.alignChatButton}
                options={[
                  { value: 'right', label: 'Right' },
                  { value: 'left', label: 'Left' },
                ]}
                onValue={(alignChatButton) => editStyles({ alignChatButton })}
              />
            </div>
            <div class="row">
              <TextInput label="Button colour" value={styles.buttonColor} onValue={(buttonColor) => editStyles({ buttonColor })} error={errors['styles.buttonColor']} hint="e.g. #3B81F6" />
              <TextInput
                label="User message colour"
                value={styles.userMessageColor}
                onValue={(userMessageColor) => editStyles({ userMessageColor })}
                error={errors['styles.userMessageColor']}
                hint="e.g. #3B81F6"
              />
            </div>
            <TextInput
              label="Auto-open after (seconds)"
              type="number"
              min="0"
              inputMode="decimal"
              value={styles.autoOpenChatWindowAfter}
              onValue={(autoOpenChatWindowAfter) => editStyles({ autoOpenChatWindowAfter })}
              error={errors['styles.autoOpenChatWindowAfter']}
              hint="0 keeps the window closed until the visitor opens it."
            />
            {(['profile-picture', 'icon'] as const).map((kind) => (
              <ImageSetting key={kind} chatbotId={chatbot.id} kind={kind} url={images[kind]} onChange={reload} />
            ))}
          </fieldset>

          <fieldset>
            <legend>Security</legend>
            <Select
              label="Visibility"
              value={draft.visibility}
              options={[
                { value: 'private', label: 'Private: only with an API key' },
                { value: 'public', label: 'Public: the widget and its link work' },
              ]}
              onValue={(visibility) => edit({ visibility })}
            />
            <TextArea
              label="Domains"
              rows={3}
              value={draft.domains}
              onValue={(domains) => edit({ domains })}
              error={errors.domains}
              hint="One a line, e.g. example.com; subdomains count too."
            />
            <Checkbox
              label="Only allow on added domains"
              checked={draft.onlyAllowOnAddedDomains}
              onValue={(onlyAllowOnAddedDomains) => edit({ onlyAllowOnAddedDomains })}
            />
            <div class="row">
              <TextInput label="IP limit" type="number" min="0" inputMode="numeric" value={draft.ipLimit} onValue={(ipLimit) => edit({ ipLimit })} error={errors.ipLimit} hint="Messages per visitor’s address." />
              <TextInput
                label="IP limit timeframe (seconds)"
                type="number"
                min="0"
                inputMode="numeric"
                value={draft.ipLimitTimeframe}
                onValue={(ipLimitTimeframe) => edit({ ipLimitTimeframe })}
                error={errors.ipLimitTimeframe}
              />
            </div>
            <TextInput label="IP limit message" value={draft.ipLimitMessage} onValue={(ipLimitMessage) => edit({ ipLimitMessage })} error={errors.ipLimitMessage} />
          </fieldset>

          <fieldset>
            <legend>Leads</legend>
            <TextInput label="Lead form title" value={leads.title} onValue={(title) => editLeads({ title })} error={errors['collectCustomerInformation.title']} />
            {LEAD_FIELDS.map(({ key, title }) => (
              <div key={key} class="row">
                <Checkbox label={`Ask for the ${title}`} checked={leads[key].active} onValue={(active) => editLeadField(key, { active })} />
                <TextInput
                  label={`Label of the ${title} field`}
                  value={leads[key].label}
                  onValue={(label) => editLeadField(key, { label })}
                  error={errors[`collectCustomerInformation.${key}.label`]}
                />
              </div>
            ))}
          </fieldset>

          <HandoffSettings handoff={draft.handoff} errors={errors} onChange={(change) => edit({ handoff: { ...draft.handoff, ...change } })} />

          {failure && <Alert>{failure}</Alert>}
          {saved && <Notice>{saved}</Notice>}
          <div class="actions"><SubmitButton busy={busy} busyLabel="Saving">Save</SubmitButton></div>
        </form>
        <DeleteChatbot chatbot={chatbot} />
      </div>
      <div class="preview-pane">
        <WidgetPreview draft={draft} iconUrl={chatbot.iconUrl} profilePictureUrl={chatbot.profilePictureUrl} />
      </div>
    </div>
  );
}
