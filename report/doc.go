// Package report renders the results of an audit: the summary
// as JSON or as a terminal table, and the files of --out (violations.csv,
// breaches.csv, blocklist.txt), each written atomically. Strings that come
// from logs are attacker-controlled: CSV cells are neutralised against
// formula injection and block-list addresses are validated.
package report
