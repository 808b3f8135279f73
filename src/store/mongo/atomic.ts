import mongoose, { type Connection } from 'mongoose';

// Writes that must land together. A replica set or sharded cluster runs them in one
// multi-document transaction. A standalone mongod has none: there they run as written, each
// compensating its own failure, and the periodic repair (repair.ts) mops up after a crash between
// two of them.

export type AtomicWrites = {
  readonly transactional: boolean;
  /** Runs `writes` in one transaction where the deployment has them. */
  atomic<T>(writes: () => Promise<T>): Promise<T>;
  /** Runs `write`; without transactions, runs `undo` when it fails (a transaction aborts instead). */
  compensated<T>(write: () => Promise<T>, undo: () => Promise<unknown>): Promise<T>;
  /**
   * Runs a write of derived data the repair redoes (a page block's count): in a transaction, its
   * failure aborts it; without, the records it derives from stand, and so does their answer.
   */
  repairable(write: () => Promise<unknown>): Promise<void>;
};

// Operations inside connection.transaction() pick up its session by themselves, so the
// repositories read the same with and without transactions.
mongoose.set('transactionAsyncLocalStorage', true);

export async function atomicWrites(connection: Connection): Promise<AtomicWrites> {
  const hello = (await connection.getClient().db('admin').command({ hello: 1 })) as { setName?: string; msg?: string };
  const transactional = hello.setName !== undefined || hello.msg === 'isdbgrid';
  if (!transactional) {
    return {
      transactional,
      atomic: (writes) => writes(),
      async compensated(write, undo) {
        try {
          return await write();
        } catch (error) {
          await undo();
          throw error;
        }
      },
      async repairable(write) {
        try {
          await write();
        } catch {
          // Left to the periodic repair (repair.ts), which counts what was not counted.
        }
      },
    };
  }
  return {
    transactional,
    atomic: (writes) => connection.transaction(() => writes()),
    compensated: (write) => write(),
    async repairable(write) {
      await write();
    },
  };
}
