import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { Account, Asset, AssetKind, Store } from '../store/port.js';
import { findOwnedChatbot } from './owned-chatbot.js';
import { invalidRequest, notFound } from './errors.js';

// Only images a browser renders safely; the type is read from the bytes, never from the name or
// the declared content type, so nothing else is ever served back as an image.
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export async function storeChatbotImage(
  store: Store,
  account: Account,
  chatbotId: string,
  kind: AssetKind,
  bytes: Buffer,
): Promise<Asset> {
  await findOwnedChatbot(store, account, chatbotId);
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !IMAGE_TYPES.has(detected.mime)) {
    throw invalidRequest(`not a PNG, JPEG, GIF or WebP image (${detected?.mime ?? 'unknown type'})`);
  }
  const asset: Asset = {
    chatbotId,
    kind,
    contentType: detected.mime,
    data: bytes,
    etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
    updatedAt: new Date(),
  };
  await store.assets.put(asset);
  return asset;
}

export async function deleteChatbotImage(
  store: Store,
  account: Account,
  chatbotId: string,
  kind: AssetKind,
): Promise<void> {
  await findOwnedChatbot(store, account, chatbotId);
  if (!(await store.assets.delete(chatbotId, kind))) throw notFound(`chatbot ${chatbotId} has no ${kind}`);
}

export async function findChatbotImage(store: Store, chatbotId: string, kind: AssetKind): Promise<Asset> {
  const asset = await store.assets.get(chatbotId, kind);
  if (!asset) throw notFound(`chatbot ${chatbotId} has no ${kind}`);
  return asset;
}
