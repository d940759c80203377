// @vitest-environment node
/**
 * The coverage gate of the generated path tests: every machine the app creates (every instance of a
 * factory included, through the shape it has) must have path tests in tests/models that reach all of
 * its states and take all of its transitions. The run prints the coverage of each machine; a machine
 * below 100 % fails with its name, where it is declared, and the states and transitions left out.
 */
import { flowCoverage, type MachineCoverage } from '../../scripts/flows';

const machines = await flowCoverage();

const pct = (n: number, of: number) => (of ? Math.floor((n / of) * 100) : 100);
const complete = (m: MachineCoverage) => m.tests > 0 && m.coverage.statesReached === m.coverage.states && m.coverage.transitionsTaken === m.coverage.transitions;

/** One line per machine: id, coverage, where it is declared. */
export function coverageTable(list: readonly MachineCoverage[]): string {
  const width = Math.max(...list.map((m) => m.id.length));
  return list
    .map(({ id, coverage: c, tests, where, shape, gaps }) =>
      [
        complete({ id, coverage: c, tests, where, shape, gaps }) ? '  ok ' : 'FAIL ',
        id.padEnd(width),
        ` states ${`${c.statesReached}/${c.states}`.padStart(7)} (${String(pct(c.statesReached, c.states)).padStart(3)} %)`,
        ` transitions ${`${c.transitionsTaken}/${c.transitions}`.padStart(7)} (${String(pct(c.transitionsTaken, c.transitions)).padStart(3)} %)`,
        `  ${tests} path tests`,
        gaps.excused.length ? `, ${gaps.excused.length} excused as unreachable` : '',
        `  ${where}${shape ? ` (${shape})` : ''}`,
      ].join(''),
    )
    .join('\n');
}

/** What a failing machine misses, in words someone can act on. */
export function gapReport(m: MachineCoverage): string {
  const lines = [`${m.id} (${m.where}${m.shape ? `, ${m.shape}` : ''}):`];
  if (!m.tests) {
    lines.push(`  no generated path tests (${m.coverage.states} states, ${m.coverage.transitions} transitions): add a describePaths model for it in tests/models`);
    return lines.join('\n');
  }
  if (m.gaps.states.length) lines.push(`  states never reached: ${m.gaps.states.join(', ')}`);
  for (const t of m.gaps.transitions) lines.push(`  transition never taken: ${t}`);
  return lines.join('\n');
}

describe('path-test coverage of every machine', () => {
  it('finds the machines and the factory instances', () => {
    expect(machines.length).toBeGreaterThan(40);
    expect(machines.map((m) => m.id)).toEqual(expect.arrayContaining(['session', 'passwordChange', 'addressDelete']));
  });

  it('reaches every state and takes every transition of each machine (100 %)', () => {
    console.log(`Path-test coverage per machine:\n${coverageTable(machines)}`);
    const failing = machines.filter((m) => !complete(m));
    expect(failing.map(gapReport).join('\n'), `${failing.length} machines below 100 % path-test coverage`).toBe('');
  });
});
