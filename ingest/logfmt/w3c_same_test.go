package logfmt

import "testing"

// The same request, written in every format this file's parsers read (and in
// the CLF family, whose parsers live in clf.go), gives the same Row. Formats
// that do not log the host (combined) or the referer (ALB) are compared
// without it.
func TestSameRequestJSONW3CAWS(t *testing.T) {
	const ua = `Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)`
	want := xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1",
		Proto: "HTTP/1.1", Status: 200, Bytes: 5120, Referer: "https://www.example.com/", UserAgent: ua}
	cases := []struct {
		name, format string
		prior        []string
		line         string
		noHost       bool // the format does not log the host
		noReferer    bool // the format does not log the referer
	}{
		{name: "nginx JSON", format: "jsonl",
			line: `{"time_local":"25/Oct/2026:03:30:00 +0200","remote_addr":"203.0.113.7","request":"GET /private/page?x=1 HTTP/1.1","status":"200","body_bytes_sent":"5120","http_referer":"https://www.example.com/","http_user_agent":"` + ua + `","host":"www.example.com"}`},
		{name: "Caddy JSON", format: "jsonl",
			line: `{"level":"info","ts":1792891800,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"203.0.113.7","remote_port":"51234","client_ip":"203.0.113.7","proto":"HTTP/1.1","method":"GET","host":"www.example.com","uri":"/private/page?x=1","headers":{"User-Agent":["` + ua + `"],"Referer":["https://www.example.com/"]}},"bytes_read":0,"duration":0.001,"size":5120,"status":200,"resp_headers":{}}`},
		{name: "Traefik JSON", format: "jsonl",
			line: `{"ClientAddr":"203.0.113.7:51234","ClientHost":"203.0.113.7","DownstreamContentSize":5120,"DownstreamStatus":200,"RequestHost":"www.example.com","RequestMethod":"GET","RequestPath":"/private/page?x=1","RequestProtocol":"HTTP/1.1","StartUTC":"2026-10-25T01:30:00Z","request_User-Agent":"` + ua + `","request_Referer":"https://www.example.com/","time":"2026-10-25T01:30:00Z"}`},
		{name: "Cloudflare JSON", format: "jsonl",
			line: `{"ClientIP":"203.0.113.7","ClientRequestHost":"www.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/private/page?x=1","ClientRequestProtocol":"HTTP/1.1","EdgeStartTimestamp":1792891800000000000,"EdgeResponseStatus":200,"EdgeResponseBytes":5120,"ClientRequestReferer":"https://www.example.com/","ClientRequestUserAgent":"` + ua + `"}`},
		{name: "plain JSON", format: "jsonl",
			line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","method":"GET","uri":"/private/page?x=1","protocol":"HTTP/1.1","status":200,"bytes":5120,"referer":"https://www.example.com/","user_agent":"` + ua + `","host":"www.example.com"}`},
		{name: "IIS W3C", format: "w3c",
			prior: []string{"#Software: Microsoft Internet Information Services 10.0", "#Version: 1.0", "#Date: 2026-10-25 00:00:00",
				"#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs-version cs(User-Agent) cs(Referer) cs-host sc-status sc-substatus sc-win32-status sc-bytes cs-bytes time-taken"},
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 HTTP/1.1 " + iisBingUA + " https://www.example.com/ www.example.com 200 0 0 5120 310 15"},
		{name: "CloudFront", format: "cloudfront", prior: []string{"#Version: 1.0", cfFieldsDirective}, line: cfLine(nil)},
		{name: "ALB", format: "alb", noReferer: true,
			line: albLine("https", "203.0.113.7:51234", "200", "5120", "GET https://www.example.com:443/private/page?x=1 HTTP/1.1", ua)},
		{name: "combined", format: "combined", noHost: true,
			line: `203.0.113.7 - - [25/Oct/2026:03:30:00 +0200] "GET /private/page?x=1 HTTP/1.1" 200 5120 "https://www.example.com/" "` + ua + `"`},
		{name: "vhost_combined", format: "vhost_combined",
			line: `www.example.com:443 203.0.113.7 - - [25/Oct/2026:01:30:00 +0000] "GET /private/page?x=1 HTTP/1.1" 200 5120 "https://www.example.com/" "` + ua + `"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, ok := Lookup(c.format)
			if !ok {
				t.Skipf("format %q is not registered", c.format)
			}
			p := f.New()
			var r Row
			for _, l := range c.prior {
				if err := p.Parse([]byte(l), &r); err != ErrDirective {
					t.Fatalf("directive %q: %v", l, err)
				}
			}
			if err := p.Parse([]byte(c.line), &r); err != nil {
				t.Fatalf("Parse(%q) = %v", c.line, err)
			}
			w := want
			if c.noHost {
				w.Host = ""
			}
			if c.noReferer {
				w.Referer = ""
			}
			if got := xView(t, &r); got != w {
				t.Errorf("\n got %+v\nwant %+v", got, w)
			}
		})
	}
}

// A fresh parser of each format (as automatic detection uses it) rejects a
// data line of every other format, so a vote over a file's first lines cannot
// pick the wrong one. A CloudFront file with a "#Fields:" header is the one
// overlap: its lines are W3C extended lines too, and detection ranks
// cloudfront before w3c.
func TestFormatsRejectEachOther(t *testing.T) {
	lines := map[string]string{
		"jsonl":      `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","method":"GET","uri":"/p","status":200}`,
		"w3c":        "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " https://www.example.com/ 200 0 0 15",
		"cloudfront": cfLine(nil),
		"alb":        albLine("https", "203.0.113.7:44740", "200", "5120", "GET https://www.example.com:443/p HTTP/1.1", bingUA),
		"combined":   `203.0.113.7 - - [25/Oct/2026:01:30:00 +0000] "GET /p HTTP/1.1" 200 5120 "https://www.example.com/" "` + bingUA + `"`,
		"haproxy":    `Oct 25 01:30:00 lb haproxy[123]: 203.0.113.7:44740 [25/Oct/2026:01:30:00.123] fe be/srv1 0/0/1/2/3 200 5120 - - ---- 1/1/0/0/0 0/0 "GET /p HTTP/1.1"`,
	}
	for _, format := range []string{"jsonl", "w3c", "cloudfront", "alb"} {
		f, _ := Lookup(format)
		for other, line := range lines {
			err := f.New().Parse([]byte(line), &Row{})
			if other == format {
				if err != nil {
					t.Errorf("%s rejects its own line: %v", format, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s accepts a %s line: %q", format, other, line)
			}
		}
	}
}
