import type { AssetKind, Store } from '../store/port.js';

/**
 * The public address of a chatbot's image, or null when it has none. Its content hash as the
 * query makes a new upload a new address, so browsers show it at once and may cache each for good.
 */
export async function imageUrl(store: Store, chatbotId: string, kind: AssetKind): Promise<string | null> {
  const etag = await store.assets.etag(chatbotId, kind);
  return etag ? `/assets/chatbots/${encodeURIComponent(chatbotId)}/${kind}?v=${encodeURIComponent(etag.replaceAll('"', ''))}` : null;
}
