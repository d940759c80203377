/** /login/continue: the password for the identifier chosen on /login (second step of sign-in). */
import { LoginFlow, type LoginActor } from './auth/login-flow';

export function LoginContinueView({ actor }: { actor: LoginActor }) {
  return <LoginFlow actor={actor} />;
}
