/**
 * The fields of a change that are given: an absent or undefined one keeps what is stored, a null
 * one is a value (it clears the field). MongoDB would store an undefined `$set` as null.
 */
export function givenFields<T extends object>(change: T): Partial<T> {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as Partial<T>;
}
