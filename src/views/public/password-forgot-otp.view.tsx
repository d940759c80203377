/** /password/forgot/otp: enter the reset code (resend after the countdown). */
import { PasswordResetFlow, type PasswordResetActor } from './auth/password-reset-flow';

export function PasswordForgotOtpView({ actor }: { actor: PasswordResetActor }) {
  return <PasswordResetFlow actor={actor} />;
}
