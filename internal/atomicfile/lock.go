package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Lock is an exclusive lock on an output (a --out directory, a --db file)
// held by this process: a second run into the same output stops at once
// instead of writing beside the first, where the last to finish would
// silently win. The kernel releases it when the process ends in any way,
// SIGKILL included, so a killed run never leaves a lock that blocks the
// next one.
type Lock struct {
	path string
	f    *os.File
}

// LockedError is the error of TryLock when another process holds the
// lock.
type LockedError struct {
	// Target is the output locked; PID the process holding it (0 when it
	// could not be read).
	Target string
	PID    int
}

func (e *LockedError) Error() string {
	who := "another crawlaudit run"
	if e.PID > 0 {
		who = fmt.Sprintf("another crawlaudit run (process %d)", e.PID)
	}
	return fmt.Sprintf("%s is writing %s: wait for it to finish, or stop it, then run again", who, e.Target)
}

// LockPath is the lock file of target: ".crawlaudit.lock" inside a
// directory (an --out directory may sit in a directory the user cannot
// write), ".BASE.lock" beside a file.
func LockPath(target string, isDir bool) string {
	target = filepath.Clean(target)
	if isDir {
		return filepath.Join(target, ".crawlaudit.lock")
	}
	dir, base := filepath.Split(target)
	return filepath.Join(dir, "."+base+".lock")
}

// TryLock takes the exclusive lock of target (a directory when isDir,
// which must exist; else a file, whose directory must) without waiting:
// when another process holds it, the error is a *LockedError naming that
// process. The lock file holds the PID of its holder, for that message.
func TryLock(target string, isDir bool) (*Lock, error) {
	path := LockPath(target, isDir)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("cannot lock %s: %w", target, err)
		}
		if err := flock(f); err != nil {
			b, _ := os.ReadFile(path)
			f.Close()
			if errors.Is(err, errWouldBlock) {
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				return nil, &LockedError{Target: target, PID: pid}
			}
			return nil, fmt.Errorf("cannot lock %s: %w", target, err)
		}
		// Unlock removes the file: a run that opened it just before then
		// holds a lock on a file no longer there, and must take the lock
		// on the new one (the same file before and after the lock).
		if fi, err := f.Stat(); err == nil {
			if cur, err := os.Stat(path); err == nil && os.SameFile(fi, cur) {
				f.Truncate(0)
				f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
				return &Lock{path: path, f: f}, nil
			}
		}
		f.Close()
	}
}

// Unlock removes the lock file and releases the lock. A nil Lock does
// nothing.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}
