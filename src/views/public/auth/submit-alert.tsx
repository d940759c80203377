/**
 * The message under a form after a failed submission that is not about one field: the server's
 * rate limit (with its wait: seconds, or minutes from a minute on, e.g. a locked account), a connection or server problem, or a code that can no longer be used.
 */
import { useTranslation } from 'react-i18next';
import { LightAlert } from '../../components/light-alert';

export type SubmitProblem = 'rateLimited' | 'connectionError' | 'serverError' | 'tooManyAttempts';
const PROBLEMS: readonly string[] = ['rateLimited', 'connectionError', 'serverError', 'tooManyAttempts'];

/** The problem named by a step's sub-state ('rateLimited', …), or null. */
export function submitProblem(step: unknown): SubmitProblem | null {
  return typeof step === 'string' && PROBLEMS.includes(step) ? (step as SubmitProblem) : null;
}

export function SubmitAlert({ problem, retryAfter }: { problem: SubmitProblem | null; retryAfter?: number | null }) {
  const { t } = useTranslation('auth');
  if (!problem) return null;
  const text =
    problem === 'rateLimited'
      ? retryAfter
        ? retryAfter >= 60
          ? t('validation:throttle.waitMinutes', { count: Math.ceil(retryAfter / 60) })
          : t('rateLimitedWait', { count: retryAfter })
        : t('rateLimited')
      : problem === 'connectionError'
        ? t('submitConnectionError')
        : problem === 'serverError'
          ? t('submitServerError')
          : t('otpTooManyAttemptsNotice');
  return (
    <LightAlert color={problem === 'rateLimited' || problem === 'tooManyAttempts' ? 'yellow' : 'red'}>{text}</LightAlert>
  );
}
