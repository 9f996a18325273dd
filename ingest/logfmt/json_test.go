package logfmt

import (
	"errors"
	"strings"
	"testing"
)

func TestJSONParse(t *testing.T) {
	base := xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1",
		Proto: "HTTP/1.1", Status: 200, Bytes: 5120, Referer: "https://www.example.com/", UserAgent: bingUA}
	with := func(f func(r *xRow)) xRow { r := base; f(&r); return r }
	const ua = `Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)`
	cases := []xCase{
		{name: "nginx time_local and request line",
			line: `{"time_local":"25/Oct/2026:02:30:00 +0100","remote_addr":"203.0.113.7","request":"GET /private/page?x=1 HTTP/1.1","status":"200","body_bytes_sent":"5120","http_referer":"https://www.example.com/","http_user_agent":"` + ua + `","host":"www.example.com"}`,
			want: base},
		{name: "nginx msec, split request fields, numbers",
			line: `{"msec":1792891800.000,"time_iso8601":"2026-10-25T02:30:00+01:00","remote_addr":"203.0.113.7","request_method":"GET","request_uri":"/private/page?x=1","uri":"/private/page","server_protocol":"HTTP/1.1","status":200,"body_bytes_sent":5120,"bytes_sent":5400,"http_referer":"https://www.example.com/","http_user_agent":"` + ua + `","http_host":"www.example.com"}`,
			want: base},
		{name: "nginx request_uri beats request beats uri",
			line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/page","request":"POST /private/page?x=1 HTTP/1.0"}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "POST", Target: "/private/page?x=1", Proto: "HTTP/1.0", Status: -1, Bytes: -1}},
		{name: "nginx empty variables as dash",
			line: `{"time_local":"25/Oct/2026:01:30:00 +0000","remote_addr":"203.0.113.7","request":"GET /private/page?x=1 HTTP/1.1","status":"200","body_bytes_sent":"-","http_referer":"-","http_user_agent":"","host":"www.example.com"}`,
			want: with(func(r *xRow) { r.Bytes, r.Referer, r.UserAgent = -1, "", "" })},
		{name: "Caddy",
			line: `{"level":"info","ts":1792891800.0,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"10.0.0.2","remote_port":"44790","client_ip":"203.0.113.7","proto":"HTTP/1.1","method":"GET","host":"www.example.com","uri":"/private/page?x=1","headers":{"Accept":["*/*"],"User-Agent":["` + ua + `"],"Referer":["https://www.example.com/","ignored"]}},"bytes_read":0,"duration":0.0002,"size":5120,"status":200,"resp_headers":{"Server":["Caddy"],"Content-Type":["text/html"]}}`,
			want: base},
		{name: "Caddy without client_ip uses remote_ip",
			line: `{"ts":1792891800,"request":{"remote_ip":"203.0.113.7","proto":"HTTP/1.1","method":"GET","host":"www.example.com","uri":"/private/page?x=1","headers":{"User-Agent":["` + ua + `"],"Referer":["https://www.example.com/"]}},"size":5120,"status":200}`,
			want: base},
		{name: "Caddy docker compose prefix",
			line: `caddy-1  | {"ts":1792891800,"request":{"remote_ip":"203.0.113.7","proto":"HTTP/1.1","method":"GET","host":"www.example.com","uri":"/private/page?x=1","headers":{"User-Agent":["` + ua + `"],"Referer":["https://www.example.com/"]}},"size":5120,"status":200}`,
			want: base},
		{name: "Traefik: StartUTC beats time, XFF list",
			line: `{"ClientAddr":"203.0.113.7:39496","ClientHost":"203.0.113.7, 10.0.0.50","ClientUsername":"-","DownstreamContentSize":5120,"DownstreamStatus":200,"OriginStatus":502,"RequestHost":"www.example.com","RequestMethod":"GET","RequestPath":"/private/page?x=1","RequestProtocol":"HTTP/1.1","StartUTC":"2026-10-25T01:30:00.000000000Z","request_User-Agent":"` + ua + `","request_Referer":"https://www.example.com/","time":"2026-10-25T01:31:00Z"}`,
			want: base},
		{name: "Cloudflare RFC 3339",
			line: `{"ClientIP":"203.0.113.7","ClientRequestHost":"www.example.com","ClientRequestMethod":"GET","ClientRequestURI":"/private/page?x=1","ClientRequestPath":"/private/page","EdgeEndTimestamp":"2026-10-25T01:30:01Z","EdgeResponseBytes":5120,"EdgeResponseStatus":200,"EdgeStartTimestamp":"2026-10-25T01:30:00Z","ClientRequestProtocol":"HTTP/1.1","ClientRequestUserAgent":"` + ua + `","ClientRequestReferer":"https://www.example.com/"}`,
			want: base},
		{name: "Cloudflare unix seconds", line: `{"ClientIP":"203.0.113.7","ClientRequestURI":"/","EdgeStartTimestamp":1792891800}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}},
		{name: "Cloudflare unix nanoseconds", line: `{"ClientIP":"203.0.113.7","ClientRequestURI":"/","EdgeStartTimestamp":1792891800123456789}`,
			want: xRow{Time: "2026-10-25T01:30:00.123456Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}},
		{name: "epoch milliseconds", line: `{"remote_addr":"203.0.113.7","uri":"/","time":1792891800123}`,
			want: xRow{Time: "2026-10-25T01:30:00.123Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}},
		{name: "epoch microseconds string", line: `{"remote_addr":"203.0.113.7","uri":"/","time":"1792891800123456"}`,
			want: xRow{Time: "2026-10-25T01:30:00.123456Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}},
		{name: "epoch with exponent", line: `{"remote_addr":"203.0.113.7","uri":"/","ts":1.7928918e+09}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}},
		{name: "plain names",
			line: `{"time":"2026-10-25 01:30:00","remote_addr":"203.0.113.7","method":"GET","uri":"/private/page?x=1","protocol":"HTTP/1.1","status":200,"bytes":5120,"referer":"https://www.example.com/","user_agent":"` + ua + `","host":"www.example.com"}`,
			want: base},
		{name: "escapes",
			line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"\/caf\u00e9\ud83d\ude00?q=\"x\"\\","user_agent":"a\tb\u0041\ud83d!","referer":"\/"}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/café😀?q=\"x\"\\", Status: -1, Bytes: -1, UserAgent: "a\tbA\uFFFD!", Referer: "/"}},
		{name: "escaped key", line: `{"time":"2026-10-25T01:30:00Z","remote\u005faddr":"203.0.113.7","uri":"/"}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}},
		{name: "nulls, booleans, arrays and nested objects elsewhere",
			line: ` { "time" : "2026-10-25T01:30:00Z" , "remote_addr" : "203.0.113.7" , "uri" : "/" , "host" : null , "x" : [1, {"a": [true, false, null]}, -0.5e-3] , "y" : {} , "z" : [] } `,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}},
		{name: "duplicate key: last wins", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/a","uri":"/b"}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/b", Status: -1, Bytes: -1}},
		{name: "Caddy status 0 kept", line: `{"ts":1792891800,"request":{"client_ip":"203.0.113.7","uri":"/"},"status":0,"size":0}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: 0, Bytes: 0}},
		{name: "HTTP/0.9 request line", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","request":"GET /"}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/", Status: -1, Bytes: -1}},
		{name: "CRLF", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/"}` + "\r",
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1}},

		// Rejected lines.
		{name: "Caddy startup message", line: `{"level":"info","ts":1761019822.3152757,"msg":"maxprocs: Leaving GOMAXPROCS=12: CPU quota undefined"}`, err: ErrNotThisFormat},
		{name: "Caddy startup message behind compose prefix", line: `caddy  | {"level":"info","ts":1761019822.3152757,"msg":"serving initial configuration"}`, err: ErrNotThisFormat},
		{name: "combined line", line: `203.0.113.7 - - [25/Oct/2026:01:30:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"`, err: ErrNotThisFormat},
		{name: "other prefix", line: `Oct 25 01:30:00 web nginx: {"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/"}`, err: ErrNotThisFormat},
		{name: "top-level array", line: `[{"uri":"/"}]`, err: ErrNotThisFormat},
		{name: "truncated", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/pri`, err: ErrTruncatedLine},
		{name: "truncated after value", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/"`, err: ErrTruncatedLine},
		{name: "truncated inside agent: the bot Cla", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","http_user_agent":"Mozilla/5.0 (compatible; Cla`, err: ErrTruncatedLine},
		{name: "truncated inside agent after an escaped quote", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","http_user_agent":"say \"hi\" Cla`, err: ErrTruncatedLine},
		{name: "truncated inside an escape", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","http_user_agent":"say \u00`, err: ErrTruncatedLine},
		{name: "truncated after a backslash", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","http_user_agent":"say \`, err: ErrTruncatedLine},
		{name: "truncated inside a key", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","http_us`, err: ErrTruncatedLine},
		{name: "truncated after a colon", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","status":`, err: ErrTruncatedLine},
		{name: "truncated inside a number", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","status":20`, err: ErrTruncatedLine},
		{name: "truncated inside a fraction", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","ts":1.`, err: ErrTruncatedLine},
		{name: "truncated inside a literal", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","x":tr`, err: ErrTruncatedLine},
		{name: "truncated inside a nested array", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","x":[1,{"a":[`, err: ErrTruncatedLine},
		{name: "truncated with trailing blanks", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/",  `, err: ErrTruncatedLine},
		{name: "only an opening brace", line: `{`, err: ErrTruncatedLine},
		{name: "escaped quotes in agent", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/","http_user_agent":"say \"hi\" \\"}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Target: "/", Status: -1, Bytes: -1, UserAgent: `say "hi" \`}},
		{name: "bad literal before the end", line: `{"uri":"/","x":nux`, err: ErrSyntax},
		{name: "bad escape before the end", line: `{"uri":"/\x41`, err: ErrSyntax},
		{name: "trailing garbage", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/"} x`, err: ErrSyntax},
		{name: "two objects", line: `{"uri":"/"}{"uri":"/"}`, err: ErrSyntax},
		{name: "bad escape", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/\x41"}`, err: ErrSyntax},
		{name: "short unicode escape", line: `{"uri":"/\u12"}`, err: ErrSyntax},
		{name: "missing colon", line: `{"uri" "/"}`, err: ErrSyntax},
		{name: "trailing comma", line: `{"uri":"/",}`, err: ErrSyntax},
		{name: "single quotes", line: `{'uri':'/'}`, err: ErrSyntax},
		{name: "bad number", line: `{"uri":"/","status":01}`, err: ErrSyntax},
		{name: "bad literal", line: `{"uri":"/","x":nul}`, err: ErrSyntax},
		{name: "too deep", line: `{"uri":"/","x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, err: ErrSyntax},
		{name: "no target", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","status":200}`, err: ErrBadRequestLine},
		{name: "bad request line", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","request":"\u0016\u0003\u0001"}`, err: ErrBadRequestLine},
		{name: "bad method", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","method":"G(T","uri":"/"}`, err: ErrBadRequestLine},
		{name: "no time", line: `{"remote_addr":"203.0.113.7","uri":"/"}`, err: ErrBadTimestamp},
		{name: "bad time", line: `{"time":"yesterday","remote_addr":"203.0.113.7","uri":"/"}`, err: ErrBadTimestamp},
		{name: "negative epoch", line: `{"time":-5,"remote_addr":"203.0.113.7","uri":"/"}`, err: ErrBadTimestamp},
		{name: "time true", line: `{"time":true,"remote_addr":"203.0.113.7","uri":"/"}`, err: ErrBadTimestamp},
		{name: "no client", line: `{"time":"2026-10-25T01:30:00Z","uri":"/"}`, err: ErrBadClientIP},
		{name: "client in brackets with a port (Go's RemoteAddr)", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"[2001:db8::3]:443","uri":"/"}`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "2001:db8::3", Target: "/", Status: -1, Bytes: -1}},
		{name: "client hostname", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"unknown","uri":"/"}`, err: ErrBadClientIP},
		{name: "status too big", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/","status":2000}`, err: ErrBadStatus},
		{name: "status fraction", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/","status":200.5}`, err: ErrBadStatus},
		{name: "negative bytes", line: `{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/","bytes":-5}`, err: ErrBadBytes},
	}
	xRun(t, "jsonl", cases)
}

func TestParseJSONMapping(t *testing.T) {
	m, err := ParseJSONMapping(" time = when , client_ip=req.addr,target=req.path,user_agent=req.h.ua ")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"time": "when", "client_ip": "req.addr", "target": "req.path", "user_agent": "req.h.ua"}
	if len(m) != len(want) {
		t.Fatalf("got %v, want %v", m, want)
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
	for _, bad := range []string{"", ",", "time", "time=", "=ts", "when=ts", "time=ts,time=t2", "time=a..b", "time=.a", "time=a.", "time=x,target=x"} {
		if m, err := ParseJSONMapping(bad); err == nil {
			t.Errorf("ParseJSONMapping(%q) = %v, want an error", bad, m)
		} else if !strings.Contains(err.Error(), "cannot parse JSON field mapping") {
			t.Errorf("ParseJSONMapping(%q): error %q lacks context", bad, err)
		}
	}
}

func TestNewJSON(t *testing.T) {
	m, err := ParseJSONMapping("time=when,client_ip=req.addr,target=req.path,user_agent=req.h.ua,status=code,request=line")
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewJSON(m)
	if err != nil {
		t.Fatal(err)
	}
	if f.Sniffable || f.Name != "jsonl" {
		t.Errorf("NewJSON: Name %q Sniffable %v, want jsonl, false", f.Name, f.Sniffable)
	}
	p := f.New()
	var r Row
	// Explicit keys win over automatic ones ("time", "uri", "remote_addr"),
	// which still supply unmapped fields ("host").
	line := `{"time":"2001-01-01T00:00:00Z","when":1792891800,"remote_addr":"198.51.100.1","uri":"/auto","host":"www.example.com",` +
		`"req":{"addr":"203.0.113.7","path":"/private/page?x=1","h":{"ua":["curl/8.5.0"]}},"code":"404","line":"HEAD /ignored HTTP/1.0"}`
	if err := p.Parse([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	want := xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "HEAD", Target: "/private/page?x=1",
		Proto: "HTTP/1.0", Status: 404, Bytes: -1, UserAgent: "curl/8.5.0"}
	if got := xView(t, &r); got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// The automatic format is unaffected.
	auto, _ := Lookup("jsonl")
	if err := auto.New().Parse([]byte(line), &r); err != nil || string(r.Target) != "/auto" {
		t.Errorf("automatic mapping: err %v target %q, want /auto", err, r.Target)
	}

	for _, bad := range []map[string]string{nil, {"when": "x"}, {"time": ""}, {"time": "a", "target": "a"}} {
		if _, err := NewJSON(bad); err == nil {
			t.Errorf("NewJSON(%v): want an error", bad)
		}
	}
}

// Parse must not allocate per line once its buffers have grown.
func TestJSONParseAllocs(t *testing.T) {
	f, _ := Lookup("jsonl")
	p := f.New()
	line := []byte(`{"ts":1792891800.25,"request":{"client_ip":"203.0.113.7","proto":"HTTP/1.1","method":"GET","host":"www.example.com","uri":"/caf\u00e9?x=1","headers":{"User-Agent":["Mozilla/5.0 (compatible; \"bot\")"]}},"size":5120,"status":200}`)
	var r Row
	if err := p.Parse(line, &r); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = p.Parse(line, &r) }); n != 0 {
		t.Errorf("Parse allocates %.1f times per line, want 0", n)
	}
	for _, name := range []string{"w3c", "cloudfront", "alb"} {
		f, _ := Lookup(name)
		p := f.New()
		var l string
		switch name {
		case "w3c":
			_ = p.Parse([]byte(iisFields17), &r)
			l = "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " https://www.example.com/ 200 0 0 5120 310 15"
		case "cloudfront":
			l = cfLine(nil)
		case "alb":
			l = albLine("https", "203.0.113.7:44740", "200", "5120", "GET https://www.example.com:443/private/page?x=1 HTTP/1.1", bingUA)
		}
		b := []byte(l)
		if err := p.Parse(b, &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := testing.AllocsPerRun(100, func() { _ = p.Parse(b, &r) }); n != 0 {
			t.Errorf("%s: Parse allocates %.1f times per line, want 0", name, n)
		}
	}
}

// Every error a parser returns is a Reason, so the stream layer can count it.
func TestJSONErrorsAreReasons(t *testing.T) {
	f, _ := Lookup("jsonl")
	for _, l := range []string{`{`, `{"a":}`, `x`, `{"uri":"/"}`} {
		err := f.New().Parse([]byte(l), &Row{})
		var r Reason
		if !errors.As(err, &r) {
			t.Errorf("Parse(%q) = %v (%T), want a Reason", l, err, err)
		}
	}
}
