/**
 * The hot window: the last N seconds of every series at 1-second resolution,
 * in fixed-size typed-array rings (no per-point objects), for live views and
 * the SSE stream.
 */
export class SecondRing {
  private readonly secs: Float64Array;
  private readonly data: Float32Array;
  latest = -1;

  constructor(readonly width: number, readonly slots: number) {
    this.secs = new Float64Array(slots).fill(-1);
    this.data = new Float32Array(slots * width).fill(Number.NaN);
  }

  /** The row for unix second `sec`, cleared when it held an older second. Null when `sec` is older than the window. */
  row(sec: number): Float32Array | null {
    if (this.latest >= 0 && sec <= this.latest - this.slots) return null;
    const i = sec % this.slots;
    const row = this.data.subarray(i * this.width, (i + 1) * this.width);
    if (this.secs[i] !== sec) {
      this.secs[i] = sec;
      row.fill(Number.NaN);
    }
    if (sec > this.latest) this.latest = sec;
    return row;
  }

  /** The stored row for `sec`, or null. */
  get(sec: number): Float32Array | null {
    const i = sec % this.slots;
    return this.secs[i] === sec ? this.data.subarray(i * this.width, (i + 1) * this.width) : null;
  }

  oldest(): number {
    return this.latest < 0 ? -1 : this.latest - this.slots + 1;
  }
}

export class HotWindow {
  readonly instances = new Map<string, SecondRing>();
  readonly nodes = new Map<string, SecondRing>();

  constructor(readonly seconds: number, private readonly instanceWidth: number, private readonly nodeWidth: number) {}

  instance(id: string): SecondRing {
    let r = this.instances.get(id);
    if (!r) this.instances.set(id, (r = new SecondRing(this.instanceWidth, this.seconds)));
    return r;
  }

  node(id: string): SecondRing {
    let r = this.nodes.get(id);
    if (!r) this.nodes.set(id, (r = new SecondRing(this.nodeWidth, this.seconds)));
    return r;
  }

  /** Drops rings that have had nothing for a whole window (removed instances). */
  prune(nowSec: number): void {
    for (const m of [this.instances, this.nodes]) {
      for (const [id, r] of m) if (r.latest < nowSec - this.seconds) m.delete(id);
    }
  }
}
