import { Writable } from 'node:stream';
import type { File } from 'formidable';
import type { Middleware } from 'koa';
import { koaBody, HttpMethodEnum } from 'koa-body';
import { invalidRequest } from '../../domain/errors.js';
import { closeOnceAnswered } from '../lingering-close.js';

// JSON bodies may carry a whole training text; 10 MB of text plus JSON escaping fits.
const JSON_LIMIT = '16mb';
/**
 * What anyone may send without a key (the widget's chat, leads and handoff request, the console's
 * sign-in): a 4,000-character message written all in \u escapes fits, and nobody makes the hub
 * read and parse 16 MB before it checks anything.
 */
export const PUBLIC_JSON_LIMIT = '64kb';
const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** JSON bodies of at most `limit`, on DELETE too (the contract identifies chatbots in DELETE bodies). */
export function jsonBody(limit = JSON_LIMIT): Middleware {
  return refusingUnparsable({
    json: true,
    jsonStrict: true,
    jsonLimit: limit,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
}

const uploadedBytes = new WeakMap<object, Buffer[]>();

/** How many files of how many bytes each a multipart form may carry. */
export type UploadLimits = { maxFiles: number; maxFileBytes: number };

/**
 * Multipart forms with at most `maxFiles` files of at most `maxFileBytes` each (one of 5 MB unless
 * told), kept in memory (never a temporary file to clean up). More, larger or empty files fail the
 * parse, which answers 400.
 */
export function multipartBody({ maxFiles, maxFileBytes }: UploadLimits = { maxFiles: 1, maxFileBytes: MAX_UPLOAD_BYTES }): Middleware {
  return refusingUnparsable({
    json: false,
    urlencoded: false,
    text: false,
    multipart: true,
    formidable: {
      maxFiles,
      maxFileSize: maxFileBytes,
      maxTotalFileSize: maxFiles * maxFileBytes,
      maxFields: 10,
      maxFieldsSize: 64 * 1024,
      fileWriteStreamHandler(file) {
        const chunks: Buffer[] = [];
        if (file) uploadedBytes.set(file, chunks);
        return new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        });
      },
    },
  });
}

/**
 * koa-body, with any failure to parse (malformed JSON, an oversized or broken upload) turned
 * into the contract's invalid request. Parsing runs before, not around, the rest of the chain, so
 * errors from later middleware are never mistaken for the client's.
 */
function refusingUnparsable(options: Parameters<typeof koaBody>[0]): Middleware {
  const parse = koaBody(options);
  return async (ctx, next) => {
    // Koa's is() answers null for a request without a body (every GET): nothing to parse.
    if (ctx.is() === null) return next();
    try {
      await parse(ctx, async () => {});
    } catch (error) {
      // The rest of a refused body (too large, broken gzip) is not worth reading in full, so the
      // connection is closed once answered.
      closeOnceAnswered(ctx);
      throw invalidRequest(`unparsable body: ${(error as Error).message}`);
    }
    await next();
  };
}

/** The bytes of a file parsed by multipartBody(). */
export function fileBytes(file: File): Buffer {
  return Buffer.concat(uploadedBytes.get(file) ?? []);
}
