import { get } from 'node:http';
import { fileTypeFromBuffer } from 'file-type';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  call,
  createChatbotViaApi,
  IMAGES,
  imageForm,
  INVALID,
  NOT_FOUND,
  readJson,
  startApp,
  type TestApp,
} from '../support/http.js';
import { storeTargets } from '../support/stores.js';

const MAX_BYTES = 5 * 1024 * 1024;

const KINDS = [
  {
    kind: 'profile-picture',
    path: 'upload-chatbot-profile-picture',
    part: 'profilePictureFile',
    message: 'Chatbot Profile Picture uploaded successfully.',
  },
  {
    kind: 'icon',
    path: 'upload-chatbot-icon',
    part: 'chatbotIconFile',
    message: 'Chatbot chat icon uploaded successfully.',
  },
] as const;

const TYPES = [
  { name: 'png', bytes: IMAGES.png, mime: 'image/png', file: 'p.png' },
  { name: 'jpeg', bytes: IMAGES.jpeg, mime: 'image/jpeg', file: 'p.jpg' },
  { name: 'gif', bytes: IMAGES.gif, mime: 'image/gif', file: 'p.gif' },
  { name: 'webp', bytes: IMAGES.webp, mime: 'image/webp', file: 'p.webp' },
] as const;

/** A PNG signature followed by padding, `size` bytes in all. */
function paddedPng(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  IMAGES.png.copy(bytes);
  return bytes;
}

describe('test images', () => {
  it.each(TYPES)('file-type recognises the $name bytes', async ({ bytes, mime }) => {
    expect((await fileTypeFromBuffer(bytes))?.mime).toBe(mime);
  });
});

