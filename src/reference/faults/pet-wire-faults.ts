import type { OutsideFault } from './outside-fault.ts';

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
