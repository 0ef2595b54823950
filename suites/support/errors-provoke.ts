import type { ApiResponse } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { INT64_MAX } from '../../src/text/json.ts';

export interface ProvokedError {
  /** What was sent, as a reader would say it. */
  label: string;
  /** The status the interface documents for it. */
  expectedStatus: number;
  response: ApiResponse;
}

/**
 * One request for each error the interface documents: 401 (no key), 400 (createPet without name) and
 * 404 (getPet of an id no animal is likely to have). In read-only mode the 400 case is left out: a
 * broken server could store the body.
 */
export async function provokeErrors(ctx: ConformanceContext): Promise<ProvokedError[]> {
  const out: ProvokedError[] = [];
  // Quick spends one request here, the 400: its 401 (AUTH-001 on listPets) and 404 (STA-004) come from
  // other quick tests, and the always-on Error check judges their bodies for ERR-001 there.
  const quick = ctx.run.profile === 'quick' && !ctx.run.readOnly;
  if (!quick) out.push({ label: 'listPets without Authorization', expectedStatus: 401, response: await ctx.client.listPets({}, { auth: 'none' }) });
  if (!ctx.run.readOnly) {
    const response = await ctx.client.createPet({ categoryId: ctx.categoryId() });
    out.push({ label: 'createPet without name', expectedStatus: 400, response });
  }
  const unknownId = INT64_MAX - BigInt(Math.floor(ctx.random() * 1_000_000_000));
  if (!quick) out.push({ label: `getPet ${unknownId} (an id no animal is likely to have)`, expectedStatus: 404, response: await ctx.client.getPet(unknownId) });
  // Only responses with the documented error status say anything about the error body.
  return out.filter((e) => e.response.status === e.expectedStatus);
}
