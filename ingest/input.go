package ingest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/crawlaudit/crawlaudit/ingest/objstore"
)

// Compression names, as reported in FileAccounting.Compression.
const (
	CompressionNone  = "none"
	CompressionGzip  = "gzip"
	CompressionZstd  = "zstd"
	CompressionBzip2 = "bzip2"
)

// StdinName is the name under which the input "-" (standard input) appears
// in the accounting, in error messages and in the file column.
const StdinName = "(stdin)"

// zstdMaxWindow bounds the memory a zstd stream may ask for (zstd --long=27,
// the largest window the zstd command line uses by default for --long).
const zstdMaxWindow = 128 << 20

// FileError is an input error of one file: it could not be opened or read,
// its compressed stream is truncated or failed an integrity check (Err is
// then an *IntegrityError), or a plain file shrank while it was read (Err is
// then a *ShrinkError). Offset is the number of bytes read from the file
// (compressed bytes for a compressed file) when the error was detected (for
// an IntegrityError, its At), or -1 when the file could not be opened at
// all or Err says where itself (a ShrinkError).
type FileError struct {
	File   string
	Offset int64
	Err    error
}

// Error returns "FILE: at byte offset N: ERR", or "FILE: ERR" without an
// offset, or the message of the IntegrityError it wraps (which names the
// file, the member and the offsets).
func (e *FileError) Error() string {
	if ie, ok := e.Err.(*IntegrityError); ok {
		return ie.Error()
	}
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s: at byte offset %d: %v", e.File, e.Offset, e.Err)
}

// Unwrap returns the underlying error.
func (e *FileError) Unwrap() error { return e.Err }

// inputFile is one file to read, after the expansion of directories and globs.
type inputFile struct {
	name  string // as shown to the user and written in the file column
	path  string // "" for stdin
	size  int64  // -1 when unknown (stdin, pipes)
	err   error  // set when the input could not even be listed
	stdin bool
	obj   *objstore.Object // an object in object storage; nil for files
}

// countingReader counts the bytes read from the underlying file, for the
// compressed offset of errors and for progress.
type countingReader struct {
	r     io.Reader
	n     int64
	total *atomic.Int64 // progress counter shared by all files; may be nil
	err   error         // the first read error other than io.EOF
	// watch, for a plain regular file, notices when it shrinks while read.
	watch *shrinkWatch
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.total != nil && n > 0 {
		c.total.Add(int64(n))
	}
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	if c.watch != nil {
		c.watch.check(c.n)
		if err == io.EOF && c.watch.shrank != nil {
			// Not a clean end: the last line read may have been cut.
			err = c.watch.shrank
		}
	}
	return n, err
}

// ShrinkError is a plain file that became shorter than the bytes already
// read from it while it was read: a log truncated in place (logrotate's
// copytruncate) under the reader. The lines read before count, but for
// the last one when it lacks its newline (rejected as a truncated line);
// the lines written after the truncation may be missing, and what was read
// past To may be stale.
type ShrinkError struct {
	From int64 // bytes read when the file was seen shorter
	To   int64 // its size then (the smallest seen)
}

// Error returns "the file shrank from N to M bytes while being read
// (truncated by logrotate copytruncate?): lines after byte M may be missing
// or stale".
func (e *ShrinkError) Error() string {
	return fmt.Sprintf("the file shrank from %d to %d bytes while being read (truncated by logrotate copytruncate?): lines after byte %d may be missing or stale", e.From, e.To, e.To)
}

// shrinkWatch compares the size of a plain file with the bytes read from
// it after every read (one fstat per read, reads being of up to a block).
// A file truncated and then written past the offset already read between
// two reads goes unnoticed.
type shrinkWatch struct {
	f      *os.File
	shrank *ShrinkError // nil while the file never was shorter
}

// testHookRead, when set by a test, is called after each read of a watched
// file with the bytes read so far, before the size check.
var testHookRead func(f *os.File, read int64)

func (w *shrinkWatch) check(read int64) {
	if testHookRead != nil {
		testHookRead(w.f, read)
	}
	st, err := w.f.Stat()
	if err != nil || st.Size() >= read {
		return
	}
	if w.shrank == nil {
		w.shrank = &ShrinkError{From: read, To: st.Size()}
	} else {
		w.shrank.To = min(w.shrank.To, st.Size())
	}
}

