// disposeAll: every disposable is disposed even when earlier ones throw, and no error is lost.
import * as assert from 'assert';
import { combined, disposeAll, disposeEach, DisposableStore } from '../../extension/src/dispose';

function tracker(): { disposed: string[]; ok(name: string): { dispose(): void }; failing(name: string): { dispose(): void } } {
  const disposed: string[] = [];
  return {
    disposed,
    ok: (name) => ({ dispose: () => void disposed.push(name) }),
    failing: (name) => ({ dispose: () => { disposed.push(name); throw new Error(`${name} failed`); } }),
  };
}

describe('disposeAll', () => {
  it('disposes all of them in order when none throws', () => {
    const t = tracker();
    disposeAll([t.ok('a'), t.ok('b'), t.ok('c')]);
    assert.deepStrictEqual(t.disposed, ['a', 'b', 'c']);
  });

  it('goes on past a throwing disposable and rethrows its error', () => {
    const t = tracker();
    assert.throws(() => disposeAll([t.ok('a'), t.failing('b'), t.ok('c')]), /^Error: b failed$/);
    assert.deepStrictEqual(t.disposed, ['a', 'b', 'c']);
  });

  it('throws every error together when several fail', () => {
    const t = tracker();
    assert.throws(
      () => disposeAll([t.failing('a'), t.ok('b'), t.failing('c')]),
      (e: unknown) => e instanceof AggregateError && e.errors.map((x: Error) => x.message).join() === 'a failed,c failed' && /2 disposables failed/.test(e.message),
    );
    assert.deepStrictEqual(t.disposed, ['a', 'b', 'c']);
  });

  it('disposeEach returns the errors instead of throwing', () => {
    const t = tracker();
    assert.deepStrictEqual(disposeEach([t.failing('x'), t.ok('y')]).map((e) => (e as Error).message), ['x failed']);
    assert.deepStrictEqual(t.disposed, ['x', 'y']);
  });
});

describe('DisposableStore and combined (a feature\'s one Disposable)', () => {
  it('disposes what was added later too, last first, past a throwing one, once', () => {
    const t = tracker();
    const store = new DisposableStore();
    store.add(t.ok('a'), t.failing('b'));
    store.add(t.ok('c'));
    assert.throws(() => store.dispose(), /^Error: b failed$/);
    assert.deepStrictEqual(t.disposed, ['c', 'b', 'a']);
    store.dispose();
    assert.deepStrictEqual(t.disposed, ['c', 'b', 'a'], 'disposed twice');
  });

  it('combined disposes its parts last first', () => {
    const t = tracker();
    combined(t.ok('a'), t.ok('b')).dispose();
    assert.deepStrictEqual(t.disposed, ['b', 'a']);
  });
});
