// What C++ parameters accept and arguments evidently are, for telling overloads apart by their
// arguments (cppoverloads.ts): built-in integers, floating-point numbers, bools, pointers, string
// literals, and template-ids a function template deduces. A class argument is judged only against
// built-in parameters, when its class and bases declare no conversion function (a converting
// constructor may take it to any class parameter). A narrow string literal reaches no wide string
// parameter (`const wchar_t*`, `basic_string_view<wchar_t>`, `std::u16string`): nothing converts
// `const char*` to a wide character.
import type { Node } from 'web-tree-sitter';

/** What a parameter accepts: `wide(-pointer)` a wide string (class or `const wchar_t*`); `deduced` a template-id of the function's own template parameters (`basic_string_view<Char>`). */
export type ParamKind = 'integer' | 'floating' | 'bool' | 'pointer' | 'wide-pointer' | 'wide' | 'deduced' | 'other';
/** What an argument evidently is (`string`: a narrow string literal; `object`: of a class that converts to no built-in type); undefined: not evident. */
export type ArgKind = 'integer' | 'floating' | 'bool' | 'pointer' | 'string' | 'wide-string' | 'zero' | 'nullptr' | 'object' | undefined;

const WIDE_CHAR = /^(const\s+)?(wchar_t|char16_t|char32_t)(\s+const)?$/;
/** The standard's wide strings and views, and any library's `basic_string(_view)<wchar_t>` named after them. */
const WIDE_STRING = /^(const\s+)?((\w+::)*(basic_string_view|basic_string)\s*<\s*(const\s+)?(wchar_t|char16_t|char32_t)\s*[,>]|(std::)?(wstring|wstring_view|u16string|u16string_view|u32string|u32string_view)$)/;

const INTEGER_NAMES = /^(size_t|ssize_t|ptrdiff_t|u?int(8|16|32|64|max|ptr)_t|u?int_(fast|least)(8|16|32|64)_t|wchar_t|char(8|16|32)_t)$/;

/** What a declared type accepts or holds, with its declarator's shape (`p` pointer, `a` array, `r` reference, `f` function) and the function's own template parameters. */
export function typeKind(type: Node | null, shape: string, own: readonly string[]): ParamKind {
  if (shape.includes('f') || !type) return 'other';
  if ((shape === 'p' || shape === 'a' || shape === 'rp') && WIDE_CHAR.test(type.text)) return 'wide-pointer';
  if (shape.includes('p') || shape.includes('a')) return 'pointer';
  if (WIDE_STRING.test(type.text)) return 'wide';
  const name = type.type === 'qualified_identifier' ? type.childForFieldName('name') : type;
  if (type.type === 'primitive_type' || type.type === 'sized_type_specifier') {
    if (/\bbool\b/.test(type.text)) return 'bool';
    if (/\b(float|double)\b/.test(type.text)) return 'floating';
    return /\bvoid\b/.test(type.text) ? 'other' : 'integer';
  }
  if (name?.type === 'type_identifier' && INTEGER_NAMES.test(name.text) && (type === name || /^std::/.test(type.text))) return 'integer';
  const args = name?.type === 'template_type' ? name.childForFieldName('arguments')?.text ?? '' : '';
  return own.length && new RegExp(`\\b(${own.join('|')})\\b`).test(args) ? 'deduced' : 'other';
}

/** Whether an argument of kind `arg` may be passed to a parameter of kind `param` (false only where evidently not). */
export function passable(arg: ArgKind, param: ParamKind | undefined): boolean {
  if (!arg || !param || param === 'other') return true;
  if (param === 'wide' || param === 'wide-pointer') return arg !== 'string' && (param === 'wide' || passable(arg, 'pointer'));
  if (arg === 'wide-string') return passable('string', param);
  if (arg === 'object') return param === 'deduced'; // a class reaches a built-in parameter only through a conversion function
  if (param === 'bool') return true;
  if (param === 'deduced') return false; // deduction from a built-in type fails
  if (param === 'pointer') return arg !== 'integer' && arg !== 'floating' && arg !== 'bool';
  return arg !== 'string' && arg !== 'pointer' && arg !== 'nullptr';
}
