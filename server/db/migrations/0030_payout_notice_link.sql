-- A payout's notice leads where its card on the notifications page leads: the payouts list (its row there
-- shows the status). Notices already sent pointed at the payout statement tab.
UPDATE member_notices SET link = '/member/wallet/recent-payouts' WHERE event = 'payout_status' AND link = '/member/wallet/payout';
