package objstore

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/fakes3"
)

func day(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestKeyTime: the keys are the delivery services' own examples.
func TestKeyTime(t *testing.T) {
	const (
		cloudFrontDoc = "https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/AccessLogs.html#AccessLogsFileNaming"
		albDoc        = "https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-access-logs.html"
		logpushDoc    = "https://developers.cloudflare.com/logs/reference/logpush-api-configuration/"
	)
	tests := []struct {
		source string
		key    string
		start  string // "" when the key carries no date
		span   time.Duration
	}{
		// "example-prefix/EMLARXS9EXAMPLE.2019-11-14-20.RT4KCN4SGK9.gz": date and hour in UTC.
		{cloudFrontDoc, "example-prefix/EMLARXS9EXAMPLE.2019-11-14-20.RT4KCN4SGK9.gz", "2019-11-14T20:00:00Z", time.Hour},
		{cloudFrontDoc + " (no prefix)", "EMLARXS9EXAMPLE.2019-11-14-20.RT4KCN4SGK9.gz", "2019-11-14T20:00:00Z", time.Hour},
		// The file names of the access logs, with and without a prefix.
		{albDoc, "logging-prefix/AWSLogs/123456789012/elasticloadbalancing/us-east-2/2022/05/01/123456789012_elasticloadbalancing_us-east-2_app.my-loadbalancer.1234567890abcdef_20220215T2340Z_172.160.001.192_20sg8hgm.log.gz", "2022-05-01T00:00:00Z", 24 * time.Hour},
		{albDoc, "AWSLogs/123456789012/elasticloadbalancing/us-east-2/2022/05/01/123456789012_elasticloadbalancing_us-east-2_app.my-loadbalancer.1234567890abcdef_20220215T2340Z_172.160.001.192_20sg8hgm.log.gz", "2022-05-01T00:00:00Z", 24 * time.Hour},
		// {DATE} in "s3://mybucket/logs/{DATE}" becomes "20180523"; the
		// file name under it is Logpush's start_end_random pattern.
		{logpushDoc, "logs/20180523/20180523T010000Z_20180523T010100Z_7b1f4e2a.log.gz", "2018-05-23T00:00:00Z", 24 * time.Hour},
		// A prefix of dates above the dated directory: the last date wins.
		{albDoc + " (dated prefix)", "2021/01/01/AWSLogs/123456789012/elasticloadbalancing/us-east-2/2022/05/01/x.log.gz", "2022-05-01T00:00:00Z", 24 * time.Hour},
		// No date the services write.
		{"plain name", "nginx/access.log.gz", "", 0},
		{"a date in the file name only (logrotate dateext)", "nginx/access.log-20261001.gz", "", 0},
		{"no such month", "AWSLogs/1/elasticloadbalancing/us-east-2/2022/13/01/x.log.gz", "", 0},
		{"no such day", "logs/20230230/x.log.gz", "", 0},
		{"a number, not a date", "shards/12345678/x.log.gz", "", 0},
		{"CloudFront-like, no such hour", "EMLARXS9EXAMPLE.2019-11-14-24.RT4KCN4SGK9.gz", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			start, span, ok := KeyTime(tt.key)
			if tt.start == "" {
				if ok {
					t.Fatalf("%s: KeyTime = %v, %v; want no date", tt.source, start, span)
				}
				return
			}
			if !ok || !start.Equal(day(tt.start)) || span != tt.span {
				t.Fatalf("%s: KeyTime = %v, %v, %v; want %s, %v", tt.source, start, span, ok, tt.start, tt.span)
			}
		})
	}
}

