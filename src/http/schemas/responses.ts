import { z } from 'zod';
import type { ZodOpenApiRequestBodyObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import type { FailureKind } from '../../domain/errors.js';
import { FAILURES } from '../failures.js';

// The pieces every operation of the OpenAPI document is made of: JSON bodies, the contract's
// failure bodies, and the success wrapper of the contact-style endpoints.

/** A JSON request body, validated by `schema`, optionally with an example. */
export const jsonRequest = (schema: z.ZodType, example?: unknown): ZodOpenApiRequestBodyObject => ({
  required: true,
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

/** A JSON response described by `schema`, optionally with an example. */
export const jsonResponse = (description: string, schema: z.ZodType, example?: unknown) => ({
  description,
  content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } },
});

/** A text response (a page, a script, a stream) in any of the media `types`. */
export const textResponse = (description: string, ...types: string[]) => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, { schema: z.string() }])),
});

/** `{message: "Success", data}`, the contract's wrapper of contact and custom-attribute results. */
export const successOf = <T extends z.ZodType>(data: T) => z.object({ message: z.literal('Success'), data });

/** `{message}` with one fixed text. */
export const messageOf = (text: string) => z.object({ message: z.literal(text) });

const failureSchemas = Object.fromEntries(
  Object.entries(FAILURES).map(([kind, { message }]) => [
    kind,
    messageOf(message).meta({ id: `${kind[0]?.toUpperCase()}${kind.slice(1)}Failure`, examples: [{ message }] }),
  ]),
);

/**
 * The contract's failure responses an operation can give, plus the 500 any can. Keyed by
 * status, each with its one fixed text.
 */
export function failures(...kinds: FailureKind[]): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const kind of [...kinds, 'internal' as const]) {
    const { status, message } = FAILURES[kind];
    responses[String(status) as `${1 | 2 | 3 | 4 | 5}${string}`] = jsonResponse(message, failureSchemas[kind] as z.ZodType);
  }
  return responses;
}

/** The failures of a key-authenticated operation that reads or writes one of the account's resources. */
export const keyedFailures = (...kinds: FailureKind[]) => failures('invalid', 'unauthorized', 'notFound', ...kinds);
