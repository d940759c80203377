import { classifyFailure, ConnectionError, endsSession, errorFromStatus, errorInfo, SchemaError } from '../../src/api/errors';

describe('classifyFailure: what a failed call means, the same everywhere', () => {
  it.each([
    ['no answer', new ConnectionError(), 'connection'],
    ['a thrown non-API error', new TypeError('Failed to fetch'), 'connection'],
    ['401', errorFromStatus(401, { error_code: 'unauthenticated' }), 'unauthorized'],
    ['a 401 carrying field messages', errorFromStatus(401, { error_code: 'validation_error', errors: { password: ['validation:invalid'] } }), 'unauthorized'],
    ['demo_blocked (403)', errorFromStatus(403, { error_code: 'demo_blocked' }), 'demoBlocked'],
    ['demo_blocked (500, spec §8)', errorFromStatus(500, { error_code: 'demo_blocked' }), 'demoBlocked'],
    ['user_blocked', errorFromStatus(500, { error_code: 'user_blocked' }), 'userBlocked'],
    ['validation_error', errorFromStatus(422, { error_code: 'validation_error', errors: { amount: ['validation:invalidAmount'] } }), 'validation'],
    ['429', errorFromStatus(429, { error_code: 'rate_limited', message: 'Try again in 30 s' }), 'rateLimited'],
    ['403 without fields', errorFromStatus(403, { error_code: 'forbidden' }), 'refused'],
    ['404', errorFromStatus(404, {}), 'refused'],
    ['an unknown status', errorFromStatus(418, {}), 'refused'],
    ['500', errorFromStatus(500, {}), 'server'],
    ['an answer that does not match its schema', new SchemaError('/api/x', 'id', 'is missing'), 'server'],
  ])('%s → %s', (_, error, failure) => {
    expect(classifyFailure(error)).toBe(failure);
    // Machine context keeps ErrorInfo: it classifies the same.
    expect(classifyFailure(errorInfo(error))).toBe(failure);
  });

  it('a 401 and a blocked account end the session; nothing else does', () => {
    expect(endsSession('unauthorized')).toBe(true);
    expect(endsSession('userBlocked')).toBe(true);
    for (const f of ['connection', 'demoBlocked', 'validation', 'rateLimited', 'refused', 'server'] as const) expect(endsSession(f)).toBe(false);
  });
});
