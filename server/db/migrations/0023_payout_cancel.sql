-- A member may cancel their own pending payout request (status 5, cancelled): the amount and fee go back to the wallet.
ALTER TABLE payout_requests DROP CONSTRAINT payout_requests_status_check;
ALTER TABLE payout_requests ADD CONSTRAINT payout_requests_status_check CHECK (status IN (1, 2, 3, 4, 5));
