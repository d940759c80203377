/**
 * The rich-text editor of compose and reply (@mantine/tiptap on tiptap's starter kit, links through
 * Mantine's link extension). Loaded with the mail pages that write, not with the shell. The HTML it gives
 * is cleaned by the server before it is stored.
 */
import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';

export interface MailEditorProps {
  label: string;
  value: string;
  error?: string | null;
  onChange(html: string): void;
}

export default function MailEditor({ label, value, error, onChange }: MailEditorProps) {
  const { t } = useTranslation('mail');
  const id = useId();
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: false }), Link.configure({ openOnClick: false })],
    content: value,
    immediatelyRender: true,
    editorProps: { attributes: { 'aria-labelledby': `${id}-label`, 'aria-multiline': 'true', role: 'textbox', 'data-mail-editor': '' } },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  // A cleared form (after sending) empties the editor too.
  useEffect(() => {
    if (editor && value === '' && !editor.isEmpty) editor.commands.clearContent();
  }, [editor, value]);
  return (
    <Input.Wrapper label={label} labelProps={{ id: `${id}-label` }} error={error}>
      <RichTextEditor
        editor={editor}
        labels={{
          boldControlLabel: t('editor.bold'),
          italicControlLabel: t('editor.italic'),
          bulletListControlLabel: t('editor.bulletList'),
          orderedListControlLabel: t('editor.orderedList'),
          linkControlLabel: t('editor.link'),
          unlinkControlLabel: t('editor.unlink'),
          linkEditorInputLabel: t('editor.linkAddress'),
          linkEditorInputPlaceholder: 'https://',
          linkEditorSave: t('editor.save'),
          undoControlLabel: t('editor.undo'),
          redoControlLabel: t('editor.redo'),
        }}
      >
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={160} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
