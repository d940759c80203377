/**
 * Files for a message: a drop area (react-dropzone, styled with Mantine; also a button that opens the file
 * chooser, so it works by keyboard) and the chosen files with a remove button each. What the browser says
 * of a file is checked on the spot (type, size, how many); the server judges the bytes again.
 */
import { ActionIcon, Group, Input, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDropzone } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import { MAIL_FILE_TYPES, MAIL_MAX_FILES } from '../../schemas/mail.schema';

export interface AttachmentPickerProps {
  files: readonly File[];
  error?: string | null;
  onChange(files: File[]): void;
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

export function AttachmentPicker({ files, error, onChange }: AttachmentPickerProps) {
  const { t } = useTranslation('mail');
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    // Every file is kept and checked by the form (a wrong one is named, not silently dropped).
    onDrop: (accepted, rejected) => onChange([...files, ...accepted, ...rejected.map((r) => r.file)]),
    noClick: true,
    noKeyboard: true,
    multiple: true,
  });
  return (
    <Input.Wrapper label={t('attachments.label')} description={t('attachments.hint', { count: MAIL_MAX_FILES })} error={error}>
      <Paper
        {...getRootProps()}
        withBorder
        p="md"
        radius="md"
        data-dropzone
        style={{ borderStyle: 'dashed', background: isDragActive ? 'var(--mantine-primary-color-light)' : undefined }}
      >
        <input {...getInputProps({ 'aria-label': t('attachments.choose'), accept: MAIL_FILE_TYPES.join(',') })} data-attachments-input />
        <Stack gap={4} align="center">
          <Text size="sm" c="dimmed" ta="center">
            {isDragActive ? t('attachments.dropNow') : t('attachments.drop')}
          </Text>
          <UnstyledButton onClick={open} c="var(--mantine-color-anchor)" fw={600} fz="sm" data-choose-files>
            {t('attachments.choose')}
          </UnstyledButton>
        </Stack>
      </Paper>
      {files.length > 0 && (
        <Stack gap={4} mt="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('attachments.chosen')}>
          {files.map((f, i) => (
            <Group key={`${f.name}-${i}`} component="li" justify="space-between" wrap="nowrap" gap="xs" data-chosen-file>
              <Text size="sm" truncate="end" style={{ minWidth: 0 }}>
                {f.name} <Text span c="dimmed" size="xs">({sizeText(f.size)})</Text>
              </Text>
              <ActionIcon variant="subtle" color="red" aria-label={t('attachments.remove', { name: f.name })} onClick={() => onChange(files.filter((_, j) => j !== i))}>
                ×
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
    </Input.Wrapper>
  );
}
