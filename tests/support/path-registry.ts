/**
 * The generated path tests, as data: `describePaths` (paths.ts) and `describeGeneratedPaths`
 * (auth-flows.ts) record each model here with its test names and, on demand, what each path walks.
 * `npm run flows` imports the tests/models files with inert `describe`/`it` and reads this list to
 * show, for every transition of a machine, the path tests that take it — the same paths from the
 * same declarations, without running vitest.
 */
import type { AnyStateMachine } from 'xstate';

export interface WalkedPath {
  /** The name of the generated test. */
  test: string;
  /** Ids of the state nodes the path visits. */
  stateIds: string[];
  /** Transitions taken, as `<source state id> <event type, or 'always'> #<index in its list>`. */
  transitions: string[];
}

export interface RecordedPathModel {
  /** The describe block the generated tests are in. */
  title: string;
  machine: AnyStateMachine;
  /** Transitions (`<source state id> <event type, or 'always'> #<index>`) the model declares unreachable, excused from coverage. */
  unreachable?: readonly string[];
  /** Computed only when asked (the tests themselves never ask). */
  walk: () => WalkedPath[];
}

const recorded: RecordedPathModel[] = [];

export function recordPathModel(model: RecordedPathModel): void {
  recorded.push(model);
}

export function recordedPathModels(): readonly RecordedPathModel[] {
  return recorded;
}
