//go:build unix

package bots

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadRulesFiles: --operators reads a regular file (or a link to one);
// a link to /dev/zero, a FIFO and a file over the limit are refused at once,
// naming the file.
func TestLoadRulesFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "operators.yaml")
	if err := os.WriteFile(good, []byte("crawlers:\n  - token: ExampleBot\n    ignores_star: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	zero := filepath.Join(dir, "zero.yaml")
	fifo := filepath.Join(dir, "fifo.yaml")
	big := filepath.Join(dir, "big.yaml")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, []byte(strings.Repeat("#\n", MaxRulesBytes/2+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{good, ""},
		{link, ""},
		{zero, zero + ": not a regular file (a character device)"},
		{fifo, fifo + ": not a regular file (a named pipe)"},
		{big, big + ": file too large: larger than 4 MiB"},
	} {
		done := make(chan error, 1)
		go func() { _, err := LoadRules(tc.path); done <- err }()
		select {
		case err := <-done:
			if tc.want == "" && err != nil {
				t.Errorf("%s: %v", tc.path, err)
			}
			if tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("%s: error %v, want %q", tc.path, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: LoadRules did not return", tc.path)
		}
	}
}
