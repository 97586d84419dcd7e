// Worker thread bootstrap: register the TypeScript loader in this thread,
// whatever started the parent (tsx CLI, node --import tsx, vitest), then run the worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
