package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"time"
)

// The shapes parsed here are those that could be established: the
// Google shape (ParsePrefixes), Ahrefs' crawler API (ParseAhrefs) and
// ipverse's crawlers.json (ParseIPVerse). No machine-readable shape could
// be established for Amazon (Amazonbot, Amzn-SearchBot and Amzn-User
// addresses are HTML pages whose layout is not documented), Kagi (a web
// page), SE Ranking (a help-center article and a plain-text list, known
// only through ipverse), Meta and Yandex (which publish no list: ipverse
// derives one from their AS). There is no parser for them: their lists
// come from the ipverse history in the built-in snapshot, `ranges update`
// skips them, and --ranges files for them must be in the Google shape.

// Errors that a [ParseError] unwraps to.
var (
	// ErrSyntax: the file is not JSON, or not of the expected shape.
	ErrSyntax = errors.New("not a range list of this shape")
	// ErrPrefix: an entry does not hold a valid prefix of its family.
	ErrPrefix = errors.New("bad prefix")
	// ErrCreationTime: the creation time is missing or cannot be parsed.
	ErrCreationTime = errors.New("bad creation time")
)

// ParseError is the error of the parsers: the file (or URL) it was read
// from, the entry at fault when one is, and what is wrong.
type ParseError struct {
	File string // the name the caller gave the data
	// Entry locates the entry at fault in the document ("prefixes[3]",
	// "services.GPTBot.ipv4[0]"), "" when the fault is the whole file.
	Entry string
	Value string // the entry's value as written, when there is one
	Err   error  // wraps ErrSyntax, ErrPrefix or ErrCreationTime
}

