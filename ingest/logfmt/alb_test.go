package logfmt

import (
	"strings"
	"testing"
)

// albLine builds an ALB line for the common request of these tests, with the
// client, request and user agent fields replaced.
func albLine(typ, client, status, sent, request, ua string) string {
	return typ + " 2026-10-25T01:30:00.000000Z app/my-loadbalancer/50dc6c495c0c9188 " + client +
		" 10.0.0.1:80 0.000 0.001 0.000 " + status + " 200 34 " + sent + " \"" + request + "\" \"" + ua +
		"\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067" +
		" \"Root=1-58337262-36d228ad5d99923122bbe354\" \"www.example.com\" \"-\" 0 2026-10-25T01:29:59.999000Z \"forward\" \"-\" \"-\" \"10.0.0.1:80\" \"200\" \"-\" \"-\" TID_1234abcd5678ef90"
}

func TestALBParse(t *testing.T) {
	const req = "GET https://www.example.com:443/private/page?x=1 HTTP/1.1"
	base := xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1",
		Proto: "HTTP/1.1", Status: 200, Bytes: 5120, UserAgent: bingUA}
	with := func(f func(r *xRow)) xRow { r := base; f(&r); return r }
	cases := []xCase{
		{name: "https", line: albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), want: base},
		{name: "http default port", line: albLine("http", "203.0.113.7:44740", "200", "5120", "GET http://www.example.com:80/private/page?x=1 HTTP/1.1", bingUA), want: base},
		{name: "h2", line: albLine("h2", "203.0.113.7:44740", "200", "5120", "GET https://www.example.com:443/private/page?x=1 HTTP/2.0", bingUA),
			want: with(func(r *xRow) { r.Proto = "HTTP/2.0" })},
		{name: "other port kept", line: albLine("https", "203.0.113.7:44740", "200", "5120", "GET https://www.example.com:8443/private/page?x=1 HTTP/1.1", bingUA),
			want: with(func(r *xRow) { r.Host = "www.example.com:8443" })},
		{name: "no path", line: albLine("https", "203.0.113.7:44740", "200", "5120", "GET https://www.example.com:443 HTTP/1.1", bingUA),
			want: with(func(r *xRow) { r.Target = "/" })},
		{name: "IPv6 client", line: albLine("https", "2001:db8::7:44740", "200", "5120", req, bingUA), want: with(func(r *xRow) { r.IP = "2001:db8::7" })},
		{name: "bracketed IPv6 client", line: albLine("https", "[2001:db8::7]:44740", "200", "5120", req, bingUA), want: with(func(r *xRow) { r.IP = "2001:db8::7" })},
		{name: "no response status", line: albLine("https", "203.0.113.7:44740", "-", "5120", req, bingUA), want: with(func(r *xRow) { r.Status = -1 })},
		{name: "agent dash", line: albLine("https", "203.0.113.7:44740", "200", "5120", req, "-"), want: with(func(r *xRow) { r.UserAgent = "" })},
		{name: "escaped quotes inside agent", line: albLine("https", "203.0.113.7:44740", "200", "5120", req, `say \"hi\" bot`),
			want: with(func(r *xRow) { r.UserAgent = `say \"hi\" bot` })},
		{name: "raw quote inside agent", line: albLine("https", "203.0.113.7:44740", "200", "5120", req, `a"b`),
			want: with(func(r *xRow) { r.UserAgent = `a"b` })},
		{name: "Log4Shell agent", line: albLine("https", "203.0.113.7:44740", "200", "5120", req, "${jndi:ldap://${java:version}.domain/a}"),
			want: with(func(r *xRow) { r.UserAgent = "${jndi:ldap://${java:version}.domain/a}" })},
		{name: "only the first 14 fields needed", line: strings.Join(strings.Fields(albLine("https", "203.0.113.7:44740", "200", "5120", "GET https://www.example.com:443/private/page?x=1 HTTP/1.1", "bot"))[:16], " "),
			want: with(func(r *xRow) { r.UserAgent = "bot" })},
		{name: "classic ELB",
			line: `2026-10-25T01:30:00.000000Z my-loadbalancer 203.0.113.7:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 5120 "` + req + `" "` + bingUA + `" - -`,
			want: base},
		{name: "malformed request", line: albLine("http", "203.0.113.7:44740", "400", "0", "- http://www.example.com:80- -", "-"), err: ErrBadRequestLine},
		{name: "relative request", line: albLine("http", "203.0.113.7:44740", "400", "0", "GET /x HTTP/1.1", "-"), err: ErrBadRequestLine},
		{name: "request without protocol", line: albLine("http", "203.0.113.7:44740", "400", "0", "GET http://www.example.com:80/", "-"), err: ErrBadRequestLine},
		{name: "unknown type", line: albLine("ftp", "203.0.113.7:44740", "200", "5120", req, bingUA), err: ErrNotThisFormat},
		{name: "bad time", line: strings.Replace(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), "2026-10-25T01:30:00.000000Z", "2026-10-25T25:30:00Z", 1), err: ErrBadTimestamp},
		{name: "bad client", line: albLine("https", "-", "200", "5120", req, bingUA), err: ErrBadClientIP},
		{name: "bad status", line: albLine("https", "203.0.113.7:44740", "OK", "5120", req, bingUA), err: ErrBadStatus},
		{name: "bad bytes", line: albLine("https", "203.0.113.7:44740", "200", "-5", req, bingUA), err: ErrBadBytes},
		{name: "unterminated quote", line: `https 2026-10-25T01:30:00Z app/x 203.0.113.7:1 - -1 -1 -1 400 - 0 0 "GET https://h:443/ HTTP/1.1`, err: ErrTruncatedLine},
		{name: "cut inside request", line: albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA)[:190], err: ErrTruncatedLine},
		{name: "cut inside agent: the bot Cla", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, "Mozilla/5.0 (compatible; Claude"), "ude")[0], err: ErrTruncatedLine},
		{name: "cut inside agent after an escaped quote", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, `say \"hi\" Claude`), "ude")[0], err: ErrTruncatedLine},
		{name: "cut inside agent after a raw quote", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, `a"b Claude`), "ude")[0], err: ErrTruncatedLine},
		{name: "cut inside a later quoted field", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), "bbe354")[0], err: ErrTruncatedLine},
		{name: "cut between later fields", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), ` "Root=`)[0], want: base},
		{name: "cut right after a later field's opening quote", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), `Root=`)[0], err: ErrTruncatedLine},
		{name: "cut after a later field ending in a space", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), `bbe354`)[0] + `x "`, want: base},
		{name: "later field ending in a space, then an unquoted one", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), `bbe354`)[0] + `x " y`, want: base},
		{name: "later field starting with a space", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), `Root=`)[0] + ` x" TID_1`, want: base},
		{name: "later fields with inner and escaped quotes", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), ` "Root=`)[0] + ` x"y "a \" "b"c" z`, want: base},
		{name: "cut inside a later field with an escaped quote", line: strings.Split(albLine("https", "203.0.113.7:44740", "200", "5120", req, bingUA), ` "Root=`)[0] + ` "a \" b`, err: ErrTruncatedLine},
		{name: "truncated", line: `https 2026-10-25T01:30:00Z app/x 203.0.113.7:1 - -1 -1 -1 400 - 0 0`, err: ErrFieldCount},
		{name: "combined line", line: `203.0.113.7 - - [25/Oct/2026:01:30:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"`, err: ErrNotThisFormat},
		{name: "JSON line", line: `{"time":"2026-10-25T01:30:00Z"}`, err: ErrNotThisFormat},
	}
	xRun(t, "alb", cases)
}
