package wayback

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/robots/wayback/waybacktest"
)

const (
	v0 = "User-agent: *\nDisallow: /old/\n"
	v1 = "User-agent: *\nDisallow: /cart/\n"
	v2 = "User-agent: *\nDisallow: /cart/\n\nUser-agent: GPTBot\nDisallow: /\n"
	v3 = "User-agent: *\nDisallow: /cart/\nCrawl-delay: 5\n"
)

// quarterOpts returns the options of a fetch of www.example.com from a into
// a new directory, as fast as a test wants.
func quarterOpts(t *testing.T, a *waybacktest.Archive) Options {
	return Options{Host: "www.example.com", Dir: t.TempDir(), Archive: a.URL, Rate: 1000,
		Backoff: time.Millisecond, Now: func() time.Time { return time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC) }}
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestFetchQuarter rebuilds the versions of a quarter of captures (repeats,
// a redirect, a server error, a revisit, two 404s, a return to an earlier
// content, www. and http/https variants) and checks each version, its
// not_before, the captures without a version, that robots/history loads the
// directory, and that a second run fetches no body again.
func TestFetchQuarter(t *testing.T) {
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	opt := quarterOpts(t, a)
	res, err := Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		file, notBefore, lastSeen string
		status, captures          int
		body                      string
	}
	wants := []want{
		{"2026-08-02T09:30:15Z.txt", "", "2026-08-19T14:12:03Z", 200, 2, v0},
		{"2026-09-15T00:00:00Z.txt", "2026-08-19T14:12:03Z", "2026-09-23T08:11:22Z", 200, 2, v1},
		{"2026-10-10T12:00:00Z.txt", "2026-09-23T08:11:22Z", "2026-10-16T00:00:00Z", 200, 3, v2},
		{"2026-10-20T00:00:00Z.txt", "2026-10-16T00:00:00Z", "2026-10-20T00:00:00Z", 200, 1, v3},
		{"2026-11-03T12:00:00Z.txt", "2026-10-20T00:00:00Z", "2026-11-05T12:00:00Z", 404, 2, ""},
		{"2026-11-12T08:30:00Z.txt", "2026-11-05T12:00:00Z", "2026-11-12T08:30:00Z", 200, 1, v1},
	}
	vs := res.Manifest.Versions
	if len(vs) != len(wants) {
		t.Fatalf("%d versions, want %d: %+v", len(vs), len(wants), vs)
	}
	dir := filepath.Join(opt.Dir, "www.example.com")
	for i, w := range wants {
		v := vs[i]
		nb := ""
		if v.NotBefore != nil {
			nb = v.NotBefore.Format(time.RFC3339)
		}
		if v.File != w.file || nb != w.notBefore || v.LastSeen.Format(time.RFC3339) != w.lastSeen || v.Status != w.status || v.Captures != w.captures || v.Bytes != len(w.body) {
			t.Errorf("version %d = %s not_before %q last %s status %d captures %d bytes %d; want %s %q %s %d %d %d",
				i, v.File, nb, v.LastSeen.Format(time.RFC3339), v.Status, v.Captures, v.Bytes, w.file, w.notBefore, w.lastSeen, w.status, w.captures, len(w.body))
		}
		b, err := os.ReadFile(filepath.Join(dir, w.file))
		if err != nil || string(b) != w.body {
			t.Errorf("%s = %q, %v; want %q", w.file, b, err, w.body)
		}
	}
	if vs[1].Capture != a.URL+"/web/20260915000000id_/https://www.example.com/robots.txt" {
		t.Errorf("capture URL %s", vs[1].Capture)
	}
	var un []string
	for _, c := range res.Manifest.Unversioned {
		un = append(un, c.Time.Format(time.RFC3339)+" "+c.Status)
	}
	if want := []string{"2026-09-06T22:05:10Z 302", "2026-10-04T17:33:44Z 503"}; !slices.Equal(un, want) {
		t.Errorf("unversioned %q, want %q", un, want)
	}
	if got := a.BodyRequests.Load(); got != 4 {
		t.Errorf("%d body requests, want 4 (one per distinct content; the return to v1 reuses its body)", got)
	}
	if got := a.CDXRequests.Load(); got != 1 {
		t.Errorf("%d CDX requests, want 1", got)
	}
	if res.Requests != 5 || res.Fetched != 4 || res.Captures != 13 {
		t.Errorf("requests %d fetched %d captures %d, want 5, 4, 13", res.Requests, res.Fetched, res.Captures)
	}
	if _, err := os.Stat(filepath.Join(opt.Dir, ".www.example.com.captures")); !os.IsNotExist(err) {
		t.Errorf("the kept bodies outlive a complete fetch: %v", err)
	}

	// robots/history loads the directory, not_before included, no warning.
	h, err := history.Load(opt.Dir, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := h.Warnings(); len(w) > 0 {
		t.Errorf("history warnings %q", w)
	}
	hv := h.Versions("www.example.com")
	if len(hv) != 6 || !hv[2].NotBefore.Equal(ts("2026-09-23T08:11:22Z")) || !hv[0].NotBefore.IsZero() {
		t.Errorf("history versions %d, not_before of the third %v", len(hv), hv[2].NotBefore)
	}

	// A second run: the capture list again, no body.
	before, err := os.ReadFile(filepath.Join(dir, history.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	res2, err := Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.BodyRequests.Load(); got != 4 {
		t.Errorf("second run: %d body requests in all, want still 4", got)
	}
	if res2.Reused != 4 || res2.Fetched != 0 {
		t.Errorf("second run: reused %d fetched %d, want 4, 0", res2.Reused, res2.Fetched)
	}
	after, _ := os.ReadFile(filepath.Join(dir, history.ManifestName))
	if string(before) != string(after) {
		t.Errorf("second run changed versions.json:\n%s\n---\n%s", before, after)
	}
}

// TestFetchPages follows the CDX resumption key through pages of 5.
func TestFetchPages(t *testing.T) {
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	a.PageSize = 5
	opt := quarterOpts(t, a)
	res, err := Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.CDXRequests.Load(); got != 3 {
		t.Errorf("%d CDX requests, want 3 (13 captures, 5 a page)", got)
	}
	if len(res.Manifest.Versions) != 6 || res.Captures != 13 {
		t.Errorf("%d versions of %d captures, want 6 of 13", len(res.Manifest.Versions), res.Captures)
	}
}

// TestFetchFromTo asks the archive for October only: the first capture in
// it starts the first version, with no not_before.
func TestFetchFromTo(t *testing.T) {
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	opt := quarterOpts(t, a)
	opt.From, opt.To = ts("2026-10-01T00:00:00Z"), ts("2026-10-31T23:59:59Z")
	res, err := Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, v := range res.Manifest.Versions {
		files = append(files, v.File)
	}
	if want := []string{"2026-10-10T12:00:00Z.txt", "2026-10-20T00:00:00Z.txt"}; !slices.Equal(files, want) {
		t.Errorf("versions %q, want %q", files, want)
	}
	if res.Manifest.Versions[0].NotBefore != nil || res.Manifest.From != "2026-10-01T00:00:00Z" {
		t.Errorf("not_before %v, from %q", res.Manifest.Versions[0].NotBefore, res.Manifest.From)
	}
}

// TestFetchRetries answers 429 and 503 with Retry-After in both forms
// before the answer, and checks the waits honoured them and the rate held.
func TestFetchRetries(t *testing.T) {
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	var mu sync.Mutex
	n := 0
	a.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		n++
		switch n {
		case 1:
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			return true
		case 2:
			w.Header().Set("Retry-After", "Sat, 28 Nov 2026 08:00:30 GMT")
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		case 3:
			w.WriteHeader(http.StatusBadGateway) // no Retry-After: the backoff
			return true
		}
		return false
	}
	var waits []time.Duration
	sleepHook = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	defer func() { sleepHook = nil }()
	opt := quarterOpts(t, a)
	opt.Rate = 25
	start := time.Now()
	res, err := Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	// The clock of Options.Now says 08:00:00, so the date asks for 30 s.
	if want := []time.Duration{7 * time.Second, 30 * time.Second, 4 * time.Millisecond}; !slices.Equal(waits, want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
	if res.Requests != 8 {
		t.Errorf("%d requests, want 8 (3 refused, the list, 4 bodies)", res.Requests)
	}
	// 8 requests at 25 a second, the first at once: at least 7/25 s.
	if elapsed < 280*time.Millisecond {
		t.Errorf("8 requests took %v at --rate 25, want at least 280ms", elapsed)
	}
}

// dirState lists the files under dir with their contents, to check that a
// failed fetch changed nothing.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(filepath.Base(rel), ".www.example.com.captures") || strings.Contains(rel, ".captures/") {
			return nil // the bodies kept for the next run
		}
		b.WriteString(rel)
		if !fi.IsDir() {
			c, _ := os.ReadFile(p)
			b.WriteString("=" + string(c))
		}
		b.WriteString("\n")
		return nil
	})
	return b.String()
}

