import { useState } from 'preact/hooks';
import { crawlPagesText } from '../../crawl-pages.js';
import { callData, send } from '../api.js';
import { useAction } from '../components/action.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { DataTable } from '../components/data-table.js';
import { Alert, Busy, Notice } from '../components/feedback.js';
import { TextArea, TextInput } from '../components/fields.js';
import { formatTime } from '../format.js';
import { addQuestion, addText, addWebsite, DEFAULT_MAX_PAGES, refreshSource, sourcesPath, uploadFiles } from '../knowledge/add.js';
import { editable, EditSource } from '../knowledge/edit.js';
import { FilesField, maxPagesError, WebsiteFields, type Website } from '../knowledge/fields.js';
import type { Source, SourceDetail, SourcePage } from '../types.js';
import { Show, useLoad } from '../use-load.js';
import { useRefresh } from '../use-refresh.js';
import type { ChatbotPageProps } from './chatbot-section.js';
import { BusyButton, SubmitButton } from '../components/busy-button.js';
import { useFocusBack } from '../components/focus-moves.js';

// What the chatbot knows: its sources, with their status (updated while any is being read), a
// preview of each one's extracted text (and of a website, its pages), editing of a question and
// answer or a text in place, and forms to add files, a website, text or a question and its
// answer. Files and websites are read by the sources job; "Refresh" reads them again.

/** How often the list asks again while a source is queued or being read. */
const POLL_MS = 2_000;

export function SourcesPage({ chatbot }: ChatbotPageProps) {
  const base = sourcesPath(chatbot.id);
  const sources = useLoad(() => callData<Source[]>('GET', base), [base]);
  const working = sources.data?.some((source) => source.status === 'queued' || source.status === 'processing') ?? false;
  useRefresh(sources, POLL_MS, working);

  return (
    <>
      <section class="card" aria-labelledby="sources-title">
        <h2 id="sources-title">Sources</h2>
        <Show loaded={sources} label="Loading the sources">
          {(list) =>
            list.length === 0 ? (
              <p class="muted">No sources yet: the chatbot declines what it cannot find. Add files, a website, text or a question below.</p>
            ) : (
              <ul class="plain" aria-label="Sources">
                {list.map((source) => (
                  <SourceRow key={source.id} base={base} source={source} onChange={sources.reload} />
                ))}
              </ul>
            )
          }
        </Show>
        {/* Not "Refresh", which beside a file's or website's "Refresh" looked like reading every source again. */}
        <button type="button" class="link" onClick={sources.reload}>
          Reload the list
        </button>
      </section>
      <AddFiles base={base} onAdded={sources.reload} />
      <AddWebsite base={base} onAdded={sources.reload} />
      <AddText base={base} onAdded={sources.reload} />
      <AddQa base={base} onAdded={sources.reload} />
    </>
  );
}

const STATUS: Record<Source['status'], string> = { queued: 'queued', processing: 'being read', ready: 'ready', failed: 'failed' };

function SourceRow({ base, source, onChange }: { base: string; source: Source; onChange: () => void }) {
  const [preview, setPreview] = useState(false);
  const [editing, setEditing] = useState(false);
  const opener = useFocusBack<HTMLButtonElement>(editing);
  const action = useAction();
  const url = `${base}/${encodeURIComponent(source.id)}`;
  const remove = async () => {
    if (await action.run(() => send('DELETE', url))) onChange();
  };
  const refresh = async () => {
    if (await action.run(() => refreshSource(base, source.id))) onChange();
  };
  return (
    <li>
      <div class="actions">
        <span class="grow">
          <strong>{source.title}</strong> · {source.type} · {STATUS[source.status]}
          {source.pages ? ` · ${crawlPagesText(source)}` : ''} · {source.chars.toLocaleString()} characters ·{' '}
          {formatTime(source.updated_at)}
        </span>
        <button type="button" class="secondary" aria-expanded={preview} onClick={() => setPreview(!preview)} aria-label={`Preview ${source.title}`}>
          Preview
        </button>
        {editable(source) && !editing && (
          <button type="button" class="secondary" ref={opener} onClick={() => setEditing(true)} aria-label={`Edit ${source.title}`}>
            Edit
          </button>
        )}
        {(source.type === 'file' || source.type === 'website') && (
          <BusyButton class="secondary" onClick={refresh} busy={action.busy} aria-label={`Refresh ${source.title}`}>
            Refresh
          </BusyButton>
        )}
        <ConfirmButton verb="Delete" name={source.title} busy={action.busy} onConfirm={remove} />
      </div>
      {(source.status === 'queued' || source.status === 'processing') && <Busy label={`Reading ${source.title}`} />}
      {source.error && <Alert>{source.error}</Alert>}
      {action.failure && <Alert>{action.failure}</Alert>}
      {editing && (
        <EditSource
          url={url}
          source={source}
          onDone={(saved) => {
            setEditing(false);
            if (!saved) return;
            setPreview(false);
            onChange();
          }}
        />
      )}
      {preview && <Preview url={url} title={source.title} version={source.updated_at} />}
    </li>
  );
}

