// Package robots reads robots.txt files and decides, for a crawler and a
// request target, whether the file allowed the request, by which rule, and
// what Crawl-delay, Request-rate and Visit-time applied (contract §3, §5).
//
// Parse once, answer many queries:
//
//	f := robots.Parse(data)              // never fails; f.Diagnostics lists problems
//	r := robots.Compile(f, robots.RFC9309) // the groups as a profile forms them
//	g := r.Resolve(userAgentHeader)      // the group that applies, once per agent
//	d, buf := g.Decide(target, buf)      // allocation-free; d.Rule, d.Line
//
// The path matcher (RuleSet, CompileRules, NormalizeTarget) is documented in
// ruleset.go; this comment covers reading the file, forming and choosing
// groups, and the extension directives. Each profile's deviations are also
// written next to the code that makes them.
//
// # Reading lines
//
// Lines end at CR, LF or CRLF. A UTF-8 byte order mark at the start of the
// file is skipped, and so is a prefix of one (as google/robotstxt does). "#"
// starts a comment anywhere. Keys are matched case-insensitively, whitespace
// around the colon is dropped, and a known key followed by whitespace
// instead of a colon ("user-agent FooBot", "Disallow /a:b") is read as if the
// colon were there (a missing-colon warning). A line whose key is unknown is
// a diagnostic, never an error, and does not end the group it is in.
//
// A User-agent value is cut to its leading product token (contract §3:
// "User-agent: FOO BAR" names FOO; "Googlebot/2.1" names Googlebot). RFC
// 9309 §2.2.1 allows only "a-zA-Z_-" in a token; crawlaudit also accepts
// digits and '.', because real crawler names carry them (MJ12bot,
// 360Spider, archive.org_bot) as HTTP product tokens may, and a file naming
// "MJ12bot" or "archive.org_bot" plainly means that crawler, not "MJ" or
// "archive". A value starting with
// "*" followed by a non-token character is the default group; "*bot" names
// nothing (an invalid-user-agent error).
//
// Directive values are kept as written, trimmed, comment removed. The
// misspellings Google accepts ("dissallow", "useragent", "user agent", keys
// that merely start with a directive's name) are read only by the Google
// profile; every profile reports them (misspelled-key, an error, since no
// other crawler applies the line).
//
// # Limits
//
// The first MaxFileBytes (500 KiB, the minimum RFC 9309 §2.5 asks crawlers
// to parse) are parsed; the rest of a larger file is ignored, with a
// file-too-large error. A crawler that stops at 500 KiB is compliant, so a
// rule it never read must not count against it. The line the limit falls
// in is dropped whole: cut short, a pattern would disallow more than its
// author wrote.
//
// Lines have no length limit (the file limit bounds the work), except under
// the Google profile, which cuts a line to its first MaxLineBytes-1 bytes as
// Google's parser does. Lines over MaxLineBytes get a line-too-long warning.
//
// # Groups and profiles
//
// rfc9309 (RFC 9309 = draft-koster-rep-08, seed 003): consecutive
// User-agent lines share a group; a group runs until the next User-agent
// line that follows a rule (Allow, Disallow or a group extension); blank lines do not end groups;
// rules before the first User-agent line are ignored; every group naming the
// crawler's token is merged; else all "*" groups, merged (the contract
// follows the published RFC here; draft-08 says "the first group" with "*");
// else no rules.
//
// google: rfc9309 on Google's reading of each line (misspellings, lines cut
// at MaxLineBytes-1 bytes, a colon replaced by whitespace only between
// exactly two words, tokens cut at the first character outside [a-zA-Z_-],
// "* anything" still the default group), plus the matcher's Google-only
// rules: targets compared as written against values escaped as Google's
// parser escapes them, and the index.htm rule (see ruleset.go). A URL
// given by a person (crawlaudit check) is read as Google's matcher reads
// it, by GooglePathParamsQuery ("example.com/a" is "/a", "" is "/").
//
// koster1996 and orig1994 (seeds 001, 004): records are separated by blank
// lines; a record without rule lines is no record; the first record with an
// agent value containing the crawler's token (case-insensitive substring)
// applies, else the first "*" record. See buildGroups and Robots.Resolve.
//
// # Agents
//
// Resolve takes a bare product token or a full User-Agent header; a header
// selects the longest robots.txt token that appears in it as a product name
// (contract §5). An empty agent gets the "*" groups only. See
// Robots.Resolve for the boundaries and the Koster profiles.
//
// # Extensions
//
// Crawl-delay and Cache-delay: seconds, fractions allowed, non-negative, up
// to a year. Request-rate: "n/t" with unit s, m or h (seconds by default),
// optionally followed by a UTC window "HHMM-HHMM"; the line in force at an
// instant is the strictest whose window covers it, else the strictest
// without a window. Visit-time: "HHMM-HHMM" UTC, wrapping midnight when the
// start is later than the end, "2400" allowed as an end, an empty window
// invalid. Invalid values are errors in Diagnostics and are not kept.
// Cache-delay, Robot-version, Comment, Noindex and Clean-param are kept and
// exposed; Sitemap and Host are file-level (File.Sitemaps, File.Hosts),
// wherever they appear. How values of merged groups combine is documented
// on Resolved.
//
// Extension lines belong to the group they are in and end its list of
// agents, as rules do: under rfc9309 because RFC 9309 §2.1 defines a rule as
// "a line with a key-value pair that defines how a crawler may access URIs",
// under koster1996 and orig1994 because the 1996 grammar says "ruleline =
// (disallowline | allowline | extension)". So "User-agent: a / Crawl-delay:
// 5 / User-agent: b / Disallow: /" is two groups. Google-only: Google's
// parser knows no extension, and under the google profile that file is one
// group for a and b.
package robots
