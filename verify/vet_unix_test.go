//go:build unix

package verify

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadDirFiles: a symbolic link to /dev/zero and a FIFO under --ranges
// are refused at once with the file named, instead of filling memory or
// blocking.
func TestLoadDirFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(p string) error
		want string
	}{
		{"dev_zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file (a character device)"},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file (a named pipe)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "bingbot", "2026-10-01T00:00:00Z.json")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := tc.make(p); err != nil {
				t.Skipf("cannot make it here: %v", err)
			}
			done := make(chan error, 1)
			go func() { _, err := LoadDir(dir); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), p+": "+tc.want) {
					t.Errorf("error %v, want %q", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("LoadDir did not return")
			}
		})
	}
}
