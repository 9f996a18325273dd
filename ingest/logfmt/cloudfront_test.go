package logfmt

import (
	"strings"
	"testing"
)

// cfFields is a CloudFront v1 standard log line (33 fields) for the common
// request of these tests.
var cfFields = []string{
	"2026-10-25", "01:30:00", "FRA56-P1", "5120", "203.0.113.7", "GET", "d111111abcdef8.cloudfront.net",
	"/private/page", "200", "https://www.example.com/", "Mozilla/5.0%20(compatible;%20bingbot/2.0;%20+http://www.bing.com/bingbot.htm)",
	"x=1", "-", "Hit", "SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==", "www.example.com", "https", "310", "0.001", "-",
	"TLSv1.3", "TLS_AES_128_GCM_SHA256", "Hit", "HTTP/1.1", "-", "-", "11040", "0.001", "Hit", "text/html", "5000", "-", "-",
}

// cfLine returns cfFields joined by tabs, with field i replaced by set[i].
func cfLine(set map[int]string) string {
	f := append([]string{}, cfFields...)
	for i, v := range set {
		f[i] = v
	}
	return strings.Join(f, "\t")
}

const cfFieldsDirective = "#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"

func TestCloudFrontParse(t *testing.T) {
	base := xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1",
		Proto: "HTTP/1.1", Status: 200, Bytes: 5120, Referer: "https://www.example.com/", UserAgent: bingUA}
	with := func(f func(r *xRow)) xRow { r := base; f(&r); return r }
	header := []string{"#Version: 1.0", cfFieldsDirective}
	cases := []xCase{
		{name: "v1 with header", prior: header, line: cfLine(nil), want: base},
		{name: "v1 without header", line: cfLine(nil), want: base},
		{name: "Version directive", line: "#Version: 1.0", err: ErrDirective},
		{name: "Fields directive", line: cfFieldsDirective, err: ErrDirective},
		{name: "no x-host-header: distribution domain", line: cfLine(map[int]string{15: "-"}),
			want: with(func(r *xRow) { r.Host = "d111111abcdef8.cloudfront.net" })},
		{name: "query dash", line: cfLine(map[int]string{11: "-"}), want: with(func(r *xRow) { r.Target = "/private/page" })},
		{name: "referer and agent absent", line: cfLine(map[int]string{9: "-", 10: "-"}),
			want: with(func(r *xRow) { r.Referer, r.UserAgent = "", "" })},
		{name: "referer percent-decoded once", line: cfLine(map[int]string{9: "https://www.example.com/a%2520b"}),
			want: with(func(r *xRow) { r.Referer = "https://www.example.com/a%20b" })},
		{name: "agent encoded twice", line: cfLine(map[int]string{10: "Mozilla/5.0%2520(compatible;%2520bingbot/2.0;%2520+http://www.bing.com/bingbot.htm)"}),
			want: base},
		{name: "agent with literal percent", line: cfLine(map[int]string{10: "odd%25agent%20x"}),
			want: with(func(r *xRow) { r.UserAgent = "odd%agent x" })},
		{name: "agent with bad escape kept", line: cfLine(map[int]string{10: "odd%zzagent"}),
			want: with(func(r *xRow) { r.UserAgent = "odd%zzagent" })},
		{name: "target exactly as logged", line: cfLine(map[int]string{7: "/a%20b/%E2%82%AC", 11: "q=%2F"}),
			want: with(func(r *xRow) { r.Target = "/a%20b/%E2%82%AC?q=%2F" })},
		{name: "IPv6 client", line: cfLine(map[int]string{4: "2001:db8::7"}), want: with(func(r *xRow) { r.IP = "2001:db8::7" })},
		{name: "old 12-field line", line: strings.Join(cfFields[:12], "\t"),
			want: with(func(r *xRow) { r.Host, r.Proto = "d111111abcdef8.cloudfront.net", "" })},
		{name: "old 24-field line", line: strings.Join(cfFields[:24], "\t"), want: base},
		{name: "11 fields", line: strings.Join(cfFields[:11], "\t"), err: ErrFieldCount},
		{name: "field count differs from header", prior: header, line: strings.Join(cfFields[:24], "\t"), err: ErrFieldCount},
		{name: "v2 header with fewer fields in another order",
			prior: []string{"#Fields: date time c-ip cs-method x-host-header cs-uri-stem cs-uri-query sc-status sc-bytes cs(User-Agent)"},
			line:  strings.Join([]string{"2026-10-25", "01:30:00", "203.0.113.7", "GET", "www.example.com", "/private/page", "x=1", "200", "5120", "curl/8.5.0"}, "\t"),
			want:  xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1", Status: 200, Bytes: 5120, UserAgent: "curl/8.5.0"}},
		{name: "IIS line (spaces)", line: "2026-10-25 01:30:00 10.0.0.1 GET /p - 443 - 203.0.113.7 - - 200 0 0 15", err: ErrNotThisFormat},
		{name: "combined line", line: `203.0.113.7 - - [25/Oct/2026:01:30:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"`, err: ErrNotThisFormat},
		{name: "bad date", line: cfLine(map[int]string{0: "25/10/2026"}), err: ErrBadTimestamp},
		{name: "bad time", line: cfLine(map[int]string{1: "25:30:00"}), err: ErrBadTimestamp},
		{name: "bad client", line: cfLine(map[int]string{4: "-"}), err: ErrBadClientIP},
		{name: "bad method", line: cfLine(map[int]string{5: "G ET"}), err: ErrBadRequestLine},
		{name: "no stem", line: cfLine(map[int]string{7: "-"}), err: ErrBadRequestLine},
		{name: "bad status", line: cfLine(map[int]string{8: "2xx"}), err: ErrBadStatus},
		{name: "bad bytes", line: cfLine(map[int]string{3: "5k"}), err: ErrBadBytes},
		{name: "CRLF", line: cfLine(nil) + "\r", want: base},
	}
	xRun(t, "cloudfront", cases)
}
