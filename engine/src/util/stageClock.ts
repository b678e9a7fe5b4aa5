// Where a request's time goes, stage by stage (bench:ui's hover records read them): each lap adds
// the time since the previous one to a stage.

/** A lap function over `stages`: adds the ms since the last lap (or creation) to `stage`, to a tenth. */
export function stageClock<S extends string>(stages: Partial<Record<S, number>>): (stage: S) => void {
  let t = performance.now();
  return (stage) => {
    const now = performance.now();
    stages[stage] = Math.round(((stages[stage] ?? 0) + now - t) * 10) / 10;
    t = now;
  };
}
