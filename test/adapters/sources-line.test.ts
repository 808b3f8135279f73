import { describe, expect, it } from 'vitest';
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
});
