-- The rows of the block list (after blocklist.sql): one per address that does not
-- qualify, and one per crawler a qualifying address claimed to be (bot, identity: what
-- verification found), the address's counts repeated; in the order of the address, then
-- bot and identity. The program gathers an address's claims from its consecutive rows.
-- (Addresses are matched on the pair (id, inline string) with NULLs as -1 and '': equality,
-- which DuckDB hashes, where IS NOT DISTINCT FROM made a nested loop.)
WITH claims AS (
    SELECT DISTINCT r.client_ip_id, r.client_ip, r.bot_id, r.identity
    FROM requests r
    SEMI JOIN (SELECT client_ip_id, client_ip FROM block_addresses WHERE qualifies) a
        ON coalesce(a.client_ip_id, -1) = coalesce(r.client_ip_id, -1)
       AND coalesce(a.client_ip, '') = coalesce(r.client_ip, '')
)
SELECT
    coalesce(ip.value, a.client_ip) AS client_ip,
    a.disallowed, a.spoofed, a.in_grace, a.crawl_delay, a.request_rate, a.visit_time,
    a.verified, bot.value AS bot, c.identity, a.first_seen, a.last_seen, a.qualifies, a.unreachable
FROM block_addresses a
LEFT JOIN dict ip ON ip.id = a.client_ip_id
LEFT JOIN claims c
    ON coalesce(c.client_ip_id, -1) = coalesce(a.client_ip_id, -1)
   AND coalesce(c.client_ip, '') = coalesce(a.client_ip, '')
LEFT JOIN dict bot ON bot.id = c.bot_id
WHERE coalesce(ip.value, a.client_ip) <> ''
ORDER BY client_ip, bot, c.identity;
