package verify

import (
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
)

func prefixStrings(l *List) []string {
	var out []string
	for _, p := range l.Prefixes() {
		out = append(out, p.String())
	}
	return out
}

func TestParsePrefixes(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		created time.Time
		want    []string
		err     string // the error's text, when it fails
		is      error
	}{
		{
			name:    "Google_zoneless_UTC",
			data:    `{"creationTime": "2026-08-21T14:45:42.000000", "prefixes": [{"ipv6Prefix": "2001:4860:4801:10::/64"}, {"ipv4Prefix": "66.249.64.0/27"}]}`,
			created: time.Date(2026, 8, 21, 14, 45, 42, 0, time.UTC),
			want:    []string{"66.249.64.0/27", "2001:4860:4801:10::/64"},
		},
		{
			name:    "Google_microseconds",
			data:    `{"creationTime": "2021-11-10T10:00:00.698177", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}]}`,
			created: time.Date(2021, 11, 10, 10, 0, 0, 698177000, time.UTC),
			want:    []string{"66.249.64.0/27"},
		},
		{
			name:    "Bing_syncToken_and_extra_keys",
			data:    `{"syncToken": "1704276000121", "creationTime": "2024-01-03T10:00:00.121331", "notes": "x", "prefixes": [{"ipv4Prefix": "157.55.39.0/24", "region": "us"}]}`,
			created: time.Date(2024, 1, 3, 10, 0, 0, 121331000, time.UTC),
			want:    []string{"157.55.39.0/24"},
		},
		{
			name:    "OpenAI_synctoken_lower_case",
			data:    `{"synctoken": 1, "creationTime": "2023-11-30T11:51:00.000000", "prefixes": [{"ipv4Prefix": "52.230.152.0/24"}]}`,
			created: time.Date(2023, 11, 30, 11, 51, 0, 0, time.UTC),
			want:    []string{"52.230.152.0/24"},
		},
		{
			name:    "RFC3339_with_zone",
			data:    `{"creationTime": "2026-08-18T12:00:00+02:00", "prefixes": [{"ipv4Prefix": "216.73.216.0/22"}]}`,
			created: time.Date(2026, 8, 18, 10, 0, 0, 0, time.UTC),
			want:    []string{"216.73.216.0/22"},
		},
		{
			name:    "RFC3339_Z_no_fraction",
			data:    `{"creationTime": "2026-08-18T10:00:00Z", "prefixes": []}`,
			created: time.Date(2026, 8, 18, 10, 0, 0, 0, time.UTC),
		},
		{
			name:    "empty_list",
			data:    "\ufeff{\"creationTime\": \"2026-01-02T03:04:05\", \"prefixes\": []}\n",
			created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		},
		{
			name:    "host_bits_and_duplicates",
			data:    `{"creationTime": "2026-01-02T03:04:05", "prefixes": [{"ipv4Prefix": "66.249.64.7/27"}, {"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "::ffff:17.0.0.0/104"}]}`,
			created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			want:    []string{"17.0.0.0/8", "66.249.64.0/27"},
		},
		{
			name: "IPv4_mapped_under_ipv6Prefix",
			data: `{"creationTime": "2026-01-02T03:04:05", "prefixes": [{"ipv6Prefix": "::ffff:17.0.0.0/104"}]}`,
			err:  `f.json: prefixes[0].ipv6Prefix "::ffff:17.0.0.0/104": bad prefix: not an IPv6 prefix`,
			is:   ErrPrefix,
		},
		{
			name: "bad_prefix",
			data: `{"creationTime": "2026-01-02T03:04:05", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "66.249.64.0/33"}]}`,
			err:  `f.json: prefixes[1].ipv4Prefix "66.249.64.0/33": bad prefix: netip.ParsePrefix("66.249.64.0/33"): prefix length out of range`,
			is:   ErrPrefix,
		},
		{
			name: "IPv6_under_ipv4Prefix",
			data: `{"creationTime": "2026-01-02T03:04:05", "prefixes": [{"ipv4Prefix": "2001:db8::/32"}]}`,
			err:  `f.json: prefixes[0].ipv4Prefix "2001:db8::/32": bad prefix: not an IPv4 prefix`,
			is:   ErrPrefix,
		},
		{
			name: "entry_without_prefix",
			data: `{"creationTime": "2026-01-02T03:04:05", "prefixes": [{"ipv4Prefix": "1.2.3.0/24"}, {"service": "x"}]}`,
			err:  `f.json: prefixes[1]: bad prefix: neither ipv4Prefix nor ipv6Prefix`,
			is:   ErrPrefix,
		},
		{
			name: "entry_with_both",
			data: `{"creationTime": "2026-01-02T03:04:05", "prefixes": [{"ipv4Prefix": "1.2.3.0/24", "ipv6Prefix": "2001:db8::/32"}]}`,
			err:  `f.json: prefixes[0] "1.2.3.0/24": bad prefix: both ipv4Prefix and ipv6Prefix`,
			is:   ErrPrefix,
		},
		{
			name: "prefix_not_a_string",
			data: `{"creationTime": "2026-01-02T03:04:05", "prefixes": [{"ipv4Prefix": 17}]}`,
			err:  `f.json: not a range list of this shape: prefixes.ipv4Prefix is a JSON number, not a string`,
			is:   ErrSyntax,
		},
		{
			name: "missing_creation_time",
			data: `{"prefixes": [{"ipv4Prefix": "1.2.3.0/24"}]}`,
			err:  `f.json: creationTime: bad creation time: missing`,
			is:   ErrCreationTime,
		},
		{
			name: "unparseable_creation_time",
			data: `{"creationTime": "21 Aug 2026", "prefixes": []}`,
			err:  `f.json: creationTime "21 Aug 2026": bad creation time: want RFC 3339 or 2006-01-02T15:04:05.999999999`,
			is:   ErrCreationTime,
		},
		{
			name: "missing_prefixes",
			data: `{"creationTime": "2026-01-02T03:04:05"}`,
			err:  `f.json: prefixes: not a range list of this shape: missing`,
			is:   ErrSyntax,
		},
		{
			name: "malformed_JSON",
			data: `{"creationTime": "2026-01-02T03:04:05", "prefixes": [`,
			err:  `f.json: not a range list of this shape: unexpected end of JSON input (offset 53)`,
			is:   ErrSyntax,
		},
		{
			name: "HTML",
			data: `<!doctype html><title>Amazonbot</title>`,
			err:  `f.json: not a range list of this shape: invalid character '<' looking for beginning of value (offset 1)`,
			is:   ErrSyntax,
		},
		{
			name: "array",
			data: `["1.2.3.0/24"]`,
			err:  `f.json: not a range list of this shape: the document is a JSON array, not a object`,
			is:   ErrSyntax,
		},
		{
			name: "trailing_data",
			data: `{"creationTime": "2026-01-02T03:04:05", "prefixes": []} {}`,
			err:  `f.json: not a range list of this shape: invalid character '{' after top-level value (offset 57)`,
			is:   ErrSyntax,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ParsePrefixes("f.json", []byte(tc.data))
			if tc.err != "" {
				if err == nil {
					t.Fatalf("no error, want %q", tc.err)
				}
				if err.Error() != tc.err {
					t.Errorf("error\n got %q\nwant %q", err.Error(), tc.err)
				}
				if !errors.Is(err, tc.is) {
					t.Errorf("error %v is not %v", err, tc.is)
				}
				var pe *ParseError
				if !errors.As(err, &pe) || pe.File != "f.json" {
					t.Errorf("error %#v is not a *ParseError of f.json", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !l.Created.Equal(tc.created) || l.Created.Location() != time.UTC {
				t.Errorf("Created = %v, want %v", l.Created, tc.created)
			}
			if got := prefixStrings(l); !slices.Equal(got, tc.want) {
				t.Errorf("prefixes = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseAhrefs(t *testing.T) {
	created := time.Date(2026, 8, 20, 17, 36, 54, 0, time.UTC)
	tests := []struct {
		name string
		data string
		want []string
		err  string
	}{
		{"ranges", `{"prefixes": [{"ipv4Prefix": "5.39.1.224/27"}, {"ipv4Prefix": "5.39.109.160/27"}]}`, []string{"5.39.1.224/27", "5.39.109.160/27"}, ""},
		{"ips", `{"ips": [{"ip_address": "5.39.1.225"}, {"ip_address": "2a01:4f8::1"}, {"ip_address": "5.39.1.224/27"}]}`, []string{"5.39.1.224/27", "5.39.1.225/32", "2a01:4f8::1/128"}, ""},
		{"empty", `{"prefixes": []}`, nil, ""},
		{"bad_ip", `{"ips": [{"ip_address": "5.39.1.225"}, {"ip_address": "5.39.1"}]}`, nil, `ahrefs: ips[1].ip_address "5.39.1": bad prefix: not an address`},
		{"missing_ip", `{"ips": [{"ip": "5.39.1.225"}]}`, nil, `ahrefs: ips[0].ip_address: bad prefix: missing`},
		{"neither", `{"error": "rate limited"}`, nil, `ahrefs: not a range list of this shape: neither "prefixes" nor "ips"`},
		{"bad_prefix", `{"prefixes": [{"ipv4Prefix": "5.39.1.224/40"}]}`, nil, `ahrefs: prefixes[0].ipv4Prefix "5.39.1.224/40": bad prefix: netip.ParsePrefix("5.39.1.224/40"): prefix length out of range`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ParseAhrefs("ahrefs", []byte(tc.data), created)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !l.Created.Equal(created) {
				t.Errorf("Created = %v", l.Created)
			}
			if got := prefixStrings(l); !slices.Equal(got, tc.want) {
				t.Errorf("prefixes = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseIPVerse(t *testing.T) {
	fileTime := time.Date(2026, 4, 11, 16, 28, 41, 0, time.UTC)
	t.Run("services", func(t *testing.T) {
		data := `{"services": {
			"GPTBot": {"description": "d", "last_changed_at": "2026-04-12T05:29:11Z", "user_agent_patterns": ["*GPTBot*"],
			           "ip_list_authoritative": true, "ipv4": ["4.227.36.0/25"], "ipv6": []},
			"Yandex": {"last_changed_at": "2026-04-12T05:29:11Z", "ip_list_authoritative": false, "ipv4": ["5.45.192.0/18"], "ipv6": ["2a02:6b8::/29"]},
			"Empty": {"ipv4": [], "ipv6": []}}}`
		got, err := ParseIPVerse("crawlers.json", []byte(data), fileTime)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0].Name != "Empty" || got[1].Name != "GPTBot" || got[2].Name != "Yandex" {
			t.Fatalf("services %+v", got)
		}
		if e := got[0]; e.List.Len() != 0 || e.Changed || !e.List.Created.Equal(fileTime) || e.Authoritative != nil {
			t.Errorf("Empty = %+v", e)
		}
		g := got[1]
		if !g.Changed || !g.List.Created.Equal(time.Date(2026, 4, 12, 5, 29, 11, 0, time.UTC)) || *g.Authoritative != true ||
			!slices.Equal(prefixStrings(g.List), []string{"4.227.36.0/25"}) {
			t.Errorf("GPTBot = %+v", g)
		}
		if y := got[2]; *y.Authoritative || !slices.Equal(prefixStrings(y.List), []string{"5.45.192.0/18", "2a02:6b8::/29"}) {
			t.Errorf("Yandex = %+v", y)
		}
	})
	t.Run("providers", func(t *testing.T) {
		data := `{"providers": {"Bingbot": {"source_url": "https://www.bing.com/toolbox/bingbot.json", "ipv4": ["13.66.139.0/24"], "ipv6": []}}}`
		got, err := ParseIPVerse("old.json", []byte(data), fileTime)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Changed || !got[0].List.Created.Equal(fileTime) || got[0].SourceURL != "https://www.bing.com/toolbox/bingbot.json" {
			t.Fatalf("got %+v", got)
		}
	})
	for _, tc := range []struct{ name, data, err string }{
		{"bad_prefix", `{"services": {"A": {"ipv4": ["1.2.3.0/24"]}, "B": {"ipv4": ["1.2.3.0/24", "1.2.3"]}}}`, `x.json: services.B.ipv4[1] "1.2.3": bad prefix: netip.ParsePrefix("1.2.3"): no '/'`},
		{"v4_in_ipv6", `{"services": {"A": {"ipv6": ["1.2.3.0/24"]}}}`, `x.json: services.A.ipv6[0] "1.2.3.0/24": bad prefix: not an IPv6 prefix`},
		{"bad_time", `{"services": {"A": {"last_changed_at": "yesterday", "ipv4": []}}}`, `x.json: services.A.last_changed_at "yesterday": bad creation time: want RFC 3339 or 2006-01-02T15:04:05.999999999`},
		{"no_lists", `{"services": {"A": {"description": "x"}}}`, `x.json: services.A: not a range list of this shape: neither "ipv4" nor "ipv6"`},
		{"null_service", `{"providers": {"A": null}}`, `x.json: providers.A: not a range list of this shape: null service`},
		{"neither", `{"creationTime": "2026-01-01T00:00:00", "prefixes": []}`, `x.json: not a range list of this shape: neither "services" nor "providers"`},
		{"malformed", `{"services": {`, `x.json: not a range list of this shape: unexpected end of JSON input (offset 14)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseIPVerse("x.json", []byte(tc.data), fileTime)
			if err == nil || err.Error() != tc.err {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
}

func TestParseFile(t *testing.T) {
	if _, err := ParseFile(FormatAhrefs, "a", []byte(`{"prefixes": []}`), time.Time{}); !errors.Is(err, ErrCreationTime) {
		t.Errorf("ahrefs without a time: %v", err)
	}
	if _, err := ParseFile("csv", "a", nil, t0); err == nil || !strings.Contains(err.Error(), `unknown range list format "csv"`) {
		t.Errorf("unknown format: %v", err)
	}
	l, err := ParseFile("", "a", []byte(`{"creationTime": "2026-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "1.2.3.0/24"}]}`), time.Time{})
	if err != nil || l.Len() != 1 {
		t.Errorf("the default format: %v, %v", l, err)
	}
}

// checkParsed is the invariant of every parser: a list it returns is
// well-formed, and each of its prefixes is found by Lookup.
func checkParsed(t *testing.T, l *List, err error) {
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %T %v is not a *ParseError", err, err)
		}
		if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrPrefix) && !errors.Is(err, ErrCreationTime) {
			t.Fatalf("error %v wraps no sentinel", err)
		}
		return
	}
	ps := l.Prefixes()
	if !slices.IsSortedFunc(ps, comparePrefix) {
		t.Fatalf("prefixes not sorted: %v", ps)
	}
	for i, p := range ps {
		if p != canonicalPrefix(p) || (i > 0 && ps[i-1] == p) {
			t.Fatalf("prefix %v not canonical or repeated", p)
		}
		got, ok := l.Lookup(p.Addr())
		if !ok || got.Bits() < p.Bits() || !got.Contains(p.Addr()) {
			t.Fatalf("Lookup(%v) = %v, %v", p.Addr(), got, ok)
		}
		if want, _ := bruteLookup(ps, p.Addr()); got != want {
			t.Fatalf("Lookup(%v) = %v, brute force %v", p.Addr(), got, want)
		}
	}
}

func FuzzParsePrefixes(f *testing.F) {
	f.Add([]byte(`{"creationTime": "2026-08-21T14:45:42.000000", "prefixes": [{"ipv6Prefix": "2001:4860:4801:10::/64"}, {"ipv4Prefix": "66.249.64.0/27"}]}`))
	f.Add([]byte(`{"creationTime": "2026-08-18T12:00:00+02:00", "syncToken": "1", "prefixes": [{"ipv4Prefix": "10.0.0.0/8"}, {"ipv4Prefix": "10.1.0.0/16"}, {"ipv6Prefix": "::ffff:10.2.0.0/112"}]}`))
	f.Add([]byte(`{"creationTime": "x", "prefixes": []}`))
	f.Add([]byte(`{"prefixes": [{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParsePrefixes("fuzz", data)
		checkParsed(t, l, err)
	})
}

func FuzzParseAhrefs(f *testing.F) {
	f.Add([]byte(`{"prefixes": [{"ipv4Prefix": "5.39.1.224/27"}]}`))
	f.Add([]byte(`{"ips": [{"ip_address": "5.39.1.225"}, {"ip_address": "2a01:4f8::1"}]}`))
	f.Add([]byte(`{"ips": [{"ip_address": "::ffff:1.2.3.4"}, {"ip_address": "1.2.3.0/24"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseAhrefs("fuzz", data, t0)
		checkParsed(t, l, err)
	})
}

func FuzzParseIPVerse(f *testing.F) {
	f.Add([]byte(`{"services": {"GPTBot": {"last_changed_at": "2026-04-12T05:29:11Z", "ip_list_authoritative": true, "ipv4": ["4.227.36.0/25"], "ipv6": []}}}`))
	f.Add([]byte(`{"providers": {"Yandex": {"ipv4": ["5.45.192.0/18"], "ipv6": ["2a02:6b8::/29"]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		svcs, err := ParseIPVerse("fuzz", data, t0)
		if err != nil {
			checkParsed(t, nil, err)
			return
		}
		for _, s := range svcs {
			checkParsed(t, s.List, nil)
		}
	})
}

func TestParseErrorUnwrap(t *testing.T) {
	err := error(&ParseError{File: "f", Entry: "prefixes[0]", Value: "v", Err: ErrPrefix})
	if !errors.Is(err, ErrPrefix) || err.Error() != `f: prefixes[0] "v": bad prefix` {
		t.Fatal(err)
	}
	_ = netip.Prefix{}
}
