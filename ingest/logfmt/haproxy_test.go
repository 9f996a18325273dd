package logfmt

import (
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

func TestHAProxy(t *testing.T) {
	const firefox = "Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:65.0) Gecko/20100101 Firefox/65.0"
	base := view{Time: "2019-02-25T16:19:48.143Z", Client: "141.35.244.171", Method: "GET", Target: "/admin/colt/administration?survey=130", Proto: "HTTP/1.1", Status: 200, Bytes: 11394, Agent: firefox}
	with := func(f func(*view)) view { v := base; f(&v); return v }
	const pre = `Feb 25 16:19:49 192.168.4.2 haproxy[7]: `
	runCases(t, mustNew(t, "haproxy"), []parseCase{
		{"lnav sample, captured agent", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] prod_http_in~ bk_admin/nginx_sonst 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} {} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, base, nil},
		{"no syslog prefix (log stdout format raw)", `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] prod_http_in~ bk_admin/nginx_sonst 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} {} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, base, nil},
		{"RFC 5424 prefix", `<134>1 2019-02-25T16:19:49+00:00 lb haproxy 7 - - 141.35.244.171:53332 [25/Feb/2019:16:19:48.143] prod_http_in~ bk_admin/nginx_sonst 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} {} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, base, nil},
		{"HAProxy docs example: host and agent captured", `Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu|Mozilla/5.0 (X11; Linux x86_64)} {} "GET /index.html HTTP/1.1"`, view{Time: "2009-02-06T12:14:14.655Z", Host: "1wt.eu", Client: "10.0.1.2", Method: "GET", Target: "/index.html", Proto: "HTTP/1.1", Status: 200, Bytes: 2750, Agent: "Mozilla/5.0 (X11; Linux x86_64)"}, nil},
		{"captures in any order, referer, X-Forwarded-For, host port", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {10.0.0.9|curl/8.4.0|https://example.com/from|www.example.com:443} {text/html} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, with(func(v *view) {
			v.Host, v.Agent, v.Referer = "www.example.com", "curl/8.4.0", "https://example.com/from"
		}), nil},
		{"bare words are neither host nor agent", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {Googlebot|en-US,en;q=0.9|example.com} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, with(func(v *view) { v.Host, v.Agent = "example.com", "" }), nil},
		{"no captures at all", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 "GET /admin/colt/administration?survey=130 HTTP/1.1"`, with(func(v *view) { v.Agent = "" }), nil},
		{"empty capture", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {} {} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, with(func(v *view) { v.Agent = "" }), nil},
		{"#XX escapes in capture and request", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {say #22hi#22 #7Bx#7D/1} {} "GET /admin/colt/administration?survey=130#23x HTTP/1.1"`, with(func(v *view) { v.Agent, v.Target = `say "hi" {x}/1`, "/admin/colt/administration?survey=130#x" }), nil},
		{"IPv6 client", pre + `2001:db8::1:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, with(func(v *view) { v.Client = "2001:db8::1" }), nil},
		// A client that is no address: passed on for the stream layer to
		// count as invalid, so that its line is still audited.
		{"UNIX socket client", pre + `unix:1 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, with(func(v *view) { v.Client = "unix" }), nil},
		{"logasap bytes, aborted timers, no server", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/<NOSRV> -1/-1/-1/-1/+0 503 +212 - - SC-- 2/1/0/0/0 0/0 {` + firefox + `} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, with(func(v *view) { v.Status, v.Bytes = 503, 212 }), nil},
		{"status -1", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/0/-1/5 -1 0 - - CD-- 2/1/0/0/0 0/0 {` + firefox + `} "GET /admin/colt/administration?survey=130 HTTP/1.1"`, with(func(v *view) { v.Status, v.Bytes = -1, 0 }), nil},
		{"trailing blanks after the request", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} "GET /admin/colt/administration?survey=130 HTTP/1.1"  `, base, nil},

		// A line cut inside the request (HAProxy cuts a log line longer
		// than its buffer, or the log was rotated mid-write): the target
		// may be cut too.
		{"request line truncated by HAProxy", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} "GET /admin/colt/administration?survey=130`, view{}, ErrTruncatedLine},
		{"cut right after the request's opening quote", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} "`, view{}, ErrTruncatedLine},
		{"cut inside request after an #22 escape", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {` + firefox + `} "GET /admin?q=#22x#22 HT`, view{}, ErrTruncatedLine},
		{"cut inside captured headers: the bot Cla", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {Mozilla/5.0 (compatible; Cla`, view{}, ErrTruncatedLine},

		{"bad request", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www www/<NOSRV> -1/-1/-1/-1/0 400 187 - - PR-- 1/1/0/0/0 0/0 "<BADREQ>"`, view{}, ErrBadRequestLine},
		{"start-up message", `Feb 25 16:19:38 192.168.4.2 haproxy[1]: Proxy prod_http_in started.`, view{}, ErrNotRequest},
		{"SSL handshake failure", pre + `95.216.197.33:56224 [25/Feb/2019:16:20:10.111] prod_http_in/sktst2: SSL handshake failure`, view{}, ErrNotRequest},
		{"TCP log", pre + `10.0.1.2:33313 [06/Feb/2009:12:12:51.443] fnt bck/srv1 0/0/5007 212 -- 0/0/0/0/3 0/0`, view{}, ErrNotRequest},
		{"bad date", pre + `141.35.244.171:53332 [25/Feb/2019:25:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 "GET / HTTP/1.1"`, view{}, ErrBadTimestamp},
		{"bad timers", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/x/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 "GET / HTTP/1.1"`, view{}, ErrSyntax},
		{"bad status", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 2O0 11394 - - ---- 2/1/0/0/0 0/0 "GET / HTTP/1.1"`, view{}, ErrBadStatus},
		{"bad bytes", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 1k - - ---- 2/1/0/0/0 0/0 "GET / HTTP/1.1"`, view{}, ErrBadBytes},
		{"no request", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0`, view{}, ErrFieldCount},
		{"truncated after date", pre + `141.35.244.171:53332 [25/Feb/2019:16:19:48.143]`, view{}, ErrSyntax},
		{"truncated inside date", pre + `141.35.244.171:53332 [25/Feb/2019:16:19`, view{}, ErrFieldCount},
		{"combined line", `1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET / HTTP/1.1" 200 5 "-" "curl/8.0"`, view{}, ErrNotThisFormat},
		{"no port", pre + `141.35.244.171 [25/Feb/2019:16:19:48.143] www be/s1 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 "GET / HTTP/1.1"`, view{}, ErrNotRequest},
	})
}

func TestHAProxySample(t *testing.T) {
	path := shareddata.Path(t, "format-samples/misc/lnav-logfile_haproxy.log")
	parsed, rejected := tally(t, "haproxy", mustNew(t, "haproxy"), path)
	want := map[int]Reason{1: ErrNotRequest, 2: ErrNotRequest, 3: ErrNotRequest, 14: ErrNotRequest}
	if parsed != 13 {
		t.Errorf("parsed %d lines, want 13", parsed)
	}
	for n, err := range rejected {
		if want[n] != err {
			t.Errorf("line %d: %v, want %v", n, err, want[n])
		}
	}
	for n := range want {
		if rejected[n] == nil {
			t.Errorf("line %d parsed, want %v", n, want[n])
		}
	}
}
