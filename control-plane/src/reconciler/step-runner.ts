import type { Operation, OperationStep } from '@strata/api';
import type { StepDef } from './steps';

/** What one step says after looking at desired and observed state. */
export type StepResult =
  | { kind: 'done'; detail?: string }
  | { kind: 'wait'; detail: string; fraction?: number }
  | { kind: 'failed'; code: string; message: string };

export type Step<C> = { def: StepDef; run: (ctx: C) => Promise<StepResult> };

export type RunOutcome =
  | { kind: 'succeeded' }
  | { kind: 'waiting' }
  | { kind: 'failed'; code: string; message: string };

/**
 * Runs steps in order until one waits or fails. Every step is re-evaluated on
 * every pass (level-triggered), so a restart simply runs the list again.
 * Mutates `op` (steps, progress, state); the caller saves it.
 */
export async function runSteps<C>(op: Operation, steps: Step<C>[], ctx: C, now = () => new Date().toISOString()): Promise<RunOutcome> {
  let progress = 0;
  if (op.state === 'pending') op.state = 'running';
  for (const step of steps) {
    const rec = op.steps.find((s) => s.name === step.def.name) ?? pushStep(op.steps, step.def);
    if (rec.state === 'pending') {
      rec.state = 'running';
      rec.startedAt = now();
    }
    const r = await step.run(ctx);
    if (r.kind === 'done') {
      if (rec.state !== 'succeeded') {
        rec.state = 'succeeded';
        rec.finishedAt = now();
        if (r.detail) rec.detail = r.detail;
        else delete rec.detail;
      }
      progress += step.def.weight;
      continue;
    }
    if (r.kind === 'wait') {
      rec.state = 'running';
      rec.detail = r.detail;
      op.progress = round(progress + step.def.weight * clamp(r.fraction ?? 0));
      return { kind: 'waiting' };
    }
    rec.state = 'failed';
    rec.detail = r.message;
    rec.finishedAt = now();
    op.state = 'failed';
    op.error = { code: r.code, message: r.message };
    op.progress = round(progress);
    return { kind: 'failed', code: r.code, message: r.message };
  }
  op.state = 'succeeded';
  op.progress = 1;
  return { kind: 'succeeded' };
}

function pushStep(steps: OperationStep[], def: StepDef): OperationStep {
  const s: OperationStep = { name: def.name, title: def.title, state: 'pending' };
  steps.push(s);
  return s;
}

const clamp = (x: number) => Math.max(0, Math.min(1, x));
const round = (x: number) => Math.round(x * 1000) / 1000;
