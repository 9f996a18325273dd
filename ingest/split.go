package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// Range is a byte range of a plain (uncompressed) regular file: what one
// worker of a distributed audit (cmd/crawlaudit-beam) reads, so that one
// large file is read by many. PlanRanges cuts a file into ranges,
// CountNewlines counts the newlines of each (what the ranges after it need
// to number their lines as Run numbers them), and RunRange reads one.
//
// A range [Start, End) reads the lines that begin in it: a range whose
// Start is not 0 skips to just past the first '\n' at or after Start-1
// (the line under way at Start belongs to the range before it), and a range
// reads on to the end of the line that holds byte End-1 (up to and
// including the first '\n' at or after End-1). So whatever the cuts, every
// line of the file is read by exactly one range, whole; a range may read
// no line (when one line spans it). Compressed files cannot be cut: gzip
// and zstd streams are read from their start.
type Range struct {
	// File is the file, named as the user named it: the name in the file
	// column, the samples and the errors, as Run names it.
	File string `json:"file"`
	// Start and End bound the range: 0 <= Start < End <= Size.
	Start int64 `json:"start"`
	End   int64 `json:"end"`
	// Size is the file's size when its ranges were planned. The range that
	// ends at Size reads on to the end of the file, as Run would (lines
	// appended since are read too). A file found shorter than Size is an
	// input error (a *ShrinkError).
	Size int64 `json:"size"`
	// NewlinesBefore is the number of '\n' bytes before Start: the sum of
	// CountNewlines over the ranges before this one. Line numbers are the
	// file's, as Run gives them (1 + the newlines before the line).
	NewlinesBefore int64 `json:"newlines_before"`
	// Format is the name of the format detected for the whole file (as Run
	// detects it, on its first block: PlanRanges), or "" when the Options
	// impose one. Every range of a file is parsed in one format.
	Format string `json:"format,omitempty"`
}

// PlanRanges cuts the file name into ranges of about splitBytes bytes
// (the last one shorter) when it is worth it and can be done: a plain
// regular file longer than splitBytes, whose format is imposed by opts or
// detected on its first block as Run would detect it, and not Stateful (a
// W3C file's "#Fields:" directives hold for the lines after them). It
// returns nil, and no error, when the file is to be read whole by Run:
// splitBytes <= 0, a directory, a pattern, standard input, a short file, a
// compressed file, a stateful format, a format that cannot be detected, a
// file that cannot be read (Run then reports the input error, as for any
// file). The error is the context's, or bad Options (an unknown Format).
func PlanRanges(ctx context.Context, name string, splitBytes int64, opts Options) ([]Range, error) {
	if splitBytes <= 0 || name == "-" {
		return nil, nil
	}
	opts.setDefaults()
	override, err := resolveFormat(&opts)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(name)
	if err != nil || !st.Mode().IsRegular() || st.Size() <= splitBytes {
		return nil, nil
	}
	in := inputFile{name: name, path: filepath.Clean(name), size: st.Size()}
	format := ""
	f, err := detectFile(ctx, in, opts, override)
	if err != nil || f == nil || f.Stateful {
		return nil, ctx.Err()
	}
	if override == nil {
		format = f.Name
	}
	size := st.Size()
	var out []Range
	for start := int64(0); start < size; start += splitBytes {
		out = append(out, Range{File: name, Start: start, End: min(start+splitBytes, size), Size: size, Format: format})
	}
	return out, nil
}

// errDetected stops the reading of detectFile once the format is known.
var errDetected = errors.New("format detected")

