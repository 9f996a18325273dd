package history

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// TestRealWikipediaHistory loads the 20 committed versions of Wikimedia's
// robots.txt and checks them against the manifest kept beside them (which
// Load itself skips).
func TestRealWikipediaHistory(t *testing.T) {
	dir := shareddata.Path(t, "robots-history/wikipedia.org")
	h, err := Load(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := h.Warnings(); len(w) != 1 || !strings.Contains(w[0], "manifest.json") {
		t.Errorf("warnings = %q, want only manifest.json skipped", w)
	}
	var manifest []struct {
		File       string `json:"file"`
		CommitDate string `json:"commit_date"`
		Bytes      int    `json:"bytes"`
		SHA256     string `json:"sha256"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	vs := h.Versions("")
	if len(vs) != len(manifest) || len(vs) != 20 {
		t.Fatalf("%d versions, manifest lists %d, want 20", len(vs), len(manifest))
	}
	byFile := map[string]int{}
	for i, m := range manifest {
		byFile[m.File] = i
	}
	for i, v := range vs {
		if i > 0 && !vs[i-1].Start.Before(v.Start) {
			t.Errorf("versions not sorted: %s then %s", vs[i-1].Name, v.Name)
		}
		base := filepath.Base(v.Name)
		if got := v.Start.Format(time.RFC3339) + ".txt"; got != base {
			t.Errorf("version %s starts at %s", base, got)
		}
		m := manifest[byFile[base]]
		cd, err := time.Parse(time.RFC3339, m.CommitDate)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(v.Data)
		if !cd.Equal(v.Start) || len(v.Data) != m.Bytes || hex.EncodeToString(sum[:]) != m.SHA256 {
			t.Errorf("%s: start %s, %d bytes, sha256 %x; manifest says %s, %d, %s", base, v.Start, len(v.Data), sum, m.CommitDate, m.Bytes, m.SHA256)
		}
	}
	// The version in effect between two commits, at and before a boundary.
	wantAt(t, h, "en.wikipedia.org", "2012-05-09T21:29:10Z", "")
	for i := 1; i < len(vs); i++ {
		id, ok := h.At("en.wikipedia.org", vs[i].Start)
		if !ok || id != vs[i].ID {
			t.Errorf("At(%s) = %d, %v; want %d", vs[i].Start, id, ok, vs[i].ID)
		}
		id, ok = h.At("en.wikipedia.org", vs[i].Start.Add(-time.Microsecond))
		if !ok || id != vs[i-1].ID {
			t.Errorf("At(%s - 1µs) = %d, %v; want %d", vs[i].Start, id, ok, vs[i-1].ID)
		}
	}
}

// TestRealHistoryRoot loads the whole robots-history directory as the
// per-host layout: one subdirectory per site, each with its manifest.
func TestRealHistoryRoot(t *testing.T) {
	dir := shareddata.Path(t, "robots-history")
	h, err := Load(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*.txt"))
		vs := h.Versions(e.Name())
		if len(vs) != len(files) {
			t.Errorf("%s: %d versions, %d files", e.Name(), len(vs), len(files))
		}
		total += len(files)
		for i := 1; i < len(vs); i++ {
			if !vs[i-1].Start.Before(vs[i].Start) {
				t.Errorf("%s: not sorted at %s", e.Name(), vs[i].Name)
			}
		}
	}
	if len(h.All()) != total || h.NumHosts() < 17 {
		t.Errorf("%d versions over %d hosts, want %d over >= 17", len(h.All()), h.NumHosts(), total)
	}
	t.Logf("%d hosts, %d versions, %d warnings", h.NumHosts(), len(h.All()), len(h.Warnings()))
	wantAt(t, h, "WWW.OpenStreetMap.org:443", "2006-07-28T00:00:00Z", "")
	if _, ok := h.At("openstreetmap.org", time.Now()); ok {
		t.Error("openstreetmap.org (without www.) has a version; www. must not be stripped")
	}
	if _, ok := h.At("www.openstreetmap.org", time.Now()); !ok {
		t.Error("www.openstreetmap.org has no version now")
	}
}
