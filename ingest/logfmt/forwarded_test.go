package logfmt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Row.ForwardedFor, format by format: the X-Forwarded-For field is kept
// whole where a layout or a key names it, and nowhere else.

func TestForwardedForCustomApache(t *testing.T) {
	const ua = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	const pre = `157.55.39.146 - - [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 200 431 "-" "` + ua + `"`
	base := view{Time: "2026-10-25T01:30:00Z", Client: "157.55.39.146", Method: "GET", Target: "/robots.txt", Proto: "HTTP/1.1", Status: 200, Bytes: 431, Agent: ua}
	ff := func(s string) view { v := base; v.FF = s; return v }
	// The layout of the brief: combined with the header appended, the
	// User-Agent's name in another case.
	f, err := NewCustom(`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i" "%{X-Forwarded-For}i"`)
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, f.New(), []parseCase{
		{"chain", pre + ` "203.0.113.7, 10.0.0.5"`, ff("203.0.113.7, 10.0.0.5"), nil},
		{"one address", pre + ` "203.0.113.7"`, ff("203.0.113.7"), nil},
		{"IPv6 and ports as logged", pre + ` "[2001:db8::7]:443, 10.0.0.5:8080"`, ff("[2001:db8::7]:443, 10.0.0.5:8080"), nil},
		{"dash", pre + ` "-"`, base, nil},
		{"empty", pre + ` ""`, base, nil},
		{"junk kept as logged", pre + ` "unknown, <script>"`, ff("unknown, <script>"), nil},
		{"escapes undone", pre + ` "203.0.113.7\x2C 10.0.0.5 \"x\""`, ff(`203.0.113.7, 10.0.0.5 "x"`), nil},
		{"invalid UTF-8 kept for the builder to repair", pre + " \"203.0.113.7\xff, 10.0.0.5\"", ff("203.0.113.7\xff, 10.0.0.5"), nil},
		{"CRLF", pre + ` "203.0.113.7"` + "\r", ff("203.0.113.7"), nil},
		{"absent: the layout asks for it", pre, view{}, ErrFieldCount},
		{"a field more", pre + ` "203.0.113.7" 0.012`, view{}, ErrFieldCount},
	})

	for _, layout := range []string{
		`%h %t "%r" %>s "%{x-forwarded-for}i"`,
		`%h %t "%r" %>s "%{X-FORWARDED-FOR}i"`,
		`%h %t "%r" %>s "%!200{X-Forwarded-For}i"`,
		`%h %t "%r" %>s %{X-Forwarded-For}i`, // unquoted, last: runs to the end of the line
	} {
		t.Run(layout, func(t *testing.T) {
			f, err := NewCustom(layout)
			if err != nil {
				t.Fatal(err)
			}
			q := `"`
			if !strings.HasSuffix(layout, `"`) {
				q = ""
			}
			want := view{Time: "2026-10-25T01:30:00Z", Client: "157.55.39.146", Method: "GET", Target: "/", Proto: "HTTP/1.1", Status: 200, Bytes: -1, FF: "203.0.113.7, 10.0.0.5"}
			runCases(t, f.New(), []parseCase{
				{"chain", `157.55.39.146 [25/Oct/2026:01:30:00 +0000] "GET / HTTP/1.1" 200 ` + q + `203.0.113.7, 10.0.0.5` + q, want, nil},
			})
		})
	}
}