// sniffCompression identifies a compressed stream by its magic bytes. It
// returns the compression name, or an error for a known compression format
// that crawlaudit does not read.
func sniffCompression(magic []byte) (string, error) {
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		return CompressionGzip, nil
	case bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}),
		// a skippable frame first (pzstd, the seekable format)
		len(magic) >= 4 && magic[0]&0xf0 == 0x50 && magic[1] == 0x2a && magic[2] == 0x4d && magic[3] == 0x18:
		return CompressionZstd, nil
	case len(magic) >= 10 && magic[0] == 'B' && magic[1] == 'Z' && magic[2] == 'h' && magic[3] >= '1' && magic[3] <= '9' &&
		(bytes.Equal(magic[4:10], []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) || // block magic (pi)
			bytes.Equal(magic[4:10], []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90})): // end of stream (sqrt pi): empty
		return CompressionBzip2, nil
	case bytes.HasPrefix(magic, []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}):
		return "", errors.New("xz compression is not supported (decompress it with xz -dc and pipe it to -)")
	case bytes.HasPrefix(magic, []byte{'P', 'K', 0x03, 0x04}):
		return "", errors.New("zip archives are not supported (extract the logs first)")
	case bytes.HasPrefix(magic, []byte{0x04, 0x22, 0x4d, 0x18}):
		return "", errors.New("lz4 compression is not supported (decompress it with lz4 -dc and pipe it to -)")
	case bytes.HasPrefix(magic, []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}):
		return "", errors.New("7z archives are not supported (extract the logs first)")
	}
	return CompressionNone, nil
}

// openedInput is an input file opened for reading, decompressed.
type openedInput struct {
	r           io.Reader // decompressed stream
	raw         *countingReader
	compression string
	close       func()
}

// openInput opens in and wraps it in the decompressor its magic bytes call
// for; store opens the objects of object storage. Errors are *FileError.
func openInput(ctx context.Context, in inputFile, stdin io.Reader, progress *atomic.Int64, store *objstore.Store) (*openedInput, error) {
	var src io.Reader
	var file *os.File
	closeFile := func() {}
	switch {
	case in.stdin:
		src = stdin
	case in.obj != nil:
		body, err := store.Open(ctx, in.obj)
		if err != nil {
			return nil, &FileError{File: in.name, Offset: -1, Err: err}
		}
		src = body
		closeFile = func() { body.Close() }
	default:
		f, err := os.Open(in.path)
		if err != nil {
			return nil, &FileError{File: in.name, Offset: -1, Err: unwrapPathError(err)}
		}
		src, file = f, f
		closeFile = func() { f.Close() }
	}
	raw := &countingReader{r: src, total: progress}
	if file != nil {
		if st, err := file.Stat(); err == nil && st.Mode().IsRegular() {
			raw.watch = &shrinkWatch{f: file}
		}
	}
	br := bufio.NewReaderSize(raw, 64<<10)
	magic, err := br.Peek(10)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		closeFile()
		return nil, &FileError{File: in.name, Offset: raw.n, Err: unwrapPathError(err)}
	}
	comp, err := sniffCompression(magic)
	if err != nil {
		closeFile()
		return nil, &FileError{File: in.name, Offset: -1, Err: err}
	}
	if comp != CompressionNone {
		// A compressed file truncated under the reader ends in a truncated
		// stream error, with its offset.
		raw.watch = nil
	}
	o := &openedInput{raw: raw, compression: comp, close: closeFile}
	switch comp {
	case CompressionGzip:
		zr, err := newGzipMembers(in.name, raw, br)
		if err != nil {
			closeFile()
			var ie *IntegrityError
			if errors.As(err, &ie) {
				return nil, &FileError{File: in.name, Offset: ie.At, Err: ie}
			}
			return nil, &FileError{File: in.name, Offset: raw.n, Err: fmt.Errorf("cannot read gzip header: %w", err)}
		}
		o.r = zr
		o.close = func() { zr.Close(); closeFile() }
	case CompressionZstd:
		zr, closeZ, err := newZstdReader(in.name, raw, br)
		if err != nil {
			closeFile()
			return nil, &FileError{File: in.name, Offset: raw.n, Err: fmt.Errorf("cannot read zstd stream: %w", err)}
		}
		o.r = zr
		o.close = func() { closeZ(); closeFile() }
	case CompressionBzip2:
		o.r = newBzip2Reader(in.name, raw, br)
	default:
		o.r = br
	}
	return o, nil
}

// unwrapPathError drops the *fs.PathError wrapper, whose path repeats the
// file name that FileError already carries.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// skippedExt lists the extensions (after any compression suffix) of files
// that a directory or glob expansion skips as obviously not access logs.
var skippedExt = map[string]bool{
	".txt": true, ".md": true, ".rst": true, ".html": true, ".htm": true, ".pdf": true,
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".svg": true, ".ico": true, ".webp": true,
	".csv": true, ".tsv": true, ".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".conf": true, ".xml": true,
	".sh": true, ".py": true, ".go": true, ".js": true, ".css": true,
	".tar": true, ".zip": true, ".xz": true, ".lz4": true, ".7z": true, ".parquet": true, ".db": true, ".duckdb": true,
	".sha256": true, ".sha512": true, ".md5": true, ".sig": true, ".asc": true, ".pid": true, ".lock": true, ".swp": true,
}

