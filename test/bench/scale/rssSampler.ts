// The scale benchmark's memory probe (run.ts): RSS sampled per named phase.
import { procMemory } from './procMemory';

/**
 * Samples RSS every 100 ms, keeping the peak per named phase: of the engine's process (a child
 * whose pid changes when it is replaced, or this one) and of this process (the host).
 */
export class RssSampler {
  private phase = 'idle';
  private readonly t0 = performance.now();
  readonly peaks: Record<string, number> = {};
  /** When each phase's peak was sampled (s since the sampler started), to find what ran then in the log. */
  readonly peakAtS: Record<string, number> = {};
  /** The engine's largest RSS in each second (MB), per phase: the shape of the build's memory. */
  readonly perSecondMB: Record<string, number[]> = {};
  readonly hostPeaks: Record<string, number> = {};
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly enginePid: () => number | undefined) {
    this.timer = setInterval(() => this.sample(), 100);
  }
  sample(): void {
    const host = process.memoryUsage().rss;
    const pid = this.enginePid();
    const rss = pid === undefined ? host : procMemory(pid)?.rss ?? 0;
    const atS = (performance.now() - this.t0) / 1000;
    if (rss > (this.peaks[this.phase] ?? 0)) this.peakAtS[this.phase] = Math.round(atS * 10) / 10;
    this.peaks[this.phase] = Math.max(this.peaks[this.phase] ?? 0, rss);
    const secs = (this.perSecondMB[this.phase] ??= []);
    const sec = Math.floor(atS);
    secs[sec] = Math.max(secs[sec] ?? 0, Math.round(rss / 1048576));
    this.hostPeaks[this.phase] = Math.max(this.hostPeaks[this.phase] ?? 0, host);
  }
  enter(phase: string): void {
    this.sample();
    this.phase = phase;
    this.sample();
  }
  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }
}
