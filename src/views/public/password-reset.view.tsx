/** /password/reset: choose the new password under the company's policy. */
import { PasswordResetFlow, type PasswordResetActor } from './auth/password-reset-flow';

export function PasswordResetView({ actor }: { actor: PasswordResetActor }) {
  return <PasswordResetFlow actor={actor} />;
}
