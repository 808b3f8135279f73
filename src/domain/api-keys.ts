import { hash, randomBytes } from 'node:crypto';

// API keys are shown once and stored only as a hash, so a leaked database leaks no usable key.

const KEY_PREFIX = 'sb_';

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

/** Hashed on every authenticated request: the one-shot hash costs a third of a Hash object. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}
