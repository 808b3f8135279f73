import { Writable } from 'node:stream';
import type { File } from 'formidable';
import type { Middleware } from 'koa';
import { koaBody, HttpMethodEnum } from 'koa-body';

// JSON bodies may carry a whole training text; 10 MB of text plus JSON escaping fits.
const JSON_LIMIT = '16mb';
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** JSON bodies, on DELETE too (the contract identifies chatbots in DELETE bodies). */
export function jsonBody(): Middleware {
  return koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: JSON_LIMIT,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
}

const uploadedBytes = new WeakMap<object, Buffer[]>();

/**
 * Multipart forms with at most one file of at most 5 MB, kept in memory (never a temporary
 * file to clean up). Larger or empty files fail the parse, which answers 400.
 */
export function multipartBody(): Middleware {
  return koaBody({
    json: false,
    urlencoded: false,
    text: false,
    multipart: true,
    formidable: {
      maxFiles: 1,
      maxFileSize: MAX_UPLOAD_BYTES,
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

/** The bytes of a file parsed by multipartBody(). */
export function fileBytes(file: File): Buffer {
  return Buffer.concat(uploadedBytes.get(file) ?? []);
}
