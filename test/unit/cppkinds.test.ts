// What an evident argument may be passed to (engine/src/resolve/cppkinds.ts), one row per rule:
// cppoverloads.ts drops an overload only where a row says false.
import * as assert from 'assert';
import { passable, type ArgKind, type ParamKind } from '../../engine/src/resolve/cppkinds';

const ROWS: Array<[ArgKind, ParamKind, boolean, string]> = [
  ['string', 'integer', false, 'a string literal is no integer'],
  ['string', 'pointer', true, 'a string literal decays to a pointer'],
  ['integer', 'pointer', false, 'an integer is no pointer'],
  ['zero', 'pointer', true, 'a literal 0 is a null pointer'],
  ['string', 'wide', false, 'a narrow literal reaches no basic_string_view<wchar_t>'],
  ['string', 'wide-pointer', false, 'nor a const wchar_t*'],
  ['integer', 'wide-pointer', false, 'an integer is no pointer, wide or not'],
  ['nullptr', 'wide-pointer', true, 'nullptr is any pointer'],
  ['wide-string', 'wide', true, 'a wide literal may reach a wide string'],
  ['wide-string', 'integer', false, 'a wide literal is no integer either'],
  ['wide-string', 'other', true, 'a class parameter: its constructors decide'],
  ['object', 'integer', false, 'a class with no conversion function reaches no built-in type'],
  ['object', 'other', true, 'a class parameter may take it by a converting constructor'],
  [undefined, 'integer', true, 'an argument not evident is passable'],
];

describe('cppkinds.passable: what an evident argument may be passed to', () => {
  for (const [arg, param, want, why] of ROWS) it(`${arg} → ${param}: ${want} (${why})`, () => assert.strictEqual(passable(arg, param), want));
});
