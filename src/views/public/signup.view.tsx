/** /signup?referral=…: sign up under a sponsor. */
import { SignupFlow, type SignupActor } from './auth/signup-flow';

export function SignupView({ actor }: { actor: SignupActor }) {
  return <SignupFlow actor={actor} />;
}
