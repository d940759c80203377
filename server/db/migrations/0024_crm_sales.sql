-- Sales of the member's CRM and the invoices they issue. A sale is to one of the member's contacts; its lines
-- are items of the company's catalogue (products or packages) with the name, SKU and unit price they had at
-- the time of the sale. Each sale issues one invoice, numbered per member without gaps: the counter row is
-- raised in the sale's transaction (its row lock makes concurrent sales take turns; a sale that fails gives
-- its number back with the rollback).
CREATE TABLE crm_sales (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  contact_id int NOT NULL REFERENCES crm_contacts(id),
  contact_name text NOT NULL,
  total numeric(20,4) NOT NULL,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  deleted_at timestamptz(3),
  CONSTRAINT crm_sales_total_check CHECK (total >= 0)
);
CREATE INDEX crm_sales_member_idx ON crm_sales (member_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX crm_sales_contact_idx ON crm_sales (contact_id, created_at DESC);

CREATE TABLE crm_sale_lines (
  id serial PRIMARY KEY,
  sale_id int NOT NULL REFERENCES crm_sales(id),
  position int NOT NULL,
  kind text NOT NULL,
  item_id int NOT NULL,
  sku text NOT NULL,
  name text NOT NULL,
  quantity int NOT NULL,
  unit_price numeric(20,4) NOT NULL,
  amount numeric(20,4) NOT NULL,
  CONSTRAINT crm_sale_lines_kind_check CHECK (kind IN ('product', 'package')),
  CONSTRAINT crm_sale_lines_quantity_check CHECK (quantity BETWEEN 1 AND 9999),
  CONSTRAINT crm_sale_lines_price_check CHECK (unit_price >= 0 AND amount >= 0),
  UNIQUE (sale_id, position)
);

-- The last invoice number each member used.
CREATE TABLE crm_invoice_counters (
  member_id int PRIMARY KEY REFERENCES members(id),
  last_number int NOT NULL
);

-- Stored statuses: draft, sent, paid. "Overdue" is derived when read: sent, and due before today.
CREATE TABLE crm_invoices (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  sale_id int NOT NULL UNIQUE REFERENCES crm_sales(id),
  number int NOT NULL,
  status text NOT NULL DEFAULT 'draft',
  issued_on date NOT NULL,
  due_on date NOT NULL,
  total numeric(20,4) NOT NULL,
  sent_at timestamptz(3),
  paid_at timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  deleted_at timestamptz(3),
  CONSTRAINT crm_invoices_status_check CHECK (status IN ('draft', 'sent', 'paid')),
  CONSTRAINT crm_invoices_due_check CHECK (due_on >= issued_on),
  CONSTRAINT crm_invoices_number_unique UNIQUE (member_id, number)
);
CREATE INDEX crm_invoices_member_idx ON crm_invoices (member_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX crm_invoices_status_idx ON crm_invoices (member_id, status, due_on) WHERE deleted_at IS NULL;
