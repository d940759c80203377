/** /password/reset/success: the password is changed; sign in. */
import { PasswordResetFlow, type PasswordResetActor } from './auth/password-reset-flow';

export function PasswordResetSuccessView({ actor }: { actor: PasswordResetActor }) {
  return <PasswordResetFlow actor={actor} />;
}