// TestFetchBadInput checks each bad answer of the archive: an error naming
// the URL, and the history directory untouched (absent, or as it was).
func TestFetchBadInput(t *testing.T) {
	big := "User-agent: *\n" + strings.Repeat("Disallow: /a-long-path-to-fill-the-file/\n", 13000)
	tests := []struct {
		name      string
		caps      []waybacktest.Capture
		intercept func(w http.ResponseWriter, r *http.Request) bool
		retries   int
		err       []string
	}{
		{
			name: "CDX answer not JSON",
			caps: waybacktest.Quarter(v0, v1, v2, v3),
			intercept: func(w http.ResponseWriter, r *http.Request) bool {
				if r.URL.Path == "/cdx/search/cdx" {
					w.Header().Set("Content-Type", "text/html")
					w.Write([]byte("<!DOCTYPE html><html><head><title>Internet Archive: Scheduled Maintenance</title>"))
					return true
				}
				return false
			},
			err: []string{"/cdx/search/cdx?", "url=www.example.com%2Frobots.txt", "the capture list is unreadable: not a JSON CDX answer", "Internet Archive"},
		},
		{
			name: "a capture that is an HTML error page",
			caps: []waybacktest.Capture{
				{Timestamp: "20261001000000", Original: "https://www.example.com/robots.txt", Status: "200", Body: v1},
				{Timestamp: "20261005000000", Original: "https://www.example.com/robots.txt", Status: "200", Body: "<!DOCTYPE html>\n<html><head><title>Wayback Machine</title></head>\n<body>Sorry.</body></html>\n"},
			},
			err: []string{"/web/20261005000000id_/https://www.example.com/robots.txt", "looks like an HTML page"},
		},
		{
			name: "a capture over 500 KiB",
			caps: []waybacktest.Capture{{Timestamp: "20261001000000", Original: "https://www.example.com/robots.txt", Status: "200", Body: big}},
			err:  []string{"/web/20261001000000id_/https://www.example.com/robots.txt", "over 500 KiB"},
		},
		{
			name: "no captures",
			caps: []waybacktest.Capture{{Timestamp: "20261001000000", Original: "https://other.example/robots.txt", Status: "200", Body: v1}},
			err:  []string{"/cdx/search/cdx?", "no captures of www.example.com/robots.txt"},
		},
		{
			name: "the archive stays down",
			caps: waybacktest.Quarter(v0, v1, v2, v3),
			intercept: func(w http.ResponseWriter, r *http.Request) bool {
				w.WriteHeader(http.StatusServiceUnavailable)
				return true
			},
			retries: 2,
			err:     []string{"/cdx/search/cdx?", "HTTP 503 Service Unavailable, still after 3 attempts", "try again later"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := waybacktest.New(t, tc.caps)
			a.Intercept = tc.intercept
			for _, existing := range []bool{false, true} {
				opt := quarterOpts(t, a)
				opt.Retries = tc.retries
				opt.Archive = a.URL
				if existing {
					// A history fetched before stays as it was.
					good := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
					o := opt
					o.Archive = good.URL
					if _, err := Fetch(context.Background(), o); err != nil {
						t.Fatal(err)
					}
				}
				before := dirState(t, opt.Dir)
				_, err := Fetch(context.Background(), opt)
				if err == nil {
					t.Fatal("no error")
				}
				for _, w := range tc.err {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				if after := dirState(t, opt.Dir); after != before {
					t.Errorf("existing=%v: the directory changed:\n%s\n---\n%s", existing, before, after)
				}
			}
		})
	}
}

// TestFetchResume stops a fetch on a capture the archive keeps failing,
// then runs again: only the bodies not read before are fetched.
func TestFetchResume(t *testing.T) {
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	failing := true
	a.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		if failing && strings.HasPrefix(r.URL.Path, "/web/20261010120000") {
			w.WriteHeader(http.StatusBadGateway)
			return true
		}
		return false
	}
	opt := quarterOpts(t, a)
	opt.Retries = 1
	_, err := Fetch(context.Background(), opt)
	if err == nil || !strings.Contains(err.Error(), "the 2 capture(s) read are kept") {
		t.Fatalf("error %v, want one saying 2 captures are kept", err)
	}
	if _, err := os.Stat(filepath.Join(opt.Dir, "www.example.com")); !os.IsNotExist(err) {
		t.Fatalf("a failed fetch wrote the host directory: %v", err)
	}
	if got := a.BodyRequests.Load(); got != 4 {
		t.Fatalf("%d body requests, want 4 (v0, v1, v2 twice)", got)
	}
	failing = false
	res, err := Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.BodyRequests.Load() - 4; got != 2 || res.Reused != 2 || res.Fetched != 2 {
		t.Errorf("resumed run: %d body requests, reused %d, fetched %d; want 2, 2, 2", got, res.Reused, res.Fetched)
	}
	if len(res.Manifest.Versions) != 6 {
		t.Errorf("%d versions, want 6", len(res.Manifest.Versions))
	}
}

