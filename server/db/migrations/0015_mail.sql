-- Mail between members of one team and the company: who takes part in a thread (a member reads only the
-- threads they are part of), a bin per member (sender and recipient each bin a message for themselves
-- only), and files attached to a message (readable by its sender and its recipient).

CREATE TABLE message_participants (
  thread_id bigint NOT NULL REFERENCES message_threads(id),
  member_id int NOT NULL REFERENCES members(id),
  PRIMARY KEY (thread_id, member_id)
);
CREATE INDEX message_participants_member_idx ON message_participants (member_id, thread_id);

INSERT INTO message_participants (thread_id, member_id)
  SELECT thread_id, sender_id FROM messages
  UNION
  SELECT thread_id, recipient_id FROM messages
ON CONFLICT DO NOTHING;

ALTER TABLE messages ADD COLUMN sender_binned_at timestamptz(3);
ALTER TABLE messages ADD COLUMN recipient_binned_at timestamptz(3);
CREATE INDEX messages_sender_idx ON messages (sender_id, created_at DESC, id DESC);

CREATE TABLE message_attachments (
  message_id bigint NOT NULL REFERENCES messages(id),
  upload_id bigint NOT NULL REFERENCES uploads(id),
  position smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (message_id, upload_id)
);
CREATE INDEX message_attachments_upload_idx ON message_attachments (upload_id);
