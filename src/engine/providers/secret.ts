import { inspect } from 'node:util';

// An API key held so that no accidental serialisation shows it: a private field is invisible to
// JSON.stringify, pino and util.inspect, and toJSON/inspect say so explicitly. Only the code that
// builds a provider client calls reveal().

const REDACTED = '[redacted]';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}