func TestPeriodExcludes(t *testing.T) {
	p := Period{From: day("2026-10-10T00:00:00Z"), To: day("2026-10-12T23:59:59Z")}
	tests := []struct {
		start string
		span  time.Duration
		want  bool
	}{
		{"2026-10-08T00:00:00Z", 24 * time.Hour, true},  // ends (with its margin) when the period starts
		{"2026-10-09T00:00:00Z", 24 * time.Hour, false}, // a day's margin before
		{"2026-10-11T00:00:00Z", 24 * time.Hour, false},
		{"2026-10-13T00:00:00Z", 24 * time.Hour, false}, // a day's margin after
		{"2026-10-14T00:00:00Z", 24 * time.Hour, true},
		{"2026-10-09T00:00:00Z", time.Hour, false}, // CloudFront hour: ends within a day of the start
		{"2026-10-08T23:00:00Z", time.Hour, true},  // ends a day before it, to the microsecond
		{"2026-10-13T23:00:00Z", time.Hour, false},
		{"2026-10-14T00:00:00Z", time.Hour, true},
	}
	for _, tt := range tests {
		if got := p.excludes(day(tt.start), tt.span); got != tt.want {
			t.Errorf("excludes(%s, %v) = %v, want %v", tt.start, tt.span, got, tt.want)
		}
	}
	if (Period{}).excludes(day("1999-01-01T00:00:00Z"), time.Hour) {
		t.Error("an open period excludes nothing")
	}
}

func TestName(t *testing.T) {
	tests := []struct{ raw, want string }{
		{"s3://logs/cf/?region=eu-west-1&endpoint=http://127.0.0.1:9000&use_path_style=true", "s3://logs/cf/"},
		{"https://logs.example.com/access.log.gz?X-Amz-Signature=abcdef0123456789&X-Amz-Credential=AKIA", "https://logs.example.com/access.log.gz"},
		{"https://user:hunter22@logs.example.com/a.log#frag", "https://logs.example.com/a.log"},
		{"azblob://container/logs/?sv=2020&sig=SECRETSIG", "azblob://container/logs/"},
		{"gs://bucket/2026/10/*.gz", "gs://bucket/2026/10/*.gz"},
		{"https://u:p@bad host/x?sig=1", "https://bad host/x"}, // not a URL url.Parse takes
	}
	for _, tt := range tests {
		if got := Name(tt.raw); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestIsURL(t *testing.T) {
	for s, want := range map[string]bool{
		"s3://b/": true, "GS://b/k": true, "azblob://c/k": true, "https://h/x": true, "http://h/x": true,
		"/var/log/nginx/access.log": false, "-": false, "s3:/b": false, "logs/s3://x": false, "ftp://h/x": false,
	} {
		if got := IsURL(s); got != want {
			t.Errorf("IsURL(%q) = %v", s, got)
		}
	}
}

// TestCleanErr: gocloud quotes the bucket URL, and some values of its
// query, in its errors (an "invalid value for role" names the value).
func TestCleanErr(t *testing.T) {
	raw := "s3://logs/cf/?region=eu-west-1&role=SECRET-ROLE-VALUE&token=tok-12345"
	inner := errors.New(`open bucket s3://logs?region=eu-west-1&role=SECRET-ROLE-VALUE&token=tok-12345: invalid value for role: must be a valid ARN (starts with 'arn:'): SECRET-ROLE-VALUE; tok-12345`)
	err := cleanErr(raw, inner)
	msg := err.Error()
	for _, secret := range []string{"SECRET-ROLE-VALUE", "tok-12345"} {
		if strings.Contains(msg, secret) {
			t.Errorf("the message holds %q: %s", secret, msg)
		}
	}
	if !strings.Contains(msg, "open bucket s3://logs:") || !strings.Contains(msg, "invalid value for role") {
		t.Errorf("the message lost what it says: %s", msg)
	}
	if errors.Unwrap(err) != nil {
		t.Error("a cleaned error must not hand out the original")
	}
	if !errors.Is(cleanErr(raw, context.Canceled), context.Canceled) {
		t.Error("a cancellation must stay one")
	}
}

func listNames(objs []Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Name)
	}
	return out
}

