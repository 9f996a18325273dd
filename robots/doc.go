// Package robots reads robots.txt files and decides, for a crawler and a
// request target, whether the file allowed the request, by which rule, and
// what Crawl-delay, Request-rate and Visit-time applied.
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
// A User-agent value is cut to its leading product token
// ("User-agent: FOO BAR" names FOO; "Googlebot/2.1" names Googlebot). RFC
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
// crawler's token is merged; else all "*" groups, merged (crawlaudit
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
// spc2 (seed 000): koster1996's records and choice of record, each record
// read in the version it declares; see "The 2.0.0 proposal" below.
//
// # Agents
//
// Resolve takes a bare product token or a full User-Agent header; a header
// selects the longest robots.txt token that appears in it as a product name,
// as RFC 9309 §2.2.1 asks crawlers to match. An empty agent gets the "*" groups only. Google-only: a
// name with a space and no other header separator ("Foo Bar") is compared
// whole, as Google's matcher does, so it gets the "*" groups. See
// Robots.Resolve for the boundaries and the Koster profiles.
//
// # Extensions
//
// Crawl-delay and Cache-delay: seconds, fractions allowed, non-negative, up
// to a year. Request-rate: "n/t" with unit s, m, h or d (seconds by
// default; d, days, as VIPnytt/RobotsTxtParser reads it; at most 1,000,000
// hours),
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
//
// # AI-use preferences
//
// Content-Usage (draft-ietf-aipref-attach-05) and Content-Signal
// (draft-romm-aipref-contentsignals-00) are read under every profile into
// Group.Preferences, or File.Preferences before the first User-agent line,
// where they apply to every crawler. Resolved.Preferences gives, for a
// target, the preference per category (train-ai, ai-use, search) and the
// line it comes from, allocation-free; pref.go and prefmatch.go say how the
// values and lines are read, and docs/preferences.md why.
//
// # The 2.0.0 proposal (spc2)
//
// S. Conner's "Re: robots.txt syntax" (1996, seed 000) proposes a version
// 2.0.0 of robots.txt that a record opts into. The spc2 profile reads it on
// top of koster1996 (records separated by blank lines, the first record
// whose agent contains the crawler's token, else the first "*" record):
//
//   - A record whose first line after its User-agent lines is
//     "Robot-version: 2.x.y" with x even is a 2.0.0 record ("If the next
//     valid header after 'User-agent' is NOT 'Robot-version', then treat
//     the entry as a version 1.0.0"; "if a robot is looking for version
//     2.0.0 and comes across 2.2.0, then it can still use the rule set").
//     Missing parts read as 0 ("2.0" is 2.0.0, as VIPnytt/RobotsTxtParser
//     writes it). Comments and lines with unknown keys are not headers.
//   - A record with an experimental version (x odd, "2.1.0", "1.3.0") is
//     ignored: a crawler it names gets the default record ("A robot, if it
//     comes across an experiment version number, should probably ignore
//     that rule set and use the default"), and it is never the default.
//   - Every other record (no Robot-version, one that is not the first
//     line, 1.x.y with x even, a value that is not a version) is read as
//     1.0.0, which is koster1996's reading: general (prefix) matches, the
//     first matching rule in the file wins.
//
// In a 2.0.0 record every value matches the whole URL (path and query, %xx
// compared as koster1996 compares them). A value without "*" is an
// explicit match: the URL must equal it. A value with "*" is a wildcard
// match in which "*" matches any run of characters, and nothing is implied
// at the end: "/a*" matches what the 1.0.0 "/a" matches, "*.shtml" only
// URLs that end in ".shtml" ("a general match can be turned into a wild
// card/regular expression match by adding a '*' to the end of the
// string"). The proposal defines no other special character; a final "$"
// is dropped as redundant, any other "$" is literal. An empty value
// matches nothing and counts for nothing.
//
// Precedence: a matching explicit Allow allows ("the highest precedence");
// else a matching Disallow disallows ("Disallow rules have a higher
// precedence than wild card/regular expression rules"); else a matching
// wildcard Allow allows; of several matching lines of one kind the first
// in the file is reported. A URL no line matches is allowed in a record
// without Allow lines ("If there are no allow rules, then any URL not
// matching the rule(s) can be retrieved"), and disallowed in a record with
// Allow lines and no Disallow ("the robot is ONLY allowed to retrieve the
// URLs that match the explicit and/or wildcard/regular expressions
// given") and in a record with a wildcard Allow beside Disallow lines
// ("Any URL not matching the disallow rules have to then pass (any) wild
// card/regular expression rules"). Such a URL is disallowed by no single
// line: Decide reports the record's Robot-version line as the deciding one
// (RuleSet.Decide returns Unlisted).
//
// "Discuss." The proposal leaves open one case: a record with explicit
// Allow lines and Disallow lines but no wildcard Allow, and a URL that
// matches none of them — "1. nothing else is allowed 2. everything else is
// allowed". crawlaudit answers 2, everything else is allowed:
//
//   - An explicit Allow beside Disallow lines reads as an exception carved
//     out of what they disallow ("grants the robot the explicit permission
//     to retrieve the URL stated", which is needed only where a Disallow
//     would refuse it). Under answer 1, adding "Allow: /private/press.html"
//     to a record that disallows "/private/*" would also forbid the rest of
//     the site: adding an Allow line would disallow more, which no author
//     expects.
//   - The Disallow lines keep the meaning the proposal gives them when
//     there is no Allow ("any URL not matching the rule(s) can be
//     retrieved"), and 1.0.0's, where what is not disallowed is allowed.
//     Where the proposal does make Allow lines exclusive, it says so, and
//     it does so through the wildcard rules ("have to then pass (any) wild
//     card/regular expression rules"); with none, there is nothing to pass.
//   - An audit must not accuse a crawler of breaking a rule the file does
//     not state: answer 1 would count as violations requests the author
//     never wrote a line against.
//
// TestSpc2_Discuss holds this answer; TestSpc2_Conner1996Examples the
// proposal's Fredsbot, Chives and Alfred records.
package robots
