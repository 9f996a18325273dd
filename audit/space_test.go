package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckSpillSpace: a disk with room says nothing; a log larger than the
// free space warns before the reading; standard input cannot be told.
func TestCheckSpillSpace(t *testing.T) {
	dir := t.TempDir()
	free, ok := freeSpace(dir)
	if !ok {
		t.Skip("this system does not tell free space")
	}
	small := filepath.Join(dir, "small.log")
	os.WriteFile(small, []byte("x\n"), 0o644)
	if w, err := CheckSpillSpace(dir, []string{small, "-"}); w != "" || err != nil {
		t.Errorf("a small log: %q, %v", w, err)
	}
	// A sparse file larger than the free space: nothing is written.
	big := filepath.Join(dir, "big.log.gz")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(free/8 + 1<<30)); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	f.Close()
	w, err := CheckSpillSpace(dir, []string{big})
	if err != nil || !strings.Contains(w, "free on the disk of "+dir) {
		t.Errorf("a log larger than the disk: %q, %v", w, err)
	}
	if got := humanBytes(3 << 30); got != "3.0 GiB" {
		t.Errorf("humanBytes(3 GiB) = %q", got)
	}
}
