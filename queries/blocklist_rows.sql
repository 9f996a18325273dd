-- The rows of the block list (after blocklist.sql and blocklist_names.sql): one per
-- address that does not qualify, and one per crawler a qualifying address claimed to be,
-- the address's counts repeated; in the order of the address, then bot and identity. The
-- program gathers an address's claims from its consecutive rows.
SELECT
    a.address AS client_ip,
    a.disallowed, a.spoofed, a.in_grace, a.crawl_delay, a.request_rate, a.visit_time,
    a.verified, c.bot, c.identity, a.first_seen, a.last_seen, a.qualifies, a.unreachable
FROM block_named a
LEFT JOIN block_claims c
    ON c.ip_id = coalesce(a.client_ip_id, -1)
   AND c.ip = coalesce(a.client_ip, '')
WHERE a.address <> ''
ORDER BY a.address, c.bot, c.identity;
