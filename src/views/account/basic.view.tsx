/**
 * /member/account/basic: the member's picture and name. A chosen picture is shown in a square frame: the
 * zoom and the two position sliders choose the square that is kept (the server crops it and keeps a 512 px
 * copy). Saving either hands the new user record to the session, so the header shows it at once.
 */
import { Alert, Avatar, Button, FileButton, Group, Slider, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { basicPageMachine } from '../../machines/account/basic.machine';
import { AVATAR_FILE_TYPES, avatarCropOf, avatarFileProblem, type AvatarValues } from '../../schemas/profile.schema';
import type { User } from '../../schemas/common.schema';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { useObjectUrl } from '../components/object-url';
import { PageLoader } from '../components/page-loader';
import { fullName, initials } from '../components/person';
import classes from './basic.module.css';

type PageActor = ActorRefFrom<typeof basicPageMachine>;
const FRAME = 220;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** The chosen picture in the square frame, placed as the crop says. */
function CropFrame({ file, values, onSize }: { file: File; values: AvatarValues; onSize: (w: number, h: number) => void }) {
  const { t } = useTranslation('account');
  const url = useObjectUrl(file) ?? '';
  const w = Number(values.image_width);
  const h = Number(values.image_height);
  const crop = avatarCropOf(values);
  const scale = w > 0 ? FRAME / crop.crop_size : 0;
  return (
    <div className={classes.frame} style={{ width: FRAME, height: FRAME }} data-avatar-frame>
      <img
        src={url}
        alt={t('basic.cropAlt')}
        onLoad={(e) => onSize(e.currentTarget.naturalWidth, e.currentTarget.naturalHeight)}
        style={
          scale
            ? { width: w * scale, height: h * scale, transform: `translate(${-crop.crop_x * scale}px, ${-crop.crop_y * scale}px)` }
            : { visibility: 'hidden' }
        }
        draggable={false}
      />
    </div>
  );
}

function AvatarSection({ actor, user }: { actor: PageActor; user: User }) {
  const { t } = useTranslation(['account', 'validation']);
  const form = useSelector(actor, (s) => s.children.avatar)!;
  const state = useSelector(form, (s) => s.value as string);
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  const { values, fieldErrors } = useSelector(form, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const file = (values.file as readonly File[])[0];
  const change = (field: 'file' | 'zoom' | 'offset_x' | 'offset_y' | 'image_width' | 'image_height', value: string | readonly File[]) => form.send({ type: 'avatar.change', field, value });
  const problem = file ? avatarFileProblem(file) : null;
  const slider = (field: 'zoom' | 'offset_x' | 'offset_y', label: string, min: number, max: number) => (
    <Stack gap={2}>
      <Text size="sm" id={`avatar-${field}`}>
        {label}
      </Text>
      <Slider
        min={min}
        max={max}
        step={0.01}
        value={Number(values[field])}
        onChange={(v) => change(field, String(v))}
        disabled={busy}
        label={null}
        thumbProps={{ 'aria-labelledby': `avatar-${field}` } as never}
      />
    </Stack>
  );

  return (
    <Section title={t('basic.avatarTitle')}>
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`basic.errors.${state}`)}
          retryLabel={t('basic.retry')}
          dismissLabel={t('basic.dismiss')}
          onRetry={() => form.send({ type: 'avatar.retry' })}
          onDismiss={() => form.send({ type: 'avatar.dismiss' })}
        />
      )}
      <Group align="flex-start" gap="lg" wrap="wrap">
        {file && !problem ? (
          <CropFrame
            file={file}
            values={values as AvatarValues}
            onSize={(w, h) => {
              change('image_width', String(w));
              change('image_height', String(h));
            }}
          />
        ) : (
          <Avatar src={user.avatar || null} alt={fullName(user)} size={96} radius={96} color="upline" data-basic-avatar>
            {initials(user)}
          </Avatar>
        )}
        <Stack gap="sm" style={{ flex: '1 1 200px', minWidth: 0 }}>
          <FileButton onChange={(f) => f && change('file', [f])} accept={AVATAR_FILE_TYPES.join(',')} disabled={busy}>
            {(props) => (
              <Button variant="light" {...props} data-avatar-pick>
                {t(file ? 'basic.chooseAnother' : 'basic.choose')}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {t('basic.avatarRules')}
          </Text>
          {file && (
            <Text size="sm" truncate="end">
              {file.name}
            </Text>
          )}
          {(problem || error('file')) && (
            <Text size="sm" c="red" role="alert" data-avatar-error>
              {problem ? t(problem) : error('file')}
            </Text>
          )}
          {file && !problem && (
            <>
              {slider('zoom', t('basic.zoom'), 1, 4)}
              {slider('offset_x', t('basic.horizontal'), 0, 1)}
              {slider('offset_y', t('basic.vertical'), 0, 1)}
            </>
          )}
          {file && (
            <Group gap="xs">
              <Button onClick={() => form.send({ type: 'avatar.submit' })} loading={busy} disabled={busy || !!problem} data-avatar-save>
                {t('basic.saveAvatar')}
              </Button>
              <Button variant="default" onClick={() => form.send({ type: 'avatar.reset' })} disabled={busy}>
                {t('basic.cancel')}
              </Button>
            </Group>
          )}
        </Stack>
      </Group>
    </Section>
  );
}

function NameSection({ actor }: { actor: PageActor }) {
  const { t } = useTranslation(['account', 'validation']);
  const form = useSelector(actor, (s) => s.children.profile)!;
  const state = useSelector(form, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  const { values, fieldErrors, loaded } = useSelector(form, (s) => s.context);
  const error = useFieldError(fieldErrors);
  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => form.send({ type: 'profile.retry' })} />;
  if (!loaded || state === 'loading' || state === 'forceLogout') return <PageLoader />;
  const input = (field: 'first_name' | 'last_name', required: boolean) => ({
    label: required ? t(`basic.${field}`) : `${t(`basic.${field}`)} ${t('basic.optional')}`,
    withAsterisk: required,
    value: (values[field] as string) ?? '',
    error: error(field),
    disabled: busy,
    autoComplete: field === 'first_name' ? 'given-name' : 'family-name',
    onChange: (e: { currentTarget: { value: string } }) => form.send({ type: 'profile.change', field, value: e.currentTarget.value }),
  });
  return (
    <Section title={t('basic.nameTitle')}>
      {state === 'success' && (
        <Alert color="teal" role="status">
          {t('basic.saved')}
        </Alert>
      )}
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`basic.errors.${state}`)}
          retryLabel={t('basic.retry')}
          dismissLabel={t('basic.dismiss')}
          onRetry={() => form.send({ type: 'profile.retry' })}
          onDismiss={() => form.send({ type: 'profile.dismiss' })}
        />
      )}
      <FormCard onSubmit={() => form.send({ type: 'profile.submit' })}>
        <TextInput {...input('first_name', true)} />
        <TextInput {...input('last_name', false)} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t('basic.saveName')}
          </Button>
        </Group>
      </FormCard>
    </Section>
  );
}

export function BasicView({ actor, user }: { actor: PageActor; user: User }) {
  const { t } = useTranslation('account');
  const ready = useSelector(actor, (s) => !!s.children.profile && !!s.children.avatar);
  if (!ready) return <PageLoader />;
  return (
    <Stack gap="xl" maw={560} data-basic-page>
      <Title order={1} size="h2">
        {t('basic.title')}
      </Title>
      <AvatarSection actor={actor} user={user} />
      <NameSection actor={actor} />
    </Stack>
  );
}
