/**
 * Register a member (/member/signup, /member/signup/otp, /member/signup/success): a signed-in member signs
 * a recruit up under themselves with the signup flow (src/machines/signup.machine.ts), one machine over its
 * URLs (one saved-state key), the placement and position prefilled from the genealogy's empty slot.
 */
import { PERMISSIONS } from '../../../lib/menu';
import { signupMachine } from '../../../machines/signup.machine';
import { MemberSignupView, memberSignupCodec, MEMBER_SIGNUP_PATH, type MemberSignupQuery } from '../../../views/network/member-signup.view';
import { browserBindings } from '../../bindings';
import { page } from '../member-page';
import { SESSION } from '../member-route';
import { guarded } from '../route-parts';

const spec = {
  id: 'network.signup',
  machine: signupMachine,
  provide: (m: typeof signupMachine) =>
    m.provide({
      actions: {
        navigate: (_: unknown, p: { to: string; replace?: boolean }) => browserBindings.navigate(p.to, p.replace),
        notify: (_: unknown, p: Parameters<typeof browserBindings.notify>[0]) => browserBindings.notify(p),
      },
    }),
  input: ({ url }: { url: MemberSignupQuery }) => ({
    search: '',
    basePath: MEMBER_SIGNUP_PATH,
    member: { placement: url.placement ?? null, position: url.position ?? null },
  }),
  url: { codec: memberSignupCodec },
  persist: SESSION,
  view: MemberSignupView,
};

export const signupRoutes = [
  page('/signup', spec, guarded(PERMISSIONS.network, 'network', 'memberSignup')),
  page('/signup/otp', spec, { permission: PERMISSIONS.network }),
  page('/signup/success', spec, { permission: PERMISSIONS.network }),
];
