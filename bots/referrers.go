package bots

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// The referrer table (for crawl-to-refer): which operator's
// product a person came from, by the host of the Referer header or by the
// utm_source parameter of the URL they landed on. It is data with sources,
// referrers.json, each row with the URL it comes from.

//go:embed referrers.json
var builtinReferrers []byte

// Referrer is an operator's product that sends people to sites.
type Referrer struct {
	Operator string `json:"operator"` // as Bot.Operator writes it ("OpenAI")
	Product  string `json:"product"`  // "ChatGPT", "Google Search"
	// Kind is "ai-assistant" (an assistant's answer linked to the page) or
	// "search" (a search engine's results).
	Kind   string `json:"kind"`
	Source string `json:"source"` // the URL the row comes from
}

// referrerRow is one row of referrers.json.
type referrerRow struct {
	Host      string `json:"host"`
	UTMSource string `json:"utm_source"`
	Referrer
}

// referrerTable is referrers.json indexed for lookups that allocate
// nothing: exact hosts, hosts under a domain ("{}.bing.com"), and a domain
// under any top-level domain ("google.{}").
type referrerTable struct {
	rows    []Referrer
	exact   map[string]int // host -> row
	sub     map[string]int // domain whose subdomains match -> row
	anyTLD  map[string]int // host without its top-level domain -> row
	utm     map[string]int // utm_source value -> row
	entries []ReferrerEntry
}

var referrers = mustReferrers(builtinReferrers)

// mustReferrers parses the embedded table; a broken table is a build
// error, which TestReferrerTable reports before it could ship.
func mustReferrers(data []byte) *referrerTable {
	t, err := parseReferrers(data)
	if err != nil {
		panic(fmt.Sprintf("bots: referrers.json: %v", err))
	}
	return t
}

