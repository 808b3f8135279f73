import type { ComponentChildren } from 'preact';

// What the console says about work and its outcome: errors in an alert, successes in a status
// line, and a progress bar while something takes its time.

export function Alert({ children }: { children: ComponentChildren }) {
  return (
    <div role="alert" class="alert">
      {children}
    </div>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <div role="status" class="notice">
      {children}
    </div>
  );
}

/** Indeterminate: the API does not say how far along it is. */
export function Busy({ label }: { label: string }) {
  return (
    <div class="busy" role="status">
      <progress aria-label={label} />
      <span>{label}…</span>
    </div>
  );
}
