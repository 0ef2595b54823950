import { type PetFields, type RenderPet, renderPet } from './pet-json.ts';

/**
 * The detour a pet's JSON takes when a fault or the extra-fields variant changes it: the JSON text of
 * each field, which a fault may change one by one. The correct server renders with renderPet
 * (pet-json.ts) and never comes here.
 */

/** JSON text of each field, or undefined to leave the field out; `extra` is appended as is. */
export interface PetWire {
  id?: string;
  name?: string;
  categoryId?: string;
  status?: string;
  /** `,"field":value…` for additional fields. */
  extra?: string;
}

export function toWire(pet: PetFields, extra?: string): PetWire {
  const wire: PetWire = { id: String(pet.id), name: JSON.stringify(pet.name), categoryId: String(pet.categoryId) };
  if (pet.status !== undefined) wire.status = JSON.stringify(pet.status);
  if (extra) wire.extra = extra;
  return wire;
}

export function renderWire(wire: PetWire): string {
  let out = '';
  if (wire.id !== undefined) out += `,"id":${wire.id}`;
  if (wire.name !== undefined) out += `,"name":${wire.name}`;
  if (wire.categoryId !== undefined) out += `,"categoryId":${wire.categoryId}`;
  if (wire.status !== undefined) out += `,"status":${wire.status}`;
  if (wire.extra) out += wire.extra;
  return `{${out.slice(1)}}`;
}

/**
 * How the store renders a pet: renderPet, unless a fault changes a field's text (petWire) or the
 * extra-fields variant adds fields (a valid variant: Pet may carry more).
 */
export function petRenderer(petWire: ((wire: PetWire, pet: PetFields) => PetWire) | undefined, extraFields: boolean): RenderPet {
  if (!petWire && !extraFields) return renderPet;
  return (pet, now) => {
    const extra = extraFields ? `,"createdAt":${JSON.stringify(new Date(now).toISOString())},"tags":[]` : undefined;
    const wire = toWire(pet, extra);
    return renderWire(petWire ? petWire(wire, pet) : wire);
  };
}
