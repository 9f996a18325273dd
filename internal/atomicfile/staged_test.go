package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range es {
		ns = append(ns, e.Name())
	}
	return ns
}

func TestStaged(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old a"), 0o600)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("old b"), 0o644)
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}

	// A run that fails half-way leaves the old files and no temporary one.
	s := NewStaged(dir)
	if err := s.Write("a.txt", write("new a")); err != nil {
		t.Fatal(err)
	}
	err := s.Write("b.txt", func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("disk full") })
	if err == nil || !slices.Contains([]string{"cannot write " + filepath.Join(dir, "b.txt") + ": disk full"}, err.Error()) {
		t.Errorf("error = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "old a" {
		t.Errorf("a.txt = %q before Commit, want the old content", b)
	}
	s.Abort()
	if got := dirNames(t, dir); !slices.Equal(got, []string{"a.txt", "b.txt"}) {
		t.Errorf("after Abort: %v", got)
	}

	// A complete run replaces all, keeping permissions.
	s = NewStaged(dir)
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := s.Write(n, write("new "+n)); err != nil {
			t.Fatal(err)
		}
	}
	if got := dirNames(t, dir); len(got) != 5 {
		t.Errorf("before Commit: %v, want 2 old files and 3 temporary ones", got)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"a.txt", "b.txt", "c.txt"}) {
		t.Errorf("after Commit: %v", got)
	}
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		if b, _ := os.ReadFile(filepath.Join(dir, n)); string(b) != "new "+n {
			t.Errorf("%s = %q", n, b)
		}
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a.txt")); fi.Mode().Perm() != 0o600 {
		t.Errorf("a.txt mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if err := s.Write("../x", write("x")); err == nil {
		t.Error("a path outside the directory was written")
	}
}