// skipReason says why a file found inside a directory (or matched by a glob)
// is not read, or "" when it is read.
func skipReason(name string) string {
	base := filepath.Base(name)
	if strings.HasPrefix(base, ".") {
		return "hidden file"
	}
	lower := strings.ToLower(base)
	for _, z := range []string{".gz", ".zst", ".zstd", ".bz2"} {
		lower = strings.TrimSuffix(lower, z)
	}
	if ext := filepath.Ext(lower); skippedExt[ext] {
		return "not a log file (" + ext + ")"
	}
	return ""
}

// SkippedFile is a file found in a directory or by a glob that was not read.
type SkippedFile struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// expandInputs turns the command-line inputs into the list of files to read.
// A named file is always read; a directory is walked recursively in lexical
// order, skipping hidden entries and obvious non-logs; a pattern with glob
// metacharacters that names no existing file is expanded with filepath.Glob
// (each match treated like a directory member). A file named twice is read
// once. Inputs that do not exist are returned with err set. A URL of
// object storage is listed by store (see objstore.Store.Expand): the
// objects of a prefix or glob are skipped as a directory's members are, and
// also when their key dates them outside period.
func expandInputs(ctx context.Context, inputs []string, store *objstore.Store, period objstore.Period) ([]inputFile, []SkippedFile) {
	var files []inputFile
	var skipped []SkippedFile
	seen := map[string]bool{}
	add := func(f inputFile) {
		key := f.path
		switch {
		case f.stdin:
			key = "\x00stdin"
		case f.obj != nil:
			key = "\x00url:" + f.name
		}
		if seen[key] {
			return
		}
		seen[key] = true
		files = append(files, f)
	}
	var walkDir func(dir string)
	member := func(path string, d fs.DirEntry) {
		if r := skipReason(path); r != "" {
			skipped = append(skipped, SkippedFile{Name: path, Reason: r})
			return
		}
		info, err := d.Info()
		if err != nil {
			add(inputFile{name: path, path: filepath.Clean(path), size: -1, err: unwrapPathError(err)})
			return
		}
		if !info.Mode().IsRegular() {
			skipped = append(skipped, SkippedFile{Name: path, Reason: "not a regular file"})
			return
		}
		add(inputFile{name: path, path: filepath.Clean(path), size: info.Size()})
	}
	walkDir = func(dir string) {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				add(inputFile{name: path, path: filepath.Clean(path), size: -1, err: unwrapPathError(err)})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if path == dir {
				return nil
			}
			if d.IsDir() {
				if strings.HasPrefix(d.Name(), ".") {
					skipped = append(skipped, SkippedFile{Name: path, Reason: "hidden directory"})
					return fs.SkipDir
				}
				return nil
			}
			member(path, d)
			return nil
		})
		if err != nil {
			add(inputFile{name: dir, path: filepath.Clean(dir), size: -1, err: unwrapPathError(err)})
		}
	}
	for _, in := range inputs {
		if in == "-" {
			add(inputFile{name: StdinName, size: -1, stdin: true})
			continue
		}
		if objstore.IsURL(in) {
			objs, sk, err := store.Expand(ctx, in, period, skipReason)
			if err != nil {
				files = append(files, inputFile{name: objstore.Name(in), size: -1, err: err})
				continue
			}
			for _, s := range sk {
				skipped = append(skipped, SkippedFile{Name: s.Name, Reason: s.Reason})
			}
			for i := range objs {
				add(inputFile{name: objs[i].Name, size: objs[i].Size, obj: &objs[i]})
			}
			continue
		}
		info, err := os.Stat(in)
		switch {
		case err == nil && info.IsDir():
			walkDir(in)
		case err == nil:
			add(inputFile{name: in, path: filepath.Clean(in), size: sizeOf(info)})
		case strings.ContainsAny(in, "*?["):
			matches, gerr := filepath.Glob(in)
			if gerr != nil {
				add(inputFile{name: in, path: in, size: -1, err: fmt.Errorf("bad pattern: %w", gerr)})
				continue
			}
			if len(matches) == 0 {
				add(inputFile{name: in, path: in, size: -1, err: errors.New("no file matches the pattern")})
				continue
			}
			for _, m := range matches {
				mi, err := os.Stat(m)
				if err != nil {
					add(inputFile{name: m, path: filepath.Clean(m), size: -1, err: unwrapPathError(err)})
					continue
				}
				if mi.IsDir() {
					walkDir(m)
					continue
				}
				member(m, fs.FileInfoToDirEntry(mi))
			}
		default:
			add(inputFile{name: in, path: filepath.Clean(in), size: -1, err: unwrapPathError(err)})
		}
	}
	return files, skipped
}

func sizeOf(info fs.FileInfo) int64 {
	if info.Mode().IsRegular() {
		return info.Size()
	}
	return -1
}
