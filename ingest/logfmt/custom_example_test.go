package logfmt_test

import (
	"fmt"
	"time"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// An nginx log_format pasted from nginx.conf, compiled once and used to parse
// a line.
func ExampleNewCustom() {
	f, err := logfmt.NewCustom(`log_format main '$remote_addr - $remote_user [$time_local] "$request" ' '$status $body_bytes_sent "$http_referer" "$http_user_agent" $host';`)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := f.New()
	var r logfmt.Row
	line := `66.249.66.1 - - [25/Oct/2026:02:30:00 +0100] "GET /private/x?q=1 HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" www.example.com`
	if err := p.Parse([]byte(line), &r); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(time.UnixMicro(r.Time).UTC().Format(time.RFC3339), string(r.Host), string(r.ClientIP), string(r.Method), string(r.Target), r.Status, r.Bytes, r.Referer == nil)
	fmt.Println(string(r.UserAgent))

	_, err = logfmt.NewCustom(`$remote_addr $time_local $status "$request"`)
	fmt.Println(err)
	// Output:
	// 2026-10-25T01:30:00Z www.example.com 66.249.66.1 GET /private/x?q=1 200 512 true
	// Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)
	// cannot compile log format "$remote_addr $time_local $status \"$request\"": at offset 13: $time_local may hold spaces and is followed by a space: put it between quotes or brackets
}
