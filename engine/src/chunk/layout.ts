// Turns the definitions of one file into non-overlapping chunks that cover its non-blank lines:
// a definition that fits becomes one chunk; an oversized one is opened up (its nested
// definitions get their own chunks, the rest is split on statement boundaries); leftover code
// between definitions becomes `module` chunks.
import type { Node } from 'web-tree-sitter';
import type { ChunkKind, Definition, RawChunk } from '../types';
import { endLineOf, type FoundDefinition } from './extract';
import { type LineIndex, type SizeLimits, splitRange } from './lines';

interface LayoutNode {
  def: FoundDefinition;
  kind: ChunkKind;
  /** Prefix for the names of the children (`Class` for methods), if this is a container. */
  qualifiedName: string;
  startLine: number;
  endLine: number;
  children: LayoutNode[];
}

/** Lines holding only closing brackets/punctuation: glued to the chunk before them. */
const TRIVIAL_LINE = /^[\s})\];,]*$/;
const CONTAINER_ROLES = new Set(['class', 'impl', 'type']);

export interface Layout {
  chunks: RawChunk[];
  definitions: Definition[];
}

export function layoutChunks(root: Node, found: FoundDefinition[], lines: LineIndex, limits: SizeLimits): Layout {
  const topLevel = buildTree(found);
  const chunks: RawChunk[] = [];
  const lastLine = lines.count - 1;
  const emitter = new Emitter(lines, limits, chunks);
  emitter.scope(0, lastLine, topLevel, root, { kind: 'module' });
  return { chunks, definitions: definitionsOf(topLevel, found) };
}

function chunkKindOf(role: FoundDefinition['role'], parent: LayoutNode | undefined): ChunkKind {
  switch (role) {
    case 'function':
      return parent && CONTAINER_ROLES.has(parent.def.role) ? 'method' : 'function';
    case 'method':
      return 'method';
    case 'class':
    case 'impl':
      return 'class';
    case 'type':
      return 'type';
  }
}

/** Nests definitions by syntax containment and makes sibling line ranges disjoint. */
function buildTree(found: FoundDefinition[]): LayoutNode[] {
  const sorted = [...found].sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  const roots: LayoutNode[] = [];
  const stack: LayoutNode[] = [];
  for (const def of sorted) {
    while (stack.length && stack[stack.length - 1].def.node.endIndex < def.node.endIndex) stack.pop();
    const parent = stack[stack.length - 1];
    const kind = chunkKindOf(def.role, parent);
    const isMember = parent !== undefined && CONTAINER_ROLES.has(parent.def.role);
    const owner = def.container ?? (isMember ? parent.def.name : undefined);
    const node: LayoutNode = {
      def,
      kind,
      qualifiedName: owner && (kind === 'method' || kind === 'function') ? `${owner}.${def.name}` : def.name,
      startLine: def.startLine,
      endLine: def.endLine,
      children: [],
    };
    // `typedef struct S {...} S;` defines two names over the same lines: one chunk.
    const sameLines = parent && parent.startLine === node.startLine && parent.endLine === node.endLine;
    if (!sameLines) (parent ? parent.children : roots).push(node);
    stack.push(node);
  }
  disjoin(roots);
  return roots;
}

function disjoin(siblings: LayoutNode[]): void {
  for (let i = 1; i < siblings.length; i++) {
    const prev = siblings[i - 1];
    const cur = siblings[i];
    if (cur.startLine > prev.endLine) continue;
    if (cur.startLine > prev.startLine && cur.endLine > prev.endLine) {
      // Usually a doc comment that the parser left at the end of the previous block.
      prev.endLine = cur.startLine - 1;
      prev.children = prev.children.filter((child) => child.startLine <= prev.endLine);
      for (const child of prev.children) child.endLine = Math.min(child.endLine, prev.endLine);
    } else {
      // Same line (minified code, `}; function f() {}`): the later one lives inside the earlier.
      siblings.splice(i, 1);
      i--;
    }
  }
  for (const node of siblings) disjoin(node.children);
}

interface RestOf {
  kind: ChunkKind;
  name?: string;
  signature?: string;
  doc?: string;
}

class Emitter {
  constructor(
    private readonly lines: LineIndex,
    private readonly limits: SizeLimits,
    private readonly chunks: RawChunk[],
  ) {}

