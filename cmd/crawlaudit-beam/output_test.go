package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/fakes3"
)

// TestWriteAll: the files of --out are written as one set. Into a
// directory, a failure of any file leaves every file as it was (the
// renames wait for all, as audit --out's); in object storage, each object
// is whole or untouched and a failure stops the uploads after it, so that
// summary.json, last, is never this run's beside an older agents.json.
func TestWriteAll(t *testing.T) {
	ctx := context.Background()
	srv := fakes3.Start(t, "out")
	broken := errors.New("disk full")
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	fail := func(w io.Writer) error { io.WriteString(w, "half"); return broken }
	for _, out := range []output{{Place: filepath.Join(t.TempDir(), "out")}, {Place: srv.URL("audits/")}} {
		read := func(name string) string {
			b, err := out.read(ctx, name)
			if err != nil {
				return "(none)"
			}
			return string(b)
		}
		if err := out.writeAll(ctx, []outFile{{agentsFile, text("agents 1")}, {summaryFile, text("summary 1")}}); err != nil {
			t.Fatalf("%s: %v", out.Place, err)
		}
		if a, s := read(agentsFile), read(summaryFile); a != "agents 1" || s != "summary 1" {
			t.Fatalf("%s: agents %q, summary %q", out.Place, a, s)
		}
		// The first file fails: nothing is replaced, anywhere.
		if err := out.writeAll(ctx, []outFile{{agentsFile, fail}, {summaryFile, text("summary 2")}}); !errors.Is(err, broken) {
			t.Errorf("%s: the failed write returned %v", out.Place, err)
		}
		if a, s := read(agentsFile), read(summaryFile); a != "agents 1" || s != "summary 1" {
			t.Errorf("%s: after agents.json failed: agents %q, summary %q, want the first run's", out.Place, a, s)
		}
		// The last file fails.
		if err := out.writeAll(ctx, []outFile{{agentsFile, text("agents 3")}, {summaryFile, fail}}); !errors.Is(err, broken) {
			t.Errorf("%s: the failed write returned %v", out.Place, err)
		}
		wantAgents := "agents 1" // a directory renames both or neither
		if out.isURL() {
			wantAgents = "agents 3" // a bucket has no rename: uploaded before
		}
		if a, s := read(agentsFile), read(summaryFile); a != wantAgents || s != "summary 1" {
			t.Errorf("%s: after summary.json failed: agents %q, summary %q", out.Place, a, s)
		}
		if !out.isURL() {
			entries, err := os.ReadDir(out.Place)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if len(names) != 2 {
				t.Errorf("the directory holds %q: a temporary file was left", names)
			}
		}
	}
}
