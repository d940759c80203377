/**
 * /member/account/basic as one page actor: `profile` (first and last name, declared on the form factory:
 * loads the member's profile, saves PUT /api/user/profile) and `avatar` (the chosen image and the square the
 * member keeps, sent as POST /api/user/avatar). Each save hands the member's new user record to the page's
 * `userChanged` (bound by the page: the session's user, so the shell shows the new name and picture at once).
 * The chosen image lives in memory only: the page is kept in memory.
 */
import { setup } from 'xstate';
import { profileApi } from '../../api/profile';
import { avatarCropOf, avatarFormSchema, EMPTY_AVATAR, profileRequestSchema, type Profile, type ProfileValues } from '../../schemas/profile.schema';
import type { User } from '../../schemas/common.schema';
import { createFormMachine } from '../form.machine';
import { onPageNote, pageActions, reportToPage, tellPage, type Child, type PageNote } from '../resource.machine';

export const profileFormMachine = createFormMachine({
  id: 'profileChange',
  domain: 'profile',
  initialValues: { first_name: '', last_name: '' } as ProfileValues,
  load: (): Promise<Profile> => profileApi.get(),
  valuesFrom: (p) => ({ first_name: p.user.first_name, last_name: p.user.last_name ?? '' }),
  schema: profileRequestSchema,
  submit: ({ values }) => profileApi.update(values),
  successKey: 'account:basic.saved',
  applied: (_values, result): User => result.user,
});

export const avatarFormMachine = createFormMachine({
  id: 'avatarChange',
  domain: 'avatar',
  initialValues: EMPTY_AVATAR,
  schema: avatarFormSchema,
  submit: ({ values }) => profileApi.avatar(values.file[0], avatarCropOf(values)),
  successKey: 'account:basic.avatarSaved',
  clearOnSuccess: true,
  applied: (_values, result): User => result.user,
});

type UserChanged = { type: 'user.changed'; user: User };
/** A child saved: the member's new user record goes to the page. */
const toPage = { ...reportToPage, apply: (child: Child, user: User) => tellPage(child, { type: 'user.changed', user } as never) };

export const basicPageMachine = setup({
  types: {
    events: {} as PageNote | UserChanged,
    children: {} as { profile: 'profile'; avatar: 'avatar' },
  },
  actors: {
    profile: profileFormMachine.provide({ actions: toPage }),
    avatar: avatarFormMachine.provide({ actions: toPage }),
  },
  actions: {
    ...pageActions,
    /** Bound by the page: the session takes the member's new user record. */
    userChanged: (_, _params: { user: User }) => {},
  },
}).createMachine({
  id: 'basicPage',
  initial: 'editing',
  states: {
    /** The page is open: the name and the picture are edited and saved apart. */
    editing: {
      invoke: [
        { id: 'profile', src: 'profile' },
        { id: 'avatar', src: 'avatar' },
      ],
    },
  },
  on: {
    ...onPageNote,
    'user.changed': { actions: { type: 'userChanged', params: ({ event }) => ({ user: (event as UserChanged).user }) } },
  },
});
