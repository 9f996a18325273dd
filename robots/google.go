package robots

import "strings"

// How the google profile reads URLs and rule values: ports of
// google/robotstxt's robots.cc (GetPathParamsQuery, MaybeEscapePattern).
// Google's matcher compares the URL's path as the caller gives it ("The url
// is not normalized (escaped, percent encoded) here because the user is
// asked to provide it in escaped form already", AllowedByRobots) with the
// rule values as its parser escaped them. See RuleSet for how the google
// profile uses them.

// GooglePathParamsQuery returns the path, params and query of url as
// google/robotstxt's GetPathParamsQuery extracts them: the scheme,
// authority and fragment are removed and the result always starts with
// "/". It accepts anything Google's matcher accepts:
//
//   - "http://example.com/a?b#c" is "/a?b";
//   - a URL without a scheme starts with its authority: "example.com/a" is
//     "/a", "a/b" is "/b", "example.com?a" is "/?a";
//   - two leading slashes start an authority too: "//a/b/c" is "/b/c";
//   - a "://" after the first "/", "?" or ";" is not a scheme's;
//   - no path, or a "#" before it, is "/": "", "example.com" and
//     "example.com#a/b" are all "/".
//
// The result is not normalised: Google matches it octet for octet. check
// reads its URL arguments with it under --spec google; RuleSet.Decide, which
// takes request targets as logged (where "//a/b/c" is a path), does not.
func GooglePathParamsQuery(url string) string {
	// Initial two slashes are ignored.
	searchStart := 0
	if len(url) >= 2 && url[0] == '/' && url[1] == '/' {
		searchStart = 2
	}
	earlyPath := indexAnyFrom(url, "/?;", searchStart)
	protocolEnd := indexFrom(url, "://", searchStart)
	if earlyPath >= 0 && (protocolEnd < 0 || earlyPath < protocolEnd) {
		// A path, params or query starts before "://": no scheme.
		protocolEnd = -1
	}
	if protocolEnd < 0 {
		protocolEnd = searchStart
	} else {
		protocolEnd += 3
	}
	pathStart := indexAnyFrom(url, "/?;", protocolEnd)
	if pathStart < 0 {
		return "/"
	}
	hashPos := indexFrom(url, "#", searchStart)
	if hashPos >= 0 && hashPos < pathStart {
		return "/"
	}
	pathEnd := len(url)
	if hashPos >= 0 {
		pathEnd = hashPos
	}
	if url[pathStart] != '/' {
		// Prepend a slash if the result would start e.g. with '?'.
		return "/" + url[pathStart:pathEnd]
	}
	return url[pathStart:pathEnd]
}

// indexAnyFrom is strings.IndexAny(s[from:], chars) as an index into s.
func indexAnyFrom(s, chars string, from int) int {
	if from > len(s) {
		return -1
	}
	if i := strings.IndexAny(s[from:], chars); i >= 0 {
		return from + i
	}
	return -1
}

// indexFrom is strings.Index(s[from:], sub) as an index into s.
func indexFrom(s, sub string, from int) int {
	if from > len(s) {
		return -1
	}
	if i := strings.Index(s[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}

// googleEscapePattern is google/robotstxt's MaybeEscapePattern, which its
// parser applies to every Allow and Disallow value before matching: octets
// outside US-ASCII are %-encoded with upper-case hex ("/á" is "/%C3%A1")
// and the hex digits of an existing escape are upper-cased ("%aa" is
// "%AA"). Nothing else changes: "%62" stays "%62", a "%" that starts no
// escape stays "%", and "*" and "$" keep their meaning. A value that needs
// no change is returned as it is.
func googleEscapePattern(v string) string {
	need := false
	for i := 0; i < len(v) && !need; i++ {
		switch c := v[i]; {
		case c == '%' && i+2 < len(v) && byteClass[v[i+1]]&clsHex != 0 && byteClass[v[i+2]]&clsHex != 0:
			need = isLowerHex(v[i+1]) || isLowerHex(v[i+2])
			i += 2
		case c >= 0x80:
			need = true
		}
	}
	if !need {
		return v
	}
	var b strings.Builder
	b.Grow(len(v) + 8)
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '%' && i+2 < len(v) && byteClass[v[i+1]]&clsHex != 0 && byteClass[v[i+2]]&clsHex != 0:
			b.WriteByte('%')
			b.WriteByte(upperASCII(v[i+1]))
			b.WriteByte(upperASCII(v[i+2]))
			i += 2
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isLowerHex(c byte) bool { return 'a' <= c && c <= 'f' }

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
