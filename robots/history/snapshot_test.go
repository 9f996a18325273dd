package history

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

// TestSnapshotRoundTrip checks that a history taken as a Snapshot, through
// JSON (as crawlaudit-beam ships it to its workers), rebuilds the same
// History for every form of src and --host.
func TestSnapshotRoundTrip(t *testing.T) {
	perHost := writeFiles(t, map[string]string{
		"example.com/2026-10-01T00:00:00Z.txt":     "User-agent: *\nDisallow: /a\n",
		"example.com/2026-10-15T00:00:00Z.txt":     "User-agent: *\nDisallow: /b\n",
		"example.com/notes.md":                     "skipped, with a warning",
		"www.example.com/2026-09-01T00:00:00Z.txt": "User-agent: *\nDisallow: /\n",
	})
	flat := writeFiles(t, map[string]string{
		"2026-10-01.txt":            "User-agent: *\nDisallow: /x\n",
		"2026-10-20T06:30:00Z.txt":  "User-agent: *\nDisallow: /y\n",
		"20261025T000000Z.txt":      "",
		"2026-10-26T00:00:00Z.json": "{}",
	})
	for _, c := range []struct {
		name, src string
		opt       Options
		at        string // an instant judged by both
		host      string
	}{
		{"per-host directory", perHost, Options{}, "2026-10-16T00:00:00Z", "example.com"},
		{"per-host directory, --host", perHost, Options{Host: "www.example.com"}, "2026-10-16T00:00:00Z", ""},
		{"flat directory", flat, Options{}, "2026-10-21T00:00:00Z", "any.example"},
		{"flat directory, --host", flat, Options{Host: "shop.example"}, "2026-10-21T00:00:00Z", ""},
		{"one file", filepath.Join(flat, "2026-10-01.txt"), Options{}, "2020-01-01T00:00:00Z", "any.example"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := Load(c.src, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(h.Snapshot())
			if err != nil {
				t.Fatal(err)
			}
			var s Snapshot
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatal(err)
			}
			got, err := FromSnapshot(s, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, h) {
				t.Errorf("rebuilt history differs:\n got %+v\nwant %+v", got, h)
			}
			id, ok := h.At(c.host, mustTime(t, c.at))
			if !ok {
				t.Fatalf("At(%q, %s): unaudited in the loaded history", c.host, c.at)
			}
			wantAt(t, got, c.host, c.at, string(h.Version(id).Data))
		})
	}
}