  definition(node: LayoutNode): void {
    const { def } = node;
    if (this.lines.fits(node.startLine, node.endLine, this.limits)) {
      this.push({ kind: node.kind, startLine: node.startLine, endLine: node.endLine, name: node.qualifiedName, signature: def.signature, doc: def.doc });
      return;
    }
    // Oversized: class-like definitions become a header + members; functions are split into
    // pieces that keep the function's name, kind and signature (the doc goes on the first piece).
    const splitKind: ChunkKind =
      def.role === 'class' || def.role === 'impl' || (def.role === 'type' && node.children.length > 0) ? 'class-header' : node.kind;
    this.scope(node.startLine, node.endLine, node.children, def.node, {
      kind: splitKind,
      name: node.qualifiedName,
      signature: def.signature,
      doc: def.doc,
    });
  }

  /** Emits [startLine, endLine]: children as their own chunks, the code around them split in pieces. */
  scope(startLine: number, endLine: number, children: LayoutNode[], syntax: Node, rest: RestOf): void {
    let cuts: number[] | undefined;
    let docPending = rest.doc;
    let cursor = startLine;
    const emitGap = (from: number, to: number) => {
      const gap = this.lines.trim(from, to);
      if (!gap) return;
      const previous = this.chunks[this.chunks.length - 1];
      if (previous && previous.endLine >= startLine - 1 && this.isTrivial(gap.startLine, gap.endLine) && previous.endLine < gap.startLine) {
        previous.endLine = gap.endLine;
        return;
      }
      cuts ??= this.cutLines(syntax);
      for (const piece of splitRange(this.lines, gap.startLine, gap.endLine, cuts, this.limits)) {
        const trimmed = this.lines.trim(piece.startLine, piece.endLine);
        if (!trimmed) continue;
        this.push({ kind: rest.kind, ...trimmed, name: rest.name, signature: rest.signature, doc: docPending });
        docPending = undefined;
      }
    };
    for (const child of children) {
      emitGap(cursor, child.startLine - 1);
      this.definition(child);
      cursor = child.endLine + 1;
    }
    emitGap(cursor, endLine);
  }

  private isTrivial(startLine: number, endLine: number): boolean {
    for (let line = startLine; line <= endLine; line++) if (!TRIVIAL_LINE.test(this.lines.lines[line])) return false;
    return true;
  }

  /** Lines where a piece may start: starts of statements (descending into oversized ones) and lines after blank lines. */
  private cutLines(syntax: Node): number[] {
    const cuts: number[] = [];
    const visit = (node: Node, depth: number) => {
      for (const child of node.namedChildren) {
        if (!child) continue;
        const start = child.startPosition.row;
        cuts.push(start);
        if (depth < 24 && endLineOf(child) - start + 1 > this.limits.maxLines) visit(child, depth + 1);
      }
    };
    visit(syntax, 0);
    const first = syntax.startPosition.row;
    const last = endLineOf(syntax);
    for (let line = first + 1; line <= last; line++) if (this.lines.isBlank(line - 1) && !this.lines.isBlank(line)) cuts.push(line);
    cuts.sort((a, b) => a - b);
    return cuts;
  }

  private push(chunk: Omit<RawChunk, 'calls'>): void {
    const out: RawChunk = { kind: chunk.kind, startLine: chunk.startLine, endLine: chunk.endLine, calls: [] };
    if (chunk.name !== undefined) out.name = chunk.name;
    if (chunk.signature) out.signature = chunk.signature;
    if (chunk.doc) out.doc = chunk.doc;
    this.chunks.push(out);
  }
}

/** Every named definition (Rust impl blocks excepted), outermost first, with its owner. */
function definitionsOf(roots: LayoutNode[], found: FoundDefinition[]): Definition[] {
  const kinds = new Map<FoundDefinition, { kind: ChunkKind; container?: string }>();
  const visit = (node: LayoutNode, parent: LayoutNode | undefined) => {
    const isMember = parent !== undefined && CONTAINER_ROLES.has(parent.def.role);
    kinds.set(node.def, { kind: node.kind, container: node.def.container ?? (isMember ? parent.def.name : undefined) });
    for (const child of node.children) visit(child, node);
  };
  for (const root of roots) visit(root, undefined);
  const out: Definition[] = [];
  const seen = new Set<string>();
  for (const def of found) {
    if (def.role === 'impl') continue;
    const key = `${def.name}:${def.startLine}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const info = kinds.get(def);
    const definition: Definition = {
      name: def.name,
      kind: info?.kind ?? chunkKindOf(def.role, undefined),
      startLine: def.startLine,
      endLine: def.endLine,
      signature: def.signature,
    };
    const container = info?.container ?? def.container;
    if (container) definition.container = container;
    out.push(definition);
  }
  out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  return out;
}
