/** Memory as people read it, in the console and in the API's messages: "512 MB", "4 GB", "1.5 GB". */
export function formatMemoryMb(mb: number): string {
  if (mb >= 1024) {
    const gb = mb / 1024;
    return `${Number.isInteger(gb) ? gb : gb.toFixed(1)} GB`;
  }
  return `${mb} MB`;
}
