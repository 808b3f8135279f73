import { actionOn } from './item-name.js';

// A list of things, each with a "Remove" button named after it.

type Props<T extends { id: string }> = {
  items: T[];
  empty: string;
  describe: (item: T) => string;
  /** More about an item, under its description (its button is named by the description alone). */
  note?: (item: T) => string | undefined;
  onRemove: (item: T) => void;
};

export function RemovableList<T extends { id: string }>({ items, empty, describe, note, onRemove }: Props<T>) {
  if (items.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ul class="plain">
      {items.map((item) => (
        <li key={item.id} class="actions">
          <span class="grow">
            {describe(item)}
            {note?.(item) && <span class="item-note muted">{note(item)}</span>}
          </span>
          <button type="button" class="secondary" onClick={() => onRemove(item)} aria-label={actionOn('Remove', describe(item))}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
