-- The disallowed requests (violations.csv) on ids, for Store.Named (audit/store),
-- which names the id columns one join at a time into the table read by violations.sql.
SELECT r.ts, r.host_id, r.client_ip_id, r.client_ip, r.bot_id, r.identity, r.method_id,
    r.target_id, r.target, r.status, r.rule_id, r.rule_line, r.robots_version_id,
    r.robots_group_id, r.verdict_id, r.file_id, r.line
FROM requests r
JOIN measures m ON m.rid = r.rid
WHERE r.verdict_id IN (SELECT id FROM dict WHERE value IN ('disallowed', 'disallowed_in_grace'));
