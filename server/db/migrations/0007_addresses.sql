-- The member's address book (spec §3 "Address"): shipping and billing addresses, each owned by one member.
-- Deleting sets deleted_at, so a delete can be undone; every query reads the member's own live rows.
CREATE TABLE addresses (
  id serial PRIMARY KEY,
  member_id int NOT NULL REFERENCES members(id),
  first_name text NOT NULL,
  last_name text NOT NULL DEFAULT '',
  company text NOT NULL DEFAULT '',
  address_1 text NOT NULL,
  address_2 text NOT NULL DEFAULT '',
  city text NOT NULL,
  postcode text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  country_id int NOT NULL REFERENCES countries(id),
  -- The country's name when the address was written, as it was printed on labels then.
  country_name text NOT NULL,
  -- No zone data is kept yet: a zone is optional and named by the member.
  zone_id int,
  zone_name text NOT NULL DEFAULT '',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  deleted_at timestamptz(3)
);
CREATE INDEX addresses_member_idx ON addresses (member_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
