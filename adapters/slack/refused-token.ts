import { ConfigError } from '../../src/config.js';
import { platformError } from './metrics.js';

// Slack's answers to a token it does not take: the setting's mistake, which a process says in one
// sentence when it starts (startOrExit), not a fault with a stack.
const REFUSALS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired']);

/** Runs a step that uses the token `variable` holds; Slack refusing it becomes a ConfigError naming the variable, never the token. */
export async function withToken<T>(variable: 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN', step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const refusal = platformError(error);
    if (refusal && REFUSALS.has(refusal)) {
      throw new ConfigError(`Slack refused the token ${variable} holds (${refusal}): set it to the app's current token.`);
    }
    throw error;
  }
}
