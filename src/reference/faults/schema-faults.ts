import { defineFault } from './hooks.ts';
import type { OutsideFault } from './outside-fault.ts';

const NAME_LIMIT = 64;

/** Pets that leave the server in the wrong shape: wrapped, mistyped, missing or altered fields. */
export const SCHEMA_FAULTS = [
  defineFault({
    name: 'pet-wrapped-in-data',
    group: 'schema',
    description: 'createPet and getPet wrap the Pet in {"data": …}.',
    detectedBy: ['SCH-002', 'SCH-003', 'SCH-005'],
    hooks: () => ({
      reply: (reply, context) =>
        (context.operation === 'createPet' || context.operation === 'getPet') && reply.status < 300 && reply.body
          ? { ...reply, body: `{"data":${reply.body}}` }
          : reply,
    }),
  }),
  defineFault({
    name: 'id-as-string',
    group: 'schema',
    description: 'Pet ids are written as JSON strings ("id":"42").',
    detectedBy: ['SCH-001', 'SCH-002', 'SCH-003', 'INT-003'],
    hooks: () => ({ petWire: (wire, pet) => ({ ...wire, id: JSON.stringify(String(pet.id)) }) }),
  }),
  defineFault({
    name: 'category-id-as-string',
    group: 'schema',
    description: 'categoryId is written as a JSON string.',
    detectedBy: ['SCH-001', 'SCH-002', 'SCH-003', 'SCH-005', 'INT-001'],
    hooks: () => ({ petWire: (wire, pet) => ({ ...wire, categoryId: JSON.stringify(String(pet.categoryId)) }) }),
  }),
  defineFault({
    name: 'status-outside-enum',
    group: 'schema',
    description: 'status is written in capitals ("AVAILABLE"), outside PetStatus.',
    detectedBy: ['SCH-001', 'SCH-002', 'SCH-003', 'SCH-005', 'LIM-005'],
    hooks: () => ({
      petWire: (wire, pet) => (pet.status === undefined ? wire : { ...wire, status: JSON.stringify(pet.status.toUpperCase()) }),
    }),
  }),
  defineFault({
    name: 'pet-missing-id',
    group: 'schema',
    description: 'Pets are written without their id.',
    // Not SCH-003: no answer names an id, so a client has no pet to getPet (only a guessed id would).
    detectedBy: ['SCH-001', 'SCH-002', 'INT-003'],
    hooks: () => ({ petWire: ({ id: _id, ...wire }) => wire }),
  }),
  defineFault({
    name: 'status-dropped-on-create',
    group: 'schema',
    description: 'The status sent on creation is not stored; the pet has none.',
    detectedBy: ['SCH-005', 'LIM-006', 'CON-003'],
    hooks: () => ({ newPet: ({ status: _status, ...pet }) => pet }),
  }),
  defineFault({
    name: 'name-trimmed',
    group: 'schema',
    description: 'Leading and trailing white space is cut from the name.',
    detectedBy: ['SCH-006'],
    hooks: () => ({ newPet: (pet) => ({ ...pet, name: pet.name.trim() }) }),
  }),
  defineFault({
    name: 'name-truncated',
    group: 'schema',
    description: `Names longer than ${NAME_LIMIT} characters are accepted with 201 but cut to ${NAME_LIMIT}.`,
    detectedBy: ['SCH-006'],
    hooks: () => ({ newPet: (pet) => (pet.name.length > NAME_LIMIT ? { ...pet, name: pet.name.slice(0, NAME_LIMIT) } : pet) }),
  }),
  defineFault({
    name: 'default-status-invalid',
    group: 'schema',
    description: 'A pet created without status gets status "unknown", outside PetStatus.',
    detectedBy: ['SCH-002', 'SCH-007'],
    hooks: () => ({ newPet: (pet) => (pet.status === undefined ? { ...pet, status: 'unknown' } : pet) }),
  }),
  defineFault({
    name: 'json-as-text-plain',
    group: 'schema',
    description: 'Successful responses are labelled Content-Type: text/plain although the body is JSON.',
    detectedBy: ['SCH-004'],
    hooks: () => ({ reply: (reply) => (reply.status < 300 ? { ...reply, contentType: 'text/plain; charset=utf-8' } : reply) }),
  }),
] as const;

/** How a Pet is written (outside-fault-list.md 8, 9). */

export const OUTSIDE_WIRE_FAULTS = [
  {
    name: 'out-status-null-rendered',
    area: 'types',
    description: 'an animal added without a status is returned with "status":null',
    hooks: { petWire: (wire) => (wire.status === undefined ? { ...wire, status: 'null' } : wire) },
  },
  {
    name: 'out-id-as-string',
    area: 'int64',
    description: "every Pet's id is written as a JSON string",
    hooks: { petWire: (wire) => (wire.id === undefined ? wire : { ...wire, id: JSON.stringify(wire.id) }) },
  },
] as const satisfies readonly OutsideFault[];
