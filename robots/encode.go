package robots

import "bytes"

// Percent-encoding normalisation of request targets and rule patterns.
//
// RFC 9309 §2.2.2 asks both sides of a comparison to be normalised first:
// octets outside US-ASCII and reserved characters are percent-encoded, %xx
// of unreserved characters is decoded, and hex digits compare
// case-insensitively. Read word for word that would also encode "/" and the
// "?" that starts the query, which no example does; Table 2 shows what is
// meant: "/foo/bar?baz=http://foo.bar" becomes
// "/foo/bar?baz=http%3A%2F%2Ffoo.bar" — the "/" of the path and the "?" and
// "=" that delimit the query stay, the ":" and "/" that are data inside the
// query value are encoded. crawlaudit therefore treats a reserved character
// as equivalent to its %xx form except where it delimits:
//
//   - in the path, "/" (so %2F never equals "/", as the 1996 draft says) and "?" (a literal "?" would end the path);
//   - in the query (after the first "?"), the form delimiters "&", "=", "+"
//     and ";" (so "?a=1%26b=2" is not "?a=1&b=2");
//   - everywhere, "%" itself: %25 stays %25, and a "%" not followed by two
//     hex digits is read as %25.
//
// Everything else is equivalent to its %xx form: unreserved characters,
// the other reserved characters (Table 4: %2A is a literal "*", %24 a
// literal "$"), the characters RFC 3986 does not allow unencoded (space,
// '"', "<", ">", "\", "^", "`", "{", "|", "}") and octets >= 0x80 (Table 2:
// "ツ" is %E3%83%84).
//
// A target may carry a fragment or be in absolute form: see trimTarget.
//
// Two forms implement this one equivalence:
//
//   - NormalizeTarget writes the RFC 9309 normal form, every non-delimiting
//     reserved or non-ASCII octet percent-encoded, for people to read (the
//     "Encoded Path" column of Table 2);
//   - the matching key (appendKey) decodes every equivalent %xx instead and
//     keeps only the delimiting ones encoded. It is what the matcher
//     compares, because a target without "%" is its own key: no copy.
//
// The Koster1996 and Orig1994 profiles use the 1996 draft's coarser rule
// (§3.2.2: every %xx is decoded before comparing, except %2F), see
// keepKoster. The Google profile normalises neither side: it compares the
// target as written with the value as Google's parser escapes it (see
// googleEscapePattern and RuleSet).

// Byte classes.
const (
	clsUnreserved = 1 << iota // RFC 3986 unreserved: ALPHA DIGIT - . _ ~
	clsQueryDelim             // delimits inside a query: & = + ;
	clsHex                    // hex digit
)

var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~':
			t[c] |= clsUnreserved
		}
		switch c {
		case '&', '=', '+', ';':
			t[c] |= clsQueryDelim
		}
		if '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' {
			t[c] |= clsHex
		}
	}
	return t
}()

const upperHex = "0123456789ABCDEF"

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// escapeAt reports whether s[i:] starts with a valid %HH escape and returns
// its octet.
func escapeAt(s []byte, i int) (byte, bool) {
	if i+2 < len(s) && byteClass[s[i+1]]&clsHex != 0 && byteClass[s[i+2]]&clsHex != 0 {
		return unhex(s[i+1])<<4 | unhex(s[i+2]), true
	}
	return 0, false
}

// keepTable says, for the path [0] and the query [1], which escaped octets
// are not equivalent to the literal octet and so stay %HH in a matching key.
type keepTable [2][256]bool

// keepRFC9309 is the equivalence of RFC 9309 §2.2.2 described at the top
// of this file (profile RFC9309).
var keepRFC9309 = func() (k keepTable) {
	k[0]['/'], k[0]['?'], k[0]['%'] = true, true, true
	for c := 0; c < 256; c++ {
		if byteClass[c]&clsQueryDelim != 0 {
			k[1][c] = true
		}
	}
	k[1]['%'] = true
	return k
}()

// keepKoster is the 1996 draft's rule (§3.2.2): "If a %xx encoded octet is
// encountered it is unencoded prior to comparison, unless it is the "/"
// character". %25 also stays encoded, so that a decoded "%" can never be
// confused with the start of the %2F that was kept. The draft draws no
// line between path and query, so neither does this table: %3F decodes to
// "?" even in the path (profiles Koster1996 and Orig1994).
var keepKoster = func() (k keepTable) {
	for q := range k {
		k[q]['/'], k[q]['%'] = true, true
	}
	return k
}()

// appendKey appends the matching key of src to dst: every %HH whose octet
// is equivalent to the literal octet is decoded, the others are written
// with upper-case hex, a "%" that starts no escape becomes %25, and all
// other bytes are copied. inQuery says whether src starts inside the query;
// the first literal "?" switches to the query. It returns the extended dst
// and whether the end of src is inside the query.
//
// In a key every "%" starts a kept escape, so equal keys mean equivalent
// inputs and the reverse. A src without "%" is its own key.
func appendKey(dst, src []byte, keep *keepTable, inQuery bool) ([]byte, bool) {
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '%':
			v, ok := escapeAt(src, i)
			if !ok {
				dst = append(dst, '%', '2', '5')
				continue
			}
			i += 2
			q := 0
			if inQuery {
				q = 1
			}
			if keep[q][v] {
				dst = append(dst, '%', upperHex[v>>4], upperHex[v&15])
			} else {
				dst = append(dst, v)
			}
		case '?':
			inQuery = true
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst, inQuery
}

