-- The internal store: product categories, products with stock, the member's cart (kept on the server so it
-- follows the member), orders paid from the cart, card payments through the payment provider and the
-- provider's webhook events (each handled once).
CREATE TABLE product_categories (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  sort_order int NOT NULL DEFAULT 0
);

CREATE TABLE products (
  id bigserial PRIMARY KEY,
  sku text NOT NULL UNIQUE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  category_id int REFERENCES product_categories(id),
  price numeric(20,4) NOT NULL CHECK (price > 0),
  bv numeric(20,4) NOT NULL DEFAULT 0 CHECK (bv >= 0),
  pv numeric(20,4) NOT NULL DEFAULT 0 CHECK (pv >= 0),
  stock int NOT NULL CHECK (stock >= 0),
  images jsonb NOT NULL DEFAULT '[]',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX products_list_idx ON products (created_at, id);
CREATE INDEX products_category_idx ON products (category_id);

-- One line per member and product; a removed line keeps its quantity until it is restored or added again.
CREATE TABLE cart_items (
  member_id int NOT NULL REFERENCES members(id),
  product_id bigint NOT NULL REFERENCES products(id),
  quantity int NOT NULL CHECK (quantity > 0 AND quantity <= 99),
  removed_at timestamptz(3),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (member_id, product_id)
);

ALTER TABLE orders ADD COLUMN idempotency_key text;
ALTER TABLE orders ADD COLUMN paid_at timestamptz(3);
CREATE UNIQUE INDEX orders_idempotency_idx ON orders (member_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
ALTER TABLE order_items ADD COLUMN product_id bigint REFERENCES products(id);

-- A checkout session at the card payment provider, for one purpose (order, package, top-up).
CREATE TABLE card_payments (
  session_id text PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  purpose text NOT NULL CHECK (purpose IN ('order', 'package', 'topup')),
  ref_id bigint NOT NULL,
  amount numeric(20,4) NOT NULL,
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'paid', 'expired', 'failed')),
  failure text,
  url text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  paid_at timestamptz(3)
);
CREATE INDEX card_payments_member_idx ON card_payments (member_id, created_at);

-- Webhook events already handled, by the provider's event id: a repeated delivery changes nothing.
CREATE TABLE payment_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  session_id text,
  received_at timestamptz(3) NOT NULL DEFAULT now()
);
