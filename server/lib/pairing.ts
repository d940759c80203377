/**
 * Binary pairing, as a pure function of the volume a member's two legs receive.
 *
 * - Volume (PV) lands on the left or the right leg: the leg's lifetime total and its carry
 *   (unmatched volume) grow.
 * - At the end of each period (a week starting Monday, UTC) the carries are matched into pairs:
 *   1:1 takes one pair unit from each leg; 2:1 takes two units from the stronger leg and one from
 *   the weaker. The member's very first pair may be 2:1 (a qualification pair) while the rest are 1:1.
 * - Each pair earns `pairBonus`; what is paid in one period is capped at `cappingLimit`
 *   (the volume of the matched pairs is deducted either way: capped volume flushes out).
 * - Unmatched volume carries forward to the next period.
 *
 * Every step yields a history row (spec §3 "Binary history entry"): volume rows have a leg,
 * pairing rows (deductions) have none.
 */
import { type Units, ZERO, fits, min } from './money';

export type Leg = 'L' | 'R';
export type PairRatio = '1:1' | '2:1';

export interface PairingConfig {
  /** PV one side contributes to a 1:1 pair. */
  pairUnit: Units;
  /** Money earned per pair. */
  pairBonus: Units;
  /** Most money paid per period; null = no cap. */
  cappingLimit: Units | null;
  pairRatio: PairRatio;
  /** Ratio of the member's first ever pair. */
  firstPairRatio: PairRatio;
}

export interface BinaryState {
  totalLeft: Units;
  totalRight: Units;
  carryLeft: Units;
  carryRight: Units;
  /** Pairs matched so far (all periods). */
  pairs: bigint;
}

export const emptyState = (): BinaryState => ({ totalLeft: ZERO, totalRight: ZERO, carryLeft: ZERO, carryRight: ZERO, pairs: 0n });

export interface VolumeEvent<M = unknown> {
  leg: Leg;
  pv: Units;
  at: Date;
  /** Anything the caller wants back on the row (who bought, which order…). */
  meta?: M;
}

export interface HistoryRow<M = unknown> {
  type: 'left_volume' | 'right_volume' | 'pairing';
  leg: Leg | null;
  pvAdded: Units;
  pvDeductedLeft: Units;
  pvDeductedRight: Units;
  totalLeft: Units;
  totalRight: Units;
  carryLeft: Units;
  carryRight: Units;
  pairs: bigint;
  bonusGenerated: Units;
  bonusToPay: Units;
  cappingLimit: Units | null;
  periodStart: Date;
  at: Date;
  meta?: M;
}

/** Add volume to one leg. */
export function addVolume(state: BinaryState, leg: Leg, pv: Units): BinaryState {
  if (pv < 0n) throw new RangeError('volume cannot be negative');
  return leg === 'L'
    ? { ...state, totalLeft: state.totalLeft + pv, carryLeft: state.carryLeft + pv }
    : { ...state, totalRight: state.totalRight + pv, carryRight: state.carryRight + pv };
}

export interface Match {
  pairs: bigint;
  deductedLeft: Units;
  deductedRight: Units;
  bonusGenerated: Units;
  bonusToPay: Units;
  state: BinaryState;
}

