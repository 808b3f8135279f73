import { describe, expect, it } from 'vitest';
import { inStages } from '../../src/store/sqlite/staging.js';

// Large writes go in short steps with other work served between them. What is written may be made
// as it is asked for (a page of chunks encoded just before it is written): then it is made a slice
// at a time too, so the event loop never waits for all of it at once.

describe('inStages', () => {
  it('writes every item in order, a slice a step, each slice with where it starts', async () => {
    const steps: [number[], number][] = [];
    await inStages([1, 2, 3, 4, 5], (slice, start) => steps.push([[...slice], start]), 2);
    expect(steps).toEqual([
      [[1, 2], 0],
      [[3, 4], 2],
      [[5], 4],
    ]);
  });

  it("makes a generator's items a slice at a time, with other work served between the slices", async () => {
    const events: string[] = [];
    function* made() {
      for (let item = 0; item < 4; item += 1) {
        events.push(`made ${item}`);
        yield item;
      }
    }
    await inStages(
      made(),
      ([item]) => {
        events.push(`wrote ${item}`);
        setImmediate(() => events.push(`other work after ${item}`));
      },
      1,
    );
    expect(events.filter((event) => event.startsWith('wrote'))).toEqual(['wrote 0', 'wrote 1', 'wrote 2', 'wrote 3']);
    // Item k + 2 is made only once other work has been served after item k was written.
    for (let item = 0; item + 2 < 4; item += 1) {
      expect(events.indexOf(`made ${item + 2}`)).toBeGreaterThan(events.indexOf(`other work after ${item}`));
    }
  });
});
