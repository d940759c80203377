import { chartRangeFromSearch, chartRangeToSearch, daysInRange, MAX_CHART_DAYS } from '../../src/lib/list-filters';

describe('earnings chart range ⇄ URL', () => {
  it('reads and writes the call\'s start_date/end_date as yyyy-MM-dd', () => {
    expect(chartRangeFromSearch('?start_date=2026-09-01&end_date=2026-10-31')).toEqual({ from: '2026-09-01', to: '2026-10-31' });
    expect(chartRangeToSearch({ from: '2026-09-01', to: '2026-10-31' })).toBe('?start_date=2026-09-01&end_date=2026-10-31');
    expect(chartRangeFromSearch(chartRangeToSearch({ from: '2025-02-28', to: '2025-03-01' }))).toEqual({ from: '2025-02-28', to: '2025-03-01' });
  });

  it('links with the earlier names from/to still open their range', () => {
    expect(chartRangeFromSearch('?from=2026-09-01&to=2026-10-31')).toEqual({ from: '2026-09-01', to: '2026-10-31' });
    expect(chartRangeFromSearch('?from=2026-09-01&end_date=2026-10-31')).toEqual({ from: '2026-09-01', to: '2026-10-31' });
  });

  it('no range, half a range or a malformed day means the default range', () => {
    expect(chartRangeFromSearch('')).toBeNull();
    expect(chartRangeFromSearch('?from=2026-09-01')).toBeNull();
    expect(chartRangeFromSearch('?start_date=2026-09-01&end_date=2026-09-01&end_date=x')).toEqual({ from: '2026-09-01', to: '2026-09-01' });
    expect(chartRangeFromSearch('?from=2026-02-30&to=2026-03-01')).toBeNull();
    expect(chartRangeFromSearch('?from=01/09/2026&to=2026-10-31')).toBeNull();
    expect(chartRangeToSearch(null)).toBe('');
  });

  it('a range typed the wrong way round is swapped', () => {
    expect(chartRangeFromSearch('from=2026-10-31&to=2026-09-01')).toEqual({ from: '2026-09-01', to: '2026-10-31' });
  });

  it('counts both ends and refuses ranges longer than the server allows', () => {
    expect(daysInRange('2026-01-01', '2026-01-01')).toBe(1);
    expect(daysInRange('2026-01-01', '2026-12-31')).toBe(365);
    expect(daysInRange('2026-03-28', '2026-03-30')).toBe(3);
    expect(MAX_CHART_DAYS).toBe(366);
    expect(chartRangeFromSearch('?from=2024-01-01&to=2024-12-31')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(chartRangeFromSearch('?from=2025-01-01&to=2026-01-02')).toBeNull();
  });
});
