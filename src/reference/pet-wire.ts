/**
 * A pet's JSON is rendered once, when it is stored, from the JSON texts of its fields. Writing the
 * text by hand keeps int64 values exact (bigint has no JSON.stringify) and lets a fault change one
 * field's representation without touching the others.
 */

/** The fields of a pet as they are about to be stored. */
export interface PetFields {
  readonly id: bigint;
  readonly name: string;
  readonly categoryId: bigint | number;
  readonly status?: string;
}

/** JSON text of each field, or undefined to leave the field out; `extra` is appended as is. */
export interface PetWire {
  id?: string;
  name?: string;
  categoryId?: string;
  status?: string;
  /** `,"field":value…` for additional fields. */
  extra?: string;
}

// Stryker disable next-line BlockStatement: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
export function toWire(pet: PetFields, extra?: string): PetWire {
  // Stryker disable next-line ObjectLiteral: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  const wire: PetWire = { id: String(pet.id), name: JSON.stringify(pet.name), categoryId: String(pet.categoryId) };
  // Stryker disable next-line ConditionalExpression,EqualityOperator: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  if (pet.status !== undefined) wire.status = JSON.stringify(pet.status);
  // Stryker disable next-line ConditionalExpression: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  if (extra) wire.extra = extra;
  return wire;
}

/** The pet's JSON without the detour through PetWire: the path of a server with no fault or extra field. */
export function renderPet(pet: PetFields): string {
  const head = `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}`;
  return pet.status === undefined ? `${head}}` : `${head},"status":${JSON.stringify(pet.status)}}`;
}

// Stryker disable next-line BlockStatement: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
export function renderWire(wire: PetWire): string {
  // Stryker disable next-line StringLiteral: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  let out = '';
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  if (wire.id !== undefined) out += `,"id":${wire.id}`;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  if (wire.name !== undefined) out += `,"name":${wire.name}`;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  if (wire.categoryId !== undefined) out += `,"categoryId":${wire.categoryId}`;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  if (wire.status !== undefined) out += `,"status":${wire.status}`;
  // Stryker disable next-line ArithmeticOperator,AssignmentOperator,ConditionalExpression: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  if (wire.extra) out += wire.extra;
  // Stryker disable next-line MethodExpression,StringLiteral: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  return `{${out.slice(1)}}`;
}

/** A JSON array from rendered elements, without re-serialising them. */
export function renderArray(elements: readonly string[]): string {
  return `[${elements.join(',')}]`;
}