// Error returns "file: entry "value": what is wrong".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Entry != "" {
		b.WriteString(": ")
		b.WriteString(e.Entry)
	}
	if e.Value != "" {
		fmt.Fprintf(&b, " %q", e.Value)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns Err, so that errors.Is finds ErrSyntax, ErrPrefix or
// ErrCreationTime.
func (e *ParseError) Unwrap() error { return e.Err }

// prefixEntry is one element of a "prefixes" array: exactly one of
// ipv4Prefix and ipv6Prefix.
type prefixEntry struct {
	IPv4 *string `json:"ipv4Prefix"`
	IPv6 *string `json:"ipv6Prefix"`
}

// ParsePrefixes parses the shape Google, Bing, OpenAI, Apple, Anthropic,
// Perplexity, Common Crawl and DuckDuckGo publish (Google documents it
// and its files are at hand verbatim; for the others the shape is known
// from copies of their files and from parsers of them, not from their own
// documentation, which links the file without describing it: see
// shape_from in sources.json):
//
//	{"creationTime": "2026-08-21T14:45:42.000000",
//	 "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}
//
// A creation time without a zone is UTC; one with a zone (RFC 3339) is
// taken as written. Other keys ("syncToken", "notes", …) are ignored; a key
// written twice in one object is an error. An empty prefix list parses (it
// vouches for no address), but LoadDir and Update refuse it as
// implausible. name is
// the file or URL the data came from, for the errors, which are
// *[ParseError].
func ParsePrefixes(name string, data []byte) (*List, error) {
	var doc struct {
		CreationTime *string        `json:"creationTime"`
		Prefixes     *[]prefixEntry `json:"prefixes"`
	}
	if err := unmarshal(data, &doc); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	if doc.CreationTime == nil {
		return nil, &ParseError{File: name, Entry: "creationTime", Err: fmt.Errorf("%w: missing", ErrCreationTime)}
	}
	created, err := parseCreationTime(*doc.CreationTime)
	if err != nil {
		return nil, &ParseError{File: name, Entry: "creationTime", Value: *doc.CreationTime, Err: err}
	}
	ps, err := prefixesOf(name, doc.Prefixes)
	if err != nil {
		return nil, err
	}
	return NewList(created, ps), nil
}

// ParseAhrefs parses the answers of Ahrefs' public crawler API, which carry
// no creation time (created is used instead: the file name's time, or the
// time of the download):
//
//	crawler-ip-ranges: {"prefixes": [{"ipv4Prefix": "5.39.1.224/27"}, ...]}
//	crawler-ips:       {"ips": [{"ip_address": "5.39.1.224"}, ...]}
//
// (the shapes of the OpenAPI description of https://api.ahrefs.com/v3/public).
// A bare address of crawler-ips is a /32 or /128 prefix. The errors are
// *[ParseError].
func ParseAhrefs(name string, data []byte, created time.Time) (*List, error) {
	var doc struct {
		Prefixes *[]prefixEntry `json:"prefixes"`
		IPs      *[]struct {
			IPAddress *string `json:"ip_address"`
		} `json:"ips"`
	}
	if err := unmarshal(data, &doc); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	if doc.Prefixes != nil {
		ps, err := prefixesOf(name, doc.Prefixes)
		if err != nil {
			return nil, err
		}
		return NewList(created, ps), nil
	}
	if doc.IPs == nil {
		return nil, &ParseError{File: name, Err: fmt.Errorf("%w: neither \"prefixes\" nor \"ips\"", ErrSyntax)}
	}
	ps := make([]netip.Prefix, 0, len(*doc.IPs))
	for i, e := range *doc.IPs {
		entry := fmt.Sprintf("ips[%d].ip_address", i)
		if e.IPAddress == nil {
			return nil, &ParseError{File: name, Entry: entry, Err: fmt.Errorf("%w: missing", ErrPrefix)}
		}
		p, err := parseAddrOrPrefix(*e.IPAddress)
		if err != nil {
			return nil, &ParseError{File: name, Entry: entry, Value: *e.IPAddress, Err: err}
		}
		ps = append(ps, p)
	}
	return NewList(created, ps), nil
}

// IPVerseService is one service of an ipverse crawlers.json file.
type IPVerseService struct {
	// Name is the service's key ("GPTBot", "Common Crawl").
	Name string
	// List holds the service's prefixes. Its Created is the service's
	// last_changed_at when the file has one, else the time of the file.
	List *List
	// Changed tells whether List.Created came from last_changed_at.
	Changed bool
	// Authoritative is ipverse's ip_list_authoritative: false for lists
	// derived from an operator's AS rather than published by it; nil when
	// the file does not say (the older shape).
	Authoritative *bool
	// SourceURL is where ipverse took the list from.
	SourceURL string
}

// ParseIPVerse parses the normalised multi-vendor crawlers.json of
// ipverse/bot-ip-blocks, in its current shape
//
//	{"services": {"<Name>": {"last_changed_at": "2026-08-20T17:36:54Z",
//	  "ip_list_authoritative": true, "ipv4": ["5.39.1.224/27"], "ipv6": [], ...}}}
//
// and its older shape {"providers": {...}} (without last_changed_at).
// fileTime, the time of the file (its name in the history), dates a
// service without last_changed_at. The services come sorted by name. The
// errors are *[ParseError].
func ParseIPVerse(name string, data []byte, fileTime time.Time) ([]IPVerseService, error) {
	type service struct {
		LastChangedAt *string   `json:"last_changed_at"`
		Authoritative *bool     `json:"ip_list_authoritative"`
		SourceURL     string    `json:"source_url"`
		IPv4          *[]string `json:"ipv4"`
		IPv6          *[]string `json:"ipv6"`
	}
	var doc struct {
		Services  map[string]*service `json:"services"`
		Providers map[string]*service `json:"providers"`
	}
	if err := unmarshal(data, &doc); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	key, m := "services", doc.Services
	if m == nil {
		key, m = "providers", doc.Providers
	}
	if m == nil {
		return nil, &ParseError{File: name, Err: fmt.Errorf("%w: neither \"services\" nor \"providers\"", ErrSyntax)}
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]IPVerseService, 0, len(names))
	for _, n := range names {
		s := m[n]
		at := key + "." + n
		if s == nil {
			return nil, &ParseError{File: name, Entry: at, Err: fmt.Errorf("%w: null service", ErrSyntax)}
		}
		if s.IPv4 == nil && s.IPv6 == nil {
			return nil, &ParseError{File: name, Entry: at, Err: fmt.Errorf("%w: neither \"ipv4\" nor \"ipv6\"", ErrSyntax)}
		}
		created, changed := fileTime, false
		if s.LastChangedAt != nil {
			t, err := parseCreationTime(*s.LastChangedAt)
			if err != nil {
				return nil, &ParseError{File: name, Entry: at + ".last_changed_at", Value: *s.LastChangedAt, Err: err}
			}
			created, changed = t, true
		}
		var ps []netip.Prefix
		for _, fam := range []struct {
			key  string
			list *[]string
			v4   bool
		}{{"ipv4", s.IPv4, true}, {"ipv6", s.IPv6, false}} {
			if fam.list == nil {
				continue
			}
			for i, v := range *fam.list {
				p, err := parseFamilyPrefix(v, fam.v4)
				if err != nil {
					return nil, &ParseError{File: name, Entry: fmt.Sprintf("%s.%s[%d]", at, fam.key, i), Value: v, Err: err}
				}
				ps = append(ps, p)
			}
		}
		out = append(out, IPVerseService{
			Name:          n,
			List:          NewList(created, ps),
			Changed:       changed,
			Authoritative: s.Authoritative,
			SourceURL:     s.SourceURL,
		})
	}
	return out, nil
}

