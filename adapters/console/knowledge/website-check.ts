import { MAX_WEBSITE_URL_CHARS, websiteUrl } from '../../../src/domain/website-url.js';

// The hub's own schema for a website source's address (zod/mini): the console's check is the
// API's rule, not a copy that could drift from it. Only the page that checks an address before it
// asks (New chatbot, loaded on its own) imports this.

/** Why the hub would refuse the address: told before anything is made with it, such as a new chatbot. */
export function websiteUrlError(url: string): string | undefined {
  const { error } = websiteUrl.safeParse(url);
  if (!error) return undefined;
  return error.issues.some(({ code }) => code === 'too_big')
    ? `An address of at most ${MAX_WEBSITE_URL_CHARS.toLocaleString('en')} characters.`
    : 'A web address starting with http:// or https://, without a user name or password.';
}
