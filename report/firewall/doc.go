// Package firewall writes block lists in the formats firewalls and proxies
// load as they are: nftables, ipset, iptables, nginx, Apache,
// HAProxy, Cloudflare, AWS WAF, CrowdSec, merged CIDRs and CSV.
//
// The audit decides who qualifies (queries/blocklist.sql) and hands the
// qualifying addresses, with why, to Build, which drops what must never be
// blocked (the allow list; loopback, unspecified, multicast, broadcast) and
// merges the rest into prefixes (Aggregate). Each format is then a pure
// function from that List to bytes, in a file of its own.
//
// Every string that came from a log (a bot's name) reaches a file only
// through Sanitize, whose alphabet cannot end a comment, a quoted string or a
// CSV cell in any of the formats.
package firewall
