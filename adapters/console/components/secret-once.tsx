import { CopyButton } from './copy-button.js';
import { Notice } from './feedback.js';

type Props = { lead: string; secret: string; copyLabel: string };

/**
 * A secret the hub answers this once (a new key, a webhook's signing secret), with a copy button.
 * Whoever shows it keeps it only in its own state, so it is gone once the page is left.
 */
export function SecretOnce({ lead, secret, copyLabel }: Props) {
  return (
    <Notice>
      {lead}, shown this once: <code class="secret">{secret}</code> <CopyButton text={secret} label={copyLabel} />
    </Notice>
  );
}
