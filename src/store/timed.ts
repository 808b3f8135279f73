import type { Store } from './port.js';

/** Starts timing one store call, named `repository.method`; the answer stops it. */
export type StartTimer = (operation: string) => () => void;

/**
 * The same store, with every repository call timed (for the store query metrics). Wrappers are
 * made once per method and cached, so a call costs one timer more than before.
 */
export function timedStore(store: Store, startTimer: StartTimer): Store {
  const repositories = new Map<PropertyKey, object>();
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value === 'function') return value.bind(target);
      if (typeof value !== 'object' || value === null) return value;
      let timed = repositories.get(property);
      if (!timed) {
        timed = timedRepository(value, String(property), startTimer);
        repositories.set(property, timed);
      }
      return timed;
    },
  });
}

function timedRepository(repository: object, name: string, startTimer: StartTimer): object {
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(repository, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = methods.get(property);
      if (!method) {
        const operation = `${name}.${String(property)}`;
        method = (...args: unknown[]) => {
          const stop = startTimer(operation);
          const result: unknown = Reflect.apply(value, target, args);
          if (result instanceof Promise) return result.finally(stop);
          stop();
          return result;
        };
        methods.set(property, method);
      }
      return method;
    },
  });
}
