/** /login/continue: the password for the identifier chosen on /login (second step of sign-in). */
import { useEffect } from 'react';
import { prefetchMemberArea } from '../../app/member-preload';
import { LoginFlow, type LoginActor } from './auth/login-flow';

export function LoginContinueView({ actor }: { actor: LoginActor }) {
  // While the password is typed, the member area's code and its first page's translations arrive (a failure is
  // retried when it is shown).
  useEffect(() => {
    const id = setTimeout(() => prefetchMemberArea(), 0);
    return () => clearTimeout(id);
  }, []);
  return <LoginFlow actor={actor} />;
}