func TestForwardedForCustomNginx(t *testing.T) {
	const pre = `5.255.253.1 [25/Oct/2026:01:30:00 +0000] "GET / HTTP/2.0" 200`
	base := view{Time: "2026-10-25T01:30:00Z", Client: "5.255.253.1", Method: "GET", Target: "/", Proto: "HTTP/2.0", Status: 200, Bytes: -1}
	ff := func(s string) view { v := base; v.FF = s; return v }
	for _, tc := range []struct {
		layout string
		cases  []parseCase
	}{
		{`$remote_addr [$time_local] "$request" $status "$http_x_forwarded_for"`, []parseCase{
			{"chain", pre + ` "203.0.113.7, 10.0.0.5"`, ff("203.0.113.7, 10.0.0.5"), nil},
			{"dash", pre + ` "-"`, base, nil},
			{"empty", pre + ` ""`, base, nil},
			{"escape=default \\xHH undone", pre + ` "203.0.113.7\x22"`, ff(`203.0.113.7"`), nil},
			{"invalid UTF-8 kept", pre + " \"\xc3(\"", ff("\xc3("), nil},
		}},
		{`$remote_addr [$time_local] "$request" $status "$proxy_add_x_forwarded_for"`, []parseCase{
			{"proxy_add: the header with the peer appended", pre + ` "203.0.113.7, 5.255.253.1"`, ff("203.0.113.7, 5.255.253.1"), nil},
		}},
		{`$remote_addr [$time_local] "$request" $status "$proxy_add_x_forwarded_for" "$http_x_forwarded_for"`, []parseCase{
			{"the header itself wins over proxy_add", pre + ` "203.0.113.7, 5.255.253.1" "203.0.113.7"`, ff("203.0.113.7"), nil},
			{"even when absent", pre + ` "5.255.253.1" "-"`, base, nil},
		}},
	} {
		t.Run(tc.layout, func(t *testing.T) {
			f, err := NewCustom(tc.layout)
			if err != nil {
				t.Fatal(err)
			}
			runCases(t, f.New(), tc.cases)
		})
	}
}