// TestFetchRefusesForeignDir keeps a directory of the user's own versions.
func TestFetchRefusesForeignDir(t *testing.T) {
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	opt := quarterOpts(t, a)
	own := filepath.Join(opt.Dir, "www.example.com", "2026-01-01.txt")
	os.MkdirAll(filepath.Dir(own), 0o755)
	os.WriteFile(own, []byte(v0), 0o644)
	_, err := Fetch(context.Background(), opt)
	if err == nil || !strings.Contains(err.Error(), "holds files that history fetch did not write") {
		t.Fatalf("error %v", err)
	}
	if b, _ := os.ReadFile(own); string(b) != v0 {
		t.Errorf("the user's file was changed")
	}
}

// TestCheckHost refuses what is not a host name alone.
func TestCheckHost(t *testing.T) {
	for in, want := range map[string]string{"Example.COM": "example.com", "www.example.com.": "www.example.com"} {
		if got, err := checkHost(in); err != nil || got != want {
			t.Errorf("checkHost(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "https://example.com", "example.com/robots.txt", "example.com:8080", "user@example.com", "..", "."} {
		if _, err := checkHost(in); err == nil {
			t.Errorf("checkHost(%q) accepted", in)
		}
	}
}

// liveServer starts a TLS server on 127.0.0.1 answering /robots.txt with
// handler, and points the live fetch at it.
func liveServer(t *testing.T, handler http.HandlerFunc) {
	srv := httptest.NewTLSServer(handler)
	t.Cleanup(srv.Close)
	c := srv.Client()
	c.Transport.(*http.Transport).TLSClientConfig.MinVersion = tls.VersionTLS12
	liveTest.client = c
	liveTest.url = func(string) string { return srv.URL + "/robots.txt" }
	t.Cleanup(func() { liveTest.client, liveTest.url = nil, nil })
}

// TestFetchLive checks --live: a new content becomes a version dated now,
// the same content adds none, more than five redirects (RFC 9309 §2.3.1.2)
// make an empty, allow-all version, a 5xx adds none.
func TestFetchLive(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
		file    string
		bytes   int
		live    string
	}{
		{"new content", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("User-agent: *\nDisallow: /live/\n"))
		}, "2026-11-28T08:00:00Z.txt", len("User-agent: *\nDisallow: /live/\n"), "added as 2026-11-28T08:00:00Z.txt"},
		{"same as the newest", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(v1)) }, "", 0, "the same as the newest version"},
		{"five redirects then the file", func(w http.ResponseWriter, r *http.Request) {
			n := len(r.URL.Query().Get("n"))
			if n < 5 {
				http.Redirect(w, r, "/robots.txt?n="+strings.Repeat("x", n+1), http.StatusFound)
				return
			}
			w.Write([]byte("User-agent: *\nDisallow: /five/\n"))
		}, "2026-11-28T08:00:00Z.txt", len("User-agent: *\nDisallow: /five/\n"), "added as"},
		{"six redirects", func(w http.ResponseWriter, r *http.Request) {
			n := len(r.URL.Query().Get("n"))
			http.Redirect(w, r, "/robots.txt?n="+strings.Repeat("x", n+1), http.StatusMovedPermanently)
		}, "2026-11-28T08:00:00Z.txt", 0, "more than 5 consecutive redirects"},
		{"server error", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) }, "", 0, "HTTP 500: unreachable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			liveServer(t, tc.handler)
			a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
			opt := quarterOpts(t, a)
			opt.Live = true
			res, err := Fetch(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Live, tc.live) {
				t.Errorf("live %q, want it to contain %q", res.Live, tc.live)
			}
			vs := res.Manifest.Versions
			last := vs[len(vs)-1]
			if tc.file == "" {
				if len(vs) != 6 {
					t.Errorf("%d versions, want 6 (none added)", len(vs))
				}
				return
			}
			if len(vs) != 7 || last.File != tc.file || !last.Live || last.Bytes != tc.bytes || last.NotBefore == nil || !last.NotBefore.Equal(ts("2026-11-12T08:30:00Z")) {
				b, _ := json.Marshal(last)
				t.Errorf("%d versions, last %s; want 7, %s of %d bytes, not_before 2026-11-12T08:30:00Z", len(vs), b, tc.file, tc.bytes)
			}
		})
	}
}

