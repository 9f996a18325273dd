package logfmt

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// view is a Row with strings, for comparisons; absent fields are "".
type view struct {
	Time                                                string
	Host, Client, Method, Target, Proto, Referer, Agent string
	Status                                              int32
	Bytes                                               int64
	FF                                                  string // ForwardedFor
	Scheme, SigAgent, SigInput, Sig                     string // the signature columns
}

func viewOf(r *Row) view {
	return view{
		Time:     time.UnixMicro(r.Time).UTC().Format(time.RFC3339Nano),
		Host:     string(r.Host),
		Client:   string(r.ClientIP),
		Method:   string(r.Method),
		Target:   string(r.Target),
		Proto:    string(r.Protocol),
		Referer:  string(r.Referer),
		Agent:    string(r.UserAgent),
		Status:   r.Status,
		Bytes:    r.Bytes,
		FF:       string(r.ForwardedFor),
		Scheme:   string(r.Scheme),
		SigAgent: string(r.SignatureAgent),
		SigInput: string(r.SignatureInput),
		Sig:      string(r.Signature),
	}
}

// parseCase is one line of a table test: the row it gives, or the reason it
// is rejected with.
type parseCase struct {
	name string
	line string
	want view
	err  error
}

func runCases(t *testing.T, p Parser, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r Row
			err := p.Parse([]byte(tc.line), &r)
			if err != tc.err {
				t.Fatalf("Parse(%q) error = %v, want %v", tc.line, err, tc.err)
			}
			if err != nil {
				return
			}
			checkNoEmpty(t, &r)
			if got := viewOf(&r); got != tc.want {
				t.Errorf("Parse(%q)\n got %+v\nwant %+v", tc.line, got, tc.want)
			}
		})
	}
}

// checkNoEmpty checks that absent fields are nil, never empty non-nil.
func checkNoEmpty(t *testing.T, r *Row) {
	t.Helper()
	for name, b := range map[string][]byte{"Host": r.Host, "ClientIP": r.ClientIP, "Method": r.Method, "Target": r.Target, "Protocol": r.Protocol, "Referer": r.Referer, "UserAgent": r.UserAgent, "ForwardedFor": r.ForwardedFor, "Scheme": r.Scheme, "SignatureAgent": r.SignatureAgent, "SignatureInput": r.SignatureInput, "Signature": r.Signature} {
		if b != nil && len(b) == 0 {
			t.Errorf("%s is empty but not nil", name)
		}
	}
}

func mustNew(t testing.TB, name string) Parser {
	t.Helper()
	f, ok := Lookup(name)
	if !ok {
		t.Fatalf("format %q is not registered", name)
	}
	return f.New()
}

