/** /password/forgot: ask for a reset code by e-mail or mobile. */
import { PasswordResetFlow, type PasswordResetActor } from './auth/password-reset-flow';

export function PasswordForgotView({ actor }: { actor: PasswordResetActor }) {
  return <PasswordResetFlow actor={actor} />;
}
