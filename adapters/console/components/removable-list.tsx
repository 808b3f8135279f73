// A list of things, each with a "Remove" button named after it.

type Props<T extends { id: string }> = {
  items: T[];
  empty: string;
  describe: (item: T) => string;
  onRemove: (item: T) => void;
};

export function RemovableList<T extends { id: string }>({ items, empty, describe, onRemove }: Props<T>) {
  if (items.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ul class="plain">
      {items.map((item) => (
        <li key={item.id} class="actions">
          <span class="grow">{describe(item)}</span>
          <button type="button" class="secondary" onClick={() => onRemove(item)} aria-label={`Remove ${describe(item)}`}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
