import type { Handoff } from '../types.js';

// Where a conversation's handoff to the team stands, in the words the list and the transcript use.

const HANDOFF: Record<Handoff['status'], string> = {
  pending: 'waiting for the team',
  active: 'with the team',
  resolved: 'handed back to the chatbot',
  missed: 'nobody from the team came in time',
};

export function handoffText(handoff: Handoff): string {
  return `handoff: ${HANDOFF[handoff.status]}${handoff.taken_by ? ` (${handoff.taken_by})` : ''}`;
}
