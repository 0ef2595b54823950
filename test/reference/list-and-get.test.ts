import { describe, expect, it } from 'vitest';
import type { ReferenceServer } from '../../src/reference/index.ts';
import { lastPage } from '../../src/reference/list-pets.ts';
import type { StoredPet } from '../../src/reference/store.ts';
import { call, contract, createPet, expectErrorBody, startServer } from '../support/reference-server.ts';

const STATUSES = ['available', 'pending', 'sold', undefined] as const;

async function fill(server: ReferenceServer, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const status = STATUSES[i % STATUSES.length];
    await createPet(server, status ? { name: `pet ${i}`, categoryId: i, status } : { name: `pet ${i}`, categoryId: i });
  }
}

function ids(answer: { json: unknown }): number[] {
  return (answer.json as Array<{ id: number }>).map((pet) => pet.id);
}

describe('reference server: listPets', () => {
  it('returns the first limit pets in creation order, 20 by default, at most 100', async () => {
    const server = await startServer({ seedPets: 150 });
    const all = await call(server, 'GET', '/pets');
    expect(contract.validate('#/components/schemas/Pets', all.json)).toEqual([]);
    expect(ids(all)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(ids(await call(server, 'GET', '/pets?limit=1'))).toEqual([1]);
    expect(ids(await call(server, 'GET', '/pets?limit=100'))).toHaveLength(100);
    expect(ids(await call(server, 'GET', '/pets?limit=007'))).toHaveLength(7);
  });

  it('answers a list asked again alike until a pet is added; another limit or filter is its own page', async () => {
    const server = await startServer();
    await fill(server, 3);
    expect(ids(await call(server, 'GET', '/pets?limit=10'))).toEqual([1, 2, 3]);
    expect(ids(await call(server, 'GET', '/pets?limit=10'))).toEqual([1, 2, 3]);
    await createPet(server, { name: 'added', categoryId: 1, status: 'available' });
    expect(ids(await call(server, 'GET', '/pets?limit=10'))).toEqual([1, 2, 3, 4]);
    expect(ids(await call(server, 'GET', '/pets?limit=2'))).toEqual([1, 2]);
    expect(ids(await call(server, 'GET', '/pets?limit=2&status=pending'))).toEqual([2]);
    expect(ids(await call(server, 'GET', '/pets?limit=2'))).toEqual([1, 2]);
  });

  it('keeps one page, and only for the source it was built from', () => {
    const page = lastPage();
    const pets: StoredPet[] = [];
    let built = 0;
    const build = (text: string) => () => ((built += 1), text);
    expect(page(pets, 5, undefined, build('a'))).toBe('a');
    expect(page(pets, 5, undefined, build('b'))).toBe('a');
    // Another array of the same length (a source a fault rebuilds) is built again.
    expect(page([], 5, undefined, build('c'))).toBe('c');
    expect(built).toBe(2);
  });

  it('returns everything when the store holds fewer than limit', async () => {
    const server = await startServer();
    await fill(server, 5);
    expect(ids(await call(server, 'GET', '/pets?limit=100'))).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses a limit that is not an integer from 1 to 100 with 400', async () => {
    const server = await startServer();
    for (const limit of ['0', '101', '-1', '1.5', 'abc', '', '1e2', '+5', ' 5', '0x10', '99999999999999999999', '%31']) {
      expectErrorBody(await call(server, 'GET', `/pets?limit=${encodeURIComponent(limit)}`), 400);
    }
    expectErrorBody(await call(server, 'GET', '/pets?limit=5&limit=6'), 400);
  });

  it('filters by status and refuses a status outside PetStatus', async () => {
    const server = await startServer();
    await fill(server, 12);
    for (const status of ['available', 'pending', 'sold']) {
      const answer = await call(server, 'GET', `/pets?status=${status}&limit=100`);
      const pets = answer.json as Array<{ status?: string }>;
      expect(pets).toHaveLength(3);
      expect(pets.every((pet) => pet.status === status)).toBe(true);
    }
    expect(ids(await call(server, 'GET', '/pets?status=sold&limit=2'))).toEqual([3, 7]);
    for (const status of ['lost', 'AVAILABLE', '', 'available ']) {
      expectErrorBody(await call(server, 'GET', `/pets?status=${encodeURIComponent(status)}`), 400);
    }
  });

  it('ignores unknown query parameters', async () => {
    const server = await startServer();
    await fill(server, 3);
    expect(ids(await call(server, 'GET', '/pets?page=2&cursor=x&limit=2&sort=desc'))).toEqual([1, 2]);
  });
});

describe('reference server: getPet', () => {
  it('finds pets by id, with or without leading zeros or percent-encoding', async () => {
    const server = await startServer();
    await fill(server, 3);
    expect((await call(server, 'GET', '/pets/2')).json).toMatchObject({ id: 2, name: 'pet 1' });
    expect((await call(server, 'GET', '/pets/002')).json).toMatchObject({ id: 2 });
    expect((await call(server, 'GET', '/pets/%32')).json).toMatchObject({ id: 2 });
  });

  it('answers 404 with the Error body for an unknown id', async () => {
    const server = await startServer();
    for (const id of ['0', '4', '-1', '9223372036854775807', '-9223372036854775808']) {
      expectErrorBody(await call(server, 'GET', `/pets/${id}`), 404);
    }
  });

  it('answers 400 for a petId that is not an int64', async () => {
    const server = await startServer();
    await fill(server, 1);
    for (const id of ['abc', '1.5', '1e3', '9223372036854775808', '-9223372036854775809', '0x1', '1abc', '%E0%A4%A', '%20', '+1', '-']) {
      expectErrorBody(await call(server, 'GET', `/pets/${id}`), 400);
    }
  });
});
