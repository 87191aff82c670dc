/**
 * The heap after a full collection, sampled on a timer while a leg streams: a process that holds what it streams
 * grows with it, one that holds a page at a time stays flat. Collection is switched on here (as `--expose-gc`
 * would), so the figure needs no flag.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const collect = (globalThis.gc ?? vm.runInNewContext('gc')) as () => void;

/** Bytes of heap in use once everything unreachable is collected. */
export function heapAfterCollection(): number {
  collect();
  return process.memoryUsage().heapUsed;
}

export interface HeapSampler {
  /** Stops sampling; the samples in bytes, the first taken before the sampler started. */
  stop(): number[];
}

/** Samples the heap after collection every `everyMs` until stopped (a sample waits for the event loop). */
export function sampleHeap(everyMs: number): HeapSampler {
  const samples = [heapAfterCollection()];
  const timer = setInterval(() => samples.push(heapAfterCollection()), everyMs);
  return {
    stop() {
      clearInterval(timer);
      samples.push(heapAfterCollection());
      return samples;
    },
  };
}
