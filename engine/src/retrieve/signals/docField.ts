// docField: the trimmed window against names, signatures and doc comments (DeepCodeSeek's doc
// enrichment). Off by default (PARAMS.md).
import { lexicalTerms } from '../../lexical/tokenize';
import { defineSignal } from '../signal';

export const docField = defineSignal({
  name: 'docField',
  weight: 0,
  ablationWeight: 0.4,
  field: 'docField',
  rank: (ctx) => {
    if (!ctx.index.fields.has('docField')) return undefined;
    return { ids: ctx.index.docField.search(ctx.q.prose?.flat() ?? lexicalTerms(ctx.q.trimmed), ctx.depth, ctx.accept).map((x) => x.id) };
  },
});
