// The engine client's events (state, log lines, restarts, call timings, team state): listener sets
// and the state they report. EngineClient (client.ts) holds one, emits into it and lends out its
// subscriptions.
import type { TeamState } from '../api';
import type { CallTiming, EngineClientState } from './clientOptions';

export type Listener<T> = (value: T) => void;
export interface Disposable { dispose(): void }

export class ClientEvents {
  /** The team index's last reported state (undefined: none configured, or nothing reported yet). */
  teamState: TeamState | undefined;
  private currentState: EngineClientState = 'starting';
  private readonly stateListeners = new Set<Listener<EngineClientState>>();
  private readonly logListeners = new Set<Listener<string>>();
  private readonly restartListeners = new Set<Listener<void>>();
  private readonly timingListeners = new Set<Listener<CallTiming>>();
  private readonly teamListeners = new Set<Listener<TeamState>>();

  get state(): EngineClientState {
    return this.currentState;
  }

  onState(listener: Listener<EngineClientState>): Disposable {
    return this.subscribe(this.stateListeners, listener);
  }
  onLog(listener: Listener<string>): Disposable {
    return this.subscribe(this.logListeners, listener);
  }
  /** Fires after a replacement worker has opened the engine (the caller may want to re-sync). */
  onRestarted(listener: Listener<void>): Disposable {
    return this.subscribe(this.restartListeners, listener);
  }

  /**
   * Timing of every successful request. Listeners run in the caller's async context (after its
   * await, before its continuation), so an AsyncLocalStorage span of the caller sees them.
   */
  onTiming(listener: Listener<CallTiming>): Disposable {
    return this.subscribe(this.timingListeners, listener);
  }

  /** The team index's state as the engine reports it (serving, slow, unreachable: local answers). */
  onTeamState(listener: Listener<TeamState>): Disposable {
    return this.subscribe(this.teamListeners, listener);
  }

  setTeamState(state: TeamState): void {
    this.teamState = state;
    for (const l of this.teamListeners) l(state);
  }

  setState(state: EngineClientState): void {
    if (this.currentState === state) return;
    this.currentState = state;
    for (const l of this.stateListeners) l(state);
  }

  emitLog(line: string): void {
    for (const l of this.logListeners) l(line);
  }

  emitRestarted(): void {
    for (const l of this.restartListeners) l();
  }

  /** Whether anyone listens for call timings (so a call need not build one). */
  get timingWanted(): boolean {
    return this.timingListeners.size > 0;
  }

  emitTiming(timing: CallTiming): void {
    for (const l of this.timingListeners) l(timing);
  }

  private subscribe<T>(set: Set<Listener<T>>, listener: Listener<T>): Disposable {
    set.add(listener);
    return { dispose: () => set.delete(listener) };
  }
}
