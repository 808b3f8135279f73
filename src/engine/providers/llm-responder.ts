import { generateText, streamText, type LanguageModel, type ModelMessage } from 'ai';
import { recordTokens } from '../../metrics.js';
import { systemPrompt } from '../prompt.js';
import type { Responder, ResponderInput } from '../responder.js';
import { providerFailure, timedOut, truncated, type CallContext } from './errors.js';

// A responder backed by one LLM through the AI SDK. Failures of the provider (HTTP errors,
// timeouts, malformed or broken responses) reject `complete` and are thrown from `stream`'s
// iterator as ProviderError. The caller going away (input.signal) is not a failure: `stream`
// then just ends, and `complete` rejects with the signal's reason.

// No retries. Someone is waiting for the reply: the SDK's default (2 retries, 2 s then 4 s apart,
// or as long as a 429's retry-after says, up to a minute) would silently spend the time budget
// and resend a prompt the provider may already bill. The caller hears of the failure at once and
// decides (fall back, or ask the user to try again).
const MAX_RETRIES = 0;

export type LlmResponderOptions = CallContext & { model: LanguageModel; maxOutputTokens: number };

export function createLlmResponder(options: LlmResponderOptions): Responder {
  const { model, maxOutputTokens, ...context } = options;
  const request = (input: ResponderInput) => requestOf(model, maxOutputTokens, input);
  return {
    name: context.provider,
    async complete(input) {
      const call = startCall(input.signal, context.timeoutMs);
      try {
        const { text, usage } = await generateText({ ...request(input), abortSignal: call.signal });
        recordTokens(input.model, usage);
        return text;
      } catch (error) {
        if (input.signal.aborted) throw input.signal.reason;
        throw call.timedOut() ? timedOut(context) : providerFailure(error, context);
      } finally {
        call.end();
      }
    },
    stream: (input) => streamReply(request(input), context, input),
  };
}

async function* streamReply(request: Request, context: CallContext, input: ResponderInput): AsyncGenerator<string> {
  const call = startCall(input.signal, context.timeoutMs);
  const result = streamText({
    ...request,
    abortSignal: call.signal,
    // Errors arrive as `error` parts of fullStream, below; the default would print them.
    onError: () => {},
  });
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta' && part.text) yield part.text;
      // streamText reports failures and aborts as parts, not exceptions.
      if (part.type === 'error') throw part.error;
      if (part.type === 'abort') {
        if (input.signal.aborted) return;
        throw timedOut(context);
      }
      // Every complete reply names why it stopped (OpenAI's finish_reason, Anthropic's
      // stop_reason); a stream that closes without one was cut short.
      if (part.type === 'finish' && part.rawFinishReason === undefined) throw truncated(context);
      if (part.type === 'finish') recordTokens(input.model, part.totalUsage);
    }
  } catch (error) {
    if (input.signal.aborted) return;
    throw call.timedOut() ? timedOut(context) : providerFailure(error, context);
  } finally {
    // Also runs when the consumer stops iterating early: the request must not go on without it.
    call.end();
  }
}

type Request = ReturnType<typeof requestOf>;

function requestOf(model: LanguageModel, maxOutputTokens: number, input: ResponderInput) {
  const messages: ModelMessage[] = input.messages.map(({ role, content }) => ({ role, content }));
  return { model, system: systemPrompt(input), messages, temperature: input.temperature, maxOutputTokens, maxRetries: MAX_RETRIES };
}

/** One call's signal: the caller's, the time limit, and our own for ending the call early. */
function startCall(callerSignal: AbortSignal, timeoutMs: number) {
  const deadline = AbortSignal.timeout(timeoutMs);
  const ended = new AbortController();
  return {
    signal: AbortSignal.any([callerSignal, deadline, ended.signal]),
    timedOut: () => deadline.aborted && !callerSignal.aborted,
    end: () => ended.abort(),
  };
}
