package logfmt

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// sampleResult is the outcome of parsing one real sample file.
type sampleResult struct {
	lines, parsed, directives int
	rejected                  map[Reason][]int // reason -> 1-based line numbers
	rows                      []Row            // copies of the parsed rows
}

// sampleParseFile parses every non-empty line of a shared sample file with a
// fresh parser of the named format, in order (as the stream layer does for a
// Stateful format), and checks that each line either parses or is rejected
// with a Reason.
func sampleParseFile(t *testing.T, format, rel string) sampleResult {
	t.Helper()
	path := shareddata.Path(t, rel)
	f, ok := Lookup(format)
	if !ok {
		t.Fatalf("format %q is not registered", format)
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	p := f.New()
	res := sampleResult{rejected: map[Reason][]int{}}
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if len(line) == 0 {
			continue
		}
		res.lines++
		var r Row
		err := p.Parse(line, &r)
		var reason Reason
		switch {
		case err == nil:
			res.parsed++
			res.rows = append(res.rows, sampleCopyRow(r))
		case errors.As(err, &reason) && reason == ErrDirective:
			res.directives++
		case errors.As(err, &reason):
			res.rejected[reason] = append(res.rejected[reason], n)
			cut := line
			if len(cut) > 160 {
				cut = cut[:160]
			}
			t.Logf("%s:%d: rejected (%s): %q", filepath.Base(path), n, reason, cut)
		default:
			t.Errorf("%s:%d: error %v is not a Reason", filepath.Base(path), n, err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%s): %d lines, %d parsed, %d directives, rejected %v", rel, format, res.lines, res.parsed, res.directives, sampleReasonCounts(res.rejected))
	return res
}

func sampleReasonCounts(m map[Reason][]int) map[Reason]int {
	c := map[Reason]int{}
	for k, v := range m {
		c[k] = len(v)
	}
	return c
}

// sampleCopyRow copies a row's byte slices, which alias parser buffers.
func sampleCopyRow(r Row) Row {
	cp := func(b []byte) []byte {
		if b == nil {
			return nil
		}
		return append([]byte{}, b...)
	}
	r.Host, r.ClientIP, r.Method, r.Target = cp(r.Host), cp(r.ClientIP), cp(r.Method), cp(r.Target)
	r.Protocol, r.Referer, r.UserAgent = cp(r.Protocol), cp(r.Referer), cp(r.UserAgent)
	return r
}

// sampleWant is what a test expects of one sample file: exact counts, the
// rejected lines by reason, and checks on some parsed rows.
type sampleWant struct {
	format     string
	file       string
	lines      int
	parsed     int
	directives int
	rejected   map[Reason][]int
	check      func(t *testing.T, rows []Row)
}

func runSampleWants(t *testing.T, wants []sampleWant) {
	for _, w := range wants {
		t.Run(strings.ReplaceAll(w.file, "/", "_"), func(t *testing.T) {
			res := sampleParseFile(t, w.format, w.file)
			if res.lines != w.lines || res.parsed != w.parsed || res.directives != w.directives {
				t.Errorf("lines/parsed/directives = %d/%d/%d, want %d/%d/%d",
					res.lines, res.parsed, res.directives, w.lines, w.parsed, w.directives)
			}
			if res.lines != res.parsed+res.directives+sampleCount(res.rejected) {
				t.Errorf("lines %d != parsed %d + directives %d + rejected %d", res.lines, res.parsed, res.directives, sampleCount(res.rejected))
			}
			if len(res.rejected) != len(w.rejected) {
				t.Errorf("rejected = %v, want %v", res.rejected, w.rejected)
			} else {
				for reason, lines := range w.rejected {
					if got := res.rejected[reason]; !equalInts(got, lines) {
						t.Errorf("rejected %q on lines %v, want %v", reason, got, lines)
					}
				}
			}
			if w.check != nil && len(res.rows) > 0 {
				w.check(t, res.rows)
			}
		})
	}
}

func sampleCount(m map[Reason][]int) int {
	n := 0
	for _, v := range m {
		n += len(v)
	}
	return n
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// xWantRow checks one row of a sample against its expected view.
func xWantRow(i int, want xRow) func(t *testing.T, rows []Row) {
	return func(t *testing.T, rows []Row) {
		t.Helper()
		if i >= len(rows) {
			t.Fatalf("row %d: only %d rows", i, len(rows))
		}
		if got := xView(t, &rows[i]); got != want {
			t.Errorf("row %d\n got %+v\nwant %+v", i, got, want)
		}
	}
}

func TestSamplesW3C(t *testing.T) {
	ftp := []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22}
	runSampleWants(t, []sampleWant{
		{format: "w3c", file: "format-samples/iis-w3c/lnav-logfile_w3c_big.0.log", lines: 254, parsed: 210, directives: 44,
			check: xWantRow(0, xRow{Time: "2015-01-13T00:32:17Z", IP: "157.55.39.146", Method: "GET", Target: "/robots.txt", Status: 404, Bytes: 1405, UserAgent: bingUA})},
		{format: "w3c", file: "format-samples/iis-w3c/lnav-logfile_w3c.0.log", lines: 5, parsed: 1, directives: 4,
			check: xWantRow(0, xRow{Time: "2002-05-02T17:42:15Z", IP: "172.22.255.255", Method: "GET", Target: "/images/picture.jpg", Status: 200, Bytes: -1,
				UserAgent: "Mozilla/4.0 (compatible;MSIE 5.5; Windows 2000 Server)"})},
		{format: "w3c", file: "format-samples/iis-w3c/lnav-logfile_w3c.1.log", lines: 7, parsed: 1, directives: 6,
			check: xWantRow(0, xRow{Time: "2001-10-31T00:00:18Z", IP: "64.103.37.2", Method: "GET", Target: "/admin/images/oc_bottomleft.gif", Status: 200, Bytes: 350,
				Referer: "http://www.oracle.com/nl/partner/content.html", UserAgent: "Mozilla/4.5 [en] (WinNT; I)"})},
		// An IIS FTP log: every data line is an FTP command, not an HTTP request.
		{format: "w3c", file: "format-samples/iis-w3c/lnav-logfile_w3c.2.log", lines: 22, parsed: 0, directives: 8,
			rejected: map[Reason][]int{ErrBadRequestLine: ftp}},
		// Line 9 logs "-" for c-ip.
		{format: "w3c", file: "format-samples/iis-w3c/lnav-logfile_w3c.3.log", lines: 7, parsed: 2, directives: 4,
			rejected: map[Reason][]int{ErrBadClientIP: {9}},
			check: xWantRow(1, xRow{Time: "2012-08-15T17:00:00.675Z", Host: "hello.example.com", IP: "173.5.0.0", Method: "GET", Target: "/hello/world/6,681965", Status: 404, Bytes: -1,
				UserAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/37.0.2062.124 Safari/537.36"})},
		{format: "w3c", file: "format-samples/iis-w3c/lnav-logfile_w3c.4.log", lines: 6, parsed: 2, directives: 4,
			check: xWantRow(0, xRow{Time: "2017-06-28T07:26:35Z", Host: "www.example.com", IP: "123.123.123.123", Method: "GET", Target: "/page.php?variable=test", Proto: "HTTP", Status: 200, Bytes: -1,
				UserAgent: "Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/58.0.3029.110 Safari/537.36"})},
		// The #Fields line names 6 fields, the data line has 17.
		{format: "w3c", file: "format-samples/iis-w3c/lnav-logfile_w3c.5.log", lines: 2, parsed: 0, directives: 1,
			rejected: map[Reason][]int{ErrFieldCount: {2}}},
		{format: "w3c", file: "format-samples/iis-w3c/lnav-logfile_w3c.6.log", lines: 5, parsed: 1, directives: 4},
		// IIS logging to the Windows event log (XML), not W3C.
		{format: "w3c", file: "format-samples/iis-w3c/crowdsec-iis-xml-logs.log", lines: 1, parsed: 0,
			rejected: map[Reason][]int{ErrNotThisFormat: {1}}},
	})
}

func TestSamplesALB(t *testing.T) {
	runSampleWants(t, []sampleWant{
		{format: "alb", file: "format-samples/aws-alb/crowdsec-aws-alb-logs.log", lines: 14, parsed: 14,
			check: xWantRow(1, xRow{Time: "2023-04-26T12:23:00.186641Z", Host: "www.example.com", IP: "192.168.1.11", Method: "GET", Target: "/robots.txt", Proto: "HTTP/1.1",
				Status: 200, Bytes: 57, UserAgent: "curl/7.46.0"})},
		{format: "alb", file: "format-samples/aws-alb/crowdsec-aws-alb-http-bad-user-agent.log", lines: 4, parsed: 4,
			check: xWantRow(1, xRow{Time: "2023-04-26T12:23:14.948827Z", Host: "10.0.2.105:773", IP: "192.168.1.100", Method: "HEAD", Target: "/index.html", Proto: "HTTP/1.1",
				Status: 200, Bytes: 257, UserAgent: "Mozilla/5.00 (Nikto/2.1.5) (Evasions:None) (Test:Port Check)"})},
	})
}

func TestSamplesCloudFront(t *testing.T) {
	runSampleWants(t, []sampleWant{
		{format: "cloudfront", file: "format-samples/aws-cloudfront/crowdsec-aws-cloudfront-logs.log", lines: 2, parsed: 2,
			check: xWantRow(0, xRow{Time: "2024-03-12T15:22:28Z", Host: "hub-cdn.crowdsec.net", IP: "1.2.3.4", Method: "GET", Target: "/testseb?query_param=42", Proto: "HTTP/2.0",
				Status: 400, Bytes: 703, UserAgent: "curl/7.81.0"})},
	})
}

func TestSamplesJSON(t *testing.T) {
	var startup []int
	for i := 1; i <= 36; i++ {
		if i != 16 {
			startup = append(startup, i)
		}
	}
	runSampleWants(t, []sampleWant{
		// Line 11 is a reverse_proxy debug message, not a request.
		{format: "jsonl", file: "format-samples/caddy-json/crowdsec-caddy-logs.log", lines: 11, parsed: 10,
			rejected: map[Reason][]int{ErrNotThisFormat: {11}},
			check: xWantRow(0, xRow{Time: "2023-09-04T15:19:51.756499Z", Host: "127.0.0.1:8080", IP: "127.0.0.1", Method: "GET", Target: "/", Proto: "HTTP/1.0",
				Status: 0, Bytes: 0, UserAgent: "curl/7.74.0", FF: "127.0.0.1"})},
		// Caddy's startup and shutdown messages behind a docker compose prefix.
		{format: "jsonl", file: "format-samples/caddy-json/lnav-logfile_caddy_log.0.log", lines: 39, parsed: 4,
			rejected: map[Reason][]int{ErrNotThisFormat: startup},
			check: xWantRow(0, xRow{Time: "2025-10-21T04:10:28.615395Z", Host: "localhost", IP: "172.19.0.1", Method: "GET", Target: "/", Proto: "HTTP/1.1",
				Status: 304, Bytes: 0, UserAgent: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:142.0) Gecko/20100101 Firefox/142.0"})},
		{format: "jsonl", file: "format-samples/caddy-json/lnav-logfile_caddy_log.1.log", lines: 4, parsed: 4,
			check: xWantRow(1, xRow{Time: "2024-05-26T11:43:50.508136Z", Host: "mirrors.tnonline.net:400", IP: "10.10.10.134", Method: "GET",
				Target: "/gentoo/gentoo-portage/app-emulation/metadata.xml", Proto: "HTTP/2.0", Status: 200, Bytes: 446,
				UserAgent: "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", FF: "10.10.10.134"})},
		{format: "jsonl", file: "format-samples/cloudflare-json/lnav-logfile_cloudflare.json", lines: 1, parsed: 1,
			check: xWantRow(0, xRow{Time: "2022-10-30T00:00:02Z", Host: "www.ripe.net", IP: "87.226.160.250", Method: "HEAD", Target: "/", Proto: "HTTP/1.1", Status: 301, Bytes: 570})},
		// Line 6 is a plugin's plain-text debug line; line 7 logs ClientHost
		// as an X-Forwarded-For list.
		{format: "jsonl", file: "format-samples/traefik/crowdsec-traefik_json.log", lines: 7, parsed: 6,
			rejected: map[Reason][]int{ErrNotThisFormat: {6}},
			check: func(t *testing.T, rows []Row) {
				xWantRow(0, xRow{Time: "2021-12-08T14:02:43.587782Z", Host: "test.docker.localhost", IP: "172.17.0.1", Method: "GET", Target: "/594VAEoi.save", Proto: "HTTP/1.1",
					Status: 200, Bytes: 357, UserAgent: "Nikto"})(t, rows)
				if got := string(rows[5].ClientIP); got != "192.168.1.100" {
					t.Errorf("X-Forwarded-For row: client %q, want 192.168.1.100", got)
				}
			}},
	})
}