// detectFile returns the format of a plain file as Run would parse it:
// override, or the one detected on the file's first block that holds a
// non-empty line. It returns nil when the file is compressed or the format
// cannot be detected, and an error when the file cannot be read.
func detectFile(ctx context.Context, in inputFile, opts Options, override *formatEntry) (*formatEntry, error) {
	o, err := openInput(ctx, in, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	defer o.close()
	if o.compression != CompressionNone {
		return nil, nil
	}
	if override != nil {
		return override, nil
	}
	r := &runner{opts: opts, ctx: ctx, entries: map[string]*formatEntry{}, pool: newBufPool(opts.BlockBytes + opts.MaxLineBytes)}
	for _, f := range opts.Formats {
		if f.Sniffable {
			r.sniffable = append(r.sniffable, f)
		}
	}
	fs := &fileState{in: in, name: []byte(in.name)}
	var detectErr error
	sp := &splitter{
		r:       o.r,
		pool:    r.pool,
		maxLine: opts.MaxLineBytes,
		emit: func(buf *[]byte, data []byte, firstLine int64, _ bool) error {
			defer r.pool.put(buf)
			if firstLine == 1 {
				data = bytes.TrimPrefix(data, utf8BOM)
			}
			// As readFile: the first block that holds a non-empty line.
			detectErr = r.resolveFile(fs, data)
			if fs.fmt != nil || detectErr != nil {
				return errDetected
			}
			return ctx.Err()
		},
		longLine: func(int64, []byte) {},
	}
	if err := sp.run(); err != nil && err != errDetected {
		return nil, err
	}
	if detectErr != nil {
		return nil, nil
	}
	return fs.fmt, nil
}

// CountNewlines returns the number of '\n' bytes of the file name in
// [start, end): summed over the ranges before a range, its
// Range.NewlinesBefore.
func CountNewlines(name string, start, end int64) (int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, &FileError{File: name, Offset: -1, Err: unwrapPathError(err)}
	}
	defer f.Close()
	buf := make([]byte, min(1<<20, max(0, end-start)))
	var n int64
	for pos := start; pos < end; {
		m, err := f.ReadAt(buf[:min(int64(len(buf)), end-pos)], pos)
		n += int64(bytes.Count(buf[:m], []byte{'\n'}))
		pos += int64(m)
		if err == io.EOF && pos < end {
			return n, &FileError{File: name, Offset: -1, Err: &ShrinkError{From: end, To: pos}}
		}
		if err != nil && err != io.EOF {
			return n, &FileError{File: name, Offset: pos, Err: fmt.Errorf("read error: %w", unwrapPathError(err))}
		}
	}
	return n, nil
}

// RunRange reads the lines of one range of a plain file (see Range) as Run
// reads a whole file, with the same parsers, blocks, limits, row filter and
// accounting, and calls sink with its record batches (released when sink
// returns). Rows, samples and errors carry the file's name and its line
// numbers (from rg.NewlinesBefore); a UTF-8 byte order mark is skipped at
// the start of the file only. Options.Progress and Options.Exclude are
// ignored.
//
// So that the accountings of a file's ranges add up to Run's of the whole
// file, the file is counted (Accounting.Files) by the range that starts at
// 0 only; PerFile has one entry, the range's, in every case. From, To,
// Lines, the rejected lines by reason and their samples (the first of each
// reason in the range, by line) are the range's.
//
// The error is as Run's: the sink's or the context's, which stop the read,
// or the input error of the file (a *FileError: it cannot be opened or
// read, or it shrank under the reader). A range of a Stateful format, or
// without a format (rg.Format "" and none imposed by opts), is refused
// before anything is read.
func RunRange(ctx context.Context, rg Range, opts Options, sink func(arrow.RecordBatch) error) (*Accounting, error) {
	opts.setDefaults()
	if rg.Format != "" && opts.LogFormat == "" && opts.JSONFields == "" && (opts.Format == "" || opts.Format == "auto") {
		opts.Format = rg.Format
	}
	override, err := resolveFormat(&opts)
	if err != nil {
		return nil, err
	}
	if override == nil {
		return nil, fmt.Errorf("%s: a byte range needs the file's format (PlanRanges)", rg.File)
	}
	if override.Stateful {
		return nil, fmt.Errorf("%s: the %s format is stateful: its files cannot be read by byte range", rg.File, override.Name)
	}
	if rg.Start < 0 || rg.End < rg.Start || rg.Size < rg.End || rg.NewlinesBefore < 0 {
		return nil, fmt.Errorf("%s: bad byte range [%d, %d) of %d bytes", rg.File, rg.Start, rg.End, rg.Size)
	}
	r := newRunner(ctx, opts, sink, override)
	defer r.cancel()
	ctx = r.ctx
	f := &fileState{in: inputFile{name: rg.File, path: filepath.Clean(rg.File), size: rg.End - rg.Start}, name: []byte(rg.File), fmt: override}
	f.acc.Name = rg.File
	f.acc.Format = override.Name

	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Go(r.work)
	}
	fileErr := r.readRange(f, rg)
	close(r.blocks)
	wg.Wait()

	acc := total([]*fileState{f}, nil, opts.SamplesPerReason)
	if rg.Start != 0 {
		acc.Files = 0
	}
	if r.fatal != nil {
		return acc, r.fatal
	}
	if err := ctx.Err(); err != nil {
		return acc, err
	}
	return acc, fileErr
}

