import { useId } from 'preact/hooks';
import type { CitedSource } from '../types.js';

// The sources an answer cited, under it: each by its title, a web page's linked to its address.

export function UsedSources({ sources }: { sources: CitedSource[] }) {
  const id = useId();
  if (sources.length === 0) return null;
  return (
    <div class="used-sources">
      <span id={id}>Sources used</span>
      <ul aria-labelledby={id}>
        {sources.map((source, at) => (
          <li key={at}>
            {source.url ? (
              <a href={source.url} rel="noreferrer" target="_blank">
                {source.title}
              </a>
            ) : (
              source.title
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
