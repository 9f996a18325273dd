// Command snapgen writes the built-in snapshot of crawler IP range lists
// (verify/snapshot.json.gz) from the mirrored operator data kept beside the
// repository in ../shared/data/ip-ranges:
//
//   - Google's official files with their history,
//     google-history/<name>/<creationTime>.json and <name>.latest.json, for
//     the sources of sources.json that name a google_history;
//   - for every other source that names an ipverse service, the history of
//     ipverse/bot-ip-blocks, ipverse-crawlers-history.tar.gz, then
//     ipverse-crawlers.latest.json. A service's list is dated by its
//     last_changed_at when the file has one, else by the file's time (its
//     name). ipverse's Google services are not used: Google's own files
//     reach further back and are verbatim.
//
// Consecutive versions with the same prefix set are kept once. An empty
// ipverse list between non-empty ones is ipverse failing to fetch the
// operator's file (ClaudeBot on 2026-04-12, its Google services on
// 2026-04-14, each restored within the hour); snapgen skips empty ipverse
// lists, so that the previous list stays in effect, and says so.
//
// The output is gzipped JSON: per source its versions, each the prefixes
// added to and removed from the one before, with the snapshot's "made"
// date (the newest instant in the inputs) and the inputs' digests. The
// same inputs always give the same bytes. Usage (from verify/):
//
//	go run ./internal/snapgen -data ../../shared/data/ip-ranges -o snapshot.json.gz
package main
