import { describe, expect, it } from 'vitest';
import { splitMessage } from '../../adapters/discord/text.js';
import { sourcesLine } from '../../adapters/sources-line.js';

// The line that ends an answer in Slack and Discord with the sources it drew on.

const cited = [
  { id: 's1', title: 'Parcels [FAQ]', url: 'https://help.example.com/parcels' },
  { id: 's2', title: 'API text' },
];

describe('the Sources line', () => {
  it('is empty when the answer drew on nothing', () => {
    expect(sourcesLine('slack', [])).toBe('');
    expect(sourcesLine('discord', [])).toBe('');
  });

  it('gives Slack each title with its URL beside it, which Slack links', () => {
    expect(sourcesLine('slack', cited)).toBe('Sources: Parcels [FAQ] (https://help.example.com/parcels), API text');
  });

  it('gives Discord masked links without embeds, their titles escaped', () => {
    expect(sourcesLine('discord', cited)).toBe('Sources: [Parcels \\[FAQ\\]](<https://help.example.com/parcels>), API text');
  });

  it('keeps each Discord link whole when a reply with many sources is cut into messages at a space', () => {
    // A short answer citing a dozen pages ran past 2,000 characters within its Sources line, and
    // the cut at the last space split a link's title: "[Installing the" ended one message and
    // "agent …](<https://…>)" began the next, both shown as raw Markdown.
    const pages = Array.from({ length: 12 }, (_, index) => ({
      id: `p${index}`,
      title: `Installing the agent on a server, part ${index + 1}`,
      url: `https://docs.example.com/agents/install/part-${index + 1}`,
    }));
    const pieces = splitMessage(`${'Word '.repeat(180).trim()}\n\n${sourcesLine('discord', pages)}`);
    expect(pieces.length).toBeGreaterThan(1);
    const links = pieces.flatMap((piece) => piece.match(/\[[^\]]*\]\(<[^>]*>\)/g) ?? []);
    expect(links).toHaveLength(pages.length);
    expect(pieces.map((piece) => piece.split('[').length - 1)).toEqual(pieces.map((piece) => (piece.match(/\]\(</g) ?? []).length));
  });
});
