/** Raised by a store adapter when a write would break a unique index. */
export class UniqueViolation extends Error {
  constructor(readonly index: string) {
    super(`unique index violated: ${index}`);
    this.name = 'UniqueViolation';
  }
}
