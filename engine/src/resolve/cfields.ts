// `a->b.c` in C: what the receiver `a->b` is, read from the syntax before any await (the tree may
// be replaced meanwhile): a local's or parameter's declared type, a cast's type, or a global the
// include graph declares, then the fields on the way (includes.ts follows them through the
// structs' bodies and the macros that expand to fields).
import type { Node } from 'web-tree-sitter';
import { typeOf, type CType } from './cdecls';
import type { Binding } from './scopes';

export interface Receiver {
  head: { k: 'type'; type: CType } | { k: 'global'; name: string };
  /** Fields between the head and the name asked for (`a->b.c`: `b`). */
  path: string[];
}

const MAX_PATH = 8;

/** The receiver of a field access, as a head and a path of fields; undefined when its type is not read from declarations. */
export function receiverPlan(file: string, expr: Node | null, bindingOf: (n: Node) => Binding | undefined, depth = 0): Receiver | undefined {
  if (!expr || depth > MAX_PATH) return undefined;
  switch (expr.type) {
    case 'identifier': {
      const b = bindingOf(expr);
      if (!b) return { head: { k: 'global', name: expr.text }, path: [] };
      if (b.kind !== 'var' && b.kind !== 'parameter') return undefined;
      const type = declaredType(file, b.node);
      return type && { head: { k: 'type', type }, path: [] };
    }
    case 'field_expression': {
      const r = receiverPlan(file, expr.childForFieldName('argument'), bindingOf, depth + 1);
      const f = expr.childForFieldName('field');
      return r && f ? { head: r.head, path: [...r.path, f.text] } : undefined;
    }
    case 'subscript_expression': case 'pointer_expression':
      return receiverPlan(file, expr.childForFieldName('argument'), bindingOf, depth + 1);
    case 'parenthesized_expression':
      return receiverPlan(file, expr.namedChildren[0], bindingOf, depth + 1);
    case 'cast_expression': {
      const type = typeOf(file, expr.childForFieldName('type')?.childForFieldName('type') ?? null);
      return type && { head: { k: 'type', type }, path: [] };
    }
    default: return undefined;
  }
}

/** The type a local or parameter is declared with (`uv_loop_t *loop`, `struct evbuffer *buf`). */
function declaredType(file: string, id: Node): CType | undefined {
  for (let p = id.parent; p; p = p.parent) {
    if (p.type === 'declaration' || p.type === 'parameter_declaration') return typeOf(file, p.childForFieldName('type'));
    if (!/declarator$/.test(p.type)) return undefined;
  }
  return undefined;
}
