import type { FailureKind } from '../domain/errors.js';

// The contract's failure bodies and the status codes that go with them.
export const FAILURES: Record<FailureKind | 'internal', { status: number; message: string }> = {
  invalid: { status: 400, message: 'Invalid request data' },
  unauthorized: { status: 401, message: 'No API key provided.' },
  denied: { status: 403, message: 'Access denied or quota exceeded' },
  notFound: { status: 404, message: 'Resource not found' },
  conflict: { status: 409, message: 'Error saving chatbot contact. External ID or email already exists.' },
  rateLimited: { status: 429, message: 'Rate limit exceeded. Please try again later.' },
  internal: { status: 500, message: 'Internal server error' },
};