// prefixesOf parses a "prefixes" array.
func prefixesOf(name string, entries *[]prefixEntry) ([]netip.Prefix, error) {
	if entries == nil {
		return nil, &ParseError{File: name, Entry: "prefixes", Err: fmt.Errorf("%w: missing", ErrSyntax)}
	}
	ps := make([]netip.Prefix, 0, len(*entries))
	for i, e := range *entries {
		entry := fmt.Sprintf("prefixes[%d]", i)
		var (
			v  string
			v4 bool
		)
		switch {
		case e.IPv4 != nil && e.IPv6 != nil:
			return nil, &ParseError{File: name, Entry: entry, Value: *e.IPv4, Err: fmt.Errorf("%w: both ipv4Prefix and ipv6Prefix", ErrPrefix)}
		case e.IPv4 != nil:
			v, v4 = *e.IPv4, true
			entry += ".ipv4Prefix"
		case e.IPv6 != nil:
			v = *e.IPv6
			entry += ".ipv6Prefix"
		default:
			return nil, &ParseError{File: name, Entry: entry, Err: fmt.Errorf("%w: neither ipv4Prefix nor ipv6Prefix", ErrPrefix)}
		}
		p, err := parseFamilyPrefix(v, v4)
		if err != nil {
			return nil, &ParseError{File: name, Entry: entry, Value: v, Err: err}
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// parseFamilyPrefix parses a CIDR prefix that must be of the given family.
// An IPv4-mapped IPv6 prefix is taken as the IPv4 prefix it maps (and is
// then an IPv4 prefix).
func parseFamilyPrefix(s string, v4 bool) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(strings.TrimSpace(s))
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("%w: %v", ErrPrefix, err)
	}
	if p.Addr().Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("%w: an address zone", ErrPrefix)
	}
	if p = canonicalPrefix(p); p.Addr().Is4() != v4 {
		want := "an IPv6"
		if v4 {
			want = "an IPv4"
		}
		return netip.Prefix{}, fmt.Errorf("%w: not %s prefix", ErrPrefix, want)
	}
	return p, nil
}

// parseAddrOrPrefix parses a prefix or a bare address (a /32 or /128).
func parseAddrOrPrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return netip.Prefix{}, fmt.Errorf("%w: %v", ErrPrefix, err)
		}
		return canonicalPrefix(p), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Prefix{}, fmt.Errorf("%w: not an address", ErrPrefix)
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// Layouts of creation times: Google's zone-less microseconds (UTC), and
// RFC 3339 with any fraction.
const zonelessLayout = "2006-01-02T15:04:05.999999999"

// parseCreationTime parses a creation time: RFC 3339 with a zone, or
// without one (then UTC).
func parseCreationTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	t, err := time.Parse(zonelessLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: want RFC 3339 or %s", ErrCreationTime, zonelessLayout)
	}
	return t, nil
}

// unmarshal decodes one JSON document (a leading UTF-8 byte order mark
// is allowed) in which no object holds a key twice; its errors wrap
// ErrSyntax.
func unmarshal(data []byte, v any) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	err := json.Unmarshal(data, v)
	if err == nil {
		return checkDuplicateKeys(data)
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("%w: %v (offset %d)", ErrSyntax, err, se.Offset)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the document"
		}
		return fmt.Errorf("%w: %s is a JSON %s, not a %s", ErrSyntax, field, te.Value, jsonKind(te.Type.Kind().String()))
	}
	return fmt.Errorf("%w: %v", ErrSyntax, err)
}

// jsonKind names a Go kind as the JSON value it decodes.
func jsonKind(k string) string {
	switch k {
	case "struct", "map", "ptr":
		return "object"
	case "slice":
		return "array"
	}
	return k
}