// readRange reads the lines of rg into blocks for the workers. It returns
// the file's input error, a *FileError, or nil.
func (r *runner) readRange(f *fileState, rg Range) error {
	fail := func(err error) error {
		f.mu.Lock()
		if f.acc.Error == "" {
			f.acc.Error = err.Error()
		}
		f.mu.Unlock()
		return err
	}
	file, err := os.Open(f.in.path)
	if err != nil {
		return fail(&FileError{File: f.in.name, Offset: -1, Err: unwrapPathError(err)})
	}
	defer file.Close()
	f.acc.Compression = CompressionNone
	rr := &rangeReader{f: file, end: rg.End, size: rg.Size}
	if rg.End == rg.Size {
		rr.end = -1 // the last range reads to the end of the file
	}
	skipped, err := rr.start(rg.Start)
	// The number of the first line: 1 + the newlines before it, counted in
	// NewlinesBefore but for the one skipped past at or after Start.
	base := rg.NewlinesBefore + skipped
	sp := &splitter{
		r:       rr,
		pool:    r.pool,
		maxLine: r.opts.MaxLineBytes,
		emit: func(buf *[]byte, data []byte, firstLine int64, truncated bool) error {
			firstLine += base
			if firstLine == 1 {
				data = bytes.TrimPrefix(data, utf8BOM)
			}
			b := &block{buf: buf, data: data, file: f, fmt: f.fmt, firstLine: firstLine, truncated: truncated}
			select {
			case r.blocks <- b:
				return nil
			case <-r.ctx.Done():
				r.pool.put(buf)
				return r.ctx.Err()
			}
		},
		longLine: func(line int64, prefix []byte) {
			var st blockStats
			st.reject(string(ErrLineTooLong), f.in.name, base+line, prefix, r.opts.SamplesPerReason)
			f.merge(&st, r.opts.SamplesPerReason)
			r.linesRead.Add(1)
		},
	}
	if err == nil {
		err = sp.run()
	}
	f.mu.Lock()
	f.acc.BytesRead = rr.read
	f.mu.Unlock()
	if err != nil && r.ctx.Err() == nil {
		var se *ShrinkError
		if errors.As(err, &se) {
			return fail(&FileError{File: f.in.name, Offset: -1, Err: se})
		}
		return fail(&FileError{File: f.in.name, Offset: rr.pos, Err: fmt.Errorf("read error: %w", unwrapPathError(err))})
	}
	return nil
}

// rangeReader reads the lines of a range from its file: from the first
// line that begins at or after the range's start (start) to the end of
// the line that holds byte end-1.
type rangeReader struct {
	f *os.File
	// pos is the offset of the next byte in the file.
	pos int64
	// end: the reader stops after the first '\n' at or after end-1; -1 for
	// the end of the file.
	end int64
	// size is the file's planned size: an end of file before it is a
	// *ShrinkError.
	size int64
	// read counts the bytes read from the file.
	read int64
	done bool
}

// start positions the reader at the first line that begins at or after
// offset: 0, or just past the first '\n' at or after offset-1. It returns
// the number of newlines skipped at or after offset (0 or 1). A range in
// which no line begins reads nothing.
func (r *rangeReader) start(offset int64) (int64, error) {
	if offset == 0 {
		return 0, nil
	}
	buf := make([]byte, 16<<10)
	pos := offset - 1
	for {
		m, err := r.f.ReadAt(buf, pos)
		r.read += int64(m)
		if i := bytes.IndexByte(buf[:m], '\n'); i >= 0 {
			r.pos = pos + int64(i) + 1
			if r.end >= 0 && r.pos >= r.end {
				r.done = true // the line under way at offset runs past end
			}
			if _, err := r.f.Seek(r.pos, io.SeekStart); err != nil {
				return 0, err
			}
			if r.pos > offset {
				return 1, nil
			}
			return 0, nil
		}
		pos += int64(m)
		if err == io.EOF {
			// The file's last line began before offset.
			r.pos, r.done = pos, true
			if err := r.eof(); err != io.EOF {
				return 0, err
			}
			return 0, nil
		}
		if err != nil {
			r.pos = pos
			return 0, err
		}
	}
}

// Read reads the range's lines.
func (r *rangeReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	n, err := r.f.Read(p)
	r.read += int64(n)
	if r.end >= 0 && n > 0 {
		// from: the index in p of byte end-1, where the end is looked for.
		if from := max(0, r.end-1-r.pos); from < int64(n) {
			if i := bytes.IndexByte(p[from:n], '\n'); i >= 0 {
				n = int(from) + i + 1
				r.done, err = true, nil
			}
		}
	}
	r.pos += int64(n)
	if err == io.EOF {
		err = r.eof()
	}
	return n, err
}

// eof returns io.EOF, or a *ShrinkError when the file is now shorter than
// its planned size.
func (r *rangeReader) eof() error {
	st, err := r.f.Stat()
	if err == nil && st.Size() < r.size {
		return &ShrinkError{From: r.size, To: st.Size()}
	}
	return io.EOF
}
