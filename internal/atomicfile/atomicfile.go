package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the file at path with data through a temporary file in
// the same directory, synced and then renamed over path. The file keeps its
// permissions when it exists, and is 0644 otherwise. On error the
// temporary file is removed and path is untouched.
func WriteFile(path string, data []byte) (err error) {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := createTemp(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
		untrack(tmp.Name())
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
