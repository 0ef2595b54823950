import { isDeepStrictEqual } from 'node:util';

/**
 * A cheaper validation of the common NewPet: a string name, a categoryId that is a safe integer and a
 * status that is absent or one of PetStatus's values. Such a body is valid against the NewPet schema
 * this check was written for (extra fields are allowed there), so createPet accepts it without
 * running the schema validator; any other body still goes to the validator, which also words the
 * refusal. The check only applies when the contract's NewPet and PetStatus are that schema, read at
 * start-up; with any other schema it is undefined and every body is validated.
 */
export type PlainNewPet = (value: unknown) => boolean;

/** NewPet and PetStatus as the check was written for (descriptions aside). */
const NEW_PET = {
  type: 'object',
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string' },
    categoryId: { type: 'integer', format: 'int64' },
    status: { $ref: '#/components/schemas/PetStatus' },
  },
};

export function plainNewPetCheck(schemas: Readonly<Record<string, unknown>>, statuses: readonly string[]): PlainNewPet | undefined {
  const petStatus = { type: 'string', enum: statuses };
  if (!isDeepStrictEqual(withoutDescriptions(schemas.NewPet), NEW_PET) || !isDeepStrictEqual(withoutDescriptions(schemas.PetStatus), petStatus)) {
    return undefined;
  }
  const known = new Set(statuses);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const { name, categoryId, status } = value as Record<string, unknown>;
    return typeof name === 'string' && Number.isSafeInteger(categoryId) && (status === undefined || (typeof status === 'string' && known.has(status)));
  };
}

/** A schema with every `description` left out, at any depth (they do not change what is valid). */
function withoutDescriptions(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (key !== 'description') out[key] = withoutDescriptions(value);
  return out;
}
