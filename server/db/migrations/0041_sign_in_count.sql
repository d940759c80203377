-- A password sign-in attempt counted for its accounts in one statement (server/lib/sign-in-throttle.ts), where a
-- transaction of its own took five round trips. `accounts`: the members the identifier names (m:<id>) or the
-- identifier itself; `waits`: the wait in seconds after n consecutive failures at waits[n] (0: none, NULL: locked
-- until the password is reset), the policy being the server's. When no account must wait, every account's count goes
-- up by one and its next wait is set, and one row per account is answered (its count, wait 0); otherwise nothing
-- changes and one row answers the longest wait (-1: locked for good). Waits are read and set against the clock, not
-- now(): a call that queued behind another's lock began before that other set its time.
CREATE FUNCTION sign_in_count(accounts text[], waits int[]) RETURNS TABLE (counted_account text, counted_failures int, wait int)
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  names text[] := '{}';
  counts int[] := '{}';
  longest int := 0;
  n int;
  w int;
BEGIN
  INSERT INTO sign_in_failures (account, failures, blocked_until)
    SELECT a, 0, now() FROM unnest(accounts) AS a ON CONFLICT (account) DO NOTHING;
  FOR r IN
    SELECT f.account, f.failures,
      CASE WHEN f.blocked_until = 'infinity' THEN -1 WHEN f.blocked_until <= clock_timestamp() THEN 0
        ELSE ceil(extract(epoch FROM f.blocked_until - clock_timestamp()))::int END AS left_seconds
    FROM sign_in_failures f WHERE f.account = ANY (accounts) ORDER BY f.account FOR UPDATE
  LOOP
    names := names || r.account;
    counts := counts || r.failures;
    IF r.left_seconds = -1 OR longest = -1 THEN longest := -1; ELSE longest := greatest(longest, r.left_seconds); END IF;
  END LOOP;
  IF longest <> 0 THEN
    RETURN QUERY SELECT NULL::text, NULL::int, longest;
    RETURN;
  END IF;
  FOR i IN 1 .. coalesce(array_length(names, 1), 0) LOOP
    n := counts[i] + 1;
    w := waits[least(n, cardinality(waits))];
    UPDATE sign_in_failures SET failures = n, last_failure_at = now(),
      blocked_until = CASE WHEN w IS NULL THEN 'infinity'::timestamptz WHEN w = 0 THEN '-infinity'::timestamptz
        ELSE clock_timestamp() + make_interval(secs => w) END
    WHERE account = names[i];
    RETURN QUERY SELECT names[i], n, 0;
  END LOOP;
END;
$$;
