/**
 * One open change stream: where it stands in the change log, what it watches, and the batches it hands out.
 * Opening checks the $changeStream options and the resume point; `next` reads on from the position, applies
 * the stages after $changeStream to each event and ends the stream at an invalidate.
 */
import type { Document } from "bson";
import type { ChangeEntry, ChangeLog } from "../engine/changelog";
import { deepClone } from "../engine/keys";
import { Aggregator } from "../engine/mingo-context";
import { compileFilter, MINGO_OPTIONS, mapMingoError, rejectJavaScript } from "../engine/query";
import { commandError, notSupported } from "../wire/errors";
import {
  changeEvent,
  concerns,
  eventSizeEstimate,
  type FullDocumentMode,
  invalidateEvent,
  invalidates,
  type LookupDocument,
  type StreamScope,
} from "./events";
import { entryPrefilter } from "./prefilter";
import { decodeToken, encodeToken, fromTimestamp } from "./token";

/** stages MongoDB allows after $changeStream */
const ALLOWED_STAGES = new Set([
  "$match",
  "$project",
  "$addFields",
  "$set",
  "$unset",
  "$replaceRoot",
  "$replaceWith",
  "$redact",
]);
const OPTIONS = new Set([
  "fullDocument",
  "fullDocumentBeforeChange",
  "resumeAfter",
  "startAfter",
  "startAtOperationTime",
  "allChangesForCluster",
  "showExpandedEvents",
]);
const FULL_DOCUMENT_MODES = new Set(["default", "updateLookup", "whenAvailable", "required"]);

export const HISTORY_LOST_MESSAGE =
  "Resume of change stream was not possible, as the resume point may no longer be in the oplog.";

function historyLost(): Error {
  return commandError(286, HISTORY_LOST_MESSAGE);
}

export interface StreamBatch {
  events: Document[];
  /** the stream ended (an invalidate was handed out) */
  done: boolean;
  postBatchResumeToken: Document;
}

export class ChangeStream {
  /** the last change read (events up to here were handed out or filtered away) */
  private position: bigint;
  /** an invalidate still owed for the change at `position` */
  private owedInvalidate?: ChangeEntry;
  private done = false;
  private lastToken: Document;
  private readonly transform: (event: Document) => Document | undefined;
  private readonly prefilter: ((entry: ChangeEntry) => boolean) | undefined;

  private constructor(
    private readonly log: ChangeLog,
    readonly scope: StreamScope,
    private readonly mode: FullDocumentMode,
    private readonly lookup: LookupDocument,
    stages: Document[],
    start: { position: bigint; owedInvalidate?: ChangeEntry },
  ) {
    this.position = start.position;
    this.owedInvalidate = start.owedInvalidate;
    this.lastToken = encodeToken(this.position, "mark", log.runId);
    this.transform = compileStages(stages);
    this.prefilter = entryPrefilter(stages);
  }

  /** Checks the $changeStream options and the resume point (286 when it is no longer in the history). */
  static open(
    log: ChangeLog,
    scope: StreamScope,
    spec: Document,
    stages: Document[],
    lookup: LookupDocument,
  ): ChangeStream {
    for (const key of Object.keys(spec)) {
      if (!OPTIONS.has(key))
        throw commandError(40415, `BSON field '$changeStream.${key}' is an unknown field.`);
    }
    const mode = (spec.fullDocument ?? "default") as FullDocumentMode;
    if (!FULL_DOCUMENT_MODES.has(mode))
      throw commandError(2, `'${String(mode)}' is not a valid fullDocument option for $changeStream`);
    const before = spec.fullDocumentBeforeChange ?? "off";
    if (before !== "off")
      throw notSupported(`$changeStream with fullDocumentBeforeChange: '${String(before)}'`);
    if (spec.showExpandedEvents === true) throw notSupported("$changeStream with showExpandedEvents");
    return new ChangeStream(log, scope, mode, lookup, stages, startOf(log, scope, spec));
  }

  /** Would this change give the stream something: an event (unless the prefilter rules it out) or its end. */
  wants(entry: ChangeEntry): boolean {
    if (!concerns(this.scope, entry)) return false;
    return !this.prefilter || this.prefilter(entry) || invalidates(this.scope, entry);
  }

