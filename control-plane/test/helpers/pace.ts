/**
 * The test clients' pace: a loop iteration that began at `startedAt` ends no
 * sooner than `everyMs` later. The writers of the fault tests need a steady
 * stream across the fault, not the machine's whole CPU (an unpaced loop takes
 * a core from the engines, the agents and the test files beside it).
 */
export async function pace(startedAt: number, everyMs: number): Promise<void> {
  const rest = startedAt + everyMs - performance.now();
  if (rest > 0) await new Promise((r) => setTimeout(r, rest));
}
