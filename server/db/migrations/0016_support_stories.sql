-- Support tickets: a member's questions to the company's support, the conversation, the files sent with
-- it and every status change (the ticket's trail). Stories and events live in 0006_home's tables.

CREATE TABLE support_tickets (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  category text NOT NULL CHECK (category IN ('account', 'payments', 'orders', 'technical', 'other')),
  priority text NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  subject text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'awaiting_member', 'answered', 'resolved', 'closed')),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX support_tickets_member_idx ON support_tickets (member_id, created_at DESC, id DESC);
CREATE INDEX support_tickets_status_idx ON support_tickets (status, updated_at);

-- The conversation, in order: the member's messages (the description first) and support's answers (plain text).
CREATE TABLE support_messages (
  id serial PRIMARY KEY,
  ticket_id int NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
  author text NOT NULL CHECK (author IN ('member', 'support')),
  body text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX support_messages_ticket_idx ON support_messages (ticket_id, created_at, id);

-- Files of a message: rows of the upload pipeline (owner = the member). Erasing the member's uploads drops the link.
CREATE TABLE support_message_files (
  message_id int NOT NULL REFERENCES support_messages(id) ON DELETE CASCADE,
  upload_id bigint NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
  position int NOT NULL,
  PRIMARY KEY (message_id, upload_id)
);

-- Every status change: from (null when opened), to, and who made it.
CREATE TABLE support_ticket_events (
  id serial PRIMARY KEY,
  ticket_id int NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
  from_status text,
  to_status text NOT NULL,
  actor text NOT NULL CHECK (actor IN ('member', 'support')),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX support_ticket_events_ticket_idx ON support_ticket_events (ticket_id, created_at, id);

CREATE INDEX events_tag_idx ON events (tag) WHERE published;
