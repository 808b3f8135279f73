import { useId, useState } from 'preact/hooks';
import { TextInput } from '../components/fields.js';
import { MAX_PAGES } from './add.js';

// The controls that name file and website sources: files chosen in a file input or dropped on
// its zone (either way they replace the ones chosen before), and a website's address with the most pages to read.

const ACCEPT = '.pdf,.docx,.md,.markdown,.html,.htm,.txt,application/pdf,text/plain,text/markdown,text/html';

export function FilesField({ files, onFiles, error }: { files: File[]; onFiles: (files: File[]) => void; error?: string | undefined }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    onFiles(Array.from(event.dataTransfer?.files ?? []));
  };
  return (
    <div class="field">
      <div
        class={over ? 'drop over' : 'drop'}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <label for={id}>Files</label>
        <p class="hint" id={`${id}-hint`}>
          Drop files here or choose them: PDF, Word (DOCX), Markdown, HTML or plain text.
        </p>
        <input
          id={id}
          type="file"
          multiple
          accept={ACCEPT}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onFiles(Array.from(event.currentTarget.files ?? []))}
        />
      </div>
      {files.length > 0 && (
        <ul class="plain" aria-label="Chosen files">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`}>
              {file.name} · {file.size.toLocaleString()} bytes
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export type Website = { url: string; maxPages: string };

export const maxPagesError = (maxPages: string): string | undefined => {
  const value = Number(maxPages);
  return Number.isInteger(value) && value >= 1 && value <= MAX_PAGES ? undefined : `A whole number from 1 to ${MAX_PAGES.toLocaleString('en')}.`;
};

type WebsiteProps = { website: Website; onWebsite: (website: Website) => void; required?: boolean; urlError?: string | undefined };

export function WebsiteFields({ website, onWebsite, required, urlError }: WebsiteProps) {
  return (
    <div class="row">
      <TextInput
        label="Website URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://help.example.com/"
        value={website.url}
        onValue={(url) => onWebsite({ ...website, url })}
        required={required}
        hint="Its pages on the same site are read, following links."
        error={urlError}
      />
      <TextInput
        label="Max pages"
        type="number"
        min="1"
        max={String(MAX_PAGES)}
        step="1"
        inputMode="numeric"
        value={website.maxPages}
        onValue={(maxPages) => onWebsite({ ...website, maxPages })}
        error={maxPagesError(website.maxPages)}
      />
    </div>
  );
}