describe.each(storeTargets.filter((t) => t.available))('$name store', (target) => {
  let app: TestApp;
  let chatbotId: string;

  const upload = (
    path: string,
    form: FormData,
    apiKey: string = app.apiKey,
  ): Promise<Response> => fetch(`${app.baseUrl}/${path}`, { method: 'POST', headers: bearer(apiKey), body: form });
  const publicUrl = (id: string, kind: string) => `${app.origin}/assets/chatbots/${encodeURIComponent(id)}/${kind}`;

  beforeEach(async () => {
    app = await startApp(target);
    chatbotId = await createChatbotViaApi(app, 'Pictured');
  });
  afterEach(async () => {
    await app.close();
  });

  describe.each(KINDS)('POST /$path', ({ kind, path, part, message }) => {
    it.each(TYPES)('stores a $name image and serves it publicly', async ({ bytes, mime, file }) => {
      const response = await upload(path, imageForm(chatbotId, part, { bytes, name: file, type: mime }));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-location')).toBe(`/assets/chatbots/${chatbotId}/${kind}`);
      expect(await response.json()).toEqual({ message });

      const asset = await app.store.assets.get(chatbotId, kind);
      expect(asset?.contentType).toBe(mime);
      expect(Buffer.compare(asset?.data ?? Buffer.alloc(0), bytes)).toBe(0);

      const served = await fetch(app.origin + (response.headers.get('content-location') ?? ''));
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(mime);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('etag')).toBe(asset?.etag);
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('takes the type from the bytes, not from the name or declared type', async () => {
      const response = await upload(path, imageForm(chatbotId, part, { bytes: IMAGES.gif, name: 'x.png', type: 'image/png' }));
      expect(response.status).toBe(200);
      const served = await fetch(publicUrl(chatbotId, kind));
      expect(served.headers.get('content-type')).toBe('image/gif');
    });

    it('replaces an earlier image', async () => {
      expect((await upload(path, imageForm(chatbotId, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }))).status).toBe(200);
      const first = await fetch(publicUrl(chatbotId, kind));
      const firstEtag = first.headers.get('etag');
      await first.arrayBuffer();

      expect((await upload(path, imageForm(chatbotId, part, { bytes: IMAGES.jpeg, name: 'b.jpg', type: 'image/jpeg' }))).status).toBe(200);
      const second = await fetch(publicUrl(chatbotId, kind));
      expect(second.status).toBe(200);
      expect(second.headers.get('content-type')).toBe('image/jpeg');
      expect(second.headers.get('etag')).not.toBe(firstEtag);
      expect(Buffer.from(await second.arrayBuffer()).equals(IMAGES.jpeg)).toBe(true);
    });

    it('answers 304 to a revalidation with the current ETag, 200 with a stale one', async () => {
      expect((await upload(path, imageForm(chatbotId, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }))).status).toBe(200);
      const first = await fetch(publicUrl(chatbotId, kind));
      const etag = first.headers.get('etag');
      await first.arrayBuffer();
      expect(etag).toMatch(/^(W\/)?".+"$/);

      // node:http, not fetch: fetch adds Cache-Control: no-cache to conditional requests, which
      // rightly forces a full answer.
      const revalidated = await conditionalGet(publicUrl(chatbotId, kind), etag ?? '');
      expect(revalidated.status).toBe(304);
      expect(revalidated.etag).toBe(etag);
      expect(revalidated.body.length).toBe(0);

      const stale = await conditionalGet(publicUrl(chatbotId, kind), '"stale"');
      expect(stale.status).toBe(200);
      expect(stale.body.equals(IMAGES.png)).toBe(true);
    });

    const invalidUploads: [string, () => FormData][] = [
      [
        'a text file named .png and declared image/png',
        () => imageForm(chatbotId, part, { bytes: Buffer.from('just some text, honest\n'), name: 'x.png', type: 'image/png' }),
      ],
      [
        'an SVG image',
        () =>
          imageForm(chatbotId, part, {
            bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>'),
            name: 'x.svg',
            type: 'image/svg+xml',
          }),
      ],
      ['a missing file part', () => imageForm(chatbotId, part, undefined)],
      [
        'the file in the wrong part',
        () => imageForm(chatbotId, part === 'chatbotIconFile' ? 'profilePictureFile' : 'chatbotIconFile', {
          bytes: IMAGES.png,
          name: 'a.png',
          type: 'image/png',
        }),
      ],
      ['a missing chatbotId', () => imageForm(undefined, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' })],
      ['an empty chatbotId', () => imageForm('', part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' })],
      [
        'the chatbotId given twice',
        () => {
          const form = imageForm(chatbotId, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' });
          form.append('chatbotId', chatbotId);
          return form;
        },
      ],
      [
        'a file one byte over 5 MB',
        () => imageForm(chatbotId, part, { bytes: paddedPng(MAX_BYTES + 1), name: 'big.png', type: 'image/png' }),
      ],
      ['an empty file', () => imageForm(chatbotId, part, { bytes: Buffer.alloc(0), name: 'empty.png', type: 'image/png' })],
      [
        'two files in the part',
        () => {
          const form = imageForm(chatbotId, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' });
          form.append(part, new Blob([new Uint8Array(IMAGES.gif)], { type: 'image/gif' }), 'b.gif');
          return form;
        },
      ],
    ];
    it('accepts the file part before the chatbotId part', async () => {
      const form = new FormData();
      form.append(part, new Blob([new Uint8Array(IMAGES.webp)], { type: 'image/webp' }), 'a.webp');
      form.append('chatbotId', chatbotId);
      expect(await readJson(await upload(path, form))).toEqual({ status: 200, body: { message } });
      expect((await app.store.assets.get(chatbotId, kind))?.contentType).toBe('image/webp');
    });

    it('answers 400 for a truncated multipart body and stores nothing', async () => {
      const response = await fetch(`${app.baseUrl}/${path}`, {
        method: 'POST',
        headers: { ...bearer(app.apiKey), 'Content-Type': 'multipart/form-data; boundary=xyz' },
        body: `--xyz\r\nContent-Disposition: form-data; name="chatbotId"\r\n\r\n${chatbotId}`,
      });
      expect(await readJson(response)).toEqual({ status: 400, body: INVALID });
      expect(await app.store.assets.get(chatbotId, kind)).toBeUndefined();
    });

    it.each(invalidUploads)('answers 400 for %s and stores nothing', async (_case, makeForm) => {
      const response = await upload(path, makeForm());
      expect(await readJson(response)).toEqual({ status: 400, body: INVALID });
      expect(await app.store.assets.get(chatbotId, kind)).toBeUndefined();
      expect((await fetch(publicUrl(chatbotId, kind))).status).toBe(404);
    });

    it('accepts a file of exactly 5 MB', async () => {
      const bytes = paddedPng(MAX_BYTES);
      const response = await upload(path, imageForm(chatbotId, part, { bytes, name: 'big.png', type: 'image/png' }));
      expect(await readJson(response)).toEqual({ status: 200, body: { message } });
      expect((await app.store.assets.get(chatbotId, kind))?.data.length).toBe(MAX_BYTES);
    });

    it('answers 400 for a JSON body', async () => {
      expect(await call('POST', `${app.baseUrl}/${path}`, app.apiKey, { chatbotId })).toEqual({
        status: 400,
        body: INVALID,
      });
    });

    it('answers 404 for an unknown chatbot', async () => {
      const response = await upload(path, imageForm('no-such-chatbot', part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }));
      expect(await readJson(response)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await app.store.assets.get('no-such-chatbot', kind)).toBeUndefined();
    });

    it("answers 404 for another account's chatbot and stores nothing", async () => {
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
      const response = await upload(path, imageForm(theirs, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }));
      expect(await readJson(response)).toEqual({ status: 404, body: NOT_FOUND });
      expect(await app.store.assets.get(theirs, kind)).toBeUndefined();
    });

    it('keeps the other kind of image separate', async () => {
      expect((await upload(path, imageForm(chatbotId, part, { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }))).status).toBe(200);
      const otherKind = kind === 'icon' ? 'profile-picture' : 'icon';
      expect(await app.store.assets.get(chatbotId, otherKind)).toBeUndefined();
      expect(await readJson(await fetch(publicUrl(chatbotId, otherKind)))).toEqual({ status: 404, body: NOT_FOUND });
    });
  });

  describe('GET /assets/chatbots/{id}/{kind} (public)', () => {
    it.each(['profile-picture', 'icon'])('answers 404 with the contract body when there is no %s', async (kind) => {
      const response = await fetch(publicUrl(chatbotId, kind));
      expect(await readJson(response)).toEqual({ status: 404, body: NOT_FOUND });
      expect(response.headers.get('etag')).toBeNull();
    });

    it('answers 404 for an unknown chatbot', async () => {
      expect(await readJson(await fetch(publicUrl('no-such-chatbot', 'icon')))).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
    });

    it('needs no API key but ignores one', async () => {
      await upload('upload-chatbot-icon', imageForm(chatbotId, 'chatbotIconFile', { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }));
      expect((await fetch(publicUrl(chatbotId, 'icon'))).status).toBe(200);
      expect((await fetch(publicUrl(chatbotId, 'icon'), { headers: { Authorization: 'Bearer sb_unknown' } })).status).toBe(200);
    });
  });

  describe('GET /chatbots/{chatbotId} (extension)', () => {
    const images = async () => {
      const { body } = await call('GET', `${app.baseUrl}/chatbots/${encodeURIComponent(chatbotId)}`, app.apiKey);
      const { profilePictureUrl, iconUrl } = (body as { data: { profilePictureUrl: string | null; iconUrl: string | null } }).data;
      return { profilePictureUrl, iconUrl };
    };

    it('says where the images are, null for none, and a new address for each upload', async () => {
      expect(await images()).toEqual({ profilePictureUrl: null, iconUrl: null });
      expect((await upload('upload-chatbot-icon', imageForm(chatbotId, 'chatbotIconFile', { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }))).status).toBe(200);
      const first = await images();
      expect(first.profilePictureUrl).toBeNull();
      const served = await fetch(app.origin + (first.iconUrl ?? ''));
      expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png']);

      expect((await upload('upload-chatbot-icon', imageForm(chatbotId, 'chatbotIconFile', { bytes: IMAGES.gif, name: 'b.gif', type: 'image/gif' }))).status).toBe(200);
      const second = await images();
      expect(second.iconUrl).not.toBe(first.iconUrl);
      expect((await fetch(app.origin + (second.iconUrl ?? ''))).headers.get('content-type')).toBe('image/gif');

      await call('DELETE', `${app.baseUrl}/delete-chatbot-icon?chatbotId=${encodeURIComponent(chatbotId)}`, app.apiKey);
      expect(await images()).toEqual({ profilePictureUrl: null, iconUrl: null });
    });
    it('names each image by its served ETag, the same address the widget is given', async () => {
      await upload('upload-chatbot-icon', imageForm(chatbotId, 'chatbotIconFile', { bytes: IMAGES.png, name: 'a.png', type: 'image/png' }));
      await upload('upload-chatbot-profile-picture', imageForm(chatbotId, 'profilePictureFile', { bytes: IMAGES.gif, name: 'b.gif', type: 'image/gif' }));
      const served = async (kind: string) => (await fetch(publicUrl(chatbotId, kind))).headers.get('etag')?.replaceAll('"', '');
      const expected = {
        iconUrl: `/assets/chatbots/${chatbotId}/icon?v=${await served('icon')}`,
        profilePictureUrl: `/assets/chatbots/${chatbotId}/profile-picture?v=${await served('profile-picture')}`,
      };
      expect(await images()).toEqual(expected);

      await call('POST', `${app.baseUrl}/update-chatbot-settings`, app.apiKey, { chatbotId, visibility: 'public' });
      const { body: config } = await call('GET', `${app.origin}/widget/chatbots/${chatbotId}/config`, undefined);
      expect((config as { iconUrl: string }).iconUrl).toBe(expected.iconUrl);
      const page = await (await fetch(`${app.origin}/widget/chatbots/${chatbotId}`)).text();
      const windowConfig = /<script id="switchboard-config" type="application\/json">(.*?)<\/script>/s.exec(page)?.[1] ?? '{}';
      expect((JSON.parse(windowConfig) as { profilePictureUrl: string }).profilePictureUrl).toBe(expected.profilePictureUrl);
    });
  });

  describe('DELETE /delete-chatbot-icon (extension)', () => {
    it('deletes the icon and keeps the profile picture', async () => {
      const icon = imageForm(chatbotId, 'chatbotIconFile', { bytes: IMAGES.png, name: 'a.png', type: 'image/png' });
      const picture = imageForm(chatbotId, 'profilePictureFile', { bytes: IMAGES.gif, name: 'a.gif', type: 'image/gif' });
      expect((await upload('upload-chatbot-icon', icon)).status).toBe(200);
      expect((await upload('upload-chatbot-profile-picture', picture)).status).toBe(200);
      const url = `${app.baseUrl}/delete-chatbot-icon?chatbotId=${encodeURIComponent(chatbotId)}`;
      expect(await call('DELETE', url, app.apiKey)).toEqual({
        status: 200,
        body: { message: 'Chatbot icon deleted successfully.' },
      });
      expect((await fetch(publicUrl(chatbotId, 'icon'))).status).toBe(404);
      expect((await fetch(publicUrl(chatbotId, 'profile-picture'))).status).toBe(200);
      expect(await call('DELETE', url, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    });
  });

  describe('DELETE /delete-chatbot-profile-picture', () => {
    const DELETED = { status: 200, body: { message: 'Chatbot Profile Picture deleted successfully.' } };
    const uploadPicture = async (id = chatbotId, apiKey = app.apiKey) => {
      const form = imageForm(id, 'profilePictureFile', { bytes: IMAGES.png, name: 'a.png', type: 'image/png' });
      expect((await upload('upload-chatbot-profile-picture', form, apiKey)).status).toBe(200);
    };

    it('deletes the picture named by a JSON body; a second delete answers 404', async () => {
      await uploadPicture();
      await upload('upload-chatbot-icon', imageForm(chatbotId, 'chatbotIconFile', { bytes: IMAGES.gif, name: 'i.gif', type: 'image/gif' }));
      const url = `${app.baseUrl}/delete-chatbot-profile-picture`;
      expect(await call('DELETE', url, app.apiKey, { chatbotId })).toEqual(DELETED);
      expect(await app.store.assets.get(chatbotId, 'profile-picture')).toBeUndefined();
      expect(await readJson(await fetch(publicUrl(chatbotId, 'profile-picture')))).toEqual({ status: 404, body: NOT_FOUND });
      // The icon stays.
      expect((await fetch(publicUrl(chatbotId, 'icon'))).status).toBe(200);
      expect(await call('DELETE', url, app.apiKey, { chatbotId })).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('deletes the picture named by the query string', async () => {
      await uploadPicture();
      const url = `${app.baseUrl}/delete-chatbot-profile-picture?chatbotId=${encodeURIComponent(chatbotId)}`;
      expect(await call('DELETE', url, app.apiKey)).toEqual(DELETED);
      expect((await fetch(publicUrl(chatbotId, 'profile-picture'))).status).toBe(404);
      expect(await call('DELETE', url, app.apiKey)).toEqual({ status: 404, body: NOT_FOUND });
    });

    it('answers 404 when the chatbot has no picture', async () => {
      expect(await call('DELETE', `${app.baseUrl}/delete-chatbot-profile-picture`, app.apiKey, { chatbotId })).toEqual({
        status: 404,
        body: NOT_FOUND,
      });
    });

    it('answers 404 for an unknown chatbot', async () => {
      expect(
        await call('DELETE', `${app.baseUrl}/delete-chatbot-profile-picture`, app.apiKey, { chatbotId: 'no-such-chatbot' }),
      ).toEqual({ status: 404, body: NOT_FOUND });
    });

    it("answers 404 for another account's chatbot and keeps its picture", async () => {
      const other = await app.addAccount('other');
      const theirs = await createChatbotViaApi(app, 'Theirs', 'text', other.apiKey);
      await uploadPicture(theirs, other.apiKey);
      expect(
        await call('DELETE', `${app.baseUrl}/delete-chatbot-profile-picture`, app.apiKey, { chatbotId: theirs }),
      ).toEqual({ status: 404, body: NOT_FOUND });
      expect((await fetch(publicUrl(theirs, 'profile-picture'))).status).toBe(200);
    });

    it.each([
      ['no chatbotId', undefined],
      ['an empty chatbotId', { chatbotId: '' }],
      ['malformed JSON', '{"chatbotId":'],
    ])('answers 400 for %s and keeps the picture', async (_case, body) => {
      await uploadPicture();
      expect(await call('DELETE', `${app.baseUrl}/delete-chatbot-profile-picture`, app.apiKey, body)).toEqual({
        status: 400,
        body: INVALID,
      });
      expect((await fetch(publicUrl(chatbotId, 'profile-picture'))).status).toBe(200);
    });
  });
});

function conditionalGet(url: string, ifNoneMatch: string) {
  return new Promise<{ status: number; etag: string | undefined; body: Buffer }>((resolve, reject) => {
    get(url, { headers: { 'If-None-Match': ifNoneMatch } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}
