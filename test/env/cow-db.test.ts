import { describe, expect, it } from 'vitest';
import { CowDb } from '../../src/env/cow-db.js';

type DB = { users: Record<string, { name: string; cards: number[] }>; orders: Record<string, { total: number }> };
const base = (): DB => ({ users: { u1: { name: 'A', cards: [1] }, u2: { name: 'B', cards: [] } }, orders: {} });

describe('CowDb', () => {
  it('clones only what a view writes and never touches the base', () => {
    const b = base();
    const v = new CowDb(b);
    v.mut('users', 'u1').cards.push(2);
    v.put('orders', 'o1', { total: 5 });
    expect(b.users.u1.cards).toEqual([1]);
    expect(v.get('users', 'u1')!.cards).toEqual([1, 2]);
    expect(v.get('users', 'u2')).toBe(b.users.u2);
    expect(v.ids('orders')).toEqual(['o1']);
    expect([...v.touched()].map(([t, ids]) => [t, ids])).toEqual([['users', ['u1']], ['orders', ['o1']]]);
    const m = v.materialize();
    expect(m.users.u2).toBe(b.users.u2);
    expect(m.orders).toEqual({ o1: { total: 5 } });
  });
  it('compares and diffs by touched records', () => {
    const b = base();
    const x = new CowDb(b);
    const y = x.fork();
    expect(CowDb.equal(x, y)).toBe(true);
    x.mut('users', 'u2').name = 'B';
    expect(CowDb.equal(x, y)).toBe(true);
    x.mut('users', 'u2').name = 'C';
    expect(CowDb.equal(x, y)).toBe(false);
    expect(CowDb.diff(y, x)).toEqual([{ path: '/users/u2/name', op: 'replace', before: 'B', after: 'C' }]);
    x.remove('users', 'u1');
    expect(x.ids('users')).toEqual(['u2']);
    expect(CowDb.diff(y, x)).toContainEqual({ path: '/users/u1', op: 'remove', before: { name: 'A', cards: [1] }, after: null });
  });
  it('knows a branch nobody has written since as holding exactly the same records', () => {
    const b = base();
    const start = new CowDb(b);
    start.mut('users', 'u1').name = 'Z';
    start.put('orders', 'o1', { total: 1 });
    const unwritten = start.branch();
    expect(unwritten.sharesRecordsWith(start)).toBe(true);
    expect(new CowDb(b).sharesRecordsWith(new CowDb(b))).toBe(true);
    // Written: even with the same value, the record is another object.
    const written = start.branch();
    written.mut('users', 'u2').name = 'B';
    expect(written.sharesRecordsWith(start)).toBe(false);
    expect(CowDb.equal(written, start)).toBe(true);
    const removed = start.branch();
    removed.remove('orders', 'o1');
    expect(removed.sharesRecordsWith(start)).toBe(false);
    expect(start.branch().sharesRecordsWith(new CowDb(base()))).toBe(false);
    expect(new CowDb(b).sharesRecordsWith(start)).toBe(false);
  });

  it('branches keep the branch point and stay independent', () => {
    const x = new CowDb(base());
    x.mut('users', 'u1').name = 'Z';
    const y = x.branch();
    y.mut('users', 'u1').name = 'Y';
    expect(x.get('users', 'u1')!.name).toBe('Z');
    expect(y.get('users', 'u1')!.name).toBe('Y');
  });
});

describe('CowDb values at a pointer (checks read states this way)', () => {
  it('reads what the materialized view has, table by table and record by record', async () => {
    const { stateValueAt } = await import('../../src/evaluation/checks/db.js');
    const { at, pointerSegments } = await import('../../src/evaluation/db.js');
    const base: Record<string, Record<string, { name?: string; tags?: string[]; items?: number[] }>> = { users: { u1: { name: 'Ana', tags: ['a', 'b'] }, u2: { name: 'Bo', tags: [] } }, orders: { o1: { items: [1, 2] } } };
    const v = new CowDb(base);
    v.mut('users', 'u1').tags!.push('c');
    v.put('users', 'u3', { name: 'Cy', tags: ['x'] });
    v.remove('users', 'u2');
    const pointers = ['', '/users', '/orders', '/nope', '/users/u1', '/users/u1/tags', '/users/u1/tags/2', '/users/u2', '/users/u2/name', '/users/u3/tags/0', '/orders/o1/items/1', '/orders/o9', '/users/u1/tags/x', '/users/toString'];
    for (const p of pointers) expect(stateValueAt(v, p), p).toEqual(at(v.materialize(), pointerSegments(p)));
    expect(v.table('orders')).toBe(base.orders);
    expect(v.table('users')).toEqual({ u1: { name: 'Ana', tags: ['a', 'b', 'c'] }, u3: { name: 'Cy', tags: ['x'] } });
  });
});
