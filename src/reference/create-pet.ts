import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { wholeText } from './flat-text.ts';
import type { NewPetOutcome, NewPetReader } from './new-pet.ts';
import { type ErrorReplyFactory, type Reply, jsonReply } from './replies.ts';
import { ABORTED, type BodyRead, TOO_LARGE, announcesBody, isJsonMediaType, readBody } from './request-body.ts';
import type { NewPetRecord, PetStore } from './store.ts';

export interface CreatePetDeps {
  store: PetStore;
  seams: CreatePetSeams;
  errorReply: ErrorReplyFactory;
  readNewPet: NewPetReader;
  basePath: string;
  bodyLimit: number;
  /** What a body that is not application/json gets: 415, or 400 (a valid variant). */
  wrongContentTypeStatus: 400 | 415;
}

/** createPet's seams (see seams.ts). */
export interface CreatePetSeams {
  bodyAnnounced(announced: boolean, headers: IncomingHttpHeaders): boolean;
  joinBody(body: Buffer, pieces: readonly Buffer[]): Buffer;
  acceptMediaType(accepted: boolean, contentType: string | undefined): boolean;
  /** The body read: a NewPet, or why it is refused. */
  newPetOutcome(outcome: NewPetOutcome, body: Buffer): NewPetOutcome;
  newPet(pet: NewPetRecord): NewPetRecord;
}

/** Checks done, the write still to come: kept apart so that nothing is stored for a refused request. */
export type Commit = () => Reply;

/**
 * POST /pets: media type, size, JSON, NewPet; then a commit that stores the pet. A request refused on
 * its headers is answered at once; otherwise one promise settles when the body is read and checked.
 */
export function createCreatePet(deps: CreatePetDeps): (req: IncomingMessage, now: number) => Reply | Promise<Reply | Commit> {
  const { store, seams, errorReply, readNewPet, basePath, bodyLimit, wrongContentTypeStatus } = deps;
  const location = `${basePath}/pets/`;

  function checkBody(body: BodyRead, now: number): Reply | Commit {
    if (body === TOO_LARGE) return errorReply(413, 'payload_too_large', `request body is larger than ${bodyLimit} bytes`);
    if (body === ABORTED) return errorReply(400, 'invalid_json', 'request body was cut short');
    const outcome = seams.newPetOutcome(readNewPet(body), body);
    if ('kind' in outcome) return errorReply(400, outcome.kind, outcome.message);
    const pet = seams.newPet(outcome.pet);
    return () => {
      const stored = store.add(pet, now);
      return jsonReply(201, stored.json, { location: wholeText(location + stored.id) });
    };
  }

  return (req, now) => {
    if (!seams.bodyAnnounced(announcesBody(req), req.headers)) return errorReply(400, 'invalid_json', 'request body is required: a NewPet object');
    const contentType = req.headers['content-type'];
    if (!seams.acceptMediaType(isJsonMediaType(contentType), contentType)) {
      return errorReply(wrongContentTypeStatus, 'unsupported_media_type', 'Content-Type must be application/json');
    }
    return new Promise((resolve, reject) => {
      let read = false;
      readBody(req, bodyLimit, seams.joinBody, (body) => {
        // Only the first outcome counts, as with a promise: the 'close' after 'end' is no abort.
        if (read) return;
        read = true;
        // Called from the request's listeners: a throw here must reject, so that the server's fail-safe answers.
        try {
          resolve(checkBody(body, now));
        } catch (error) {
          reject(error);
        }
      });
    });
  };
}
