import type { CitedSource, Platform } from './hub-client.js';

// The short "Sources" line that ends an answer in Slack or Discord: each source the answer drew on,
// linked where it has a URL (a web page). Slack's reply text is escaped as plain text, where Slack
// links a bare URL itself; Discord's is Markdown, where a masked link keeps the line short.

/** Discord Markdown: these would end a link's text or start formatting. */
const discordText = (text: string) => text.replace(/([[\]\\*_~`|])/g, '\\$1');

export function sourcesLine(platform: Platform, sources: CitedSource[]): string {
  if (sources.length === 0) return '';
  const items = sources.map(({ title, url }) => {
    if (platform === 'slack') return url ? `${title} (${url})` : title;
    return url ? `[${discordText(title)}](<${url}>)` : discordText(title);
  });
  return `Sources: ${items.join(', ')}`;
}
