/** Generated paths of the basic details page's machines: the name form, the avatar form and the page actor. */
import { ApiError, ConnectionError } from '../../src/api/errors';
import { avatarFormMachine, basicPageMachine, profileFormMachine } from '../../src/machines/account/basic.machine';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

const USER = { id: 2, username: 'demo', account_type: 'personal', first_name: 'Dana', last_name: 'Demo', avatar: null, status: 1, role_id: 3, date_format: null, customer_id: null, referral_link: '/signup', email: null };
const failures = (id: string) => [
  ...memberCallFailures(id),
  errorEvent(id, new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { first_name: ['validation:required'] } })),
];
const photo = new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
const pdf = new File(['%PDF'], 'me.pdf', { type: 'application/pdf' });

describePaths('basic details: name', {
  machine: stubActors(profileFormMachine),
  events: [
    doneEvent('load', { user: USER }),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('server', 500, {})),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    { type: 'profile.save', values: { first_name: '', last_name: '' } },
    { type: 'profile.save', values: { first_name: 'Ana', last_name: '' } },
    doneEvent('request', { user: { ...USER, first_name: 'Ana' } }),
    ...failures('request'),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.loaded !== null, s.context.values.first_name]),
});

describePaths('basic details: avatar', {
  machine: stubActors(avatarFormMachine),
  events: [
    { type: 'avatar.save', values: { file: [photo], zoom: '2', offset_x: '0', offset_y: '1', image_width: '300', image_height: '200' } },
    { type: 'avatar.save', values: { file: [pdf] } },
    { type: 'avatar.change', field: 'zoom', value: '1.5' },
    doneEvent('request', { user: { ...USER, avatar: '/media/avatars/x.webp' } }),
    ...failures('request'),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, (s.context.values.file as File[]).map((f) => f.name)]),
});

describePaths('basic details page (name + avatar)', {
  machine: stubActors(basicPageMachine),
  events: [
    { type: 'page.notify', params: { kind: 'success', key: 'account:basic.saved' } },
    { type: 'page.forceLogout' },
    { type: 'user.changed', user: USER },
  ],
});
