export { createClient } from './create-client.ts';
export { bodyExcerpt } from './redact.ts';
export { createConnection } from './interim-responses.ts';
export { createLedgerBudget, createMemoryBudget, type RequestBudget } from './budget.ts';
export { toCurl, singleQuote, shellWord, API_KEY_VARIABLE, type CurlRequest } from './curl.ts';
export type { Exchange } from './exchange.ts';
export type {
  ApiResponse,
  AuthOption,
  ClientClock,
  ClientOptions,
  Query,
  RateLimitMemory,
  RateLimitState,
  RequestOptions,
  SendRequest,
  TargetClient,
} from './client-types.ts';
export { createFileRateLimitMemory, createInProcessRateLimitMemory } from './rate-limit-memory.ts';
