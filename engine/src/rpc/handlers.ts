// The engine methods the worker serves, as one table typed by the protocol: each handler gets the
// argument tuple EngineMethods declares and must return its result type, so a method added to the
// protocol does not compile until it is served here (no casts per request).
import type { Engine } from '../engine';
import { runAgentTool } from '../agentTools';
import type { EngineMethod, EngineMethods, MethodCall } from './protocol';
import type { IndexProgress } from '../api';

/** What a handler may use besides the engine: the request's cancellation and its progress events. */
export interface RequestContext {
  signal: AbortSignal;
  progress(progress: IndexProgress): void;
  /** A first answer, before the result. */
  partial(value: unknown): void;
}

type Handler<M extends EngineMethod> = (
  engine: Engine,
  args: EngineMethods[M]['args'],
  request: RequestContext,
) => EngineMethods[M]['result'] | Promise<EngineMethods[M]['result']>;

export const HANDLERS: { [M in EngineMethod]: Handler<M> } = {
  indexAll: (engine, _args, { progress, signal }) => engine.indexAll(progress, signal),
  // The stats come with the answer, so the status bar needs no second request per saved file.
  updateFile: async (engine, [relPath, content]) => {
    await engine.updateFile(relPath, content);
    return engine.stats();
  },
  removeFile: async (engine, [relPath]) => {
    await engine.removeFile(relPath);
    return engine.stats();
  },
  retrieve: (engine, [query, opts = {}], { signal, partial }) => {
    const { quickFirst, ...rest } = opts;
    return engine.retrieve(query, { ...rest, signal, ...(quickFirst ? { onQuick: partial } : {}) });
  },
  complete: (engine, [state], { signal }) => engine.complete(state, { signal }),
  vet: (engine, [state, text]) => engine.vet(state, text),
  symbolAt: (engine, [relPath, line, character, content]) => engine.symbolAt(relPath, line, character, content),
  prepareFile: (engine, [relPath, content]) => engine.prepareFile(relPath, content),
  symbolRelated: (engine, [relPath, line, character, query, content], { signal }) => engine.symbolRelated(relPath, line, character, query, content, signal),
  agentTool: (engine, [name, input], { signal }) => runAgentTool(engine, name, input, signal),
  definitionAt: (engine, [relPath, line, character, siblings]) => engine.definitionAt(relPath, line, character, siblings),
  stats: (engine) => engine.stats(),
  flush: (engine) => engine.flush(),
  close: (engine) => engine.close(),
};

/** Serves one call: its handler takes the argument tuple the protocol declares for its method. */
export function invoke<M extends EngineMethod>(engine: Engine, call: MethodCall<M>, request: RequestContext): ReturnType<Handler<M>> {
  const handler: Handler<M> = HANDLERS[call.method];
  return handler(engine, call.args, request);
}
