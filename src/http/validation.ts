import { z } from 'zod';
import { invalidRequest } from '../domain/errors.js';

/** Parses input at the HTTP boundary; anything that does not fit is the contract's invalid request. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(z.prettifyError(result.error));
  return result.data;
}

export const chatbotId = z.string().trim().min(1).max(64);

/** The caller's id of a saved conversation (adapters use e.g. `slack:{team}:{channel}:{thread_ts}`). */
export const conversationId = z.string().trim().min(1).max(256);

/** A saved conversation of a chatbot in a path, by the caller's `conversationId` (as saved, so untrimmed). */
export const conversationPath = z.object({ chatbotId, conversationId: z.string().min(1).max(512) });

export const platform = z.enum(['slack', 'discord']);

/** A platform or chatbot id: up to 64 of [A-Za-z0-9_.:-]. */
export const platformId = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/);
