package atomicfile

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestSweepStale(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	files := map[string]bool{ // name: removed by the sweep
		fmt.Sprintf(".summary.json.tmp-%d-123456", dead):        true,  // a killed run's staged file
		fmt.Sprintf(".audit.duckdb.tmp-%d-0badf00d", dead):      true,  // its database ...
		fmt.Sprintf(".audit.duckdb.tmp-%d-0badf00d.wal", dead):  true,  // ... and its write-ahead log
		fmt.Sprintf(".summary.json.tmp-%d-654321", os.Getpid()): false, // this (running) process's
		"summary.json":                             false, // a real output
		".hidden.tmp-notapid-1":                    false, // not ours
		fmt.Sprintf("summary.json.tmp-%d-1", dead): false, // not hidden: not ours
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, fmt.Sprintf(".audit.duckdb.tmp-%d-0badf00d.tmp", dead)), 0o755) // DuckDB's spill directory
	removed := SweepStale(dir)
	if len(removed) != 4 {
		t.Errorf("removed %v, want 4 names", removed)
	}
	for name, gone := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone != os.IsNotExist(err) {
			t.Errorf("%s: removed = %v, want %v", name, os.IsNotExist(err), gone)
		}
	}
}

func TestTempPathRename(t *testing.T) {
	dir := t.TempDir()
	final := filepath.Join(dir, "audit.duckdb")
	os.WriteFile(final, []byte("old"), 0o644)
	os.WriteFile(final+".wal", []byte("stale log of the old file"), 0o644)

	tmp := TempPath(final)
	if pid, ok := tempPID(filepath.Base(tmp)); !ok || pid != os.Getpid() {
		t.Fatalf("TempPath = %s: pid %d, %v", tmp, pid, ok)
	}
	os.WriteFile(tmp, []byte("new"), 0o644)
	os.WriteFile(tmp+".wal", []byte("log"), 0o644)
	if err := Rename(tmp, final); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(final); string(b) != "new" {
		t.Errorf("final = %q", b)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"audit.duckdb"}) {
		t.Errorf("after Rename: %v (the old file's log and the temporary log must be gone)", got)
	}

	// An abandoned one is removed with its companions, and by RemoveTemporary.
	tmp = TempPath(final)
	os.WriteFile(tmp, []byte("half"), 0o644)
	os.Mkdir(tmp+".tmp", 0o755)
	tmp2 := TempPath(final)
	os.WriteFile(tmp2, []byte("half"), 0o644)
	if err := Remove(tmp); err != nil {
		t.Fatal(err)
	}
	RemoveTemporary()
	if got := dirNames(t, dir); !slices.Equal(got, []string{"audit.duckdb"}) {
		t.Errorf("after Remove and RemoveTemporary: %v", got)
	}
}

// TestRemoveTemporaryStaged: the files a Staged has written but not yet
// committed are removed by RemoveTemporary (a second Ctrl-C).
func TestRemoveTemporaryStaged(t *testing.T) {
	dir := t.TempDir()
	s := NewStaged(dir)
	for _, n := range []string{"a", "b"} {
		if err := s.Write(n, func(w io.Writer) error { _, err := w.Write([]byte(n)); return err }); err != nil {
			t.Fatal(err)
		}
	}
	if len(dirNames(t, dir)) != 2 {
		t.Fatalf("staged: %v", dirNames(t, dir))
	}
	RemoveTemporary()
	if got := dirNames(t, dir); len(got) != 0 {
		t.Errorf("after RemoveTemporary: %v", got)
	}
}

func TestSweepStaleOf(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	mine := fmt.Sprintf(".crawlaudit-duckdb.tmp-%d-0000abcd", dead)
	other := fmt.Sprintf(".other-tool.tmp-%d-0000abcd", dead) // another program's: left alone
	for _, n := range []string{mine, other} {
		if err := os.Mkdir(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := SweepStaleOf(dir, "crawlaudit-duckdb"); !slices.Equal(got, []string{mine}) {
		t.Errorf("removed %v, want [%s]", got, mine)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{other}) {
		t.Errorf("left %v", got)
	}
}
