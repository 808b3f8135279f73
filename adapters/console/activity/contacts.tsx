import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { callData, explained, query, send } from '../api.js';
import { useAction } from '../components/action.js';
import { SubmitButton } from '../components/busy-button.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { Alert, Notice } from '../components/feedback.js';
import { TextInput } from '../components/fields.js';
import { counted } from '../format.js';
import type { Chatbot, Contact } from '../types.js';
import { readPages } from '../paged.js';
import { Show, useLoad } from '../use-load.js';
import { LIST_REFRESH_MS, useRefresh } from '../use-refresh.js';

// The chatbot's contacts: a list (a hundred at a time), and one contact to view, edit or delete
// (by its external id). The list is read again by itself, as Activity's conversations are.

const PAGE_SIZE = 100;
/** The API's 400 body is the bare "Invalid request data". */
const CONTACT_REFUSED = 'The hub refused the contact: a name takes at most 256 characters, an email at most 254 (and must be an address), a phone number at most 64.';

export function Contacts({ chatbot }: { chatbot: Chatbot }) {
  const { query: params, path, route } = useLocation();
  const [round, setRound] = useState(0);
  const [pages, setPages] = useState(1);
  const contacts = useLoad(
    () => readPages<Contact>(pages, PAGE_SIZE, (page) => `/chatbots/${encodeURIComponent(chatbot.id)}/contacts${query({ page, per_page: PAGE_SIZE })}`),
    [chatbot.id, round, pages],
  );
  // Read again in place: the pages loaded, the open contact and what is typed in it stay.
  useRefresh(contacts, LIST_REFRESH_MS);
  const open = params.contact;
  return (
    <div class="split">
      <Show loaded={contacts} label="Loading the contacts" retries="the contacts">
        {({ list, total }) =>
          list.length === 0 ? (
            <p class="muted">No contacts yet. Contacts are added through the API (POST /chatbots/{'{chatbotId}'}/contacts).</p>
          ) : (
            <div>
              <p class="muted" role="status">
                {list.length < total ? `${list.length} of ${total} contacts shown.` : `${counted(total, 'contact')}.`}
              </p>
              <ul class="plain" aria-label="Contacts">
                {list.map((contact) => (
                  <li key={contact.id}>
                    <a href={`${path}?contact=${encodeURIComponent(contact.external_id)}`} aria-current={contact.external_id === open ? 'true' : undefined}>
                      {contact.name || contact.external_id}
                    </a>
                    <div class="muted">{contact.email || contact.phonenumber || contact.external_id}</div>
                  </li>
                ))}
              </ul>
              {list.length < total && (
                <button type="button" class="secondary" onClick={() => setPages(pages + 1)}>
                  Load more
                </button>
              )}
            </div>
          )
        }
      </Show>
      <div>
        {open ? (
          <ContactView
            key={open}
            chatbotId={chatbot.id}
            externalId={open}
            onDeleted={() => {
              setRound(round + 1);
              route(path);
            }}
            onSaved={() => setRound(round + 1)}
          />
        ) : (
          <p class="muted">Choose a contact to see it.</p>
        )}
      </div>
    </div>
  );
}

function ContactView({ chatbotId, externalId, onDeleted, onSaved }: { chatbotId: string; externalId: string; onDeleted: () => void; onSaved: () => void }) {
  const url = `/chatbots/${encodeURIComponent(chatbotId)}/contacts/${encodeURIComponent(externalId)}`;
  const contact = useLoad(() => callData<Contact>('GET', url), [url]);
  return (
    <Show loaded={contact} label="Loading the contact" retries={`contact ${externalId}`}>
      {(found) => <ContactForm url={url} contact={found} onDeleted={onDeleted} onSaved={onSaved} />}
    </Show>
  );
}

function ContactForm({ url, contact, onDeleted, onSaved }: { url: string; contact: Contact; onDeleted: () => void; onSaved: () => void }) {
  const [name, setName] = useState(contact.name ?? '');
  const [email, setEmail] = useState(contact.email ?? '');
  const [phone, setPhone] = useState(contact.phonenumber ?? '');
  const [saved, setSaved] = useState(false);
  const action = useAction();

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const data = { name: name.trim() || null, email: email.trim() || null, phonenumber: phone.trim() || null };
    if (await action.run(() => explained(send('PATCH', url, { data }), { 400: CONTACT_REFUSED }))) {
      setSaved(true);
      onSaved();
    }
  };
  const remove = async () => {
    if (await action.run(() => send('DELETE', url))) onDeleted();
  };

  const attributes = Object.entries(contact.custom_attributes ?? {});
  return (
    <form class="card" onSubmit={save}>
      <h2>Contact {contact.external_id}</h2>
      <TextInput label="Contact name" value={name} onValue={setName} autoComplete="off" />
      <TextInput label="Email" type="email" value={email} onValue={setEmail} autoComplete="off" />
      <TextInput label="Phone number" type="tel" value={phone} onValue={setPhone} autoComplete="off" />
      {attributes.length > 0 && (
        <dl>
          {attributes.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {action.failure && <Alert>{action.failure}</Alert>}
      {saved && <Notice>Contact saved.</Notice>}
      <div class="actions">
        <SubmitButton busy={action.busy} busyLabel="Working">Save contact</SubmitButton>
        <ConfirmButton verb="Delete contact" name={contact.external_id} busy={action.busy} onConfirm={remove} />
      </div>
    </form>
  );
}
