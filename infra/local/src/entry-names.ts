/** Where an entry's bundle lives, and how to tell a process runs it (no esbuild here: the stack watchdog imports this). */

/** The bundle's file name for an entry given relative to the repository (`agents/src/main.ts`). */
export const bundleFileName = (relEntry: string): string => `${relEntry.replace(/\.ts$/, '').replaceAll('/', '__')}.mjs`;

/** Whether a process's command line runs this entry (`agents/src/main.ts`), from its sources or from its bundle. */
export function runsEntry(commandLine: string, relEntry: string): boolean {
  return commandLine.includes(relEntry) || commandLine.includes(`.strata-bundles/${bundleFileName(relEntry)}`);
}