const (
	uaChrome    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/78.0.3904.108 Safari/537.36"
	uaGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

func TestCombined(t *testing.T) {
	base := view{Time: "2015-05-17T10:05:03Z", Client: "83.149.9.216", Method: "GET", Target: "/presentations/kibana-search.png", Proto: "HTTP/1.1", Status: 200, Bytes: 203023, Referer: "http://semicomplete.com/presentations/", Agent: uaChrome}
	with := func(f func(*view)) view { v := base; f(&v); return v }
	cases := []parseCase{
		{"plain", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, base, nil},
		{"offset converted to UTC", `83.149.9.216 - - [17/May/2015:12:05:03 +0200] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, base, nil},
		{"user and ident", `83.149.9.216 ident frank [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, base, nil},
		{"IPv6 client", `2001:db8::5 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Client = "2001:db8::5" }), nil},
		// RFC 3986 §3.2.2: an IPv6 address in brackets, with or without a
		// port, as proxies log it; the brackets and port are dropped.
		{"bracketed IPv6 client with a port", `[2001:db8::3]:443 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Client = "2001:db8::3" }), nil},
		{"bracketed IPv6 client", `[2001:db8::3] - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Client = "2001:db8::3" }), nil},
		// Shapes of an address that are none: passed on as logged, for the
		// stream layer to count and store as "": a client that is no
		// address is kept, never put on a block list.
		{"IPv4 client with a port", `1.2.3.4:8080 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Client = "1.2.3.4:8080" }), nil},
		{"IPv6 client with a zone", `fe80::1%eth0 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Client = "fe80::1%eth0" }), nil},
		{"IPv4 client octet over 255", `999.1.1.1 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Client = "999.1.1.1" }), nil},
		{"IPv4-mapped IPv6 client", `::ffff:83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Client = "::ffff:83.149.9.216" }), nil},
		{"trailing dash field (almhuette, zanbil)", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `" "-"`, base, nil},
		{"trailing X-Forwarded-For and request time", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `" "10.0.0.1, 10.0.0.2" 0.012`, base, nil},
		{"trailing fields after a tab", "83.149.9.216 - - [17/May/2015:10:05:03 +0000] \"GET /presentations/kibana-search.png HTTP/1.1\" 200 203023 \"http://semicomplete.com/presentations/\" \"" + uaChrome + "\"\t1234", base, nil},
		{"CRLF line end", "83.149.9.216 - - [17/May/2015:10:05:03 +0000] \"GET /presentations/kibana-search.png HTTP/1.1\" 200 203023 \"http://semicomplete.com/presentations/\" \"" + uaChrome + "\"\r", base, nil},
		{"dashes for referer, agent and bytes", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 - "-" "-"`, with(func(v *view) { v.Referer, v.Agent, v.Bytes = "", "", 0 }), nil},
		{"empty referer and agent", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "" ""`, with(func(v *view) { v.Referer, v.Agent = "", "" }), nil},
		{"Apache escaped quotes in agent", `52.143.180.25 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "}__test|O:21:\"JDatabaseDriverMysqli\":3:{s:2:\"fc\";} \\ end"`, with(func(v *view) {
			v.Client = "52.143.180.25"
			v.Agent = `}__test|O:21:"JDatabaseDriverMysqli":3:{s:2:"fc";} \ end`
		}), nil},
		{"nginx \\xHH escapes in agent", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "say \x22hi\x22 \xD0\x9F\x5C"`, with(func(v *view) { v.Agent = "say \"hi\" \u041f\\" }), nil},
		{"escaped quote in target", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /a\"b HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Target = `/a"b` }), nil},
		{"escaped quote before the closing quote", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "x\""`, with(func(v *view) { v.Agent = `x"` }), nil},
		{"escaped quote in referer", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://x/\"a\" b" "` + uaChrome + `"`, with(func(v *view) { v.Referer = `http://x/"a" b` }), nil},
		{"escaped quotes and backslashes everywhere", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /a\"\\ HTTP/1.1" 200 203023 "\\\"" "a\\\" \"b\\"`, with(func(v *view) { v.Target, v.Referer, v.Agent = `/a"\`, `\"`, `a\" "b\` }), nil},
		{"nginx \\x22 in every quoted field", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /a\x22 HTTP/1.1" 200 203023 "\x22" "\x22Cla\x22"`, with(func(v *view) { v.Target, v.Referer, v.Agent = `/a"`, `"`, `"Cla"` }), nil},
		{"escaped backslash before the closing quote", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "x\\"`, with(func(v *view) { v.Agent = `x\` }), nil},
		{"junk after the agent is a trailing field", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "ua" x"y`, with(func(v *view) { v.Agent = "ua" }), nil},
		{"unescaped quotes inside agent", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "Mozilla "evil"x"`, with(func(v *view) { v.Agent = `Mozilla "evil"x` }), nil},
		{"HTTP/0.9 request without protocol", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Proto = "" }), nil},
		{"HTTP/2.0 and percent-encoded target", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /filter/27|13%20%D9%85?a=%2F HTTP/2.0" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Target, v.Proto = "/filter/27|13%20%D9%85?a=%2F", "HTTP/2.0" }), nil},
		{"space inside target", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /a b HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Target = "/a b" }), nil},
		{"CONNECT authority target", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "CONNECT example.com:443 HTTP/1.1" 405 0 "-" "-"`, view{Time: base.Time, Client: base.Client, Method: "CONNECT", Target: "example.com:443", Proto: "HTTP/1.1", Status: 405, Bytes: 0}, nil},
		{"proxy absolute-form target", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET http://example.com/x HTTP/1.1" 404 0 "-" "-"`, view{Time: base.Time, Client: base.Client, Method: "GET", Target: "http://example.com/x", Proto: "HTTP/1.1", Status: 404, Bytes: 0}, nil},
		{"WebDAV method", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "PROPFIND /dav/ HTTP/1.1" 207 10 "-" "-"`, view{Time: base.Time, Client: base.Client, Method: "PROPFIND", Target: "/dav/", Proto: "HTTP/1.1", Status: 207, Bytes: 10}, nil},
		{"time without offset is UTC", `83.149.9.216 - - [17/May/2015:10:05:03] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, base, nil},
		{"client host name (HostnameLookups on)", `crawl-66-249-66-1.googlebot.com - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `"`, with(func(v *view) { v.Client = "crawl-66-249-66-1.googlebot.com" }), nil},
		{"status 499 (nginx client closed)", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 499 0 "-" "-"`, view{Time: base.Time, Client: base.Client, Method: "GET", Target: base.Target, Proto: "HTTP/1.1", Status: 499, Bytes: 0}, nil},

		// Rejected lines.
		{"dash request line (no request sent)", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "-" 400 0 "-" "-"`, view{}, ErrBadRequestLine},
		{"TLS handshake on plain port", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" 400 226 "-" "-"`, view{}, ErrBadRequestLine},
		{"raw binary request", "83.149.9.216 - - [17/May/2015:10:05:03 +0000] \"\x16\x03\x01\xfc\x01 \" 400 0 \"-\" \"-\"", view{}, ErrBadRequestLine},
		{"method only", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET" 400 0 "-" "-"`, view{}, ErrBadRequestLine},
		{"method and protocol, no target", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET  HTTP/1.1" 400 0 "-" "-"`, view{}, ErrBadRequestLine},
		{"empty request", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "" 408 0 "-" "-"`, view{}, ErrBadRequestLine},
		{"bad date", `83.149.9.216 - - [32/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 1 "-" "-"`, view{}, ErrBadTimestamp},
		{"bad month", `83.149.9.216 - - [17/Mai/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 1 "-" "-"`, view{}, ErrBadTimestamp},
		{"bad offset", `83.149.9.216 - - [17/May/2015:10:05:03 +00] "GET / HTTP/1.1" 200 1 "-" "-"`, view{}, ErrBadTimestamp},
		{"bad status", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 2x0 1 "-" "-"`, view{}, ErrBadStatus},
		{"status too long", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 2000 1 "-" "-"`, view{}, ErrBadStatus},
		{"bad bytes", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 12k "-" "-"`, view{}, ErrBadBytes},
		{"bytes overflow", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 99999999999999999999 "-" "-"`, view{}, ErrBadBytes},
		{"bad client", `<script> - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 1 "-" "-"`, view{}, ErrBadClientIP},
		{"dash client", `- - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 1 "-" "-"`, view{}, ErrBadClientIP},
		{"missing ident field (crowdsec nginx sample)", `192.168.1.1 - [08/Jun/2020:08:04:43 +0000] "GET /api/test HTTP/1.1" 200 100 "-" "curl/7.68.0"`, view{}, ErrFieldCount},
		{"common line", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513`, view{}, ErrFieldCount},
		{"referer only", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "-"`, view{}, ErrFieldCount},
		{"truncated inside time", `116.203.1.1 - - [05/Mar/2021:09:01`, view{}, ErrFieldCount},
		{"cut after status (neither common nor combined)", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200`, view{}, ErrFieldCount},
		{"cut after the referer's closing quote", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "-" `, view{}, ErrFieldCount},

		// Lines cut inside a quoted field (a log rotated or a disk filled
		// mid-write): never a request.
		{"truncated inside request", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip`, view{}, ErrTruncatedLine},
		{"truncated right after the request's opening quote", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "`, view{}, ErrTruncatedLine},
		{"truncated inside request after an escaped quote", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /a\"b HTTP/1.`, view{}, ErrTruncatedLine},
		{"truncated inside referer", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/pres`, view{}, ErrTruncatedLine},
		{"truncated inside agent: the cut bot Cla", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 203023 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Cla`, view{}, ErrTruncatedLine},
		{"truncated right after the agent's opening quote", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 203023 "-" "`, view{}, ErrTruncatedLine},
		{"agent truncated without closing quote (semicomplete line 8899)", `46.118.127.106 - - [20/May/2015:12:05:17 +0000] "GET /scripts/grok-py-test/configlib.py HTTP/1.1" 200 235 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html`, view{}, ErrTruncatedLine},
		{"truncated inside agent after Apache escaped quotes", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 203023 "-" "say \"hi\" (compatible; Cla`, view{}, ErrTruncatedLine},
		{"truncated inside agent ending with an escaped quote", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 203023 "-" "say \"`, view{}, ErrTruncatedLine},
		{"truncated inside agent ending with a backslash", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 203023 "-" "say \`, view{}, ErrTruncatedLine},
		{"truncated inside agent after nginx \\x22 escapes", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 203023 "-" "say \x22hi\x22 (compatible; Cla`, view{}, ErrTruncatedLine},
		{"truncated inside agent after an unescaped inner quote", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 203023 "-" "Mozilla "evil"x (compatible; Cla`, view{}, ErrTruncatedLine},
		{"junk glued to the agent's closing quote", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 203023 "-" "curl/8.0"x`, view{}, ErrTruncatedLine},
		{"truncated inside a quoted trailing field", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `" "10.0.0.1, 10.0`, view{}, ErrTruncatedLine},
		{"truncated right after a trailing field's opening quote", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "` + uaChrome + `" 0.012 "`, view{}, ErrTruncatedLine},
		{"CRLF after a cut agent", "83.149.9.216 - - [17/May/2015:10:05:03 +0000] \"GET /private/ HTTP/1.1\" 200 203023 \"-\" \"Mozilla/5.0 (compatible; Cla\r", view{}, ErrTruncatedLine},
		{"vhost line in a combined file", `www.crowdsec.net 1.2.3.4 - - [08/Jun/2020:08:04:43 +0000] "GET /solr/ HTTP/1.1" 500 803 "-" "` + uaChrome + `"`, view{}, ErrSyntax},
		{"no space before time", `83.149.9.216 - -[17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 1 "-" "-"`, view{}, ErrFieldCount},
		{"no space after time", `83.149.9.216 - - [17/May/2015:10:05:03 +0000]"GET / HTTP/1.1" 200 1 "-" "-"`, view{}, ErrFieldCount},
		{"junk instead of status", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" x 200 1 "-" "-"`, view{}, ErrBadStatus},
		{"target looks like a protocol", `83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET HTTP/1.1" 400 0 "-" "-"`, view{}, ErrBadRequestLine},
		{"Apache error log line", `[Thu Oct 13 12:24:49.880562 2022] [auth_basic:error] [pid 10:tid 140120579262208] [client 31.33.58.75:50229] AH01618: user sss not found: /`, view{}, ErrNotThisFormat},
		{"nginx error log line", `2021/12/01 13:53:33 [error] 31#31: *46 "/usr/share/nginx/html/market/index.html" is not found (2: No such file or directory), client: 172.17.0.1, server: localhost, request: "GET /market/ HTTP/1.1", host: "localhost"`, view{}, ErrNotThisFormat},
		{"JSON line", `{"time":"2026-10-25T01:30:00Z","remote_addr":"1.2.3.4","request":"GET / HTTP/1.1","status":200}`, view{}, ErrNotThisFormat},
		{"empty line", ``, view{}, ErrNotThisFormat},
	}
	runCases(t, mustNew(t, "combined"), cases)
}

// TestTimeCache checks that the parser's cache of the last time string never
// answers for a different or empty one.
func TestTimeCache(t *testing.T) {
	p := mustNew(t, "common")
	var r Row
	for _, tc := range []struct {
		line string
		want string
		err  error
	}{
		{`1.2.3.4 - - [] "GET / HTTP/1.0" 200 1`, "", ErrNotThisFormat}, // no CLF date anywhere
		{`1.2.3.4 - - [05/Mar/2021:09:01:38 +0100] "GET / HTTP/1.0" 200 1`, "2021-03-05T08:01:38Z", nil},
		{`1.2.3.4 - - [05/Mar/2021:09:01:38 +0100] "GET / HTTP/1.0" 200 1`, "2021-03-05T08:01:38Z", nil},
		{`1.2.3.4 - - [05/Mar/2021:09:01:38 +0000] "GET / HTTP/1.0" 200 1`, "2021-03-05T09:01:38Z", nil},
		{`1.2.3.4 - - [] "GET / HTTP/1.0" 200 1`, "", ErrNotThisFormat}, // no CLF date anywhere
		{`1.2.3.4 - - [05/Mar/2021:09:01:38 +000x] "GET / HTTP/1.0" 200 1`, "", ErrBadTimestamp},
		{`1.2.3.4 - - [05/Mar/2021:09:01:38 +0000] "GET / HTTP/1.0" 200 1`, "2021-03-05T09:01:38Z", nil},
	} {
		err := p.Parse([]byte(tc.line), &r)
		if err != tc.err {
			t.Fatalf("Parse(%q) = %v, want %v", tc.line, err, tc.err)
		}
		if err == nil && viewOf(&r).Time != tc.want {
			t.Errorf("Parse(%q) time %s, want %s", tc.line, viewOf(&r).Time, tc.want)
		}
	}
}

func TestCommon(t *testing.T) {
	base := view{Time: "2021-03-05T08:01:38Z", Client: "116.203.1.1", Method: "GET", Target: "/test/lists/sip_30d.txt", Proto: "HTTP/1.0", Status: 200, Bytes: 1513}
	cases := []parseCase{
		{"plain", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513`, base, nil},
		{"Apache's example (httpd docs)", `127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326`, view{Time: "2000-10-10T20:55:36Z", Client: "127.0.0.1", Method: "GET", Target: "/apache_pb.gif", Proto: "HTTP/1.0", Status: 200, Bytes: 2326}, nil},
		{"combined line is common plus trailing fields", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "-" "curl/7.68.0"`, base, nil},
		{"request time appended", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 1532`, base, nil},
		{"dash bytes mean zero", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 304 -`, view{Time: base.Time, Client: base.Client, Method: "GET", Target: base.Target, Proto: "HTTP/1.0", Status: 304, Bytes: 0}, nil},
		{"dash request", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "-" 408 -`, view{}, ErrBadRequestLine},
		{"bytes glued to junk", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET / HTTP/1.0" 200 15x3`, view{}, ErrBadBytes},
		{"no bytes", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET / HTTP/1.0" 200`, view{}, ErrFieldCount},
		{"combined line cut after the bytes is a whole common line", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 `, base, nil},
		{"combined line cut after the referer", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "-"`, base, nil},
		{"escaped quote in request", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /a\"b\\ HTTP/1.0" 200 1513`, view{Time: base.Time, Client: base.Client, Method: "GET", Target: `/a"b\`, Proto: "HTTP/1.0", Status: 200, Bytes: 1513}, nil},
		{"truncated inside request", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip`, view{}, ErrTruncatedLine},
		{"truncated inside request after an escaped quote", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /a\" HTTP/1.0`, view{}, ErrTruncatedLine},
		{"truncated inside a trailing referer", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "https://exa`, view{}, ErrTruncatedLine},
		{"truncated inside a trailing agent: the cut bot Cla", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "-" "Mozilla/5.0 (compatible; Cla`, view{}, ErrTruncatedLine},
		{"truncated inside a trailing agent after escaped quotes", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "-" "say \"hi\" (compatible; Cla`, view{}, ErrTruncatedLine},
		{"trailing agent with escaped quotes", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "-" "say \"hi\" \\" 12`, base, nil},
		{"trailing agent with unescaped inner quotes", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 "-" "Mozilla "evil"x"`, base, nil},
		{"trailing key=\"value\" fields", `116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513 rt=0.012 ua="curl/8.0" x"y`, base, nil},
	}
	runCases(t, mustNew(t, "common"), cases)
}

func TestVhostCombined(t *testing.T) {
	base := view{Time: "2021-10-25T09:05:52Z", Host: "website.com", Client: "1.2.3.4", Method: "GET", Target: "/web/.well-known", Proto: "HTTP/1.1", Status: 403, Bytes: 6963, Referer: "abc.com", Agent: "User-agent-string"}
	with := func(f func(*view)) view { v := base; f(&v); return v }
	cases := []parseCase{
		{"host and port (crowdsec sample)", `website.com:443 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc.com" "User-agent-string"`, base, nil},
		{"host without port", `website.com 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc.com" "User-agent-string"`, base, nil},
		{"IPv6 client, bracketed IPv6 host", `[2001:db8::1]:8080 2001:db8::5 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc.com" "User-agent-string"`, with(func(v *view) { v.Host, v.Client = "[2001:db8::1]", "2001:db8::5" }), nil},
		{"trailing fields", `website.com:80 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc.com" "User-agent-string" 1234 "-"`, base, nil},
		{"Debian default with %O", `www.example.org:80 66.249.66.1 - - [25/Oct/2021:11:05:52 +0200] "GET /robots.txt HTTP/1.1" 200 431 "-" "` + uaGooglebot + `"`, view{Time: base.Time, Host: "www.example.org", Client: "66.249.66.1", Method: "GET", Target: "/robots.txt", Proto: "HTTP/1.1", Status: 200, Bytes: 431, Agent: uaGooglebot}, nil},
		{"combined line", `192.168.1.1 - - [08/Jun/2020:08:04:43 +0000] "GET /solr/ HTTP/1.1" 500 803 "-" "curl/7.68.0"`, view{}, ErrBadClientIP},
		{"combined line with a user", `192.168.1.1 - frank [08/Jun/2020:08:04:43 +0000] "GET /solr/ HTTP/1.1" 500 803 "-" "curl/7.68.0"`, view{}, ErrBadClientIP},
		{"nginx error log line", `2021/12/01 13:53:33 [error] 31#31: *46 open() failed, client: 172.17.0.1`, view{}, ErrNotThisFormat},
		{"escaped quotes in referer and agent", `website.com:443 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc\".com" "User-agent-\"string\""`, with(func(v *view) { v.Referer, v.Agent = `abc".com`, `User-agent-"string"` }), nil},
		{"truncated inside request", `website.com:443 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-kn`, view{}, ErrTruncatedLine},
		{"truncated inside referer", `website.com:443 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc.c`, view{}, ErrTruncatedLine},
		{"truncated inside agent: the cut bot Cla", `website.com:443 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc.com" "Mozilla/5.0 (compatible; Cla`, view{}, ErrTruncatedLine},
		{"truncated inside a trailing field", `website.com:443 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc.com" "User-agent-string" 1234 "10.0.`, view{}, ErrTruncatedLine},
	}
	runCases(t, mustNew(t, "vhost_combined"), cases)
}

// TestCLFFamilySameRequest writes one request in every format of this file
// and checks that each gives the same Row, up to the fields the format does
// not log.
func TestCLFFamilySameRequest(t *testing.T) {
	const ua = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)"
	full := view{Time: "2026-10-25T01:30:00.25Z", Host: "example.com", Client: "2001:db8::7", Method: "GET", Target: "/private/x?q=1&r=%2F", Proto: "HTTP/1.1", Status: 200, Bytes: 512, Referer: "https://example.com/", Agent: ua}
	secs := full
	secs.Time = "2026-10-25T01:30:00Z"
	custom := func(layout string) Parser {
		f, err := NewCustom(layout)
		if err != nil {
			t.Fatal(err)
		}
		return f.New()
	}
	cases := []struct {
		name string
		p    Parser
		line string
		want view
		drop string // fields the format does not log
	}{
		{"vhost_combined", mustNew(t, "vhost_combined"), `example.com:443 2001:db8::7 - - [25/Oct/2026:02:30:00 +0100] "GET /private/x?q=1&r=%2F HTTP/1.1" 200 512 "https://example.com/" "` + ua + `"`, secs, ""},
		{"combined", mustNew(t, "combined"), `2001:db8::7 - - [25/Oct/2026:02:30:00 +0100] "GET /private/x?q=1&r=%2F HTTP/1.1" 200 512 "https://example.com/" "` + ua + `"`, secs, "host"},
		{"common", mustNew(t, "common"), `2001:db8::7 - - [25/Oct/2026:02:30:00 +0100] "GET /private/x?q=1&r=%2F HTTP/1.1" 200 512`, secs, "host referer agent"},
		{"traefik", mustNew(t, "traefik"), `2001:db8::7 - - [25/Oct/2026:01:30:00 +0000] "GET /private/x?q=1&r=%2F HTTP/1.1" 200 512 "https://example.com/" "` + ua + `" 17 "web@docker" "http://172.17.0.3:80" 3ms`, secs, "host"},
		{"haproxy", mustNew(t, "haproxy"), `Oct 25 01:30:00 lb haproxy[7]: 2001:db8::7:53332 [25/Oct/2026:01:30:00.250] www~ be/s1 0/0/1/2/3 200 512 - - ---- 1/1/0/0/0 0/0 {example.com|https://example.com/|` + ua + `} {} "GET /private/x?q=1&r=%2F HTTP/1.1"`, full, ""},
		{"apache custom ISO time", custom(`%V %a %l %u %{%Y-%m-%dT%H:%M:%S}t.%{msec_frac}t%{%z}t "%r" %>s %B "%{Referer}i" "%{User-Agent}i" %D`), `example.com 2001:db8::7 - - 2026-10-25T02:30:00.250+0100 "GET /private/x?q=1&r=%2F HTTP/1.1" 200 512 "https://example.com/" "` + ua + `" 1234`, full, ""},
		{"apache custom split request", custom(`%v %h %{msec}t "%m %U%q %H" %s %b "%{Referer}i" "%{User-agent}i"`), `example.com 2001:db8::7 1792891800250 "GET /private/x?q=1&r=%2F HTTP/1.1" 200 512 "https://example.com/" "` + ua + `"`, full, ""},
		{"nginx main", custom(`log_format main '$remote_addr - $remote_user [$time_local] "$request" ' '$status $body_bytes_sent "$http_referer" ' '"$http_user_agent" "$http_x_forwarded_for" $host';`), `2001:db8::7 - - [25/Oct/2026:02:30:00 +0100] "GET /private/x?q=1&r=%2F HTTP/1.1" 200 512 "https://example.com/" "` + ua + `" "-" example.com`, secs, ""},
		{"nginx split request, msec", custom(`$msec $host $remote_addr "$request_method $uri$is_args$args $server_protocol" $status $bytes_sent "$http_referer" "$http_user_agent"`), `1792891800.250 example.com 2001:db8::7 "GET /private/x?q=1&r=%2F HTTP/1.1" 200 512 "https://example.com/" "` + ua + `"`, full, ""},
		{"nginx uri?args, ISO time", custom(`$time_iso8601 $http_host $remote_addr $request_method $uri?$args $server_protocol $status $body_bytes_sent "$http_referer" "$http_user_agent"`), `2026-10-25T02:30:00+01:00 example.com:443 2001:db8::7 GET /private/x?q=1&r=%2F HTTP/1.1 200 512 "https://example.com/" "` + ua + `"`, view{Time: secs.Time, Host: "example.com:443", Client: secs.Client, Method: "GET", Target: secs.Target, Proto: "HTTP/1.1", Status: 200, Bytes: 512, Referer: secs.Referer, Agent: ua}, ""},
		{"nginx JSON-like layout", custom(`{"time":"$time_iso8601","host":"$host","ip":"$remote_addr","request":"$request","status":$status,"bytes":$body_bytes_sent,"ref":"$http_referer","ua":"$http_user_agent"}`), `{"time":"2026-10-25T01:30:00+00:00","host":"example.com","ip":"2001:db8::7","request":"GET /private/x?q=1&r=%2F HTTP/1.1","status":200,"bytes":512,"ref":"https://example.com/","ua":"` + ua + `"}`, secs, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r Row
			if err := tc.p.Parse([]byte(tc.line), &r); err != nil {
				t.Fatalf("Parse(%q): %v", tc.line, err)
			}
			want := tc.want
			for _, d := range strings.Fields(tc.drop) {
				switch d {
				case "host":
					want.Host = ""
				case "referer":
					want.Referer = ""
				case "agent":
					want.Agent = ""
				}
			}
			if got := viewOf(&r); got != want {
				t.Errorf("\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// readLines returns the lines of a plain or gzip file.
func readLines(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = gz
	}
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// tally parses every non-empty line of a file and returns the reasons of
// rejected lines by 1-based line number, logging the counts.
func tally(t *testing.T, format string, p Parser, path string) (parsed int, rejected map[int]error) {
	t.Helper()
	rejected = map[int]error{}
	counts := map[string]int{}
	var r Row
	for i, line := range readLines(t, path) {
		if line == "" {
			continue
		}
		if err := p.Parse([]byte(line), &r); err != nil {
			if _, ok := err.(Reason); !ok {
				t.Errorf("%s:%d: error %v is not a Reason", path, i+1, err)
			}
			rejected[i+1] = err
			counts[err.Error()]++
			continue
		}
		parsed++
		checkNoEmpty(t, &r)
		if len(r.ClientIP) == 0 || len(r.Target) == 0 || r.Time == 0 {
			t.Errorf("%s:%d: parsed row lacks client, target or time: %+v", path, i+1, viewOf(&r))
		}
	}
	var reasons []string
	for k, n := range counts {
		reasons = append(reasons, fmt.Sprintf("%s: %d", k, n))
	}
	sort.Strings(reasons)
	t.Logf("%s as %s: %d parsed, %d rejected %v", filepath.Base(path), format, parsed, len(rejected), reasons)
	return parsed, rejected
}

// realLogsCut names the one line of a real log that is cut inside a quoted
// field: line 8899 of the 2015 log ends inside its user agent, "Mozilla/5.0
// (compatible; Googlebot/2.1; +http://www.google.com/bot.html" without the
// closing parenthesis and quote (a spoofed Googlebot, 46.118.127.106).
var realLogsCut = map[string]int{"elastic-apache-semicomplete-2015": 8899}

// TestRealLogs parses the real Apache and nginx logs in ../shared/data: every
// line is a genuine request and must parse, except the one cut inside its
// user agent, which is a truncated line.
func TestRealLogs(t *testing.T) {
	for _, tc := range []struct {
		rel   string
		lines int
	}{
		{"real-logs/elastic-apache-semicomplete-2015/apache_logs.gz", 9999},
		{"real-logs/almhuette-raith-apache-2019/access.log.gz", 10000},
		{"real-logs/zanbil-shop-nginx-2019-sample/access.log", 1000},
		{"real-logs/darcien-findmu-gptbot-2026-snippet/access.log", 10},
	} {
		t.Run(filepath.Base(filepath.Dir(tc.rel)), func(t *testing.T) {
			path := shareddata.Path(t, tc.rel)
			parsed, rejected := tally(t, "combined", mustNew(t, "combined"), path)
			for n, err := range rejected {
				if cut, ok := realLogsCut[filepath.Base(filepath.Dir(tc.rel))]; ok && n == cut && err == ErrTruncatedLine {
					continue
				}
				t.Errorf("line %d rejected: %v", n, err)
			}
			if parsed != tc.lines {
				t.Errorf("parsed %d lines, want %d", parsed, tc.lines)
			}
		})
	}
}

// TestRealLogsDetails checks facts about the real logs that the parser must
// keep: escaped quotes, the truncated spoofed Googlebot (rejected, not a
// Googlebot request), robots.txt fetches.
func TestRealLogsDetails(t *testing.T) {
	path := shareddata.Path(t, "real-logs/elastic-apache-semicomplete-2015/apache_logs.gz")
	p := mustNew(t, "combined")
	var r Row
	robots, googlebot := 0, 0
	for i, line := range readLines(t, path) {
		if err := p.Parse([]byte(line), &r); err != nil {
			if i+1 == realLogsCut["elastic-apache-semicomplete-2015"] && err == ErrTruncatedLine {
				continue
			}
			t.Fatalf("line %d: %v", i+1, err)
		}
		if i+1 == realLogsCut["elastic-apache-semicomplete-2015"] {
			t.Errorf("line %d, cut inside its user agent, parsed as a request from %q", i+1, r.UserAgent)
		}
		if string(r.Target) == "/robots.txt" {
			robots++
		}
		if bytes.Contains(r.UserAgent, []byte("Googlebot/")) {
			googlebot++
		}
	}
	// The data README counts 180 robots.txt requests; grep finds 543
	// "Googlebot" lines of which a few say "Googlebot-Image" etc.
	if robots != 180 {
		t.Errorf("robots.txt requests = %d, want 180", robots)
	}
	if googlebot < 500 {
		t.Errorf("Googlebot/ agents = %d, want > 500", googlebot)
	}

	path = shareddata.Path(t, "real-logs/almhuette-raith-apache-2019/access.log.gz")
	escaped := 0
	for _, line := range readLines(t, path) {
		if err := p.Parse([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(r.UserAgent, []byte(`}__test|O:21:"JDatabaseDriverMysqli"`)) {
			escaped++
		}
	}
	if escaped == 0 {
		t.Error(`no user agent with unescaped quotes (}__test|O:21:"JDatabaseDriverMysqli"...) found in almhuette-raith`)
	}
}

// TestCrowdsecSamples checks the malformed lines of the crowdsec samples are
// rejected with the right reason, line by line.
func TestCrowdsecSamples(t *testing.T) {
	for _, tc := range []struct {
		rel    string
		format string
		parsed int
		reject map[int]Reason
	}{
		{"format-samples/misc/crowdsec-apache2-logs.log", "combined", 4, map[int]Reason{
			4: ErrSyntax,          // vhost_combined line without port
			6: ErrFieldCount,      // a common line
			7: ErrSyntax,          // vhost_combined line with port
			8: ErrNotThisFormat,   // Apache error log
			9: ErrNotThisFormat}}, // Apache error log
		{"format-samples/misc/crowdsec-apache2-logs.log", "vhost_combined", 2, map[int]Reason{
			1: ErrBadClientIP, 2: ErrBadClientIP, 3: ErrBadClientIP, 5: ErrBadClientIP, 6: ErrBadClientIP,
			8: ErrNotThisFormat, 9: ErrNotThisFormat}},
		{"format-samples/misc/crowdsec-nginx_http-logs.log", "combined", 4, map[int]Reason{
			4: ErrSyntax,        // vhost
			5: ErrSyntax,        // vhost
			6: ErrSyntax,        // vhost with port
			8: ErrFieldCount,    // missing ident field
			9: ErrNotThisFormat, // nginx error log
		}},
	} {
		t.Run(filepath.Base(tc.rel)+"/"+tc.format, func(t *testing.T) {
			path := shareddata.Path(t, tc.rel)
			parsed, rejected := tally(t, tc.format, mustNew(t, tc.format), path)
			if parsed != tc.parsed {
				t.Errorf("parsed %d lines, want %d", parsed, tc.parsed)
			}
			for n, want := range tc.reject {
				if rejected[n] != want {
					t.Errorf("line %d: got %v, want %v", n, rejected[n], want)
				}
			}
			for n, got := range rejected {
				if _, ok := tc.reject[n]; !ok {
					t.Errorf("line %d rejected unexpectedly: %v", n, got)
				}
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	var names []string
	for _, f := range Formats() {
		names = append(names, f.Name)
		if f.New == nil || f.Doc == "" {
			t.Errorf("format %q lacks New or Doc", f.Name)
		}
		g, ok := Lookup(f.Name)
		if !ok || g.Name != f.Name {
			t.Errorf("Lookup(%q) = %v, %v", f.Name, g.Name, ok)
		}
	}
	pos := func(name string) int {
		for i, n := range names {
			if n == name {
				return i
			}
		}
		t.Fatalf("format %q is not registered (have %v)", name, names)
		return -1
	}
	for _, order := range [][2]string{{"vhost_combined", "combined"}, {"combined", "common"}, {"traefik", "combined"}, {"haproxy", "combined"}} {
		if pos(order[0]) > pos(order[1]) {
			t.Errorf("%s must come before %s in detection order: %v", order[0], order[1], names)
		}
	}
	if _, ok := Lookup("no-such-format"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
	// A copy: changing it does not change the registry.
	fs := Formats()
	fs[0].Name = "changed"
	if Formats()[0].Name == "changed" {
		t.Error("Formats returned the registry itself")
	}
}

// TestDetectionBetweenCLFFormats checks that each sample line is parsed by
// its own format and by no format ranked before it, so that a vote with the
// registry's tie-break picks the right one.
func TestDetectionBetweenCLFFormats(t *testing.T) {
	lines := map[string]string{
		"vhost_combined": `example.com:443 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`,
		"combined":       `1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`,
		"common":         `1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET / HTTP/1.1" 200 5`,
		"traefik":        `1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET / HTTP/1.1" 200 5 "-" "curl/8.0" 12 "web@docker" "http://10.0.0.2:80" 4ms`,
		"haproxy":        `Feb 25 16:19:49 lb haproxy[7]: 1.2.3.4:5332 [25/Feb/2019:16:19:48.143] www~ be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 "GET / HTTP/1.1"`,
	}
	for want, line := range lines {
		var first string
		for _, f := range Formats() {
			if _, ok := lines[f.Name]; !ok {
				continue // formats of other files
			}
			var r Row
			if f.New().Parse([]byte(line), &r) == nil {
				first = f.Name
				break
			}
		}
		if first != want {
			t.Errorf("first format in registry order to parse a %s line is %q", want, first)
		}
	}
}
