-- The counts report_timeline.sql draws, per UTC day: the view report_slots over report_base
-- (report_base.sql), which already counts per day. report_hourly.sql makes the same view by
-- hours.
CREATE OR REPLACE TEMP VIEW report_slots AS
SELECT bot_id, host_id, identity_code, day, verdict_id, requests, crawl_delay, request_rate, visit_time, bytes
FROM report_base;