// The built-in CLF formats tolerate trailing fields and never read them:
// an appended X-Forwarded-For is not guessed.
func TestForwardedForNotGuessed(t *testing.T) {
	const line = `157.55.39.146 - - [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 200 431 "-" "curl/8.5.0" "203.0.113.7, 10.0.0.5"`
	for _, name := range []string{"combined", "common", "vhost_combined"} {
		l := line
		if name == "vhost_combined" {
			l = "www.example.com:443 " + l
		}
		var r Row
		if err := mustNew(t, name).Parse([]byte(l), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.ForwardedFor != nil {
			t.Errorf("%s: ForwardedFor %q from an unnamed trailing field", name, r.ForwardedFor)
		}
	}
}

// The combined fast path and the layout engine with the header named read
// the same request from the same lines; only the engine keeps the header.
func TestForwardedForSameAsCombined(t *testing.T) {
	fast := mustNew(t, "combined")
	f, err := NewCustom(layoutCombined + ` "%{X-Forwarded-For}i"`)
	if err != nil {
		t.Fatal(err)
	}
	engine := f.New()
	strict, err := NewCustom(layoutCombined) // no trailing fields
	if err != nil {
		t.Fatal(err)
	}
	plain := strict.New()
	chains := []string{"-", "203.0.113.7", "203.0.113.7, 10.0.0.5", "2001:db8::7, 10.0.0.5, 10.0.0.6", ""}
	n := 0
	for i, l := range combinedMix(2048) {
		if plain.Parse(l, &Row{}) == ErrFieldCount {
			continue // the mix's own trailing field
		}
		chain := chains[i%len(chains)]
		line := string(l) + ` "` + chain + `"`
		var a, b Row
		errA := fast.Parse([]byte(line), &a)
		errB := engine.Parse([]byte(line), &b)
		if errA != errB {
			t.Fatalf("%q: combined says %v, the layout %v", line, errA, errB)
		}
		if errA != nil {
			continue
		}
		n++
		want := chain
		if want == "-" {
			want = ""
		}
		if string(b.ForwardedFor) != want || a.ForwardedFor != nil {
			t.Fatalf("%q: ForwardedFor %q (layout), %q (combined), want %q and none", line, b.ForwardedFor, a.ForwardedFor, want)
		}
		b.ForwardedFor = nil
		if viewOf(&a) != viewOf(&b) {
			t.Fatalf("%q:\ncombined %+v\n  layout %+v", line, viewOf(&a), viewOf(&b))
		}
	}
	if n < 1000 {
		t.Errorf("only %d lines parsed", n)
	}
}

func TestForwardedForJSON(t *testing.T) {
	const req = `"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/"`
	base := xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}
	ff := func(s string) xRow { r := base; r.FF = s; return r }
	caddy := func(headers string) string {
		return `{"ts":1792891800,"request":{"remote_ip":"10.0.0.2","client_ip":"203.0.113.7","method":"GET","uri":"/","headers":{` + headers + `}},"status":200}`
	}
	caddyRow := xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/", Status: 200, Bytes: -1}
	caddyFF := func(s string) xRow { r := caddyRow; r.FF = s; return r }
	xRun(t, "jsonl", []xCase{
		{name: "nginx http_x_forwarded_for", line: `{` + req + `,"http_x_forwarded_for":"198.51.100.9, 10.0.0.5"}`, want: ff("198.51.100.9, 10.0.0.5")},
		{name: "nginx dash", line: `{` + req + `,"http_x_forwarded_for":"-"}`, want: base},
		{name: "empty", line: `{` + req + `,"http_x_forwarded_for":""}`, want: base},
		{name: "null", line: `{` + req + `,"http_x_forwarded_for":null}`, want: base},
		{name: "absent", line: `{` + req + `}`, want: base},
		{name: "x_forwarded_for", line: `{` + req + `,"x_forwarded_for":"198.51.100.9"}`, want: ff("198.51.100.9")},
		{name: "X-Forwarded-For", line: `{` + req + `,"X-Forwarded-For":"198.51.100.9"}`, want: ff("198.51.100.9")},
		{name: "x-forwarded-for", line: `{` + req + `,"x-forwarded-for":"198.51.100.9"}`, want: ff("198.51.100.9")},
		{name: "X-FORWARDED-FOR", line: `{` + req + `,"X-FORWARDED-FOR":"198.51.100.9"}`, want: ff("198.51.100.9")},
		{name: "escaped key", line: `{` + req + `,"x-forwarded-\u0046or":"198.51.100.9"}`, want: ff("198.51.100.9")},
		{name: "nested key of another name is not it", line: `{` + req + `,"app":{"x-forwarded-for":"198.51.100.9"}}`, want: base},
		{name: "http_x_forwarded_for wins over x_forwarded_for", line: `{` + req + `,"http_x_forwarded_for":"198.51.100.9","x_forwarded_for":"192.0.2.1"}`, want: ff("198.51.100.9")},
		{name: "proxy_add_x_forwarded_for", line: `{` + req + `,"proxy_add_x_forwarded_for":"198.51.100.9, 203.0.113.7"}`, want: ff("198.51.100.9, 203.0.113.7")},
		{name: "http_x_forwarded_for wins over proxy_add", line: `{` + req + `,"proxy_add_x_forwarded_for":"198.51.100.9, 203.0.113.7","http_x_forwarded_for":"198.51.100.9"}`, want: ff("198.51.100.9")},
		{name: "escapes decoded", line: `{` + req + `,"http_x_forwarded_for":"198.51.100.9,\u0020\"x\""}`, want: ff(`198.51.100.9, "x"`)},
		{name: "invalid UTF-8 kept for the builder to repair", line: `{` + req + ",\"http_x_forwarded_for\":\"198.51.100.9\xff\"}", want: ff("198.51.100.9\xff")},
		{name: "a number, as logged", line: `{` + req + `,"x_forwarded_for":42}`, want: ff("42")},
		{name: "an object is not a value", line: `{` + req + `,"x_forwarded_for":{"a":"198.51.100.9"}}`, want: base},

		{name: "Caddy one header line", line: caddy(`"User-Agent":["curl/8.5.0"],"X-Forwarded-For":["198.51.100.9, 10.0.0.5"]`),
			want: func() xRow { r := caddyFF("198.51.100.9, 10.0.0.5"); r.UserAgent = "curl/8.5.0"; return r }()},
		{name: "Caddy two header lines joined", line: caddy(`"X-Forwarded-For":["198.51.100.9", "10.0.0.5, 10.0.0.6"]`), want: caddyFF("198.51.100.9, 10.0.0.5, 10.0.0.6")},
		{name: "Caddy empty and dash elements skipped", line: caddy(`"X-Forwarded-For":["", "198.51.100.9", "-", "10.0.0.5", ""]`), want: caddyFF("198.51.100.9, 10.0.0.5")},
		{name: "Caddy escaped elements", line: caddy(`"X-Forwarded-For":["198.51.100.9\u002c 10.0.0.5", "\u002d", "10.0.0.6"]`), want: caddyFF("198.51.100.9, 10.0.0.5, 10.0.0.6")},
		{name: "Caddy lone escaped element", line: caddy(`"X-Forwarded-For":["\u0031.2.3.4"]`), want: caddyFF("1.2.3.4")},
		{name: "Caddy only a dash", line: caddy(`"X-Forwarded-For":["-"]`), want: caddyRow},
		{name: "Caddy empty array", line: caddy(`"X-Forwarded-For":[]`), want: caddyRow},
		{name: "Caddy non-strings ignored", line: caddy(`"X-Forwarded-For":[1, null, ["10.0.0.9"], {"a":"10.0.0.8"}, "198.51.100.9"]`), want: caddyFF("198.51.100.9")},
		{name: "Caddy without the header", line: caddy(`"User-Agent":["curl/8.5.0"]`),
			want: func() xRow { r := caddyRow; r.UserAgent = "curl/8.5.0"; return r }()},
		{name: "other headers' arrays still give their first element", line: caddy(`"User-Agent":["a", "b"],"X-Forwarded-For":["198.51.100.9", "10.0.0.5"]`),
			want: func() xRow { r := caddyFF("198.51.100.9, 10.0.0.5"); r.UserAgent = "a"; return r }()},

		{name: "Traefik: the client is the list's first, the header is whole",
			line: `{"ClientHost":"198.51.100.9, 10.0.0.50","RequestMethod":"GET","RequestPath":"/","StartUTC":"2026-10-25T01:30:00Z","request_X-Forwarded-For":"198.51.100.9, 10.0.0.50"}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "198.51.100.9", Method: "GET", Target: "/", Status: -1, Bytes: -1, FF: "198.51.100.9, 10.0.0.50"}},
	})
}

func TestForwardedForJSONMapping(t *testing.T) {
	m, err := ParseJSONMapping("forwarded_for=req.h.xff, client_ip=req.addr")
	if err != nil {
		t.Fatal(err)
	}
	if m["forwarded_for"] != "req.h.xff" {
		t.Fatalf("mapping %v", m)
	}
	f, err := NewJSON(m)
	if err != nil {
		t.Fatal(err)
	}
	const head = `{"time":"2026-10-25T01:30:00Z","uri":"/","req":{"addr":"203.0.113.7","h":{"xff":`
	base := xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}
	for _, tc := range []struct {
		name, line, want string
	}{
		{"string", head + `"198.51.100.9, 10.0.0.5"}}}`, "198.51.100.9, 10.0.0.5"},
		{"array", head + `["198.51.100.9", "10.0.0.5"]}}}`, "198.51.100.9, 10.0.0.5"},
		{"dash", head + `"-"}}}`, ""},
		{"mapped key wins over an automatic one", head + `"198.51.100.9"}},"http_x_forwarded_for":"192.0.2.1"}`, "198.51.100.9"},
		{"automatic keys still apply", `{"time":"2026-10-25T01:30:00Z","uri":"/","req":{"addr":"203.0.113.7"},"X-Forwarded-For":"192.0.2.1"}`, "192.0.2.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Row
			if err := f.New().Parse([]byte(tc.line), &r); err != nil {
				t.Fatal(err)
			}
			want := base
			want.FF = tc.want
			if got := xView(t, &r); got != want {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
		})
	}
	if _, err := ParseJSONMapping("forwarded_for=a,client_ip=a"); err == nil {
		t.Error("a key path mapped to two fields: want an error")
	}
}

func TestForwardedForW3C(t *testing.T) {
	const fields = "#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent) cs(X-Forwarded-For)"
	const pre = "2026-10-25 01:30:00 10.0.0.1 GET /p 200 curl/8.5.0 "
	base := xRow{Time: "2026-10-25T01:30:00Z", IP: "10.0.0.1", Method: "GET", Target: "/p", Status: 200, Bytes: -1, UserAgent: "curl/8.5.0"}
	ff := func(s string) xRow { r := base; r.FF = s; return r }
	hdr := []string{fields}
	xRun(t, "w3c", []xCase{
		{name: "cs(X-Forwarded-For)", prior: hdr, line: pre + "203.0.113.7", want: ff("203.0.113.7")},
		{name: "IIS '+' for space undone", prior: hdr, line: pre + "203.0.113.7,+10.0.0.5", want: ff("203.0.113.7, 10.0.0.5")},
		{name: "no space", prior: hdr, line: pre + "203.0.113.7,10.0.0.5", want: ff("203.0.113.7,10.0.0.5")},
		{name: "quoted", prior: hdr, line: pre + `"203.0.113.7, 10.0.0.5"`, want: ff("203.0.113.7, 10.0.0.5")},
		{name: "dash", prior: hdr, line: pre + "-", want: base},
		{name: "quoted empty", prior: hdr, line: pre + `""`, want: base},
		{name: "invalid UTF-8 kept", prior: hdr, line: pre + "203.0.113.7\xfe", want: ff("203.0.113.7\xfe")},
		{name: "IIS custom field named X-Forwarded-For",
			prior: []string{"#Fields: date time c-ip cs-method cs-uri-stem sc-status X-Forwarded-For"},
			line:  "2026-10-25 01:30:00 10.0.0.1 GET /p 200 203.0.113.7,+10.0.0.5",
			want:  xRow{Time: "2026-10-25T01:30:00Z", IP: "10.0.0.1", Method: "GET", Target: "/p", Status: 200, Bytes: -1, FF: "203.0.113.7, 10.0.0.5"}},
		{name: "IIS default layout has none",
			line: "2026-10-25 01:30:00 10.0.0.1 GET /p - 443 - 203.0.113.7 curl/8.5.0 - 200 0 0 15",
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/p", Status: 200, Bytes: -1, UserAgent: "curl/8.5.0"}},
	})
}

func TestForwardedForCloudFront(t *testing.T) {
	base := xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1",
		Proto: "HTTP/1.1", Status: 200, Bytes: 5120, Referer: "https://www.example.com/", UserAgent: bingUA}
	ff := func(s string) xRow { r := base; r.FF = s; return r }
	const xff = 19 // x-forwarded-for in the v1 layout
	xRun(t, "cloudfront", []xCase{
		{name: "v1 layout", line: cfLine(map[int]string{xff: "198.51.100.9"}), want: ff("198.51.100.9")},
		{name: "chain", line: cfLine(map[int]string{xff: "198.51.100.9,10.0.0.5"}), want: ff("198.51.100.9,10.0.0.5")},
		{name: "percent-encoded space", line: cfLine(map[int]string{xff: "198.51.100.9,%2010.0.0.5"}), want: ff("198.51.100.9, 10.0.0.5")},
		{name: "space as is", line: cfLine(map[int]string{xff: "198.51.100.9, 10.0.0.5"}), want: ff("198.51.100.9, 10.0.0.5")},
		{name: "dash", line: cfLine(nil), want: base},
		{name: "invalid UTF-8 kept", line: cfLine(map[int]string{xff: "198.51.100.9%FF"}), want: ff("198.51.100.9\xff")},
		{name: "#Fields header", prior: []string{cfFieldsDirective}, line: cfLine(map[int]string{xff: "198.51.100.9"}), want: ff("198.51.100.9")},
		{name: "v2 header in another order",
			prior: []string{"#Fields: date time x-forwarded-for c-ip cs-method x-host-header cs-uri-stem sc-status"},
			line:  strings.Join([]string{"2026-10-25", "01:30:00", "198.51.100.9", "203.0.113.7", "GET", "www.example.com", "/", "200"}, "\t"),
			want:  xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/", Status: 200, Bytes: -1, FF: "198.51.100.9"}},
		{name: "old 12-field line has none", line: strings.Join(cfFields[:12], "\t"),
			want: func() xRow { r := base; r.Host, r.Proto = "d111111abcdef8.cloudfront.net", ""; return r }()},
	})
}

// Filling ForwardedFor costs no allocation per line either.
func TestForwardedForDoesNotAllocate(t *testing.T) {
	custom, err := NewCustom(`$remote_addr [$time_local] "$request" $status "$http_x_forwarded_for"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		f     Format
		prior string
		line  string
	}{
		{"custom", custom, "", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] "GET / HTTP/2.0" 200 "203.0.113.7\x2C 10.0.0.5"`},
		{"jsonl", mustFormat(t, "jsonl"), "", `{"ts":1792891800,"request":{"client_ip":"203.0.113.7","uri":"/","headers":{"X-Forwarded-For":["198.51.100.9", "10.0.0.5"]}},"X-FORWARDED-FOR":"x"}`},
		{"w3c", mustFormat(t, "w3c"), "#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(X-Forwarded-For)", "2026-10-25 01:30:00 10.0.0.1 GET /p 200 203.0.113.7,+10.0.0.5"},
		{"cloudfront", mustFormat(t, "cloudfront"), "", cfLine(map[int]string{19: "198.51.100.9,%2010.0.0.5"})},
	} {
		p := tc.f.New()
		var r Row
		if tc.prior != "" {
			_ = p.Parse([]byte(tc.prior), &r)
		}
		line := []byte(tc.line)
		if err := p.Parse(line, &r); err != nil || r.ForwardedFor == nil {
			t.Fatalf("%s: %v, ForwardedFor %q", tc.name, err, r.ForwardedFor)
		}
		if n := testing.AllocsPerRun(100, func() { _ = p.Parse(line, &r) }); n != 0 {
			t.Errorf("%s: Parse allocates %.1f times per line, want 0", tc.name, n)
		}
	}
}

func mustFormat(t *testing.T, name string) Format {
	t.Helper()
	f, ok := Lookup(name)
	if !ok {
		t.Fatalf("format %q is not registered", name)
	}
	return f
}

// FuzzJSONForwardedFor holds the joining of an X-Forwarded-For array to
// encoding/json: any list of strings, written as Caddy writes its header
// lists, reads back as its elements that are neither "" nor "-", joined with
// ", ".
func FuzzJSONForwardedFor(f *testing.F) {
	f.Add("198.51.100.9", "10.0.0.5, 10.0.0.6", "-")
	f.Add("", "a\"b\\c", "\u00e9\x01")
	f.Add("\xff", "-", "")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		line, err := json.Marshal(map[string]any{
			"ts":      1792891800,
			"request": map[string]any{"client_ip": "203.0.113.7", "uri": "/", "headers": map[string]any{"X-Forwarded-For": []string{a, b, c}}},
		})
		if err != nil {
			t.Skip()
		}
		// What encoding/json reads back (invalid UTF-8 became U+FFFD).
		var back struct {
			Request struct {
				Headers map[string][]string `json:"headers"`
			} `json:"request"`
		}
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, s := range back.Request.Headers["X-Forwarded-For"] {
			if s != "" && s != "-" {
				want = append(want, s)
			}
		}
		var r Row
		if err := newJSONParser(jsonAuto).Parse(line, &r); err != nil {
			t.Fatalf("Parse(%s) = %v", line, err)
		}
		if got := string(r.ForwardedFor); got != strings.Join(want, ", ") || (r.ForwardedFor != nil) != (len(want) > 0) {
			t.Fatalf("Parse(%s): ForwardedFor %q, want %q", line, r.ForwardedFor, strings.Join(want, ", "))
		}
		if len(want) == 1 && !bytes.Contains(line, []byte(`\`)) && !aliases(line, r.ForwardedFor) {
			t.Errorf("Parse(%s): a lone element without escapes is copied", line)
		}
	})
}
