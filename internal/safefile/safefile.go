package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is wrapped by the error of [ReadFile] for a path that is
// not a regular file (a device, a FIFO, a socket, a directory).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error of [ReadFile] for a file larger than
// its limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile returns the content of the regular file at path, at most max
// bytes. A symbolic link is followed; anything else than a regular file at
// its end (a link to /dev/zero, a FIFO, a socket, a directory) is refused
// without reading, and a file larger than max is refused after reading at
// most max+1 bytes. The errors name path and say what to do.
func ReadFile(path string, max int64) ([]byte, error) {
	// Stat before opening: opening a FIFO for reading blocks until a writer
	// comes, and a device may do anything on open.
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The path may have been replaced between Stat and Open: check what was
	// opened.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > max {
		return nil, tooLarge(path, max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, tooLarge(path, max)
	}
	return data, nil
}

func regular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return fmt.Errorf("%s: %w (%s); give the path of a file", path, ErrNotRegular, kind(fi.Mode()))
}

func tooLarge(path string, max int64) error {
	return fmt.Errorf("%s: %w: larger than %s, the limit for this kind of file; check that it is the right file", path, ErrTooLarge, Size(max))
}

// kind names the type of a file that is not regular.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file"
}

// Size writes a byte count for a person: "32 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
