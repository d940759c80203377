-- The company's own member (role 1: the administrator whose mailbox is the company's, server/lib/members.ts
-- companyAdmin, server/lib/mail.ts companyIdSql) is found through an index of its own. Without it every
-- mail list page and company look-up read the whole members table: at 100 000 members about 19 ms of
-- database time per call (a sequential scan and a sort for one row).
CREATE INDEX members_company_idx ON members (id) WHERE role_id = 1;
