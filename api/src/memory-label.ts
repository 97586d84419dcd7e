/** Memory as people read it ("512 MB", "1.5 GB"): the engine's one definition, for the console and every client. */
export { formatMemoryMb } from '@strata/engine/memory-label';
