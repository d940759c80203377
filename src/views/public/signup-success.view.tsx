/** /signup/success: welcome, with the new username and a way to sign in. */
import { SignupFlow, type SignupActor } from './auth/signup-flow';

export function SignupSuccessView({ actor }: { actor: SignupActor }) {
  return <SignupFlow actor={actor} />;
}
