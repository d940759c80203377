/** /login: how the member identifies (first step of sign-in). */
import { LoginFlow, type LoginActor } from './auth/login-flow';

export function LoginView({ actor }: { actor: LoginActor }) {
  return <LoginFlow actor={actor} />;
}
