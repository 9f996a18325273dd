-- summary_counted: the counts of summary.sql, one row per bot, host and identity: the
-- counts of summary_counts.sql (summary_per, summary_ips) with the breaches of the
-- windows and the conduct per bot, host and identity, the temporary tables
-- summary_breaches and summary_conduct, which the judge made from what it measured while
-- the logs streamed (audit/stream.go), or summary_breaches.sql and summary_conduct.sql
-- from the stored requests when it did not.
CREATE OR REPLACE TEMP TABLE summary_counted AS
SELECT per.*,
    coalesce(b.crawl_delay_breaches, 0)  AS crawl_delay_breaches,
    coalesce(b.request_rate_breaches, 0) AS request_rate_breaches,
    coalesce(b.crawl_delay_unsupported, 0) AS crawl_delay_unsupported,
    coalesce(i.ips, 0)                   AS ips,
    coalesce(cd.no_backoff, 0)           AS no_backoff,
    coalesce(cd.repeat_fetches, 0)       AS repeat_fetches,
    coalesce(cd.not_modified, 0)         AS not_modified,
    cd.refetch_median_hours,
    coalesce(cd.contact, false)          AS contact
FROM summary_per per LEFT JOIN summary_breaches b USING (bot_id, host_id, identity_code)
         LEFT JOIN summary_ips i USING (bot_id, host_id, identity_code)
         LEFT JOIN summary_conduct cd USING (bot_id, host_id, identity_code);

DROP TABLE summary_per;
DROP TABLE summary_ips;
DROP TABLE summary_breaches;
DROP TABLE summary_conduct;
