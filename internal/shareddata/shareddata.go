package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

// Root returns the absolute path of ../shared/data relative to the module
// root, and whether it exists.
func Root() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
	root := filepath.Join(filepath.Dir(dir), "shared", "data")
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return root, false
	}
	return root, true
}

// Path returns the path of rel inside ../shared/data, or skips tb with a
// message when it is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	root, ok := Root()
	if !ok {
		tb.Skipf("skipping: real-world data %s is absent (it lives beside the repository, in ../shared/data)", rel)
	}
	p := filepath.Join(root, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("skipping: real-world data %s is absent: %v", p, err)
	}
	return p
}
