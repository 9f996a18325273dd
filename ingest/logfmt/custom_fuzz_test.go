package logfmt

import "testing"

// FuzzParseCustom fuzzes the layout compiler and the compiled parser: any
// layout either fails with a *LayoutError or compiles, and any line then
// parses or is rejected with a Reason, never panicking.
func FuzzParseCustom(f *testing.F) {
	layouts := []string{
		`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`,
		`%V %a %{%Y-%m-%dT%H:%M:%S}t.%{msec_frac}t%{%z}t "%m %U%q %H" %>s %B "%{User-Agent}i" %D`,
		`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for"`,
		`$msec $host $remote_addr "$request_method $uri$is_args$args $server_protocol" $status $bytes_sent "$http_user_agent"`,
		`{"t":"$time_iso8601","ip":"$remote_addr","r":"$request","s":$status,"ua":"$http_user_agent"}`,
		`log_format main '$remote_addr [$time_local] $uri?$args $status';`,
	}
	lines := append([]string{
		`5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/2.0" 200 431 "-" "x" "-"`,
		`example.com 2001:db8::7 2026-10-25T02:30:00.250+0100 "GET /p?q=1 HTTP/1.1" 200 512 "ua" 1234`,
		`1792891800.250 example.com 2001:db8::7 "GET /p?q=1 HTTP/1.1" 200 512 "ua"`,
		`{"t":"2026-10-25T01:30:00+00:00","ip":"5.255.253.1","r":"GET / HTTP/2.0","s":200,"ua":"say \"hi\"\u0009"}`,
		`5.255.253.1 [25/Oct/2026:01:30:00 +0000] /a\x20b?x=1 200`,
	}, clfSeeds...)
	for i, l := range lines {
		f.Add(layouts[i%len(layouts)], []byte(l))
	}
	f.Add(`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i" "%{X-Forwarded-For}i"`,
		[]byte(`5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET / HTTP/2.0" 200 431 "-" "x" "203.0.113.7\x2C 10.0.0.5"`))
	f.Add(`$remote_addr [$time_local] "$request" $status $proxy_add_x_forwarded_for`,
		[]byte(`5.255.253.1 [25/Oct/2026:02:30:00 +0100] "GET / HTTP/2.0" 200 203.0.113.7,5.255.253.1`))
	f.Add(`$remote_addr [$time_local] "$request" $status $scheme $host "$http_signature_agent" "$http_signature_input" "$http_signature"`,
		[]byte(`20.171.207.2 [01/Nov/2026:10:00:00 +0000] "GET /a?b=1 HTTP/2.0" 200 https example.com "sig1=\x22https://chatgpt.com\x22" "sig1=(\x22@authority\x22);created=1" "sig1=:AA==:"`))
	f.Add(`%h %t "%r" %>s "%{Host}i" "%{Signature-Agent}i" "%{Signature-Input}i" "%{Signature}i"`,
		[]byte(`20.171.207.2 [01/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 "example.com" "\"https://chatgpt.com\"" "sig1=(\"@authority\" \"@path\")" "-"`))
	f.Fuzz(func(t *testing.T, layout string, line []byte) {
		format, err := NewCustom(layout)
		if err != nil {
			if _, ok := err.(*LayoutError); !ok {
				t.Fatalf("NewCustom(%q) error %T %v is not a *LayoutError", layout, err, err)
			}
			return
		}
		p := format.New()
		var r Row
		if err := p.Parse(line, &r); err != nil {
			if _, ok := err.(Reason); !ok {
				t.Fatalf("error %v is not a Reason", err)
			}
			return
		}
		checkParsed(t, format, p, line, &r, `\?`, false) // a target joined from a path and a query apart is a copy
	})
}
