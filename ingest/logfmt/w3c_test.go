package logfmt

import (
	"errors"
	"testing"
	"time"
)

// xRow is a Row in comparable form: "" stands for an absent (nil) field.
type xRow struct {
	Time                            string
	Host, IP, Method, Target, Proto string
	Status                          int32
	Bytes                           int64
	Referer, UserAgent              string
	FF                              string // ForwardedFor
}

func xView(t *testing.T, r *Row) xRow {
	t.Helper()
	for name, b := range map[string][]byte{"Host": r.Host, "ClientIP": r.ClientIP, "Method": r.Method, "Target": r.Target,
		"Protocol": r.Protocol, "Referer": r.Referer, "UserAgent": r.UserAgent, "ForwardedFor": r.ForwardedFor} {
		if b != nil && len(b) == 0 {
			t.Errorf("%s is empty but not nil: absent fields must be nil", name)
		}
	}
	return xRow{
		Time: time.UnixMicro(r.Time).UTC().Format(time.RFC3339Nano),
		Host: string(r.Host), IP: string(r.ClientIP), Method: string(r.Method), Target: string(r.Target),
		Proto: string(r.Protocol), Status: r.Status, Bytes: r.Bytes, Referer: string(r.Referer), UserAgent: string(r.UserAgent),
		FF: string(r.ForwardedFor),
	}
}

// xCase is one parser test: prior lines (directives) are fed to the same
// parser first and must return ErrDirective; then line gives want or err.
type xCase struct {
	name  string
	prior []string
	line  string
	want  xRow
	err   Reason
}

func xRun(t *testing.T, format string, cases []xCase) {
	t.Helper()
	f, ok := Lookup(format)
	if !ok {
		t.Fatalf("format %q is not registered", format)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := f.New()
			var r Row
			for _, l := range c.prior {
				if err := p.Parse([]byte(l), &r); !errors.Is(err, ErrDirective) {
					t.Fatalf("prior line %q: got %v, want %v", l, err, ErrDirective)
				}
			}
			// Poison the row: Parse must reset it.
			r = Row{Time: 1, Host: []byte("stale"), Status: 999}
			err := p.Parse([]byte(c.line), &r)
			if c.err != "" {
				if err != c.err {
					t.Fatalf("Parse(%q) = %v, want %v", c.line, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q) = %v, want a row", c.line, err)
			}
			if got := xView(t, &r); got != c.want {
				t.Errorf("Parse(%q)\n got %+v\nwant %+v", c.line, got, c.want)
			}
		})
	}
}

const (
	iisSoftware = "#Software: Microsoft Internet Information Services 10.0"
	iisVersion  = "#Version: 1.0"
	iisDate     = "#Date: 2026-10-25 01:00:00"
	iisFields17 = "#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status sc-bytes cs-bytes time-taken"
	iisBingUA   = "Mozilla/5.0+(compatible;+bingbot/2.0;++http://www.bing.com/bingbot.htm)"
	bingUA      = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
)

var iisHeader = []string{iisSoftware, iisVersion, iisDate, iisFields17}

