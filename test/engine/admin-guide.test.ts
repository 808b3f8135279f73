import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { termsOnlyInSpelledAddresses } from '../../src/engine/spelled-addresses.js';
import { engineAnswerer } from './eval/score.js';

// A system administrator's guide, in the style of a Linux distribution's: commands named with
// their manual sections, and credits giving e-mail addresses written out in words.

const GUIDE = `# Debian system administration

## About this guide

This guide was written by Tollef Fog Heen (tollef at add dot no) and Anna Berg (anna.berg at example dot com) for new users and administrators of a Debian system. Send corrections to tollef at add.no.

## User accounts

Additional user accounts can be created with adduser(8) by root. A user is removed with deluser(8), which keeps the home directory unless told otherwise.

## Groups

A user is added to a group with adduser USER GROUP. The groups a user belongs to are listed by groups(1).
`;
const engine = engineAnswerer();
const ask = (question: string) => engine(GUIDE, { question });

beforeAll(() => loadWordVectors());

describe('an administrator’s guide', () => {
  it('answers "How do I add a user to a group?" by the command, not by the "add" of an address written out in words', () => {
    expect(ask('How do I add a user to a group?')).toContain('A user is added to a group with adduser USER GROUP.');
  });

  it('still answers who wrote the guide, and where to send corrections, from the credits', () => {
    expect(ask('Who wrote this guide?')).toContain('Tollef Fog Heen');
    expect(ask('Where do I send corrections?')).toBe('Send corrections to tollef at add.no.');
  });
});

describe('termsOnlyInSpelledAddresses', () => {
  it('gives the terms only an address written out in words holds, with "dot" or a dot', () => {
    expect(termsOnlyInSpelledAddresses('Written by Tollef (tollef at add dot no) for new users.')).toEqual(['add', 'dot', 'no']);
    expect(termsOnlyInSpelledAddresses('Send corrections to tollef at add.no.')).toEqual(['tollef', 'add', 'no']);
  });

  it('reads a sentence of 128,000 dotted letters in time proportional to it (it took minutes, its square)', () => {
    expect(termsOnlyInSpelledAddresses(`write to x at ${'a.'.repeat(64_000)}1`)).toEqual([]);
    expect(termsOnlyInSpelledAddresses(`write to x at ${'a.'.repeat(64_000)}org now`)).toEqual([]);
  });

  it('gives nothing for a time, a price or a place after "at"', () => {
    for (const text of ['We open at 9.30 on Mondays.', 'Tickets start at £5.50.', 'Meet us at the door. Then go left.']) expect(termsOnlyInSpelledAddresses(text), text).toEqual([]);
  });
});
