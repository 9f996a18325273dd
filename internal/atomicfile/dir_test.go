package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReplaceDir checks that a new directory takes the place of an existing
// one and of a missing one, and that no temporary name is left beside it.
func TestReplaceDir(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "example.com")
	for i, content := range []string{"first", "second"} {
		tmp := TempPath(dir)
		if err := os.Mkdir(tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, "f.txt"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := ReplaceDir(tmp, dir); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "f.txt"))
		if err != nil || string(b) != content {
			t.Fatalf("run %d: f.txt = %q, %v; want %q", i, b, err, content)
		}
		es, _ := os.ReadDir(parent)
		if len(es) != 1 {
			var names []string
			for _, e := range es {
				names = append(names, e.Name())
			}
			t.Fatalf("run %d: parent holds %v, want only example.com", i, names)
		}
	}
}
