package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSnapshotUpToDate: the embedded snapshot is what the generator writes
// from the committed input (run go generate ./webbotauth after changing
// the input).
func TestSnapshotUpToDate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "snapshot.json")
	if err := run("input", out); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	want, err := os.ReadFile("../../snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := withoutGenerator(string(got)), withoutGenerator(string(want)); g == "" || g != w {
		t.Fatalf("webbotauth/snapshot.json is stale: run go generate ./webbotauth")
	}
}

// withoutGenerator drops the line naming the generator's command, whose
// paths depend on where it was run.
func withoutGenerator(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.Contains(l, `"generator":`) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
