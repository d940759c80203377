/** Every member path spec §2 names, with sample ids where a path takes one (and the pages built beyond it). */
export const SPEC_PATHS = [
  '/home', '/home/dashboard', '/home/binary', '/home/package', '/home/rank',
  '/downlines', '/referral/joinings', '/pv-history', '/binary-history',
  '/referral', '/referral/summary', '/referral/recruiter', '/referral/earner',
  '/wallet', '/wallet/statement', '/wallet/earning', '/wallet/payout', '/wallet/request-payout',
  '/wallet/transactions', '/wallet/recent-earnings', '/wallet/recent-payouts',
  '/network', '/network/genealogy', '/network/tabular', '/network/downline',
  '/account', '/kyc',
  '/account/basic', '/account/email', '/account/email/otp', '/account/phone', '/account/phone/otp', '/account/bank',
  '/account/password', '/account/wallet-password', '/account/payout', '/account/language', '/account/currency',
  '/account/date-format', '/account/notification', '/account/notification/push', '/account/notification/email',
  '/account/intro-video', '/account/faqs', '/account/more', '/account/addresses', '/account/addresses/new', '/account/addresses/12',
  '/crm', '/crm/index', '/crm/dashboard', '/crm/dashboard/analytics', '/crm/leads', '/crm/leads/new', '/crm/leads/edit',
  '/crm/leads/7', '/crm/contacts', '/crm/sales', '/crm/sales/new', '/crm/sales/7', '/crm/invoices', '/crm/invoices/7',
  '/crm/meetings', '/crm/meetings/new', '/crm/calls', '/crm/calls/new',
  '/mail', '/mail/inbox', '/mail/sent', '/mail/sent-item', '/mail/sent-item/3', '/mail/compose', '/mail/conversation', '/mail/conversation/3',
  '/notifications', '/story', '/story/article', '/story/article/5', '/story/video', '/story/video/5',
  '/events', '/event/9', '/support', '/orders', '/orders/381', '/signup', '/signup/otp',
  '/packages/payment', '/shopping/products', '/shopping/products/4', '/shopping/cart', '/shopping/checkout', '/payment/stripe/success',
  '/otc/request-payment', '/otc/make-payment', '/otc/payment-history',
  // Beyond spec §2: the settings of two-factor sign-in.
  '/account/two-factor',
];

/** The list pages whose rows are a table with column headers on a desktop (cards on a phone); the shop's product grid stays a grid. */
export const TABLE_PATHS = [
  '/wallet/statement', '/wallet/transactions', '/wallet/recent-earnings', '/wallet/recent-payouts', '/pv-history', '/binary-history',
  '/orders', '/otc/payment-history', '/crm/leads', '/crm/contacts', '/crm/sales', '/crm/invoices', '/crm/meetings', '/crm/calls',
  '/mail/inbox', '/mail/sent', '/support', '/events', '/shopping/cart',
];
