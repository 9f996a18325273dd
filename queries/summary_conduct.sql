-- summary_conduct: the conduct measures that need each bot's history (back-off, repeat
-- fetches, refetch intervals) and its User-Agents' contact, per bot, host and identity,
-- from conduct.sql's conduct_measures over the stored requests. The judge measures them
-- while the logs stream and makes this table itself (audit/conduct_stream.go) unless it had
-- too many requests to keep; this is the definition it is held to (audit/conduct_test.go).
CREATE OR REPLACE TEMP TABLE summary_conduct AS
SELECT bot_id, host_id, identity_code, no_backoff, repeat_fetches, not_modified, refetch_median_hours, contact
FROM conduct_measures();