/** Read again whenever the source changes (`version`), so a crawl or a refresh shows what it read. */
function Preview({ url, title, version }: { url: string; title: string; version: string }) {
  const detail = useLoad(() => callData<SourceDetail>('GET', url), [url, version]);
  return (
    <Show loaded={detail} label="Loading the text" retries={`the text of ${title}`}>
      {(source) => (
        <>
          {source.pageList && source.pageList.length > 0 && <PageList title={source.title} pages={source.pageList} />}
          <pre aria-label={`Text of ${source.title}`}>{source.text || '(no text)'}</pre>
        </>
      )}
    </Show>
  );
}

/** Each page of a crawl with what became of it, and why when it was not read. */
function PageList({ title, pages }: { title: string; pages: SourcePage[] }) {
  return (
    <DataTable
      caption={`Pages of ${title}`}
      columns={['Address', 'Title', 'Status', 'Characters', 'Why']}
      rows={pages}
      rowKey={(page) => page.url}
      cells={(page) => [
        <a class="long-text" href={page.url} rel="noreferrer" target="_blank">
          {page.url}
        </a>,
        <span class="long-text">{page.title}</span>,
        page.status,
        page.chars.toLocaleString(),
        page.reason ?? '',
      ]}
    />
  );
}

const NO_FILES = 'Choose the files to upload, or drop them on “Files”, first.';

function AddFiles({ base, onAdded }: { base: string; onAdded: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  // "Upload files" pressed with none chosen: said, rather than nothing happening.
  const [none, setNone] = useState(false);
  const action = useAction();
  const choose = (chosen: File[]) => {
    setFiles(chosen);
    setNone(false);
  };
  const add = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setNone(files.length === 0);
    if (files.length === 0) return;
    if (await action.run(() => uploadFiles(base, files))) {
      setFiles([]);
      form.reset();
      onAdded();
    }
  };
  return (
    <form class="card" onSubmit={add} aria-labelledby="add-files-title">
      <h2 id="add-files-title">Add files</h2>
      <FilesField files={files} onFiles={choose} error={none ? NO_FILES : action.failure} />
      <SubmitButton busy={action.busy} busyLabel="Uploading the files">Upload files</SubmitButton>
    </form>
  );
}

const NO_WEBSITE: Website = { url: '', maxPages: String(DEFAULT_MAX_PAGES) };

function AddWebsite({ base, onAdded }: { base: string; onAdded: () => void }) {
  const [website, setWebsite] = useState(NO_WEBSITE);
  /** The address of a site the chatbot had already, read again rather than added twice. */
  const [known, setKnown] = useState<string>();
  const action = useAction();
  const add = async (event: Event) => {
    event.preventDefault();
    if (maxPagesError(website.maxPages)) return;
    setKnown(undefined);
    if (await action.run(async () => {
      const added = await addWebsite(base, website.url.trim(), Number(website.maxPages));
      if (added.known) setKnown(added.source.title);
    })) {
      setWebsite(NO_WEBSITE);
      onAdded();
    }
  };
  return (
    <form class="card" onSubmit={add} aria-labelledby="add-website-title">
      <h2 id="add-website-title">Add a website</h2>
      <WebsiteFields website={website} onWebsite={setWebsite} required />
      {known && <Notice>{`${known} is one of this chatbot’s sources already: it is read again (with this page limit), not added twice.`}</Notice>}
      {action.failure && <Alert>{action.failure}</Alert>}
      <SubmitButton busy={action.busy} busyLabel="Adding the website">Add website</SubmitButton>
    </form>
  );
}

function AddText({ base, onAdded }: { base: string; onAdded: () => void }) {
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const action = useAction();
  const add = async (event: Event) => {
    event.preventDefault();
    if (await action.run(() => addText(base, title.trim(), text))) {
      setTitle('');
      setText('');
      onAdded();
    }
  };
  return (
    <form class="card" onSubmit={add} aria-labelledby="add-text-title">
      <h2 id="add-text-title">Add text</h2>
      <TextInput label="Title" value={title} onValue={setTitle} autoComplete="off" hint="Optional, e.g. “Opening hours”." />
      <TextArea label="Text" value={text} onValue={setText} rows={8} required />
      {action.failure && <Alert>{action.failure}</Alert>}
      <SubmitButton busy={action.busy} busyLabel="Adding and indexing the text">Add text</SubmitButton>
    </form>
  );
}

function AddQa({ base, onAdded }: { base: string; onAdded: () => void }) {
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const action = useAction();
  const add = async (event: Event) => {
    event.preventDefault();
    if (await action.run(() => addQuestion(base, question, answer))) {
      setQuestion('');
      setAnswer('');
      onAdded();
    }
  };
  return (
    <form class="card" onSubmit={add} aria-labelledby="add-qa-title">
      <h2 id="add-qa-title">Add a question and answer</h2>
      <TextInput label="Question" value={question} onValue={setQuestion} autoComplete="off" required />
      <TextArea label="Answer" value={answer} onValue={setAnswer} rows={4} required />
      {action.failure && <Alert>{action.failure}</Alert>}
      <SubmitButton busy={action.busy} busyLabel="Adding the answer">Add question</SubmitButton>
    </form>
  );
}
