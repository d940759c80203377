-- Network views (genealogy, table view, downline report) on trees of a million members.
--
-- Every query of a member's downline is an index range scan: the placement subtree of a member is the
-- range of paths starting with its path, one level of it is that range at one depth.

-- One level of a placement subtree: depth = d AND path LIKE '1.5.%' (several levels: depth IN (...)).
CREATE INDEX members_depth_path_idx ON members (depth, path text_pattern_ops);

-- Downline report by join date (newest or oldest first), for all levels and for one level.
CREATE INDEX members_created_idx ON members (created_at, id);
CREATE INDEX members_depth_created_idx ON members (depth, created_at, id);

-- Username search inside a downline: lower(username) LIKE 'ann%'.
CREATE INDEX members_username_prefix_idx ON members (lower(username) text_pattern_ops);

-- The sponsor tree, materialised like the placement tree: sponsor_path lists the ids of the sponsor
-- chain from the top ('1.2.9.'), sponsor_depth its length minus one. A trigger keeps both right for
-- every insert and every change of sponsor_id, whoever writes the row.
ALTER TABLE members ADD COLUMN sponsor_path text NOT NULL DEFAULT '';
ALTER TABLE members ADD COLUMN sponsor_depth int NOT NULL DEFAULT 0;

CREATE FUNCTION members_sponsor_path() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  up_path text;
  up_depth int;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.sponsor_id IS NOT DISTINCT FROM OLD.sponsor_id AND NEW.id = OLD.id THEN
    RETURN NEW;
  END IF;
  IF NEW.sponsor_id IS NOT NULL THEN
    SELECT sponsor_path, sponsor_depth INTO up_path, up_depth FROM members WHERE id = NEW.sponsor_id;
  END IF;
  IF up_path IS NULL OR up_path = '' THEN
    -- No sponsor: the top of a chain. (Sponsors are always written before the members they sponsor;
    -- should one not be, the chain starts at the sponsor id.)
    NEW.sponsor_path := CASE WHEN NEW.sponsor_id IS NULL THEN NEW.id || '.' ELSE NEW.sponsor_id || '.' || NEW.id || '.' END;
    NEW.sponsor_depth := CASE WHEN NEW.sponsor_id IS NULL THEN 0 ELSE 1 END;
  ELSE
    NEW.sponsor_path := up_path || NEW.id || '.';
    NEW.sponsor_depth := up_depth + 1;
  END IF;
  RETURN NEW;
END
$$;

-- When a member's sponsor chain changes, the chains of everyone it sponsored (directly or not) move with it.
CREATE FUNCTION members_sponsor_path_moved() RETURNS trigger
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  old_prefix text := OLD.sponsor_path;
BEGIN
  IF old_prefix = '' OR old_prefix = NEW.sponsor_path THEN
    RETURN NULL;
  END IF;
  UPDATE members
     SET sponsor_path = NEW.sponsor_path || substr(sponsor_path, length(old_prefix) + 1),
         sponsor_depth = sponsor_depth - (length(old_prefix) - length(replace(old_prefix, '.', '')))
                                       + NEW.sponsor_depth + 1
   WHERE sponsor_path LIKE old_prefix || '%' AND id <> NEW.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER members_sponsor_path_set
  BEFORE INSERT OR UPDATE OF sponsor_id ON members
  FOR EACH ROW EXECUTE FUNCTION members_sponsor_path();

CREATE TRIGGER members_sponsor_path_moved
  AFTER UPDATE OF sponsor_id ON members
  FOR EACH ROW WHEN (OLD.sponsor_id IS DISTINCT FROM NEW.sponsor_id)
  EXECUTE FUNCTION members_sponsor_path_moved();

-- Bulk loads may switch session_replication_role to replica to skip foreign-key checks; the sponsor
-- chain must still be written, so these triggers fire in that mode too.
ALTER TABLE members ENABLE ALWAYS TRIGGER members_sponsor_path_set;
ALTER TABLE members ENABLE ALWAYS TRIGGER members_sponsor_path_moved;

-- Sponsor downline at one generation / all generations, same shape as the placement indexes.
CREATE INDEX members_sponsor_depth_path_idx ON members (sponsor_depth, sponsor_path text_pattern_ops);
CREATE INDEX members_sponsor_path_idx ON members (sponsor_path text_pattern_ops);

-- Rows written before this migration: walk the sponsor tree once from the top.
WITH RECURSIVE chain AS (
  SELECT id, (id || '.')::text AS sp, 0 AS d FROM members WHERE sponsor_id IS NULL
  UNION ALL
  SELECT m.id, c.sp || m.id || '.', c.d + 1 FROM members m JOIN chain c ON m.sponsor_id = c.id
)
UPDATE members SET sponsor_path = chain.sp, sponsor_depth = chain.d FROM chain WHERE members.id = chain.id;
