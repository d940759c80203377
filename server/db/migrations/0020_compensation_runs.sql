-- Compensation runs: one row per plan period paid (a week, Monday 00:00 UTC). The run that inserts the
-- row pays the period; a second run of the same period finds the row and pays nothing. `paid_until` is
-- the instant the run covered up to (the end of the week, or the moment it ran when the week was still
-- open): the next run pays what was recorded after it.
CREATE TABLE compensation_runs (
  id serial PRIMARY KEY,
  plan text NOT NULL CHECK (plan IN ('binary', 'matrix', 'unilevel')),
  period_start date NOT NULL,
  paid_until timestamptz(3) NOT NULL,
  earnings_count int NOT NULL DEFAULT 0,
  total_paid numeric(20,4) NOT NULL DEFAULT 0,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  UNIQUE (plan, period_start)
);
