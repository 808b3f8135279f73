import type { ChatbotSettings, SettingsPatch } from './chatbot-settings.js';

export type PatchEntry = { path: string[]; value: unknown };

/**
 * The leaves a patch sets, as paths. Store adapters apply these as one atomic write (MongoDB `$set`
 * with dotted paths, SQLite inside one transaction), so concurrent updates of different fields keep
 * each other's changes.
 */
export function patchEntries(patch: object, prefix: string[] = []): PatchEntry[] {
  return Object.entries(patch).flatMap(([key, value]): PatchEntry[] => {
    if (value === undefined) return [];
    const path = [...prefix, key];
    const isBranch = typeof value === 'object' && value !== null && !Array.isArray(value);
    return isBranch ? patchEntries(value, path) : [{ path, value }];
  });
}

export function applyPatch(settings: ChatbotSettings, patch: SettingsPatch): ChatbotSettings {
  const merged: Record<string, unknown> = structuredClone(settings);
  for (const { path, value } of patchEntries(patch)) {
    let node = merged;
    for (const key of path.slice(0, -1)) {
      node = node[key] as Record<string, unknown>;
    }
    node[path.at(-1) as string] = value;
  }
  return merged as ChatbotSettings;
}