  /** Up to `max` events from the position on (fewer when the reply would get too large). */
  next(max: number, maxBytes: number): StreamBatch {
    const events: Document[] = [];
    if (this.done) return this.batch(events);
    if (this.position < this.log.lostUpTo) throw historyLost();
    if (this.owedInvalidate) return this.invalidate(events, this.owedInvalidate);
    let bytes = 0;
    for (const entry of this.log.after(this.position)) {
      if (events.length >= max || bytes >= maxBytes) break;
      this.position = entry.seq;
      this.lastToken = encodeToken(entry.seq, "mark", this.log.runId);
      if (!concerns(this.scope, entry)) continue;
      // an entry the $match would reject for its type or namespace gets no event built (prefilter.ts)
      if (!this.prefilter || this.prefilter(entry)) {
        const raw = changeEvent(this.scope, entry, this.mode, this.lookup, this.log.runId);
        const event = raw && this.transform(raw);
        if (event) {
          events.push(event);
          bytes += eventSizeEstimate(entry);
          this.lastToken = event._id as Document;
        }
      }
      if (invalidates(this.scope, entry)) {
        if (events.length >= max) this.owedInvalidate = entry;
        else return this.invalidate(events, entry);
        break;
      }
    }
    return this.batch(events);
  }

  private invalidate(events: Document[], entry: ChangeEntry): StreamBatch {
    const event = invalidateEvent(entry, this.log.runId);
    events.push(event);
    this.owedInvalidate = undefined;
    this.done = true;
    this.lastToken = event._id as Document;
    return this.batch(events);
  }

  private batch(events: Document[]): StreamBatch {
    return { events, done: this.done, postBatchResumeToken: this.lastToken };
  }
}

/** where a new stream starts: now, or after a resume token, or at an operation time */
function startOf(
  log: ChangeLog,
  scope: StreamScope,
  spec: Document,
): { position: bigint; owedInvalidate?: ChangeEntry } {
  const given = ["resumeAfter", "startAfter", "startAtOperationTime"].filter((k) => spec[k] !== undefined);
  if (given.includes("resumeAfter") && given.includes("startAfter"))
    throw commandError(50865, "Do not specify both 'startAfter' and 'resumeAfter' in a $changeStream stage.");
  if (given.length > 1)
    throw commandError(40674, "Only one type of resume option is allowed, but multiple were found.");
  if (given.length === 0) return { position: log.lastCommitted };
  const option = given[0];
  if (option === "startAtOperationTime") {
    const at = fromTimestamp(spec.startAtOperationTime, option);
    if (at <= log.lostUpTo) throw historyLost();
    return { position: at - 1n };
  }
  const token = decodeToken(spec[option], option);
  if (token.kind === "invalidate" && option === "resumeAfter") {
    throw commandError(
      260,
      "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate notification.",
    );
  }
  if (token.run !== log.runId || token.seq < log.lostUpTo) throw historyLost();
  if (token.kind !== "event" || token.seq === log.lostUpTo) return { position: token.seq };
  const entry = log.at(token.seq);
  if (!entry && token.seq <= log.lastCommitted)
    throw commandError(280, "cannot resume stream; the resume token was not found.");
  // resuming from the event that ended the stream: the invalidate comes next
  const owed = entry && concerns(scope, entry) && invalidates(scope, entry) ? entry : undefined;
  return { position: token.seq, owedInvalidate: owed };
}

/** The stages after $changeStream as one function: event → event, or undefined when filtered out. */
function compileStages(stages: Document[]): (event: Document) => Document | undefined {
  for (const stage of stages) {
    const name = Object.keys(stage)[0];
    if (!ALLOWED_STAGES.has(name))
      throw commandError(20, `${name} is not permitted in a $changeStream pipeline`);
  }
  rejectJavaScript(stages);
  // the leading $match stages are compiled once and test the event as it is (a matcher never modifies it); only
  // an event they let through is copied and run through the remaining stages. Most events of a stream are
  // filtered away (a database-wide stream that wants two collections), so this is where a stream's CPU goes.
  const lead = stages.findIndex((s) => Object.keys(s)[0] !== "$match");
  const matchCount = lead < 0 ? stages.length : lead;
  const matchers = stages.slice(0, matchCount).map((s) => compileFilter(s.$match as Document));
  const rest = stages.slice(matchCount);
  const matches = (event: Document) => {
    for (const m of matchers) if (!m(event)) return false;
    return true;
  };
  if (rest.length === 0) return (event) => (matches(event) ? event : undefined);
  return (event) => {
    if (!matches(event)) return undefined;
    let out: Document | undefined;
    try {
      out = new Aggregator(rest, MINGO_OPTIONS).run([deepClone(event)])[0] as Document | undefined;
    } catch (e) {
      throw mapMingoError(e, "aggregate");
    }
    if (out && JSON.stringify(out._id) !== JSON.stringify(event._id)) {
      throw commandError(
        280,
        "Encountered an event whose _id field, which contains the resume token, was modified by the pipeline. Modifying the _id field of an event makes it impossible to resume the stream from that point. Only transformations that retain the unmodified _id field are allowed.",
      );
    }
    return out;
  };
}
