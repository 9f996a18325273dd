package logfmt

import "testing"

func FuzzParseHAProxy(f *testing.F) {
	fuzzFormat(f, "haproxy", `#`, []string{
		`Feb 25 16:19:49 192.168.4.2 haproxy[7]: 141.35.244.171:53332 [25/Feb/2019:16:19:48.143] prod_http_in~ bk_admin/nginx_sonst 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:65.0) Gecko/20100101 Firefox/65.0} {} "GET /admin/colt/administration?survey=130 HTTP/1.1"`,
		`Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu|https://r/|say #22hi#22/1} {} "GET /index.html#23 HTTP/1.1"`,
		`2001:db8::1:53332 [25/Feb/2019:16:19:48.143] www be/<NOSRV> -1/-1/-1/-1/+0 503 +212 - - SC-- 2/1/0/0/0 0/0 "GET /x`,
		`Feb 25 16:20:15 192.168.4.2 haproxy[7]: 95.216.197.33:56224 [25/Feb/2019:16:20:10.111] prod_http_in/sktst2: SSL handshake failure`,
		`Feb 25 16:19:38 192.168.4.2 haproxy[1]: Proxy prod_http_in started.`,
		`10.0.1.2:33313 [06/Feb/2009:12:12:51.443] fnt bck/srv1 0/0/5007 212 -- 0/0/0/0/3 0/0`,
	})
}