func parseReferrers(data []byte) (*referrerTable, error) {
	var doc struct {
		Hosts      []referrerRow `json:"hosts"`
		UTMSources []referrerRow `json:"utm_sources"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	t := &referrerTable{exact: map[string]int{}, sub: map[string]int{}, anyTLD: map[string]int{}, utm: map[string]int{}}
	add := func(m map[string]int, key string, r referrerRow) error {
		if r.Operator == "" || r.Product == "" || !strings.HasPrefix(r.Source, "https://") || r.Kind != "ai-assistant" && r.Kind != "search" {
			return fmt.Errorf("row %q: want operator, product, kind ai-assistant or search, and an https source", key)
		}
		if key == "" || key != strings.ToLower(key) || strings.ContainsAny(key, "/:?# ") {
			return fmt.Errorf("row %q: not a lower-case host or value", key)
		}
		if i, dup := m[key]; dup && t.rows[i] != r.Referrer {
			return fmt.Errorf("row %q: listed twice, for %s and %s", key, t.rows[i].Product, r.Product)
		}
		m[key] = len(t.rows)
		t.rows = append(t.rows, r.Referrer)
		return nil
	}
	for _, r := range doc.Hosts {
		var err error
		switch h := r.Host; {
		case strings.HasPrefix(h, "{}."):
			err = add(t.sub, h[3:], r)
		case strings.HasSuffix(h, ".{}"):
			err = add(t.anyTLD, h[:len(h)-3], r)
		default:
			err = add(t.exact, h, r)
		}
		if err != nil {
			return nil, err
		}
		t.entries = append(t.entries, ReferrerEntry{Host: r.Host, Referrer: r.Referrer})
	}
	for _, r := range doc.UTMSources {
		if err := add(t.utm, r.UTMSource, r); err != nil {
			return nil, err
		}
		t.entries = append(t.entries, ReferrerEntry{UTMSource: r.UTMSource, Referrer: r.Referrer})
	}
	return t, nil
}

// maxHost is the longest host name (RFC 1035 §2.3.4: 255 octets).
const maxHost = 255

// LookupReferrerHost returns the product whose host host is: case is
// ignored, a port and a final dot are dropped, and "www." in front of a
// listed host is the same host. The lookup allocates nothing.
func LookupReferrerHost(host string) (Referrer, bool) {
	return referrers.host(host)
}

func (t *referrerTable) host(host string) (Referrer, bool) {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host = host[:i]
	}
	host = strings.TrimSuffix(host, ".")
	if host == "" || len(host) > maxHost {
		return Referrer{}, false
	}
	var buf [maxHost]byte
	h := buf[:len(host)]
	for i := 0; i < len(host); i++ {
		h[i] = lowerByte(host[i])
	}
	if i, ok := t.exact[string(h)]; ok {
		return t.rows[i], true
	}
	if len(h) > 4 && string(h[:4]) == "www." {
		if i, ok := t.exact[string(h[4:])]; ok {
			return t.rows[i], true
		}
	}
	// A subdomain of a listed domain: try each parent domain, nearest first.
	for j := 0; j < len(h); j++ {
		if h[j] == '.' {
			if i, ok := t.sub[string(h[j+1:])]; ok {
				return t.rows[i], true
			}
		}
	}
	// A listed name under any top-level domain ("google.{}": google.de,
	// www.google.co.uk, google.com.au): the host without its last one or
	// two labels.
	for j := 0; j < len(h); j++ {
		if h[j] != '.' || !isTLD(h[j+1:]) {
			continue
		}
		if i, ok := t.anyTLD[string(h[:j])]; ok {
			return t.rows[i], true
		}
		if j > 4 && string(h[:4]) == "www." {
			if i, ok := t.anyTLD[string(h[4:j])]; ok {
				return t.rows[i], true
			}
		}
	}
	return Referrer{}, false
}

// isTLD reports whether s looks like a top-level domain as the table's
// ".{}" means it: one label ("de", "com"), or two whose first has at most
// three letters ("co.uk", "com.au").
func isTLD(s []byte) bool {
	dot := bytes.IndexByte(s, '.')
	if dot < 0 {
		return isLabel(s)
	}
	return dot <= 3 && isLabel(s[:dot]) && isLabel(s[dot+1:])
}

func isLabel(s []byte) bool {
	if len(s) == 0 || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// LookupReferer returns the product a Referer header value names: the
// host of an absolute URL ("https://www.perplexity.ai/search?q=x"), or of
// an Android app referrer ("android-app://com.google.android.googlequicksearchbox/").
// "-" and "" name none. The lookup allocates nothing.
func LookupReferer(referer string) (Referrer, bool) {
	return referrers.host(RefererHost(referer))
}

// RefererHost returns the host of a Referer header value, a substring of
// it, "" when it has none (not an absolute URL).
func RefererHost(referer string) string {
	i := strings.Index(referer, "://")
	if i <= 0 {
		return ""
	}
	rest := referer[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end >= 0 {
		rest = rest[:end]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	return rest
}

// LookupUTMSource returns the product that tags the links it sends people
// through with this utm_source value (OpenAI's ChatGPT writes
// utm_source=chatgpt.com). Case is ignored; the lookup allocates nothing.
func LookupUTMSource(value string) (Referrer, bool) {
	if value == "" || len(value) > maxHost {
		return Referrer{}, false
	}
	var buf [maxHost]byte
	v := buf[:len(value)]
	for i := 0; i < len(value); i++ {
		v[i] = lowerByte(value[i])
	}
	if i, ok := referrers.utm[string(v)]; ok {
		return referrers.rows[i], true
	}
	return Referrer{}, false
}

// UTMSource returns the value of the first utm_source parameter in the
// query of a request target ("/a?utm_source=chatgpt.com&x=1" gives
// "chatgpt.com"), a substring of it, not percent-decoded; "" when there is
// none.
func UTMSource(target string) string {
	q := strings.IndexByte(target, '?')
	if q < 0 {
		return ""
	}
	query := target[q+1:]
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query = query[:h]
	}
	for query != "" {
		param := query
		if amp := strings.IndexByte(query, '&'); amp >= 0 {
			param, query = query[:amp], query[amp+1:]
		} else {
			query = ""
		}
		if v, ok := strings.CutPrefix(param, "utm_source="); ok {
			return v
		}
	}
	return ""
}

// Referrers returns every row of the table, hosts first, then utm_source
// values, for reports and tests. The slice must not be modified.
func Referrers() []ReferrerEntry { return referrers.entries }

// ReferrerEntry is one row of the referrer table: a host pattern or a
// utm_source value, and the product.
type ReferrerEntry struct {
	Host      string // "chatgpt.com", "{}.bing.com", "google.{}"; "" for a utm_source row
	UTMSource string
	Referrer
}
