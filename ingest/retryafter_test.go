package ingest

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRetryAfterColumn: the response's Retry-After header reaches the
// retry_after column from the three places a log can carry it: Apache's
// %{Retry-After}o (mod_log_config: "%{VARNAME}o The contents of VARNAME:
// header line(s) in the reply"), nginx's $sent_http_retry_after
// (ngx_http_core_module, "$sent_http_name: arbitrary response header field")
// and a JSON log's key. Both forms of RFC 9110 §10.2.3 are kept as logged;
// "-" and a missing key are null.
func TestRetryAfterColumn(t *testing.T) {
	cases := []struct {
		name, layout, log string
		want              []string
	}{
		{
			name:   "apache %{Retry-After}o",
			layout: `%h %t "%r" %>s %b "%{Retry-After}o" "%{User-Agent}i"`,
			log: `192.0.2.1 [01/Oct/2026:00:00:00 +0000] "GET / HTTP/1.1" 503 10 "120" "Bot/1.0"
192.0.2.1 [01/Oct/2026:00:00:01 +0000] "GET / HTTP/1.1" 503 10 "Fri, 31 Dec 1999 23:59:59 GMT" "Bot/1.0"
192.0.2.1 [01/Oct/2026:00:00:02 +0000] "GET / HTTP/1.1" 200 10 "-" "Bot/1.0"
`,
			want: []string{"120", "Fri, 31 Dec 1999 23:59:59 GMT", "<nil>"},
		},
		{
			name:   "nginx $sent_http_retry_after",
			layout: `$remote_addr [$time_local] "$request" $status $body_bytes_sent "$sent_http_retry_after" "$http_user_agent"`,
			log: `192.0.2.1 [01/Oct/2026:00:00:00 +0000] "GET / HTTP/1.1" 429 10 "30" "Bot/1.0"
192.0.2.1 [01/Oct/2026:00:00:02 +0000] "GET / HTTP/1.1" 200 10 "" "Bot/1.0"
`,
			want: []string{"30", "<nil>"},
		},
		{
			name: "json",
			log: `{"time":"2026-10-01T00:00:00Z","remote_addr":"192.0.2.1","request_uri":"/","status":503,"sent_http_retry_after":"60","http_user_agent":"Bot/1.0"}
{"time":"2026-10-01T00:00:01Z","remote_addr":"192.0.2.1","request_uri":"/","status":503,"resp_headers":{"Retry-After":["90"]},"http_user_agent":"Bot/1.0"}
{"time":"2026-10-01T00:00:02Z","remote_addr":"192.0.2.1","request_uri":"/","status":200,"http_user_agent":"Bot/1.0"}
`,
			want: []string{"60", "90", "<nil>"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			opts := Options{Stdin: strings.NewReader(c.log), LogFormat: c.layout, BatchRows: 2, Workers: 1, Allocator: mem}
			var got []string
			acc, err := Run(context.Background(), []string{"-"}, opts, func(rec arrow.RecordBatch) error {
				for i := range int(rec.NumRows()) {
					got = append(got, strAt(rec.Column(ColRetryAfter), i))
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("retry_after %q, want %q (accounting %+v)", got, c.want, acc)
			}
		})
	}
}
