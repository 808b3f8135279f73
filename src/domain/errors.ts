// The failures a use case can end in. The HTTP layer maps each kind to the contract's status and
// message; `detail` is for logs only and never reaches a client.
export type FailureKind =
  | 'invalid'
  | 'unauthorized'
  | 'denied'
  | 'notFound'
  | 'conflict'
  | 'rateLimited';

export class HubError extends Error {
  constructor(
    readonly kind: FailureKind,
    detail?: string,
  ) {
    super(detail ?? kind);
    this.name = 'HubError';
  }
}

export const invalidRequest = (detail?: string) => new HubError('invalid', detail);
export const notFound = (detail?: string) => new HubError('notFound', detail);
export const accessDenied = (detail?: string) => new HubError('denied', detail);
export const unauthorized = (detail?: string) => new HubError('unauthorized', detail);
export const conflict = (detail?: string) => new HubError('conflict', detail);

/** Told of a failure of work done after a reply was delivered (never the reply's own failure). */
export type OnBackgroundError = (error: unknown, what: string) => void;
