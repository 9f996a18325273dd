package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "list.json")
	if err := os.WriteFile(small, []byte(`{"prefixes": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, 1025), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(small, link); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		want       string // content, or an error substring
		is         error
	}{
		{"regular", small, `{"prefixes": []}`, nil},
		{"symlink_to_regular", link, `{"prefixes": []}`, nil},
		{"exactly_the_limit", big, "", nil},
		{"symlink_to_dev_zero", zero, "zero.json: not a regular file (a character device); give the path of a file", ErrNotRegular},
		{"directory", dir, "not a regular file (a directory)", ErrNotRegular},
		{"absent", filepath.Join(dir, "absent.json"), "absent.json", fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limit := int64(1025)
			data, err := ReadFile(tc.path, limit)
			if tc.is != nil {
				if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %v with %q", err, tc.is, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != "" && string(data) != tc.want {
				t.Errorf("read %q, want %q", data, tc.want)
			}
		})
	}
	// One byte over the limit.
	if _, err := ReadFile(big, 1024); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "big.json: file too large: larger than 1 KiB") {
		t.Errorf("over the limit: %v", err)
	}
}

// TestReadFileFIFO: a named pipe without a writer is refused at once
// instead of blocking the run for ever.
func TestReadFileFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.json")
	if err := mkfifo(p); err != nil {
		t.Skipf("no FIFO on this system: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadFile(p, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a named pipe") {
			t.Errorf("error %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadFile blocked on a FIFO")
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{32 << 20: "32 MiB", 512 << 10: "512 KiB", 100: "100 bytes", 1500: "1500 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
