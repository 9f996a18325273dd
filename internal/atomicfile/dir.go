package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ReplaceDir puts the complete directory tmp (made under a TempPath name
// beside dir) at dir, so that a reader sees the old directory or the new
// one, never a part of either. An existing dir is exchanged with tmp in one
// step where the system can (renameat2's RENAME_EXCHANGE on Linux), else
// moved aside under a temporary name first and moved back if the rename
// fails; the previous directory is then removed. On error tmp is removed
// and dir is as it was.
func ReplaceDir(tmp, dir string) error {
	old, err := replaceDir(tmp, dir)
	if err != nil {
		Remove(tmp)
		return fmt.Errorf("cannot replace %s: %w", dir, err)
	}
	Remove(tmp) // forgets the name; after an exchange, removes the previous directory
	if old != "" {
		Remove(old)
	}
	return nil
}

func replaceDir(tmp, dir string) (old string, err error) {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, dir); err != nil {
			return "", err
		}
		return "", nil
	}
	if err := exchangeDirs(tmp, dir); err == nil {
		return "", nil
	} else if !errors.Is(err, errors.ErrUnsupported) {
		return "", err
	}
	old = TempPath(dir)
	if err := os.Rename(dir, old); err != nil {
		Remove(old)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if rerr := os.Rename(old, dir); rerr != nil {
			return "", fmt.Errorf("%w (and the previous directory was left at %s: %v)", err, old, rerr)
		}
		Remove(old)
		return "", err
	}
	return old, nil
}
