package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/auditflags"
)

// TestPrivateTempDirTakesBeamsFile runs a pipeline on Prism in loopback
// mode, which leaves an empty beamloopbackworker-* file in the temporary
// directory (apache/beam#27569), between privateTempDir and its remove:
// the file is made in the private directory, and nothing of it is left
// in the temporary directory before it, whose TMPDIR is restored.
func TestPrivateTempDirTakesBeamsFile(t *testing.T) {
	outer := t.TempDir()
	t.Setenv("TMPDIR", outer)
	remove := privateTempDir()
	private := os.TempDir()
	if filepath.Dir(private) != outer {
		remove()
		t.Fatalf("TMPDIR is %q, want a directory in %q", private, outer)
	}
	opt := options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}}
	err := runAudit(t.Context(), &cliOptions{options: opt, json: true, quiet: true}, []string{sampleLog}, "prism", io.Discard)
	left, _ := filepath.Glob(filepath.Join(private, "beamloopbackworker-*"))
	remove()
	if err != nil {
		t.Fatal(err)
	}
	if len(left) == 0 {
		t.Error("the pipeline left no beamloopbackworker-* file in the private directory: the test does not see what it checks")
	}
	if got := os.Getenv("TMPDIR"); got != outer {
		t.Errorf("TMPDIR is %q after remove, want %q", got, outer)
	}
	if _, err := os.Stat(private); !os.IsNotExist(err) {
		t.Errorf("the private directory %s is still there (%v)", private, err)
	}
	if left, _ := filepath.Glob(filepath.Join(outer, "beamloopbackworker-*")); len(left) > 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}
