//go:build duckdb_arrow

package audit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	whatIfSampleRobots = "../testdata/sample/robots/www.example.com"
	whatIfSampleLog    = "../testdata/sample/access-2026-10.log.gz"
)

// TestWhatIfEqualsSecondAudit: --what-if on the sample month with a
// proposed robots.txt that disallows one more directory (the last version
// plus "Disallow: /blog/"). Per bot and host, the disallowed requests of a
// second audit with --robots FILE equal disallowed + in grace −
// newly_allowed + newly_disallowed of the first: --what-if must show what
// putting the file in place would have changed.
func TestWhatIfEqualsSecondAudit(t *testing.T) {
	versions, err := filepath.Glob(filepath.Join(whatIfSampleRobots, "*.txt"))
	if err != nil || len(versions) == 0 {
		t.Fatalf("no sample versions: %v", err)
	}
	last, err := os.ReadFile(versions[len(versions)-1])
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(last), "Disallow: /admin/\n", "Disallow: /admin/\nDisallow: /blog/\n", 1)
	if body == string(last) {
		t.Fatal("the sample's last version has no Disallow: /admin/ line to add /blog/ after")
	}
	t.Run("one more directory", func(t *testing.T) { whatIfVersusSecondAudit(t, body, true) })
	// And one that allows what every version disallowed: /search, for
	// every group, and all of Bytespider's.
	body = strings.ReplaceAll(string(last), "Disallow: /search\n", "")
	body = strings.Replace(body, "User-agent: Bytespider\nDisallow: /\n", "User-agent: Bytespider\nDisallow: /admin/\n", 1)
	t.Run("fewer rules", func(t *testing.T) { whatIfVersusSecondAudit(t, body, false) })
}

func whatIfVersusSecondAudit(t *testing.T, body string, stricter bool) {
	proposed := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(proposed, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := LoadWhatIf(proposed)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := Run(ctx, Config{Robots: "../testdata/sample/robots", Grace: 24 * time.Hour, WhatIf: f}, []string{whatIfSampleLog})
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := Run(ctx, Config{Robots: proposed, Host: "www.example.com", Grace: 24 * time.Hour}, []string{whatIfSampleLog})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()

	type key struct{ bot, host string }
	now := map[key]int64{}
	then := map[key]int64{}
	requests := map[key]int64{}
	for _, r := range first.Summary.Bots {
		now[key{r.Bot, r.Host}] += r.Disallowed + r.DisallowedInGrace
		requests[key{r.Bot, r.Host}] += r.Requests
	}
	for _, r := range second.Summary.Bots {
		then[key{r.Bot, r.Host}] += r.Disallowed
	}
	if len(first.Summary.WhatIf) != len(requests) {
		t.Errorf("%d what_if rows, want one per bot and host (%d)", len(first.Summary.WhatIf), len(requests))
	}
	var newlyDisallowed, newlyAllowed, blog int64
	for _, w := range first.Summary.WhatIf {
		k := key{w.Bot, w.Host}
		if got := now[k] - w.NewlyAllowed + w.NewlyDisallowed; got != then[k] {
			t.Errorf("%s on %s: %d disallowed now - %d newly allowed + %d newly disallowed = %d, but the second audit disallowed %d",
				w.Bot, w.Host, now[k], w.NewlyAllowed, w.NewlyDisallowed, got, then[k])
		}
		if w.Requests != requests[k] {
			t.Errorf("%s on %s: %d requests, the summary says %d", w.Bot, w.Host, w.Requests, requests[k])
		}
		var top int64
		for _, p := range w.TopPaths.NewlyDisallowed {
			top += p.Requests
		}
		if top > w.NewlyDisallowed || len(w.TopPaths.NewlyDisallowed) > whatIfTopPaths || (w.NewlyDisallowed > 0) != (top > 0) {
			t.Errorf("%s: top newly disallowed paths %v for %d requests", w.Bot, w.TopPaths.NewlyDisallowed, w.NewlyDisallowed)
		}
		for _, p := range w.TopPaths.NewlyDisallowed {
			if strings.HasPrefix(p.Path, "/blog/") {
				blog += p.Requests
			}
		}
		newlyDisallowed += w.NewlyDisallowed
		newlyAllowed += w.NewlyAllowed
	}
	// The sample's crawlers read /blog/ (4,354 requests, humans included);
	// the requests made before the last version (which added /beta/ and
	// /archive/) are newly disallowed too.
	if stricter && (blog == 0 || newlyDisallowed <= blog || newlyAllowed != 0) {
		t.Errorf("newly disallowed %d, of which /blog/ among the top paths %d, newly allowed %d: want /blog/ and more, and none allowed", newlyDisallowed, blog, newlyAllowed)
	}
	if !stricter && newlyAllowed == 0 {
		t.Errorf("no request newly allowed without the /search rules")
	}
	t.Logf("sample: %d newly disallowed, %d newly allowed over %d rows", newlyDisallowed, newlyAllowed, len(first.Summary.WhatIf))
}

func TestLoadWhatIfRefusesNonRobots(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"page.html": "<!DOCTYPE html><html><body>Not found</body></html>\n",
		"empty.txt": "# nothing\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadWhatIf(p); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
	}
}
