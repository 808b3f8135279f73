import { useId } from 'preact/hooks';

// Labelled form controls. Each has its label in words, its hint and its error next to it (tied to
// the control with aria-describedby), and reports plain values.

type Common = { label: string; error?: string | undefined; hint?: string };

function described(id: string, { error, hint }: Common) {
  const ids = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ');
  return { 'aria-describedby': ids || undefined, 'aria-invalid': error ? ('true' as const) : undefined };
}

function Notes({ id, error, hint }: { id: string } & Omit<Common, 'label'>) {
  return (
    <>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  );
}

type InputProps = Common & {
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'password' | 'number' | 'email' | 'tel' | 'url' | 'date' | 'time' | 'search';
  autoComplete?: string;
  required?: boolean;
  min?: string;
  max?: string;
  step?: string;
  inputMode?: 'text' | 'decimal' | 'numeric' | 'email' | 'tel' | 'url' | 'search';
  maxLength?: number;
  placeholder?: string;
};

export function TextInput({ label, error, hint, value, onValue, ...rest }: InputProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        {...rest}
        value={value}
        onInput={(event) => onValue(event.currentTarget.value)}
        {...described(id, { label, error, hint })}
      />
      <Notes id={id} error={error} hint={hint} />
    </div>
  );
}

type AreaProps = Common & { value: string; onValue: (value: string) => void; rows?: number; required?: boolean; placeholder?: string; maxLength?: number };

export function TextArea({ label, error, hint, value, onValue, ...rest }: AreaProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} {...rest} value={value} onInput={(event) => onValue(event.currentTarget.value)} {...described(id, { label, error, hint })} />
      <Notes id={id} error={error} hint={hint} />
    </div>
  );
}

type SelectProps<T extends string> = Common & { value: T; options: readonly { value: T; label: string }[]; onValue: (value: T) => void };

export function Select<T extends string>({ label, error, hint, value, options, onValue }: SelectProps<T>) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onValue(event.currentTarget.value as T)} {...described(id, { label, error, hint })}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Notes id={id} error={error} hint={hint} />
    </div>
  );
}

export function Checkbox({ label, checked, onValue, hint }: { label: string; checked: boolean; onValue: (checked: boolean) => void; hint?: string }) {
  const id = useId();
  return (
    <div class="check">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onValue(event.currentTarget.checked)} {...described(id, { label, hint })} />
      <label for={id}>{label}</label>
      <Notes id={id} hint={hint} />
    </div>
  );
}

/** A chat's temperature, 0 to 1, as text while it is typed. */
export function TemperatureInput({ value, onValue, error, hint }: { value: string; onValue: (value: string) => void; error?: string | undefined; hint?: string }) {
  return (
    <TextInput label="Temperature" type="number" min="0" max="1" step="0.1" inputMode="decimal" value={value} onValue={onValue} error={error} hint={hint} />
  );
}
