// Package audit is crawlaudit's main job: it streams access logs through the
// ingest layer, identifies the bot behind each request, judges the request
// against the robots.txt version in effect at its timestamp (package
// robots/history) for the group of its User-Agent (package robots), loads the
// judged bot requests into DuckDB (package audit/store) and runs the reports
// of package queries.
//
// # Decisions
//
//   - Human traffic (browsers) is counted per host, never stored row by row
//     and never judged: memory does not grow with its share.
//   - A bot request on a host with no robots.txt history, or before the
//     first version of its host, is "unaudited": counted in requests but in
//     no breach metric.
//   - Cache grace: a request disallowed by the version in
//     effect is "disallowed_in_grace" instead of "disallowed" when the
//     version in effect exactly Grace earlier is another one and allowed it.
//     When no version was in effect Grace earlier, nothing could have been
//     cached from this site, and the request stays "disallowed".
//   - Crawl-delay and Request-rate are measured per bot name and host,
//     across all the bot's addresses, in the microseconds of the log; the
//     summary says when the log's resolution is one second.
//   - Visit-time windows are those of package robots: start inclusive, end
//     exclusive ("0100-0600" admits 01:00:00 to 05:59:59 UTC); a window whose
//     end is before its start wraps midnight.
package audit