/** Match the carries into pairs (one period's run). */
export function matchPairs(state: BinaryState, cfg: PairingConfig): Match {
  const u = cfg.pairUnit;
  if (u <= 0n) throw new RangeError('pairUnit must be positive');
  let left = state.carryLeft;
  let right = state.carryRight;
  let pairs = 0n;

  const take = (ratio: PairRatio, maxPairs: bigint | null) => {
    const leftStrong = left >= right;
    const strongNeed = ratio === '2:1' ? 2n * u : u;
    const strong = leftStrong ? left : right;
    const weak = leftStrong ? right : left;
    let n = fits(strong, strongNeed);
    const w = fits(weak, u);
    if (w < n) n = w;
    if (maxPairs !== null && n > maxPairs) n = maxPairs;
    if (n <= 0n) return 0n;
    if (leftStrong) {
      left -= n * strongNeed;
      right -= n * u;
    } else {
      right -= n * strongNeed;
      left -= n * u;
    }
    return n;
  };

  if (state.pairs === 0n && cfg.firstPairRatio === '2:1') {
    // Not qualified until the first 2:1 pair forms: nothing matches before it.
    if (take('2:1', 1n) === 0n) {
      return { pairs: 0n, deductedLeft: ZERO, deductedRight: ZERO, bonusGenerated: ZERO, bonusToPay: ZERO, state };
    }
    pairs = 1n;
  }
  pairs += take(cfg.pairRatio, null);

  const deductedLeft = state.carryLeft - left;
  const deductedRight = state.carryRight - right;
  const bonusGenerated = cfg.pairBonus * pairs;
  const bonusToPay = cfg.cappingLimit === null ? bonusGenerated : min(bonusGenerated, cfg.cappingLimit);
  return {
    pairs,
    deductedLeft,
    deductedRight,
    bonusGenerated,
    bonusToPay,
    state: { ...state, carryLeft: left, carryRight: right, pairs: state.pairs + pairs },
  };
}

const DAY = 86_400_000;

/** Monday 00:00 UTC of the week `d` falls in. */
export function weekStart(d: Date): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dow = (day.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(day.getTime() - dow * DAY);
}

/**
 * Run the plan over time-ordered volume: a volume row per event and a pairing row at the end of
 * each week that matched at least one pair. Weeks ending after `until` stay open (their volume is
 * carried in the returned state). The pairing row is stamped at the last millisecond of its week.
 */
export function runPairing<M>(
  events: VolumeEvent<M>[],
  cfg: PairingConfig,
  until: Date,
  initial: BinaryState = emptyState(),
): { rows: HistoryRow<M>[]; state: BinaryState } {
  const sorted = [...events].sort((a, b) => a.at.getTime() - b.at.getTime());
  const rows: HistoryRow<M>[] = [];
  let state = initial;
  let open: Date | null = null;

  const close = (start: Date) => {
    const end = new Date(start.getTime() + 7 * DAY);
    const m = matchPairs(state, cfg);
    state = m.state;
    if (m.pairs > 0n) {
      rows.push({
        type: 'pairing',
        leg: null,
        pvAdded: ZERO,
        pvDeductedLeft: m.deductedLeft,
        pvDeductedRight: m.deductedRight,
        totalLeft: state.totalLeft,
        totalRight: state.totalRight,
        carryLeft: state.carryLeft,
        carryRight: state.carryRight,
        pairs: m.pairs,
        bonusGenerated: m.bonusGenerated,
        bonusToPay: m.bonusToPay,
        cappingLimit: cfg.cappingLimit,
        periodStart: start,
        at: new Date(end.getTime() - 1),
      });
    }
  };
  const closeThrough = (before: Date) => {
    // Close every open week that ended at or before `before`; carried volume may pair in a later,
    // otherwise empty week only if new volume arrives, so empty weeks need no run.
    if (open && open.getTime() + 7 * DAY <= before.getTime()) {
      close(open);
      open = null;
    }
  };

  for (const e of sorted) {
    if (e.at.getTime() > until.getTime()) break;
    closeThrough(e.at);
    open ??= weekStart(e.at);
    state = addVolume(state, e.leg, e.pv);
    rows.push({
      type: e.leg === 'L' ? 'left_volume' : 'right_volume',
      leg: e.leg,
      pvAdded: e.pv,
      pvDeductedLeft: ZERO,
      pvDeductedRight: ZERO,
      totalLeft: state.totalLeft,
      totalRight: state.totalRight,
      carryLeft: state.carryLeft,
      carryRight: state.carryRight,
      pairs: 0n,
      bonusGenerated: ZERO,
      bonusToPay: ZERO,
      cappingLimit: null,
      periodStart: open,
      at: e.at,
      meta: e.meta,
    });
  }
  closeThrough(until);
  return { rows, state };
}
