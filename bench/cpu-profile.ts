/** The parts of a V8 CPU profile (`node --cpu-prof`) the profile readers under bench/ use. */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface Profile {
  /** µs of the monotonic clock (process.hrtime) */
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  /** µs since the sample before (the first: since startTime) */
  timeDeltas: number[];
}
