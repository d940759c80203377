-- Home: stories (articles and videos), events, member messages, notification read state, rank
-- achievements and monthly recruitment targets.

-- Articles and videos. `content` is HTML written in the company's back office; it is sanitised with an
-- allow-list every time it is served, so whatever is stored here never reaches a member unfiltered.
CREATE TABLE stories (
  id serial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('article', 'video')),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  content text NOT NULL DEFAULT '',
  -- Videos: where the video plays. Articles: an optional external link.
  url text,
  image_preview text,
  published boolean NOT NULL DEFAULT true,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX stories_kind_updated_idx ON stories (kind, updated_at DESC, id DESC) WHERE published;

CREATE TABLE events (
  id serial PRIMARY KEY,
  title text NOT NULL,
  venue text NOT NULL,
  about text NOT NULL DEFAULT '',
  image_preview text,
  tag text,
  start_date timestamptz(3) NOT NULL,
  end_date timestamptz(3) NOT NULL,
  published boolean NOT NULL DEFAULT true,
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (end_date >= start_date)
);
CREATE INDEX events_end_idx ON events (end_date, start_date) WHERE published;

-- Member messages (the mailbox): a thread has a subject, each message a sender and a recipient.
CREATE TABLE message_threads (
  id bigserial PRIMARY KEY,
  subject text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE messages (
  id bigserial PRIMARY KEY,
  thread_id bigint NOT NULL REFERENCES message_threads(id),
  sender_id int NOT NULL REFERENCES members(id),
  recipient_id int NOT NULL REFERENCES members(id),
  body text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  read_at timestamptz(3)
);
CREATE INDEX messages_recipient_idx ON messages (recipient_id, created_at DESC, id DESC);
CREATE INDEX messages_unread_idx ON messages (recipient_id) WHERE read_at IS NULL;
CREATE INDEX messages_thread_idx ON messages (thread_id, created_at);

-- What a member has read of the order and payout notifications. An item is unread when it changed
-- (updated_at) after the member's mark for its kind and after the member's read of that item.
CREATE TABLE notification_marks (
  member_id int NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('order', 'payout')),
  read_before timestamptz(3) NOT NULL,
  PRIMARY KEY (member_id, kind)
);

CREATE TABLE notification_reads (
  member_id int NOT NULL REFERENCES members(id),
  kind text NOT NULL CHECK (kind IN ('order', 'payout')),
  ref_id bigint NOT NULL,
  read_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, kind, ref_id)
);

-- When a member reached each rank (members.rank_id holds the current one).
CREATE TABLE rank_achievements (
  member_id int NOT NULL REFERENCES members(id),
  rank_id int NOT NULL REFERENCES ranks(id),
  achieved_at timestamptz NOT NULL,
  PRIMARY KEY (member_id, rank_id)
);

-- Monthly recruitment targets: personally sponsored members to recruit in a calendar month.
-- member_id NULL is the company-wide target; a member's own row overrides it.
CREATE TABLE recruitment_targets (
  id serial PRIMARY KEY,
  member_id int REFERENCES members(id),
  month date NOT NULL CHECK (extract(day FROM month) = 1),
  required_count int NOT NULL CHECK (required_count > 0)
);
CREATE UNIQUE INDEX recruitment_targets_company_key ON recruitment_targets (month) WHERE member_id IS NULL;
CREATE UNIQUE INDEX recruitment_targets_member_key ON recruitment_targets (member_id, month) WHERE member_id IS NOT NULL;

-- Special members: company-appointed leaders (the dashboard's is_special_member).
CREATE TABLE special_members (
  member_id int PRIMARY KEY REFERENCES members(id),
  since timestamptz NOT NULL DEFAULT now()
);
