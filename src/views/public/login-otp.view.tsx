/** /login/otp: sign in with a one-time code. */
import { OtpLoginFlow, type OtpLoginActor } from './auth/otp-login-flow';

export function LoginOtpView({ actor }: { actor: OtpLoginActor }) {
  return <OtpLoginFlow actor={actor} />;
}
