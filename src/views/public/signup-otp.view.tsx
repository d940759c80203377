/** /signup/otp: confirm the new account with the one-time code. */
import { SignupFlow, type SignupActor } from './auth/signup-flow';

export function SignupOtpView({ actor }: { actor: SignupActor }) {
  return <SignupFlow actor={actor} />;
}
