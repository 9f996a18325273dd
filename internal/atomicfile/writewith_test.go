package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteWith(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "summary.json")

	// A new file: written whole, mode 0644, no temporary left.
	if err := WriteWith(p, func(w io.Writer) error {
		_, err := io.WriteString(w, "v1\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "v1\n" {
		t.Errorf("content = %q, want v1", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode = %v, want 0644", fi.Mode().Perm())
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("directory holds %q, want only summary.json", names)
	}

	// Replacing keeps the old file's permissions.
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("0123456789", 100_000) // more than the buffer
	if err := WriteWith(p, func(w io.Writer) error {
		_, err := io.WriteString(w, big)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != big {
		t.Errorf("content has %d bytes, want %d", len(b), len(big))
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the old 0600", fi.Mode().Perm())
	}

	// An error from write: old content untouched, temporary removed, error
	// names the path and wraps the cause.
	errBoom := errors.New("boom")
	err := WriteWith(p, func(w io.Writer) error {
		io.WriteString(w, "partial new content")
		return errBoom
	})
	if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), p) {
		t.Errorf("err = %v, want one wrapping boom and naming %s", err, p)
	}
	if b, _ := os.ReadFile(p); string(b) != big {
		t.Errorf("old content changed after a failed write (%d bytes)", len(b))
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("directory holds %q after a failed write, want only summary.json", names)
	}

	// A panic in write: cleaned up, then re-raised.
	func() {
		defer func() {
			if recover() == nil {
				t.Error("panic was swallowed")
			}
		}()
		WriteWith(p, func(w io.Writer) error {
			io.WriteString(w, "x")
			panic("write panicked")
		})
	}()
	if b, _ := os.ReadFile(p); string(b) != big {
		t.Errorf("old content changed after a panic (%d bytes)", len(b))
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("directory holds %q after a panic, want only summary.json", names)
	}
}

func TestWriteWithErrors(t *testing.T) {
	dir := t.TempDir()
	called := false
	write := func(w io.Writer) error { called = true; return nil }
	for _, c := range []struct{ name, path string }{
		{"missing directory", filepath.Join(dir, "nope", "x.csv")},
		{"a directory", dir},
		{"no name", dir + string(filepath.Separator)},
	} {
		called = false
		if err := WriteWith(c.path, write); err == nil {
			t.Errorf("%s: WriteWith(%q) succeeded", c.name, c.path)
		}
		if called && c.name != "missing directory" {
			t.Errorf("%s: write was called", c.name)
		}
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("directory holds %q, want nothing", names)
	}
}

func TestWriteWithReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "blocklist.txt")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	err := WriteWith(p, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err })
	if err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("err = %v, want one naming %s", err, p)
	}
	if b, _ := os.ReadFile(p); string(b) != "old\n" {
		t.Errorf("content = %q, want old", b)
	}
}
