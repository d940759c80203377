/**
 * Register a member (/member/signup, /member/signup/otp, /member/signup/success): a signed-in member signs
 * a recruit up under themselves with the signup flow (src/machines/signup.machine.ts), one machine over its
 * URLs (one saved-state key), the placement and position prefilled from the genealogy's empty slot.
 */
import { useActorRef } from '@xstate/react';
import { PERMISSIONS } from '../../../lib/menu';
import { freePlacesListMachine } from '../../../machines/free-places.machine';
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
    member: { placement: url.placement ?? null, position: url.position ?? null, slot: url.slot ?? null },
  }),
  url: { codec: memberSignupCodec },
  persist: SESSION,
  view: WithFreePlaces,
};

/** The free places to pick from: a list of the view's (narrowed to the genealogy's member when a link names one). */
function WithFreePlaces(props: Parameters<typeof MemberSignupView>[0]) {
  const places = useActorRef(freePlacesListMachine, { input: { filters: props.url.placement ? { placement: props.url.placement } : {} } });
  return <MemberSignupView {...props} places={places} />;
}

export const signupRoutes = [
  page('/signup', spec, guarded(PERMISSIONS.network, 'network', 'memberSignup')),
  page('/signup/otp', spec, { permission: PERMISSIONS.network }),
  page('/signup/success', spec, { permission: PERMISSIONS.network }),
];
