/** /login: how the member identifies (first step of sign-in). */
import { useEffect } from 'react';
import { prefetchMemberArea } from '../../app/member-preload';
import { LoginFlow, type LoginActor } from './auth/login-flow';

export function LoginView({ actor }: { actor: LoginActor }) {
  // Once the member starts typing who they are, the member area's code and its first page's translations are on
  // their way (and evaluated) before the password is sent; a page merely opened loads none of it.
  useEffect(() => {
    const start = () => prefetchMemberArea();
    document.addEventListener('input', start, { once: true });
    return () => document.removeEventListener('input', start);
  }, []);
  return <LoginFlow actor={actor} />;
}