func TestExpandS3(t *testing.T) {
	srv := fakes3.Start(t, "logs")
	keys := []string{
		"cf/E2SAMPLE.2026-10-01-00.aaaa1111.gz",
		"cf/E2SAMPLE.2026-10-09-13.bbbb2222.gz",
		"cf/E2SAMPLE.2026-10-11-05.cccc3333.gz",
		"cf/E2SAMPLE.2026-10-20-23.dddd4444.gz",
		"cf/README.txt",
		"cf/.hidden.gz",
		"cf/sub/other.log",
		"alb/AWSLogs/123456789012/elasticloadbalancing/us-east-2/2026/10/11/123456789012_elasticloadbalancing_us-east-2_app.my-lb.1234567890abcdef_20261011T2340Z_172.160.001.192_20sg8hgm.log.gz",
		"plain.log",
	}
	for _, k := range keys {
		srv.Put(t, k, []byte("content of "+k+"\n"))
	}
	ctx := context.Background()
	st := &Store{}
	defer st.Close()
	skip := func(key string) string {
		if strings.HasSuffix(key, ".txt") {
			return "not a log file (.txt)"
		}
		if strings.Contains(key, "/.") {
			return "hidden file"
		}
		return ""
	}

	t.Run("prefix", func(t *testing.T) {
		objs, skipped, err := st.Expand(ctx, srv.URL("cf/"), Period{}, skip)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"s3://logs/cf/E2SAMPLE.2026-10-01-00.aaaa1111.gz", "s3://logs/cf/E2SAMPLE.2026-10-09-13.bbbb2222.gz",
			"s3://logs/cf/E2SAMPLE.2026-10-11-05.cccc3333.gz", "s3://logs/cf/E2SAMPLE.2026-10-20-23.dddd4444.gz", "s3://logs/cf/sub/other.log"}
		if got := listNames(objs); !slices.Equal(got, want) {
			t.Errorf("objects %q, want %q", got, want)
		}
		if len(skipped) != 2 || skipped[0].Name != "s3://logs/cf/.hidden.gz" || skipped[1].Reason != "not a log file (.txt)" {
			t.Errorf("skipped %+v", skipped)
		}
		for _, o := range objs {
			if o.Size != int64(len("content of \n")+len(strings.TrimPrefix(o.Name, "s3://logs/"))) {
				t.Errorf("%s: size %d", o.Name, o.Size)
			}
		}
	})
	t.Run("period", func(t *testing.T) {
		p := Period{From: day("2026-10-10T00:00:00Z"), To: day("2026-10-12T23:59:59Z")}
		objs, skipped, err := st.Expand(ctx, srv.URL("cf/"), p, skip)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"s3://logs/cf/E2SAMPLE.2026-10-09-13.bbbb2222.gz", "s3://logs/cf/E2SAMPLE.2026-10-11-05.cccc3333.gz", "s3://logs/cf/sub/other.log"}
		if got := listNames(objs); !slices.Equal(got, want) {
			t.Errorf("objects %q, want %q", got, want)
		}
		var dated []string
		for _, s := range skipped {
			if strings.Contains(s.Reason, "--from/--to") {
				dated = append(dated, s.Name+": "+s.Reason)
			}
		}
		wantDated := []string{
			"s3://logs/cf/E2SAMPLE.2026-10-01-00.aaaa1111.gz: its key dates it 2026-10-01 00:00 UTC, more than a day outside the audited period (--from/--to)",
			"s3://logs/cf/E2SAMPLE.2026-10-20-23.dddd4444.gz: its key dates it 2026-10-20 23:00 UTC, more than a day outside the audited period (--from/--to)",
		}
		if !slices.Equal(dated, wantDated) {
			t.Errorf("skipped by date %q, want %q", dated, wantDated)
		}
		// A bucket-wide listing reaches the ALB key's day too.
		objs, _, err = st.Expand(ctx, srv.URL(""), Period{From: day("2026-10-14T00:00:00Z")}, skip)
		if err != nil {
			t.Fatal(err)
		}
		if got := listNames(objs); !slices.Equal(got, []string{"s3://logs/cf/E2SAMPLE.2026-10-20-23.dddd4444.gz", "s3://logs/cf/sub/other.log", "s3://logs/plain.log"}) {
			t.Errorf("from 14 October: %q", got)
		}
	})
	t.Run("glob", func(t *testing.T) {
		objs, _, err := st.Expand(ctx, srv.URL("cf/E2SAMPLE.2026-10-1*.gz"), Period{}, skip)
		if err != nil {
			t.Fatal(err)
		}
		if got := listNames(objs); !slices.Equal(got, []string{"s3://logs/cf/E2SAMPLE.2026-10-11-05.cccc3333.gz"}) {
			t.Errorf("glob: %q", got)
		}
		// "*" matches within the last segment only: sub/other.log is not a
		// member of cf/*.
		objs, _, err = st.Expand(ctx, srv.URL("cf/*.log"), Period{}, skip)
		if err == nil || len(objs) != 0 {
			t.Errorf("cf/*.log: %q, %v; want no match", listNames(objs), err)
		} else if err.Error() != "no object matches the pattern" {
			t.Errorf("cf/*.log: %v", err)
		}
		// "?" starts the query: as a glob character it is written %3F.
		objs, _, err = st.Expand(ctx, srv.URL("cf/E2SAMPLE.2026-10-1%3F-05.*.gz"), Period{}, skip)
		if err != nil || !slices.Equal(listNames(objs), []string{"s3://logs/cf/E2SAMPLE.2026-10-11-05.cccc3333.gz"}) {
			t.Errorf("glob with %%3F: %q, %v", listNames(objs), err)
		}
		if _, _, err := st.Expand(ctx, srv.URL("cf/[.gz"), Period{}, skip); err == nil || !strings.Contains(err.Error(), "bad pattern") {
			t.Errorf("bad pattern: %v", err)
		}
	})
	t.Run("one object", func(t *testing.T) {
		// Named alone, an object is read whatever its name or date.
		objs, skipped, err := st.Expand(ctx, srv.URL("cf/README.txt"), Period{From: day("2030-01-01T00:00:00Z")}, skip)
		if err != nil || len(skipped) != 0 || len(objs) != 1 {
			t.Fatalf("%q %v %v", listNames(objs), skipped, err)
		}
		r, err := st.Open(ctx, &objs[0])
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(data) != "content of cf/README.txt\n" {
			t.Fatalf("read %q, %v", data, err)
		}
	})
	t.Run("errors", func(t *testing.T) {
		for _, tt := range []struct{ url, want string }{
			{srv.URL("cf/missing.gz"), "no such object (a URL ending in / reads every object under that prefix)"},
			{srv.URL("cf"), "no such object (a URL ending in / reads every object under that prefix)"},
			{srv.URL("nothing/"), "no object under this prefix"},
			{"s3:///cf/?region=us-east-1", "the URL names no bucket (write s3://BUCKET/PREFIX/ for every object under a prefix)"},
			{strings.Replace(srv.URL("cf/"), "logs", "nobucket", 1), "not found (check the bucket and the key)"},
			{srv.URL("cf/") + "&frobnicate=1", `unknown query parameter "frobnicate"`},
		} {
			_, _, err := st.Expand(ctx, tt.url, Period{}, skip)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: %v, want %q", Name(tt.url), err, tt.want)
			}
		}
	})
}

