package robots

import "strings"

// Kind is the directive a robots.txt line carries.
type Kind uint8

// The directives crawlaudit reads. KindUnknown is a line with a key no profile
// reads; it is kept as a diagnostic.
const (
	KindUnknown Kind = iota
	KindUserAgent
	KindAllow
	KindDisallow
	KindSitemap
	KindHost
	KindCrawlDelay
	KindRequestRate
	KindVisitTime
	KindCacheDelay
	KindRobotVersion
	KindComment
	KindNoindex
	KindCleanParam
	// KindContentUsage and KindContentSignal are AI-use preferences
	// (draft-ietf-aipref-attach, draft-romm-aipref-contentsignals; see
	// pref.go).
	KindContentUsage
	KindContentSignal

	kindLast = KindContentSignal
)

// kindNames are the canonical spellings, as printed in Decision.Rule and in
// diagnostics.
var kindNames = [...]string{
	KindUnknown:      "",
	KindUserAgent:    "User-agent",
	KindAllow:        "Allow",
	KindDisallow:     "Disallow",
	KindSitemap:      "Sitemap",
	KindHost:         "Host",
	KindCrawlDelay:   "Crawl-delay",
	KindRequestRate:  "Request-rate",
	KindVisitTime:    "Visit-time",
	KindCacheDelay:   "Cache-delay",
	KindRobotVersion: "Robot-version",
	KindComment:      "Comment",
	KindNoindex:      "Noindex",
	KindCleanParam:   "Clean-param",
	// The spellings of draft-ietf-aipref-attach-05 §3 and of Cloudflare's
	// managed robots.txt.
	KindContentUsage:  "Content-Usage",
	KindContentSignal: "Content-Signal",
}

// String returns the canonical spelling of the directive ("Disallow").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}

// isRule reports whether k is Allow or Disallow.
func (k Kind) isRule() bool { return k == KindAllow || k == KindDisallow }

// isGroupMember reports whether lines of kind k belong to the group they
// appear in: rules and the group-level extensions. Sitemap and Host are
// file-level; User-agent starts groups.
func (k Kind) isGroupMember() bool { return k >= KindAllow && k != KindSitemap && k != KindHost }

// isPreference reports whether k is Content-Usage or Content-Signal.
func (k Kind) isPreference() bool { return k == KindContentUsage || k == KindContentSignal }

// lookupKey returns the directive named exactly by key, compared
// case-insensitively (RFC 9309 §2.2: keys in any case). It accepts no
// misspellings: that is the Google profile's business (googleKind).
func lookupKey(key string) Kind {
	if len(key) < 4 || len(key) > len("content-signal") {
		return KindUnknown
	}
	for k := KindUserAgent; k <= kindLast; k++ {
		if strings.EqualFold(key, kindNames[k]) {
			return k
		}
	}
	return KindUnknown
}

// googleKind returns the directive Google's open-source parser
// (google/robotstxt, robots.cc, ParsedRobotsKey::Parse) reads in key. It
// differs from lookupKey in two ways, both Google-only leniencies:
//
//   - The key only has to start with the directive's name: "Disallowed",
//     "User-agents" and "Allowance" are read as Disallow, User-agent, Allow.
//   - Frequent typos are accepted: "useragent" and "user agent" for
//     User-agent; "dissallow", "dissalow", "disalow", "diasllow" and
//     "disallaw" for Disallow; "site-map" for Sitemap.
//
// Google knows no other directive; for the extensions (Crawl-delay, Host,
// ...) the Google profile falls back on lookupKey, so that an audit can say what a
// site asked of a crawler that ignores them.
func googleKind(key string) Kind {
	switch {
	case hasPrefixFold(key, "user-agent"), hasPrefixFold(key, "useragent"), hasPrefixFold(key, "user agent"):
		return KindUserAgent
	case hasPrefixFold(key, "allow"):
		return KindAllow
	case hasPrefixFold(key, "disallow"), hasPrefixFold(key, "dissallow"), hasPrefixFold(key, "dissalow"),
		hasPrefixFold(key, "disalow"), hasPrefixFold(key, "diasllow"), hasPrefixFold(key, "disallaw"):
		return KindDisallow
	case hasPrefixFold(key, "sitemap"), hasPrefixFold(key, "site-map"):
		return KindSitemap
	}
	return KindUnknown
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// misspelling returns the directive an unknown key most likely means, or
// KindUnknown. A key is a likely misspelling when, ignoring case and the
// separators '-', '_' and ' ', it equals a directive's name ("useragent",
// "Crawl_delay", "user agent"), or when it is within a small edit distance of
// one: one edit for names of up to five letters ("Alow"), two for longer ones
// ("Dissalow", "Disalow", "Usr-agent"). Keys longer than 24 bytes are never
// misspellings (and so cost nothing to check).
func misspelling(key string) Kind {
	if len(key) < 3 || len(key) > 24 {
		return KindUnknown
	}
	var buf [24]byte
	lk := lowerASCII(buf[:0], key)
	var sbuf [24]byte
	sk := squeeze(sbuf[:0], lk)
	best, bestD := KindUnknown, 3
	for k := KindUserAgent; k <= kindLast; k++ {
		var nbuf [16]byte
		name := lowerASCII(nbuf[:0], kindNames[k])
		var snbuf [16]byte
		if string(squeeze(snbuf[:0], name)) == string(sk) {
			return k
		}
		limit := 2
		if len(name) <= 5 {
			limit = 1
		}
		if diff := len(lk) - len(name); diff > limit || -diff > limit {
			continue
		}
		if d := editDistance(lk, name); d <= limit && d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func lowerASCII(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func squeeze(dst, s []byte) []byte {
	for _, c := range s {
		if c != '-' && c != '_' && c != ' ' && c != '\t' {
			dst = append(dst, c)
		}
	}
	return dst
}

// editDistance is the optimal-string-alignment distance (Levenshtein plus
// transposition of neighbours) between two short strings.
func editDistance(a, b []byte) int {
	const max = 25
	if len(a) >= max || len(b) >= max {
		return max
	}
	// Three rows of the matrix: the one before last (for transpositions),
	// the last and the current.
	var r0, r1, r2 [max]int
	for j := 0; j <= len(b); j++ {
		r1[j] = j
	}
	for i := 1; i <= len(a); i++ {
		r2[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(r1[j]+1, r2[j-1]+1, r1[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, r0[j-2]+1)
			}
			r2[j] = v
		}
		r0, r1 = r1, r2
	}
	return r1[len(b)]
}
