-- Client addresses whose bot made at least $1 disallowed requests (contract §8).
-- Requests disallowed only within the cache grace period do not count.
SELECT client_ip, count(*) AS disallowed, string_agg(DISTINCT bot, ',' ORDER BY bot) AS bots
FROM judged
WHERE verdict = 'disallowed' AND client_ip IS NOT NULL AND client_ip <> ''
GROUP BY client_ip
HAVING count(*) >= $1
ORDER BY client_ip;