// appendNormal appends the RFC 9309 normal form of src to dst (see
// NormalizeTarget); inQuery works as in appendKey.
func appendNormal(dst, src []byte, inQuery bool) ([]byte, bool) {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '%' {
			v, ok := escapeAt(src, i)
			if !ok {
				dst = append(dst, '%', '2', '5')
				continue
			}
			i += 2
			if byteClass[v]&clsUnreserved != 0 {
				dst = append(dst, v)
			} else {
				dst = append(dst, '%', upperHex[v>>4], upperHex[v&15])
			}
			continue
		}
		switch {
		case c == '?' && !inQuery:
			inQuery = true
			dst = append(dst, c)
		case byteClass[c]&clsUnreserved != 0,
			c == '/' && !inQuery,
			inQuery && byteClass[c]&clsQueryDelim != 0:
			dst = append(dst, c)
		default:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return dst, inQuery
}

// normalLen returns len(appendNormal(nil, src, inQuery)) without writing.
func normalLen(src []byte, inQuery bool) (int, bool) {
	n := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '%' {
			if v, ok := escapeAt(src, i); ok {
				i += 2
				if byteClass[v]&clsUnreserved != 0 {
					n++
					continue
				}
			}
			n += 3
			continue
		}
		switch {
		case c == '?' && !inQuery:
			inQuery = true
			n++
		case byteClass[c]&clsUnreserved != 0,
			c == '/' && !inQuery,
			inQuery && byteClass[c]&clsQueryDelim != 0:
			n++
		default:
			n += 3
		}
	}
	return n, inQuery
}

// NormalizeTarget appends to dst the RFC 9309 normal form of a request
// target (path and query as logged, or an absolute URL) and returns the
// extended slice. It is the form the matcher compares under the RFC9309
// profile, written out (the Google profile compares targets as written): a fragment is dropped, an absolute URL
// ("https://host/p?q") is cut to its path and query, an empty path becomes
// "/"; unreserved characters are decoded from %xx, every other octet that
// is not a delimiter ("/" in the path, the first "?", and "&", "=", "+", ";"
// in the query) is percent-encoded, with upper-case hex.
//
// Two targets are matched alike by every rule if and only if their normal
// forms are equal. For example "/foo/bar?baz=http://foo.bar" normalises to
// "/foo/bar?baz=http%3A%2F%2Ffoo.bar" and "/%7ejoe/%E3%83%84" to
// "/~joe/%E3%83%84" (RFC 9309 Table 2).
func NormalizeTarget(dst, target []byte) []byte {
	t, slash := trimTarget(target)
	if slash {
		dst = append(dst, '/')
	}
	dst, _ = appendNormal(dst, t, false)
	return dst
}

// trimTarget reduces a logged request target to the path and query that
// rules are matched against. It returns the rest of target and whether a
// "/" must be put in front of it. Decisions (all profiles):
//
//   - A fragment ("#..." — never sent by browsers, but present in URLs
//     given to check) is not part of the path: the target is cut at the
//     first "#". A "#" that is data is written %23.
//   - An absolute-form target ("http://host:80/p?q", as proxies log it and
//     as check accepts) is cut to its path and query: a scheme of letters,
//     digits, "+", "-", "." followed by "://", then the authority up to the
//     first "/", "?" or "#".
//   - An empty path is "/", as for HTTP URIs (RFC 3986 §6.2.3), so
//     "http://host" and "http://host?q" are "/" and "/?q".
//
// Any other target that does not start with "/" (the "*" of OPTIONS, a
// relative reference) is compared as it is.
func trimTarget(t []byte) ([]byte, bool) {
	slash := false
	if len(t) > 0 && t[0] != '/' {
		if rest, ok := cutAbsolute(t); ok {
			t = rest
			slash = len(t) == 0 || t[0] != '/'
		}
	}
	if i := bytes.IndexByte(t, '#'); i >= 0 {
		t = t[:i]
	}
	if len(t) == 0 {
		slash = true
	}
	return t, slash
}

// cutAbsolute returns the path, query and fragment of an absolute URL.
func cutAbsolute(t []byte) ([]byte, bool) {
	i := 0
	for i < len(t) {
		c := t[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			i++
			continue
		}
		break
	}
	if i == 0 || len(t)-i < 3 || t[i] != ':' || t[i+1] != '/' || t[i+2] != '/' {
		return nil, false
	}
	rest := t[i+3:]
	for j := 0; j < len(rest); j++ {
		switch rest[j] {
		case '/', '?', '#':
			return rest[j:], true
		}
	}
	return rest[len(rest):], true
}
