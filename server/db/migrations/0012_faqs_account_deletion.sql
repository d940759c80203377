-- Questions and answers members read under /member/account/faqs, one row per language. `answer` is HTML
-- from the company (cleaned by the one sanitiser when served). The list is read newest first by
-- (created_at, id): the company dates its questions in the order it wants them read.
CREATE TABLE faqs (
  id serial PRIMARY KEY,
  language_code text NOT NULL,
  question text NOT NULL,
  answer text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX faqs_language_idx ON faqs (language_code, created_at DESC, id DESC);

-- When a member deleted their own account. The row stays (the genealogy and the ledger refer to it),
-- anonymised; NULL for every other member.
ALTER TABLE members ADD COLUMN deleted_at timestamptz(3);
