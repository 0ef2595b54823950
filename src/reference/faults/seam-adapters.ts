import type { AdaptedSeams, FaultHooks, Seams } from '../seams.ts';

/**
 * How a fault's hook takes the place of a seam, where the hook's shape differs from the seam's: code
 * only a faulty server runs. It lives with the faults, which the mutation run leaves alone (a mutant of
 * it is another fault); the correct server's seams are identities (seams.ts).
 */

/** The adapted seams of the given hooks, for seamsOf: only those a fault wrote. */
export function adaptSeams(hooks: FaultHooks): AdaptedSeams {
  const { authenticate, answerBeforeAuth, acceptInvalid, reply, refuse } = hooks;
  return {
    ...(authenticate ? { admit: admitWith(authenticate) } : {}),
    ...(answerBeforeAuth ? { answerBeforeAuth: answerBeforeAuthWith(answerBeforeAuth) } : {}),
    ...(acceptInvalid ? { invalidBody: invalidBodyWith(acceptInvalid) } : {}),
    ...(reply ? { reply: replyWith(reply) } : {}),
    ...(refuse ? { refuse: refuseWith(refuse) } : {}),
  };
}

export function admitWith(authenticate: NonNullable<FaultHooks['authenticate']>): Seams['admit'] {
  return (auth, authorization, search, ring, connection) => {
    const admitted = authenticate(typeof auth === 'string' ? undefined : auth, { authorization, search, ring, connection });
    return admitted ?? (typeof auth === 'string' ? auth : 'invalid-token');
  };
}

export function answerBeforeAuthWith(answerBeforeAuth: NonNullable<FaultHooks['answerBeforeAuth']>): Seams['answerBeforeAuth'] {
  return async (req, route, search, now, prepare) => {
    if (route.kind !== 'operation') return undefined;
    const early = await prepare(req, route, search, now);
    // A commit would store the pet: never run for a refused request.
    if (typeof early === 'function') return undefined;
    return answerBeforeAuth(false, early, route.operation) ? early : undefined;
  };
}

export function invalidBodyWith(acceptInvalid: NonNullable<FaultHooks['acceptInvalid']>): Seams['invalidBody'] {
  return (refusal, body, issues) => {
    const accepted = acceptInvalid(undefined, body, issues);
    return accepted ? { pet: accepted } : refusal;
  };
}

export function replyWith(reply: NonNullable<FaultHooks['reply']>): Seams['reply'] {
  return (value, operation, method, search, now, errorReply) => reply(value, { operation, method, search, now, errorReply });
}

export function refuseWith(refuse: NonNullable<FaultHooks['refuse']>): Seams['refuse'] {
  return (refused, bucket, limits, windows, now) => refuse(refused, { bucket, limits, windows, now });
}
