-- The distinct User-Agent and target pairs of the bot requests other than /robots.txt
-- fetches, each as its id into dict and its value (the dict's, or the one kept inline):
-- what the proposed robots.txt of --what-if decides, once per pair, before whatif.sql
-- counts.
SELECT r.user_agent_id, coalesce(ua.value, r.user_agent), r.target_id, coalesce(t.value, r.target)
FROM (SELECT DISTINCT r.user_agent_id, r.user_agent, r.target_id, r.target
      FROM (SELECT unnest(r) FROM requests_store) r
      WHERE NOT r.robots_fetch) r
LEFT JOIN dict ua ON ua.id = r.user_agent_id
LEFT JOIN dict t ON t.id = r.target_id
