-- A component's `order` from its Topology spec: siblings sort by it (then by name) on the
-- dashboard and in /api/canary/api/topology.
ALTER TABLE components ADD COLUMN display_order integer;