// TestFetchLiveKept checks that the versions --live made survive later
// runs, with or without --live: the archive does not hold them, so the
// reads of the site are kept in versions.json and replayed.
func TestFetchLiveKept(t *testing.T) {
	content := "User-agent: *\nDisallow: /live/\n"
	liveServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(content)) })
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	opt := quarterOpts(t, a)
	opt.Live = true
	if _, err := Fetch(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	// A day later, without --live: the live version stays.
	opt.Live = false
	opt.Now = func() time.Time { return ts("2026-11-29T08:00:00Z") }
	res, err := Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	vs := res.Manifest.Versions
	if len(vs) != 7 || vs[6].File != "2026-11-28T08:00:00Z.txt" || !vs[6].Live || vs[6].Capture != liveTest.url("") {
		t.Fatalf("without --live: %d versions, last %+v; want the live one kept", len(vs), vs[len(vs)-1])
	}
	if b, _ := os.ReadFile(filepath.Join(opt.Dir, "www.example.com", vs[6].File)); string(b) != content {
		t.Errorf("live version file %q", b)
	}
	// Two days later with --live, the same content: a later last_seen, no
	// new version; then the site's file is gone (404): an empty version.
	opt.Live = true
	opt.Now = func() time.Time { return ts("2026-11-30T08:00:00Z") }
	res, err = Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	vs = res.Manifest.Versions
	if len(vs) != 7 || !vs[6].LastSeen.Equal(ts("2026-11-30T08:00:00Z")) || vs[6].Captures != 2 {
		t.Fatalf("same content: %d versions, last %+v", len(vs), vs[6])
	}
	liveServer(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	opt.Now = func() time.Time { return ts("2026-12-01T08:00:00Z") }
	if _, err = Fetch(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	opt.Live = false
	if res, err = Fetch(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	vs = res.Manifest.Versions
	if len(vs) != 8 || vs[7].Status != 404 || vs[7].Bytes != 0 || !vs[7].NotBefore.Equal(ts("2026-11-30T08:00:00Z")) {
		t.Fatalf("after a 404: %d versions, last %+v", len(vs), vs[len(vs)-1])
	}
	if n := len(res.Manifest.LiveChecks); n != 3 {
		t.Errorf("%d live checks kept, want 3", n)
	}
	if got := a.BodyRequests.Load(); got != 4 {
		t.Errorf("%d body requests over five runs, want 4", got)
	}
}

// TestFetchInterrupted cancels a fetch while it waits for a body: nothing
// is written, the bodies read are kept, and the next run reads only the
// others.
func TestFetchInterrupted(t *testing.T) {
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	ctx, cancel := context.WithCancel(context.Background())
	a.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		if strings.HasPrefix(r.URL.Path, "/web/20261020000000") && ctx.Err() == nil {
			cancel() // Ctrl-C while the fourth body is on its way
			<-r.Context().Done()
			return true
		}
		return false
	}
	opt := quarterOpts(t, a)
	if _, err := Fetch(ctx, opt); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if _, err := os.Stat(filepath.Join(opt.Dir, "www.example.com")); !os.IsNotExist(err) {
		t.Fatalf("an interrupted fetch wrote the host directory: %v", err)
	}
	es, _ := os.ReadDir(opt.Dir)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{".www.example.com.captures"}) {
		t.Errorf("left in DIR: %q, want only the kept bodies", names)
	}
	res, err := Fetch(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Fetched != 1 || res.Reused != 3 {
		t.Errorf("resumed: fetched %d reused %d, want 1, 3", res.Fetched, res.Reused)
	}
}

// TestFetchLocked stops a second fetch of one host while another runs.
func TestFetchLocked(t *testing.T) {
	a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
	opt := quarterOpts(t, a)
	lock, err := atomicfile.TryLock(filepath.Join(opt.Dir, "www.example.com"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	_, err = Fetch(context.Background(), opt)
	var le *atomicfile.LockedError
	if !errors.As(err, &le) {
		t.Fatalf("error %v, want a LockedError", err)
	}
	if a.CDXRequests.Load() != 0 {
		t.Errorf("a locked fetch asked the archive")
	}
}

// TestFetchLiveBad refuses a live file that is an HTML page or over 500 KiB,
// writing nothing.
func TestFetchLiveBad(t *testing.T) {
	for name, body := range map[string]string{
		"html":  "<!DOCTYPE html>\n<html><body>Welcome</body></html>\n",
		"large": "User-agent: *\n" + strings.Repeat("Disallow: /a-long-path-to-fill-the-file/\n", 13000),
	} {
		liveServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) })
		a := waybacktest.New(t, waybacktest.Quarter(v0, v1, v2, v3))
		opt := quarterOpts(t, a)
		opt.Live = true
		_, err := Fetch(context.Background(), opt)
		if err == nil || !strings.Contains(err.Error(), liveTest.url("")) || !strings.Contains(err.Error(), "without --live") {
			t.Errorf("%s: error %v, want one naming the live URL", name, err)
		}
		if _, err := os.Stat(filepath.Join(opt.Dir, "www.example.com")); !os.IsNotExist(err) {
			t.Errorf("%s: the host directory was written", name)
		}
	}
}
