package verify

import (
	"context"
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
)

// fakeOperators serves range files by path, on 127.0.0.1 only.
type fakeOperators struct {
	mu           sync.Mutex
	files        map[string]string // path → body
	lastModified map[string]time.Time
	hits         []string
}

func (f *fakeOperators) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := r.URL.Path
	if r.URL.RawQuery != "" {
		p += "?" + r.URL.RawQuery
	}
	f.hits = append(f.hits, p)
	body, ok := f.files[p]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if lm, ok := f.lastModified[p]; ok {
		w.Header().Set("Last-Modified", lm.Format(http.TimeFormat))
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(body))
}

func (f *fakeOperators) set(p, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files[p] = body
}

func newFakeOperators(t *testing.T) (*fakeOperators, *httptest.Server) {
	f := &fakeOperators{files: make(map[string]string), lastModified: make(map[string]time.Time)}
	srv := httptest.NewServer(f) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	return f, srv
}

func resultOf(t *testing.T, res []UpdateResult, source string) UpdateResult {
	t.Helper()
	for _, r := range res {
		if r.Source == source {
			return r
		}
	}
	t.Fatalf("no result for %s in %+v", source, res)
	return UpdateResult{}
}

func TestUpdate(t *testing.T) {
	f, srv := newFakeOperators(t)
	gptV1 := `{"creationTime": "2026-04-11T16:28:41.000000", "prefixes": [{"ipv4Prefix": "74.7.227.0/24"}]}`
	gptV2 := `{"creationTime": "2026-09-01T10:00:00.000000", "prefixes": [{"ipv4Prefix": "74.7.227.0/24"}, {"ipv4Prefix": "4.227.36.0/25"}]}`
	f.set("/gptbot.json", gptV1)
	f.set("/static/crawling/ipranges/common-crawlers.json", `{"creationTime": "2026-08-21T14:45:42.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}`)
	f.set("/v3/public/crawler-ip-ranges", `{"prefixes": [{"ipv4Prefix": "5.39.1.224/27"}]}`)
	f.lastModified["/v3/public/crawler-ip-ranges"] = time.Date(2026, 8, 20, 17, 36, 54, 0, time.UTC)
	f.set("/perplexitybot.json", `<!doctype html><h1>Just a moment...</h1>`)

	dir := t.TempDir()
	opt := UpdateOptions{
		Sources: []string{"openai-gptbot", "google-common-crawlers", "ahrefs", "perplexitybot", "perplexity-user", "amazonbot", "yandex"},
		BaseURL: srv.URL,
	}
	res, err := Update(context.Background(), srv.Client(), dir, opt)
	if err == nil {
		t.Fatal("no error for the sources that failed")
	}
	for _, want := range []string{
		"perplexitybot: " + srv.URL + "/perplexitybot.json: not a range list of this shape: invalid character '<'",
		"perplexity-user: GET " + srv.URL + "/perplexity-user.json: 404 Not Found",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if len(res) != len(opt.Sources) {
		t.Fatalf("%d results", len(res))
	}

	gpt := resultOf(t, res, "openai-gptbot")
	wantFile := filepath.Join(dir, "openai-gptbot", "2026-04-11T16:28:41Z.json")
	if gpt.Err != nil || gpt.File != wantFile || gpt.Prefixes != 1 || gpt.URL != srv.URL+"/gptbot.json" || gpt.Unchanged {
		t.Errorf("gptbot: %+v", gpt)
	}
	if b, _ := os.ReadFile(wantFile); string(b) != gptV1 {
		t.Errorf("the file is not the body verbatim: %q", b)
	}
	ah := resultOf(t, res, "ahrefs")
	if ah.Err != nil || ah.File != filepath.Join(dir, "ahrefs", "2026-08-20T17:36:54Z.json") {
		t.Errorf("ahrefs (dated by Last-Modified): %+v", ah)
	}
	if pb := resultOf(t, res, "perplexitybot"); pb.Err == nil || pb.File != "" {
		t.Errorf("perplexitybot: %+v", pb)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "perplexitybot")); len(entries) != 0 {
		t.Errorf("a refused body was stored: %v", entries)
	}
	if am := resultOf(t, res, "amazonbot"); am.Skipped == "" || am.Err != nil {
		t.Errorf("amazonbot: %+v", am)
	}
	if y := resultOf(t, res, "yandex"); !strings.Contains(y.Skipped, "not published by the operator") {
		t.Errorf("yandex: %+v", y)
	}
	for _, h := range f.hits {
		if strings.Contains(h, "amazon") || strings.Contains(h, "13238") {
			t.Errorf("a skipped source was fetched: %s", h)
		}
	}

	// LoadDir reads back what Update wrote.
	r, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Check("GPTBot", addr("74.7.227.189"), us(t3)); c.Identity != Verified || c.Evidence != "in openai-gptbot list of 2026-04-11T16:28:41Z: 74.7.227.0/24" {
		t.Errorf("read back: %+v", c)
	}
	if c := r.Check("Googlebot", addr("2001:4860:4801:10::1"), us(time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC))); c.Identity != Verified {
		t.Errorf("read back: %+v", c)
	}
	if c := r.Check("AhrefsBot", addr("5.39.1.230"), us(time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC))); c.Identity != Verified {
		t.Errorf("read back: %+v", c)
	}

	// Unchanged lists are not rewritten; a changed one is added.
	stat := func(p string) time.Time {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	before := stat(wantFile)
	f.set("/static/crawling/ipranges/common-crawlers.json", `{"creationTime": "2026-08-22T14:45:42.000000", "prefixes": [{"ipv6Prefix": "2001:4860:4801:10::/64"}, {"ipv4Prefix": "66.249.64.0/27"}]}`)
	res, err = Update(context.Background(), srv.Client(), dir, UpdateOptions{Sources: []string{"openai-gptbot", "google-common-crawlers"}, BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !r.Unchanged || r.File != "" {
			t.Errorf("unchanged list: %+v", r)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "google-common-crawlers")); len(entries) != 1 {
		t.Errorf("a list with the same prefixes and a new creation time was stored: %v", entries)
	}
	if !stat(wantFile).Equal(before) {
		t.Error("an unchanged list was rewritten")
	}
	f.set("/gptbot.json", gptV2)
	res, err = Update(context.Background(), srv.Client(), dir, UpdateOptions{Sources: []string{"openai-gptbot"}, BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if got := res[0]; got.Unchanged || got.File != filepath.Join(dir, "openai-gptbot", "2026-09-01T10:00:00Z.json") {
		t.Errorf("changed list: %+v", got)
	}
	r, err = LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Source("openai-gptbot").Versions); n != 2 {
		t.Errorf("%d versions after the change", n)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "openai-gptbot"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}

func TestUpdateErrors(t *testing.T) {
	f, srv := newFakeOperators(t)
	dir := t.TempDir()
	if _, err := Update(context.Background(), srv.Client(), dir, UpdateOptions{Sources: []string{"googlebot"}, BaseURL: srv.URL}); err == nil ||
		!strings.Contains(err.Error(), `unknown range source "googlebot" (the sources are: google-common-crawlers`) {
		t.Errorf("unknown source: %v", err)
	}
	// A bad prefix is refused, naming the URL and the entry.
	f.set("/searchbot.json", `{"creationTime": "2026-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "20.42.10.176/28"}, {"ipv4Prefix": "20.42.10/28"}]}`)
	res, err := Update(context.Background(), srv.Client(), dir, UpdateOptions{Sources: []string{"openai-searchbot"}, BaseURL: srv.URL})
	want := srv.URL + `/searchbot.json: prefixes[1].ipv4Prefix "20.42.10/28": bad prefix`
	if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(res[0].Err, ErrPrefix) {
		t.Errorf("error %v, want %q", err, want)
	}
	// A body over the limit is refused.
	f.set("/ccbot.json", `{"creationTime": "2026-01-01T00:00:00Z", "prefixes": []}`)
	if _, err := Update(context.Background(), srv.Client(), dir, UpdateOptions{Sources: []string{"commoncrawl"}, BaseURL: srv.URL, MaxBytes: 10}); err == nil ||
		!strings.Contains(err.Error(), "larger than 10 bytes") {
		t.Errorf("limit: %v", err)
	}
	// A different list stored under the same creation time is not
	// overwritten.
	f.set("/ccbot.json", `{"creationTime": "2026-01-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "3.41.188.32/29"}]}`)
	writeFiles(t, dir, map[string]string{"commoncrawl/2026-01-01T00:00:00Z.json": `{"creationTime": "2026-01-01T00:00:00Z", "prefixes": []}`,
		"commoncrawl/2026-02-01T00:00:00Z.json": `{"creationTime": "2026-02-01T00:00:00Z", "prefixes": [{"ipv4Prefix": "18.97.9.168/29"}]}`})
	if _, err := Update(context.Background(), srv.Client(), dir, UpdateOptions{Sources: []string{"commoncrawl"}, BaseURL: srv.URL}); err == nil ||
		!strings.Contains(err.Error(), "already holds a different list created at the same time") {
		t.Errorf("same time: %v", err)
	}
	// A canceled context stops the update.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Update(ctx, srv.Client(), dir, UpdateOptions{BaseURL: srv.URL}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	if _, err := Update(context.Background(), srv.Client(), dir, UpdateOptions{Sources: []string{"commoncrawl"}, BaseURL: "not a url"}); err == nil ||
		!strings.Contains(err.Error(), `bad base URL "not a url"`) {
		t.Errorf("bad base URL: %v", err)
	}
}

// TestUpdateAll runs every source against a server that knows none: each
// fetched source fails with its own URL, none reaches another host.
func TestUpdateAll(t *testing.T) {
	f, srv := newFakeOperators(t)
	res, err := Update(context.Background(), srv.Client(), t.TempDir(), UpdateOptions{BaseURL: srv.URL})
	if err == nil {
		t.Fatal("no error")
	}
	if len(res) != len(SourceNames()) {
		t.Errorf("%d results for %d sources", len(res), len(SourceNames()))
	}
	var fetched []string
	for _, r := range res {
		if r.Skipped == "" {
			fetched = append(fetched, r.Source)
			if r.Err == nil || !strings.HasPrefix(r.URL, srv.URL+"/") {
				t.Errorf("%s: %+v", r.Source, r)
			}
		}
	}
	if len(f.hits) != len(fetched) || !slices.Contains(f.hits, "/v3/public/crawler-ip-ranges") || !slices.Contains(f.hits, "/toolbox/bingbot.json") {
		t.Errorf("hits %v for %v", f.hits, fetched)
	}
}

func TestRewriteURL(t *testing.T) {
	for _, tc := range []struct{ raw, base, want string }{
		{"https://openai.com/gptbot.json", "", "https://openai.com/gptbot.json"},
		{"https://openai.com/gptbot.json", "http://127.0.0.1:8080", "http://127.0.0.1:8080/gptbot.json"},
		{"https://api.seranking.com/backlinks-bot-ips?txt=1", "http://127.0.0.1:8080/mirror/", "http://127.0.0.1:8080/mirror/backlinks-bot-ips?txt=1"},
	} {
		if got, err := rewriteURL(tc.raw, tc.base); err != nil || got != tc.want {
			t.Errorf("rewriteURL(%q, %q) = %q, %v; want %q", tc.raw, tc.base, got, err, tc.want)
		}
	}
}

// TestUpdateRefuses: a download that is empty, a default route or most of
// the stored list cut away is not stored, and the stored list stays the
// newest; special-purpose entries among real ones are stored as published
// and reported.
func TestUpdateRefuses(t *testing.T) {
	f, srv := newFakeOperators(t)
	dir := t.TempDir()
	const path = "/static/crawling/ipranges/common-crawlers.json"
	good := `{"creationTime": "2026-08-21T14:45:42.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "66.249.64.32/27"}, {"ipv4Prefix": "66.249.65.0/27"}, {"ipv4Prefix": "66.249.66.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}`
	f.set(path, good)
	opt := UpdateOptions{Sources: []string{"google-common-crawlers"}, BaseURL: srv.URL}
	if _, err := Update(context.Background(), srv.Client(), dir, opt); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"empty", `{"creationTime": "2026-09-01T00:00:00.000000", "prefixes": []}`, "refused as implausible: it holds no prefix"},
		{"default_route", `{"creationTime": "2026-09-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "66.249.64.32/27"}, {"ipv4Prefix": "66.249.65.0/27"}, {"ipv4Prefix": "66.249.66.0/27"}, {"ipv4Prefix": "0.0.0.0/0"}]}`, "0.0.0.0/0, the default route"},
		{"cut", `{"creationTime": "2026-09-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}]}`, "it keeps 1 of the 5 prefixes of the list of 2026-08-21T14:45:42Z"},
		{"year_1970", `{"creationTime": "1970-01-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}]}`, "before 2000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.set(path, tc.body)
			res, err := Update(context.Background(), srv.Client(), dir, opt)
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.want) || res[0].File != "" {
				t.Fatalf("error %v, result %+v; want refused with %q", err, res[0], tc.want)
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, "google-common-crawlers")); len(entries) != 1 {
				t.Errorf("a refused list was stored: %v", entries)
			}
		})
	}
	f.set(path, strings.Replace(good, `"2026-08-21T14:45:42.000000", "prefixes": [`, `"2026-09-01T00:00:00.000000", "prefixes": [{"ipv4Prefix": "10.0.0.0/8"}, `, 1))
	res, err := Update(context.Background(), srv.Client(), dir, opt)
	if err != nil || res[0].File == "" || len(res[0].Dropped) != 1 || !strings.Contains(res[0].Dropped[0], "10.0.0.0/8 is private-use") {
		t.Fatalf("a list with one private entry: %v, %+v", err, res[0])
	}
	r, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Check("Googlebot", addr("10.1.2.3"), us(time.Date(2026, 9, 2, 0, 0, 0, 0, time.UTC))); c.Identity == Verified {
		t.Errorf("a private address was verified: %+v", c)
	}
	if d := r.Info()[0].Dropped; len(d) != 1 {
		t.Errorf("dropped %+v", d)
	}
}
