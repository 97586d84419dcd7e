/**
 * A long scenario's clock: each phase logs its duration as it ends, so a
 * test that runs out of time shows the last phase it finished.
 */
export function phaseClock(scenario: string): (finished: string) => void {
  const start = Date.now();
  let last = start;
  return (finished) => {
    const now = Date.now();
    console.log(`${scenario}: ${finished} in ${now - last} ms (${((now - start) / 1000).toFixed(1)} s in)`);
    last = now;
  };
}
