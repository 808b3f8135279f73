import * as z from 'zod/mini';

// The address a website source starts from, as the API takes it; the chat apps' `/chatbot learn`
// and the console's New chatbot check it with the same schema before asking, so the only 400 the
// hub can answer it is its address rule (a site on its own network), and each other refusal is
// told in its own words. Written with zod/mini, which a bundle takes only the parts of it uses:
// the console's New chatbot loads about 5 KB gzipped with it, 92 KB with zod's full API; the API's
// schemas (zod) take it as any other, with the same issues and messages.

/** The longest address a website source takes. */
export const MAX_WEBSITE_URL_CHARS = 2_000;

/** An http or https URL, of any length. */
export const webAddress = z.url({ protocol: /^https?$/ });

/** Its pages' URLs are shown in citations (in Slack and Discord channels too): no user name or password in them. */
export const holdsCredentials = (url: string) => URL.canParse(url) && Boolean(new URL(url).username || new URL(url).password);

export const websiteUrl = webAddress.check(
  z.maxLength(MAX_WEBSITE_URL_CHARS),
  z.refine((url) => !holdsCredentials(url), 'a URL without a user name or password'),
);