// TestNoSecretInErrors: neither the credentials of the environment nor
// the values of a URL's query appear in any error, whatever fails.
func TestNoSecretInErrors(t *testing.T) {
	srv := fakes3.Start(t, "logs")
	srv.Put(t, "a/x.log", []byte("x\n"))
	ctx := context.Background()
	st := &Store{}
	defer st.Close()
	const roleSecret = "arn-less-SECRET-role-0000"
	var msgs []string
	for _, u := range []string{
		srv.URL("a/") + "&role=" + roleSecret,
		srv.URL("a/") + "&kmskeyid=" + roleSecret + "&ssetype=bogus",
		strings.Replace(srv.URL("a/"), "logs", "nobucket", 1),
		srv.URL("a/missing.log"),
		"s3://logs/a/?endpoint=http://127.0.0.1:1&use_path_style=true&region=us-east-1&rate_limiter_capacity=" + roleSecret,
	} {
		_, _, err := st.Expand(ctx, u, Period{}, nil)
		if err == nil {
			t.Fatalf("%s: no error", Name(u))
		}
		msgs = append(msgs, err.Error())
	}
	// https: a presigned URL whose signature is its query.
	hs := httptest.NewServer(http.NotFoundHandler())
	defer hs.Close()
	const sig = "deadbeefcafe-SIGNATURE"
	for _, u := range []string{hs.URL + "/x.log.gz?X-Amz-Signature=" + sig, "http://127.0.0.1:1/x.log?sig=" + sig} {
		objs, _, err := st.Expand(ctx, u, Period{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Open(ctx, &objs[0]); err == nil {
			t.Fatalf("%s: no error", objs[0].Name)
		} else {
			msgs = append(msgs, err.Error())
		}
	}
	for _, m := range msgs {
		for _, secret := range []string{fakes3.SecretAccessKey, fakes3.SessionToken, roleSecret, sig} {
			if strings.Contains(m, secret) {
				t.Errorf("error holds a secret: %s", m)
			}
		}
	}
	if !strings.Contains(msgs[len(msgs)-2], "GET answered 404 Not Found") {
		t.Errorf("https 404: %s", msgs[len(msgs)-2])
	}
	t.Logf("messages:\n%s", strings.Join(msgs, "\n"))
}

// TestHTTPS reads one object over TLS, asking for it as stored: a gzip
// object stays gzip (the audit checks its integrity), whatever the server
// could do with Accept-Encoding.
func TestHTTPS(t *testing.T) {
	var gotAE string
	hs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAE = r.Header.Get("Accept-Encoding")
		if r.URL.Query().Get("sig") != "s3cr3t-sig" {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		w.Write([]byte{0x1f, 0x8b, 8, 0})
	}))
	defer hs.Close()
	st := &Store{HTTPClient: hs.Client()}
	raw := hs.URL + "/logs/access.log.gz?sig=s3cr3t-sig"
	objs, _, err := st.Expand(context.Background(), raw, Period{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if objs[0].Name != hs.URL+"/logs/access.log.gz" || objs[0].Size != -1 {
		t.Fatalf("object %+v", objs[0])
	}
	r, err := st.Open(context.Background(), &objs[0])
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(r)
	r.Close()
	if len(data) != 4 || data[0] != 0x1f || gotAE != "identity" {
		t.Fatalf("read % x with Accept-Encoding %q", data, gotAE)
	}
	bad := Object{Name: "x", url: hs.URL + "/logs/access.log.gz?sig=wrong"}
	if _, err := st.Open(context.Background(), &bad); err == nil || err.Error() != "GET answered 403 Forbidden" {
		t.Fatalf("403: %v", err)
	}
}

// TestOtherClouds: for gs:// and azblob://, a missing credential or a bad
// URL is an error that says so, at once and without network (listing and
// reading them: fakeclouds_test.go). gocloud's azblob opener reads the
// environment once a process, so Azure's missing credentials are not
// tested here: the stand-in of fakeclouds_test.go configures it.
func TestOtherClouds(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", "/nonexistent/crawlaudit-test-gcp.json")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st := &Store{}
	defer st.Close()
	for _, tt := range []struct{ url, want string }{
		{"gs://logs/2026/10/", "cannot open the bucket: no Google Cloud credentials found (set GOOGLE_APPLICATION_CREDENTIALS"},
		{"gs://logs/2026/10/", "crawlaudit-test-gcp.json"},
		{"gs://logs/2026/10/?frobnicate=1", "cannot open the bucket"},
		{"gs:///2026/", "the URL names no bucket (write gs://BUCKET/PREFIX/"},
		{"azblob://logs/cf/?frobnicate=1", "frobnicate"},
		{"azblob:///cf/", "the URL names no bucket (write azblob://BUCKET/PREFIX/"},
	} {
		_, _, err := st.Expand(ctx, tt.url, Period{}, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.url, err, tt.want)
		}
	}
	if ctx.Err() != nil {
		t.Fatal("an opening error took the network's time")
	}
}