func TestW3CParse(t *testing.T) {
	base := xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1",
		Status: 200, Bytes: 5120, Referer: "https://www.example.com/", UserAgent: bingUA}
	with := func(f func(r *xRow)) xRow { r := base; f(&r); return r }
	line := func(fields string) string { return fields }
	cases := []xCase{
		{name: "IIS 10 with header", prior: iisHeader,
			line: line("2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " https://www.example.com/ 200 0 0 5120 310 15"),
			want: base},
		{name: "directive Software", line: iisSoftware, err: ErrDirective},
		{name: "directive Fields", line: iisFields17, err: ErrDirective},
		{name: "directive Remark", line: "#Remark: rotated", err: ErrDirective},
		{name: "directive with BOM", line: "\xEF\xBB\xBF#Software: IIS", err: ErrDirective},
		{name: "CRLF line end", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " https://www.example.com/ 200 0 0 5120 310 15\r",
			want: base},
		{name: "query dash", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page - 443 - 203.0.113.7 " + iisBingUA + " https://www.example.com/ 200 0 0 5120 310 15",
			want: with(func(r *xRow) { r.Target = "/private/page" })},
		{name: "referer dash, agent dash, bytes dash", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 - - 200 0 0 - 310 15",
			want: with(func(r *xRow) { r.Referer, r.UserAgent, r.Bytes = "", "", -1 })},
		{name: "plus in referer kept", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " https://www.google.com/search?q=a+b 200 0 0 5120 310 15",
			want: with(func(r *xRow) { r.Referer = "https://www.google.com/search?q=a+b" })},
		{name: "plus runs in agent", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 a+b++c+++d+ - 200 0 0 5120 310 15",
			want: with(func(r *xRow) { r.UserAgent, r.Referer = "a b +c ++d ", "" })},
		{name: "IPv6 client", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 2001:db8::7 " + iisBingUA + " https://www.example.com/ 200 0 0 5120 310 15",
			want: with(func(r *xRow) { r.IP = "2001:db8::7" })},
		{name: "fractional time", prior: iisHeader,
			line: "2026-10-25 01:30:00.250 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " https://www.example.com/ 200 0 0 5120 310 15",
			want: with(func(r *xRow) { r.Time = "2026-10-25T01:30:00.25Z" })},
		{name: "no header IIS 8.5 default (15 fields)",
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " https://www.example.com/ 200 0 0 15",
			want: with(func(r *xRow) { r.Bytes = -1 })},
		{name: "no header IIS 7 default (14 fields)",
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " 200 0 0 15",
			want: with(func(r *xRow) { r.Bytes, r.Referer = -1, "" })},
		{name: "no header other count",
			line: "2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " 200 0 0 15 1 2",
			err:  ErrFieldCount},
		{name: "no header combined line",
			line: `203.0.113.7 - - [25/Oct/2026:01:30:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"`,
			err:  ErrNotThisFormat},
		{name: "no header JSON line", line: `{"time":"2026-10-25T01:30:00Z"}`, err: ErrNotThisFormat},
		{name: "field count differs from header", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /robots.txt - 80 - 157.55.39.146", err: ErrFieldCount},
		{name: "time only, date from directive",
			prior: []string{"#Date: 2026-10-25 00:00:00", "#Fields: time c-ip cs-method cs-uri-stem sc-status"},
			line:  "01:30:00 203.0.113.7 GET /robots.txt 404",
			want:  xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/robots.txt", Status: 404, Bytes: -1}},
		{name: "time only, no date directive",
			prior: []string{"#Fields: time c-ip cs-method cs-uri-stem sc-status"},
			line:  "01:30:00 203.0.113.7 GET /robots.txt 404", err: ErrBadTimestamp},
		{name: "FTP verb", prior: []string{"#Date: 2000-10-09 16:44:49", "#Fields: time c-ip cs-method cs-uri-stem sc-status"},
			line: "16:44:49 1.1.1.1 [2]USER anonymous 331", err: ErrBadRequestLine},
		{name: "bad date", prior: iisHeader,
			line: "2026-13-45 01:30:00 10.0.0.1 GET /p - 443 - 203.0.113.7 - - 200 0 0 5 1 1", err: ErrBadTimestamp},
		{name: "bad time", prior: iisHeader,
			line: "2026-10-25 1:30 10.0.0.1 GET /p - 443 - 203.0.113.7 - - 200 0 0 5 1 1", err: ErrBadTimestamp},
		{name: "client dash", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /p - 443 - - - - 200 0 0 5 1 1", err: ErrBadClientIP},
		{name: "client hostname", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /p - 443 - server01 - - 200 0 0 5 1 1", err: ErrBadClientIP},
		{name: "stem dash", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET - - 443 - 203.0.113.7 - - 200 0 0 5 1 1", err: ErrBadRequestLine},
		{name: "bad status", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /p - 443 - 203.0.113.7 - - 2000 0 0 5 1 1", err: ErrBadStatus},
		{name: "bad bytes", prior: iisHeader,
			line: "2026-10-25 01:30:00 10.0.0.1 GET /p - 443 - 203.0.113.7 - - 200 0 0 -5 1 1", err: ErrBadBytes},
		{name: "whitespace only", prior: iisHeader, line: "   ", err: ErrSyntax},
		{name: "Fields changes mid-file",
			prior: []string{iisFields17, "#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query cs-version cs-host sc-status sc-bytes"},
			line:  "2026-10-25 01:30:00 203.0.113.7 GET /private/page x=1 HTTP/1.1 www.example.com 200 5120",
			want:  xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1", Proto: "HTTP/1.1", Status: 200, Bytes: 5120}},
		{name: "quoted fields (Advanced Logging)",
			prior: []string{`#Fields: date-local time-local c-ip cs-method cs-uri-stem cs-uri-query cs(User-Agent) cs(Referer) cs(Host) sc-status sc-substatus`},
			line:  `2026-10-25 01:30:00.000 "203.0.113.7" GET /p - "Mozilla/5.0 (X11; Linux) ""quoted"" +plus" - "www.example.com" 200 " ""garbage"" w/ spaces "`,
			want: xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/p", Status: 200, Bytes: -1,
				UserAgent: `Mozilla/5.0 (X11; Linux) "quoted" +plus`}},
		{name: "local time with GMT-Offset",
			prior: []string{"#GMT-Offset: -0800", "#Fields: date-local time-local c-ip cs-method cs-uri-stem"},
			line:  "2026-10-24 17:30:00 203.0.113.7 GET /p",
			want:  xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/p", Status: -1, Bytes: -1}},
		{name: "GMT-Offset does not apply to UTC date/time",
			prior: []string{"#GMT-Offset: -0800", "#Fields: date time c-ip cs-method cs-uri-stem"},
			line:  "2026-10-25 01:30:00 203.0.113.7 GET /p",
			want:  xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/p", Status: -1, Bytes: -1}},
		{name: "unterminated quote", prior: []string{`#Fields: date time c-ip cs-method cs-uri-stem cs(User-Agent)`},
			line: `2026-10-25 01:30:00 203.0.113.7 GET /p "Mozilla`, err: ErrTruncatedLine},
		{name: "cut inside agent: the bot Cla", prior: []string{`#Fields: date time c-ip cs-method cs-uri-stem cs(User-Agent)`},
			line: `2026-10-25 01:30:00 203.0.113.7 GET /private/ "Mozilla/5.0 (compatible; Cla`, err: ErrTruncatedLine},
		{name: "cut inside agent after a doubled quote", prior: []string{`#Fields: date time c-ip cs-method cs-uri-stem cs(User-Agent)`},
			line: `2026-10-25 01:30:00 203.0.113.7 GET /private/ "say ""hi"" Cla`, err: ErrTruncatedLine},
		{name: "cut right after a doubled quote", prior: []string{`#Fields: date time c-ip cs-method cs-uri-stem cs(User-Agent)`},
			line: `2026-10-25 01:30:00 203.0.113.7 GET /private/ "say ""`, err: ErrTruncatedLine},
		{name: "cut inside a quoted field before the agent", prior: []string{`#Fields: date time c-ip cs-method cs-uri-stem cs(Referer) cs(User-Agent)`},
			line: `2026-10-25 01:30:00 203.0.113.7 GET /private/ "https://exa`, err: ErrTruncatedLine},
		{name: "doubled quotes end a quoted agent", prior: []string{`#Fields: date time c-ip cs-method cs-uri-stem cs(User-Agent)`},
			line: `2026-10-25 01:30:00 203.0.113.7 GET /p "say ""hi"""`,
			want: xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/p", Status: -1, Bytes: -1, UserAgent: `say "hi"`}},
		{name: "junk after closing quote", prior: []string{`#Fields: date time c-ip cs-method cs-uri-stem cs(User-Agent)`},
			line: `2026-10-25 01:30:00 203.0.113.7 GET /p "Mozilla"x`, err: ErrSyntax},
		{name: "Oracle cs-uri and bytes, multiple spaces",
			prior: []string{"#Fields:  c-ip  date  time  cs-method  cs-uri  sc-status  bytes  cs(Referrer)  cs(User-Agent)"},
			line:  `203.0.113.7      2026-10-25     01:30:00      GET      /private/page?x=1    200     5120    "https://www.example.com/"      "` + bingUA + `"`,
			want:  base},
		{name: "cs-uri absolute URL",
			prior: []string{"#Fields: date time c-ip cs-method cs-uri sc-status"},
			line:  "2026-10-25 01:30:00 203.0.113.7 GET https://www.example.com:443/private/page?x=1 200",
			want:  xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1", Status: 200, Bytes: -1}},
		{name: "Incapsula host/path cs-uri plus query",
			prior: []string{"#Fields: date time c-ip cs-uri cs-version cs-method cs-uri-query sc-status"},
			line:  `"2026-10-25" "01:30:00" "203.0.113.7" "www.example.com/private/page" "HTTP" "GET" "x=1" ""`,
			want:  xRow{Time: "2026-10-25T01:30:00Z", Host: "www.example.com", IP: "203.0.113.7", Method: "GET", Target: "/private/page?x=1", Proto: "HTTP", Status: -1, Bytes: -1}},
		{name: "unknown field names are skipped",
			prior: []string{"#Fields: date time x-custom c-ip cs-method cs-uri-stem"},
			line:  "2026-10-25 01:30:00 whatever 203.0.113.7 GET /p",
			want:  xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/p", Status: -1, Bytes: -1}},
		{name: "field names are case-insensitive",
			prior: []string{"#Fields: Date Time C-IP CS-Method CS-URI-Stem CS(USER-AGENT)"},
			line:  "2026-10-25 01:30:00 203.0.113.7 GET /p curl/8.0",
			want:  xRow{Time: "2026-10-25T01:30:00Z", IP: "203.0.113.7", Method: "GET", Target: "/p", Status: -1, Bytes: -1, UserAgent: "curl/8.0"}},
	}
	xRun(t, "w3c", cases)
}

// The parser keeps its layout across lines and only changes it on a new
// "#Fields:" directive.
func TestW3CStatefulLayout(t *testing.T) {
	f, _ := Lookup("w3c")
	if !f.Stateful || !f.Sniffable {
		t.Fatalf("w3c: Stateful=%v Sniffable=%v, want both", f.Stateful, f.Sniffable)
	}
	p := f.New()
	var r Row
	lines := []struct {
		line   string
		err    error
		target string
	}{
		{"#Fields: date time c-ip cs-method cs-uri-stem", ErrDirective, ""},
		{"2026-10-25 01:30:00 203.0.113.7 GET /a", nil, "/a"},
		{"2026-10-25 01:30:00 203.0.113.7 GET /b x=1", ErrFieldCount, ""},
		{"#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query", ErrDirective, ""},
		{"2026-10-25 01:30:00 203.0.113.7 GET /a", ErrFieldCount, ""},
		{"2026-10-25 01:30:00 203.0.113.7 GET /b x=1", nil, "/b?x=1"},
	}
	for i, l := range lines {
		err := p.Parse([]byte(l.line), &r)
		if err != l.err {
			t.Fatalf("line %d %q: err %v, want %v", i+1, l.line, err, l.err)
		}
		if err == nil && string(r.Target) != l.target {
			t.Errorf("line %d: target %q, want %q", i+1, r.Target, l.target)
		}
	}
}
