package logfmt

import (
	"errors"
	"strings"
	"testing"
)

func TestNewCustomErrors(t *testing.T) {
	for _, tc := range []struct {
		layout string
		want   string // a substring of the error
	}{
		{``, "empty layout"},
		{`   `, "empty layout"},
		{`just some text`, "no %-directive"},
		{`%h %l %u`, "no request time"},
		{`%h %t %>s`, "no request target"},
		{`$remote_addr [$time_local] $status`, "no request target"},
		{`%h %t "%r" %`, "'%' at the end"},
		{`%h %t "%r" %{Referer i`, "unterminated %{...}"},
		{`%h %t "%r" %{Referer}`, "incomplete directive"},
		{`%h %t "%r" %>`, "incomplete directive"},
		{`%h %t "%r" % x`, "incomplete directive"},
		{`$remote_addr ${time_local "$request"`, "unterminated ${...}"},
		{`%h %t "%r" $status`, "mixes Apache"},
		{`%h %t %U%r`, "%r follows %U"},
		{`$remote_addr$remote_user [$time_local] "$request"`, "$remote_user follows $remote_addr"},
		{`$remote_addr $time_local $status "$request"`, "$time_local may hold spaces"},
		{`%h [%t] %r %>s`, "%r may hold spaces"},
		{`%h %t "%r" %{User-Agent}i %>s`, "%{User-Agent}i may hold spaces"},
		{`%h %{%a %d %b %Y}t "%r"`, "unsupported format"},
		{`%h %t %q`, "query (%q) without a path"},
		{`$remote_addr [$time_local] "$args"`, "query ($args) without a path"},
		{`LogFormat %h %t "%r"`, "double-quoted layout"},
		{`LogFormat "%h %t \"%r\"`, "no closing double quote"},
		{`log_format main '$remote_addr [$time_local] "$request"`, "no closing quote"},
		{`log_format main;`, "without a layout string"},
	} {
		_, err := NewCustom(tc.layout)
		if err == nil {
			t.Errorf("NewCustom(%q) succeeded, want an error with %q", tc.layout, tc.want)
			continue
		}
		var le *LayoutError
		if !errors.As(err, &le) || le.Layout != tc.layout {
			t.Errorf("NewCustom(%q) error %v is not a *LayoutError naming the layout", tc.layout, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewCustom(%q) error = %q, want it to contain %q", tc.layout, err, tc.want)
		}
	}
}

func TestNewCustomFormat(t *testing.T) {
	f, err := NewCustom(`%h %l %u %t "%r" %>s %b`)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "custom" || f.Sniffable || f.Stateful || f.New == nil || !strings.Contains(f.Doc, `%h %l %u %t "%r" %>s %b`) {
		t.Errorf("NewCustom gave %+v", f)
	}
}

func TestCustomApache(t *testing.T) {
	const ua = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	base := view{Time: "2026-10-25T01:30:00Z", Client: "157.55.39.146", Method: "GET", Target: "/robots.txt", Proto: "HTTP/1.1", Status: 200, Bytes: 431, Agent: ua}
	with := func(f func(*view)) view { v := base; f(&v); return v }
	for _, tc := range []struct {
		layout string
		cases  []parseCase
	}{
		{`LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"" combined`, []parseCase{
			{"config line form", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/1.1" 200 431 "-" "` + ua + `"`, base, nil},
			{"strict: no trailing fields", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/1.1" 200 431 "-" "` + ua + `" "-"`, view{}, ErrFieldCount},
			{"Apache escaped quotes in every quoted field", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt?q=\"x\" HTTP/1.1" 200 431 "\"r\\" "say \"hi\" \\"`, with(func(v *view) { v.Target, v.Referer, v.Agent = `/robots.txt?q="x"`, `"r\`, `say "hi" \` }), nil},
			{"cut inside request", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.t`, view{}, ErrTruncatedLine},
			{"cut inside request after an escaped quote", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt?q=\"`, view{}, ErrTruncatedLine},
			{"cut inside referer", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/1.1" 200 431 "https://www.bi`, view{}, ErrTruncatedLine},
			{"cut inside agent: the bot Cla", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /private/ HTTP/1.1" 200 431 "-" "Mozilla/5.0 (compatible; Cla`, view{}, ErrTruncatedLine},
			{"cut inside agent after escaped quotes", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /private/ HTTP/1.1" 200 431 "-" "say \"hi\" (compatible; Cla`, view{}, ErrTruncatedLine},
			{"cut inside agent ending with an escaped quote", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /private/ HTTP/1.1" 200 431 "-" "Cla\"`, view{}, ErrTruncatedLine},
			{"cut after the referer: a field missing", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/1.1" 200 431 "-"`, view{}, ErrFieldCount},
			{"common line: fields missing", `157.55.39.146 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/1.1" 200 431`, view{}, ErrFieldCount},
		}},
		{`%a %{c}a %h %V %v %t "%r" %s %>s %O %B "%{Referer}i" "%{User-Agent}i"`, []parseCase{
			{"preferences: %a, %V, %>s, %B", `157.55.39.146 10.0.0.1 proxy.local www.example.com vhost.local [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 302 200 999 431 "-" "` + ua + `"`, with(func(v *view) { v.Host = "www.example.com" }), nil},
		}},
		{`%{c}a %h %{Host}i %v %t "%r" %<s %b "%{User-Agent}i"`, []parseCase{
			{"preferences: %h over %{c}a, Host header over %v", `10.0.0.1 157.55.39.146 www.example.com vhost.local [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 200 431 "` + ua + `"`, with(func(v *view) { v.Host = "www.example.com" }), nil},
		}},
		{`%h %{sec}t "%r" %>s %b %D %T %{X-Forwarded-For}i "%400,501{User-Agent}i"`, []parseCase{
			{"epoch seconds, skipped directives, condition", `157.55.39.146 1792891800 "GET /robots.txt HTTP/1.1" 200 431 1234 0 - "` + ua + `"`, base, nil},
			{"cut inside the last field, an agent", `157.55.39.146 1792891800 "GET /private/ HTTP/1.1" 200 431 1234 0 - "Mozilla/5.0 (compatible; Cla`, view{}, ErrTruncatedLine},
			{"bad epoch", `157.55.39.146 17928918x0 "GET /robots.txt HTTP/1.1" 200 431 1234 0 - "` + ua + `"`, view{}, ErrBadTimestamp},
		}},
		{`%h %{usec}t "%r" %>s %b "%{User-Agent}i"`, []parseCase{
			{"epoch microseconds", `157.55.39.146 1792891800000001 "GET /robots.txt HTTP/1.1" 200 431 "` + ua + `"`, with(func(v *view) { v.Time = "2026-10-25T01:30:00.000001Z" }), nil},
		}},
		{`%h %{begin:%d/%b/%Y:%H:%M:%S}t.%{begin:msec_frac}t %{begin:%z}t "%r" %>s %b "%{User-Agent}i"`, []parseCase{
			{"CLF time with milliseconds as three directives", `157.55.39.146 25/Oct/2026:02:30:00.125 +0100 "GET /robots.txt HTTP/1.1" 200 431 "` + ua + `"`, with(func(v *view) { v.Time = "2026-10-25T01:30:00.125Z" }), nil},
		}},
		{`[%{%F %T}t] %h "%m %U%q %H" %>s %B "%{User-Agent}i"`, []parseCase{
			{"%F %T, split request, %U%q with query", `[2026-10-25 01:30:00] 157.55.39.146 "GET /a?b=1 HTTP/1.1" 200 431 "` + ua + `"`, with(func(v *view) { v.Target = "/a?b=1" }), nil},
			{"%U%q without query", `[2026-10-25 01:30:00] 157.55.39.146 "GET /robots.txt HTTP/1.1" 200 431 "` + ua + `"`, base, nil},
			{"bad method", `[2026-10-25 01:30:00] 157.55.39.146 "G(T /robots.txt HTTP/1.1" 200 431 "` + ua + `"`, view{}, ErrBadRequestLine},
		}},
		{`%h %t %U ?%q "%{User-Agent}i"`, []parseCase{
			{"path and query apart, no method or status", `157.55.39.146 [25/Oct/2026:01:30:00 +0000] /robots.txt ? "` + ua + `"`, view{Time: base.Time, Client: base.Client, Target: "/robots.txt", Status: -1, Bytes: -1, Agent: ua}, nil},
		}},
		{`%h\t%t\t"%r"\t%>s\t%b`, []parseCase{
			{"tab separated", "157.55.39.146\t[25/Oct/2026:01:30:00 +0000]\t\"GET /robots.txt HTTP/1.1\"\t200\t431", with(func(v *view) { v.Agent = "" }), nil},
			{"spaces instead of tabs", `157.55.39.146 [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 200 431`, view{}, ErrFieldCount},
		}},
		{`100%% %h %t "%r" %>s`, []parseCase{
			{"literal percent", `100% 157.55.39.146 [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 200`, with(func(v *view) { v.Agent, v.Bytes = "", -1 }), nil},
			{"literal missing", `99% 157.55.39.146 [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 200`, view{}, ErrSyntax},
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

func TestCustomNginx(t *testing.T) {
	const ua = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"
	base := view{Time: "2026-10-25T01:30:00Z", Client: "5.255.253.1", Method: "GET", Target: "/robots.txt", Proto: "HTTP/2.0", Status: 200, Bytes: 431, Agent: ua}
	with := func(f func(*view)) view { v := base; f(&v); return v }
	for _, tc := range []struct {
		layout string
		cases  []parseCase
	}{
		{`log_format main '$remote_addr - $remote_user [$time_local] "$request" '
                    '$status $body_bytes_sent "$http_referer" '
                    '"$http_user_agent" "$http_x_forwarded_for"';`, []parseCase{
			{"nginx.conf main", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/2.0" 200 431 "-" "` + ua + `" "-"`, base, nil},
			{"X-Forwarded-For list", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/2.0" 200 431 "-" "` + ua + `" "10.0.0.1, 10.0.0.2"`, with(func(v *view) { v.FF = "10.0.0.1, 10.0.0.2" }), nil},
			{"escape=default \\x22 and UTF-8", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /\xD0\x9F?q=\x22 HTTP/2.0" 200 431 "-" "` + ua + `" "-"`, with(func(v *view) { v.Target = "/\u041f?q=\"" }), nil},
			{"missing x-forwarded-for", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/2.0" 200 431 "-" "` + ua + `"`, view{}, ErrFieldCount},
			{"cut inside request", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HT`, view{}, ErrTruncatedLine},
			{"cut inside referer", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/2.0" 200 431 "https://ya`, view{}, ErrTruncatedLine},
			{"cut inside agent: the bot Cla", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /private/ HTTP/2.0" 200 431 "-" "Mozilla/5.0 (compatible; Cla`, view{}, ErrTruncatedLine},
			{"cut inside agent after \\x22 escapes", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /private/ HTTP/2.0" 200 431 "-" "say \x22hi\x22 (compatible; Cla`, view{}, ErrTruncatedLine},
			{"cut inside x-forwarded-for", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt HTTP/2.0" 200 431 "-" "` + ua + `" "10.0.0.1, 10.`, view{}, ErrTruncatedLine},
			{"\\x22 escapes in every quoted field", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "GET /robots.txt?q=\x22 HTTP/2.0" 200 431 "\x22" "\x22Cla\x22" "\x22"`, with(func(v *view) { v.Target, v.Referer, v.Agent, v.FF = `/robots.txt?q="`, `"`, `"Cla"`, `"` }), nil},
			{"dash request", `5.255.253.1 - - [25/Oct/2026:02:30:00 +0100] "-" 400 0 "-" "-" "-"`, view{}, ErrBadRequestLine},
		}},
		{`log_format json escape=json '{"t":"$time_iso8601","ip":"$remote_addr","r":"$request","s":$status,"b":$body_bytes_sent,"ua":"$http_user_agent","h":"$host"}';`, []parseCase{
			{"JSON layout with escape=json", `{"t":"2026-10-25T01:30:00+00:00","ip":"5.255.253.1","r":"GET /robots.txt HTTP/2.0","s":200,"b":431,"ua":"say \"hi\"\u0009x","h":"example.com"}`, with(func(v *view) { v.Agent = "say \"hi\"\tx"; v.Host = "example.com" }), nil},
			{"empty host", `{"t":"2026-10-25T01:30:00+00:00","ip":"5.255.253.1","r":"GET /robots.txt HTTP/2.0","s":200,"b":431,"ua":"` + ua + `","h":""}`, base, nil},
			{"cut inside agent", `{"t":"2026-10-25T01:30:00+00:00","ip":"5.255.253.1","r":"GET /private/ HTTP/2.0","s":200,"b":431,"ua":"Mozilla/5.0 (compatible; Cla`, view{}, ErrTruncatedLine},
			{"cut inside agent after an escaped quote", `{"t":"2026-10-25T01:30:00+00:00","ip":"5.255.253.1","r":"GET /private/ HTTP/2.0","s":200,"b":431,"ua":"say \"hi\" Cla`, view{}, ErrTruncatedLine},
			{"cut inside the last field, a host", `{"t":"2026-10-25T01:30:00+00:00","ip":"5.255.253.1","r":"GET /robots.txt HTTP/2.0","s":200,"b":431,"ua":"` + ua + `","h":"exam`, view{}, ErrTruncatedLine},
		}},
		{`$remote_addr [$time_local] $request_method ${uri}${is_args}${args} $server_protocol $status $bytes_sent "$http_user_agent" $request_time $upstream_response_time`, []parseCase{
			{"${} names, $uri$is_args$args", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] GET /a?x=1&y=2 HTTP/2.0 200 431 "` + ua + `" 0.002 0.001`, with(func(v *view) { v.Target = "/a?x=1&y=2" }), nil},
			{"no query", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] GET /robots.txt HTTP/2.0 200 431 "` + ua + `" 0.002 -`, base, nil},
			{"dash method", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] - /robots.txt HTTP/2.0 200 431 "` + ua + `" 0.002 -`, with(func(v *view) { v.Method = "" }), nil},
		}},
		{`$remote_addr [$time_local] $uri?$args $status`, []parseCase{
			{"uri?args adjacent: sub-slice", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] /a?x=1 200`, view{Time: base.Time, Client: base.Client, Target: "/a?x=1", Status: 200, Bytes: -1}, nil},
			{"empty args", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] /a? 200`, view{Time: base.Time, Client: base.Client, Target: "/a", Status: 200, Bytes: -1}, nil},
			{"escaped path", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] /a\x20b?x=1 200`, view{Time: base.Time, Client: base.Client, Target: "/a b?x=1", Status: 200, Bytes: -1}, nil},
			{"dash path", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] -?x=1 200`, view{}, ErrBadRequestLine},
		}},
		{`$remote_addr $msec "$request" $status`, []parseCase{
			{"msec", `5.255.253.1 1792891800.125 "GET /robots.txt HTTP/2.0" 200`, with(func(v *view) { v.Time, v.Agent, v.Bytes = "2026-10-25T01:30:00.125Z", "", -1 }), nil},
		}},
		{`$host $server_name $http_host $realip_remote_addr $remote_addr $time_iso8601 "$request"`, []parseCase{
			{"preferences: $host, $remote_addr", `a.example.com b.example.com a.example.com:8443 10.0.0.1 5.255.253.1 2026-10-25T01:30:00Z "GET /robots.txt HTTP/2.0"`, with(func(v *view) { v.Host, v.Agent, v.Status, v.Bytes = "a.example.com", "", -1, -1 }), nil},
		}},
	} {
		t.Run(strings.Fields(tc.layout)[0], func(t *testing.T) {
			f, err := NewCustom(tc.layout)
			if err != nil {
				t.Fatal(err)
			}
			runCases(t, f.New(), tc.cases)
		})
	}
}
