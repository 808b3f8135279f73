import { z } from 'zod';

// The address a website source starts from, as the API takes it; the chat apps' `/chatbot learn`
// and the console's New chatbot check it with the same schema before asking, so the only 400 the
// hub can answer it is its address rule (a site on its own network), and each other refusal is
// told in its own words.

/** The longest address a website source takes. */
export const MAX_WEBSITE_URL_CHARS = 2_000;

/** An http or https URL, of any length. */
export const webAddress = z.url({ protocol: /^https?$/ });

/** Its pages' URLs are shown in citations (in Slack and Discord channels too): no user name or password in them. */
export const holdsCredentials = (url: string) => URL.canParse(url) && Boolean(new URL(url).username || new URL(url).password);

export const websiteUrl = webAddress
  .max(MAX_WEBSITE_URL_CHARS)
  .refine((url) => !holdsCredentials(url), 'a URL without a user name or password');
