-- An e-mail leaves only once the transaction that wrote its outbox row has committed: the row is marked
-- mail_pending and its insert announces itself on the channel upline_outbox — PostgreSQL delivers a NOTIFY
-- only at COMMIT, never for a rolled-back transaction. A server with a mailer claims the pending rows
-- (server/lib/outbox.ts) and sends them; rows written before this change are not pending.
ALTER TABLE outbox ADD COLUMN mail_pending boolean NOT NULL DEFAULT false;
CREATE INDEX outbox_mail_pending ON outbox (id) WHERE mail_pending;

CREATE FUNCTION outbox_mail_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('upline_outbox', '');
  RETURN NULL;
END $$;

CREATE TRIGGER outbox_mail_queued AFTER INSERT ON outbox FOR EACH ROW WHEN (NEW.mail_pending) EXECUTE FUNCTION outbox_mail_queued();

-- A card payment that arrives after what it paid for can no longer be had (sold out meanwhile) is given back
-- through the provider: its refund's id and time are kept and the payment reads 'refunded'.
ALTER TABLE card_payments DROP CONSTRAINT card_payments_status_check;
ALTER TABLE card_payments ADD CONSTRAINT card_payments_status_check CHECK (status IN ('open', 'paid', 'expired', 'failed', 'refunded'));
ALTER TABLE card_payments ADD COLUMN refund_id text, ADD COLUMN refunded_at timestamptz(3);
