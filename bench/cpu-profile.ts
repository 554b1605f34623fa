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

/** The stack of a sample's node (`profile.samples[i]`), its own frame first, out to the root. */
export function stackReader(profile: Profile): (id: number) => ProfileNode[] {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return (id) => {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = nodes.get(at);
      if (n) stack.push(n);
    }
    return stack;
  };
}
