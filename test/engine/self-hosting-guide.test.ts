import { beforeAll, describe, expect, it } from 'vitest';
import { loadWordVectors } from '../../src/engine/workers/training-jobs.js';
import { engineAnswerer } from './eval/score.js';

// A guide whose section holds a fenced code block with shell comments. "# stop the hub" was read
// as a Markdown heading: it titled the code after it, apart from its section, so "How do I
// upgrade?" was answered with the section's first sentence and the fence ("```sh"), and the code
// was found by its comment alone.

const MATERIAL = [
  '# Self-hosting guide', '',
  '## Upgrading', '',
  'Back up the database before you upgrade.', '',
  '```sh', '# stop the hub', 'systemctl stop switchboard', '', '# fetch the new release', 'npm install switchboard@latest', '```', '',
  'Then start the hub again: it migrates the database on its first start.', '',
  '## Backups', '',
  'The database is one file, switchboard.db, in the data folder.',
].join('\n');

const engine = engineAnswerer();
const ask = (question: string) => engine(MATERIAL, { question });

beforeAll(() => loadWordVectors());

describe('a self-hosting guide with shell comments in its code', () => {
  it('answers a question of the section with its sentence and its code, comments and commands together, the blank line between them kept', () => {
    expect(ask('How do I upgrade?')).toBe(
      'Back up the database before you upgrade.\n# stop the hub\nsystemctl stop switchboard\n\n# fetch the new release\nnpm install switchboard@latest',
    );
  });

  it('quotes a command with the comment naming it', () => {
    expect(ask('How do I fetch the new release?')).toBe('# fetch the new release\nnpm install switchboard@latest');
  });

  it('answers from the next section as before', () => {
    expect(ask('Where is the database file?')).toBe('The database is one file, switchboard.db, in the data folder.');
  });
});
