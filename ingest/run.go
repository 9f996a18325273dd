package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
	"github.com/crawlaudit/crawlaudit/ingest/objstore"
)

// Defaults of Options.
const (
	DefaultBatchRows        = 32768
	DefaultMaxLineBytes     = 64 << 10
	DefaultBlockBytes       = 1 << 20
	DefaultSniffLines       = 50
	DefaultSamplesPerReason = 5
)

// Options configure Run. The zero value reads with automatic format
// detection and the defaults below.
type Options struct {
	// Exclude names files (as FileAccounting.Name names them, StdinName
	// for standard input) that Run does not read, though the inputs
	// include them: the audit leaves out a compressed file that failed its
	// integrity check this way. They appear in no accounting.
	Exclude []string
	// Format is the name of the format of every input (see
	// logfmt.Formats); "" or "auto" detects the format of each file.
	Format string
	// LogFormat is an Apache LogFormat or nginx log_format layout that every
	// input follows; it overrides Format.
	LogFormat string
	// JSONFields is an explicit mapping of JSON keys to fields for JSON-lines
	// inputs (see logfmt.ParseJSONMapping); it overrides Format.
	JSONFields string
	// Formats are the candidates of detection and of Format; nil means
	// logfmt.Formats(). Only Sniffable formats take part in detection.
	Formats []logfmt.Format

	// BatchRows is the number of rows per record batch (default 32768); the
	// last batch of each worker may be shorter.
	BatchRows int
	// Workers is the number of parsing goroutines, and the number of files
	// read at once (default GOMAXPROCS).
	Workers int
	// MaxLineBytes is the longest line accepted, in bytes without its '\n'
	// (default 64 KiB). Longer lines are rejected as ErrLineTooLong and
	// never held in memory whole.
	MaxLineBytes int
	// BlockBytes is the size of the line blocks handed to the workers
	// (default 1 MiB).
	BlockBytes int
	// SniffLines is the number of non-empty lines format detection votes on
	// (default 50).
	SniffLines int
	// SamplesPerReason is the number of rejected lines kept per reason
	// (default 5).
	SamplesPerReason int

	// Allocator allocates the record batches (default: a PoolAllocator
	// shared by all runs).
	Allocator memory.Allocator
	// Progress receives a progress bar (bytes read of the total, lines per
	// second) when not nil; the caller passes a terminal only.
	Progress io.Writer
	// Stdin is read for the input "-" (default os.Stdin).
	Stdin io.Reader

	// RowFilter, when not nil, is called once per parsing goroutine for a
	// predicate of that goroutine's own (it need not be safe for concurrent
	// use). A parsed row for which the predicate returns false is counted in
	// the accounting like any other but left out of the batches: the audit
	// drops human traffic this way before any column is built. The row's
	// fields alias the line and are valid only during the call. Its
	// ClientIP is already validated as the client_ip column holds it (nil
	// when invalid; see the package documentation).
	RowFilter func() func(r *logfmt.Row) bool
	// Skip lists columns that the consumer never reads: Run leaves them
	// null in every row rather than build them. Only ColProtocol,
	// ColReferer, ColForwardedFor, ColScheme and the signature columns can
	// be skipped; the others are built whatever Skip says. Default: none, every column is built.
	Skip []int
	// From and To, when not zero, are the audited period: the objects of
	// an object-storage prefix or glob whose key dates them more than a
	// day outside it are not read, and listed in Accounting.Skipped (see
	// objstore.KeyTime). Files, and objects named alone, are always read.
	From, To time.Time
	// HTTPClient fetches https:// and http:// inputs (nil: a default
	// client).
	HTTPClient *http.Client

	// Files, when not nil, is called once, before any batch, with the
	// names of the files to read (the values of ColFile) in the order of
	// the inputs: batches arrive in no order, and this is the one a
	// consumer can rely on.
	Files func(names []string)
}

// sharedPool is the default allocator of Run.
var sharedPool = NewPoolAllocator()

func (o *Options) setDefaults() {
	if o.BatchRows <= 0 {
		o.BatchRows = DefaultBatchRows
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.BlockBytes <= 0 {
		o.BlockBytes = DefaultBlockBytes
	}
	if o.SniffLines <= 0 {
		o.SniffLines = DefaultSniffLines
	}
	if o.SamplesPerReason < 0 {
		o.SamplesPerReason = 0
	} else if o.SamplesPerReason == 0 {
		o.SamplesPerReason = DefaultSamplesPerReason
	}
	if o.Allocator == nil {
		o.Allocator = sharedPool
	}
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
	if o.Formats == nil {
		o.Formats = logfmt.Formats()
	}
}

// Run reads the inputs (files, directories, globs, "-" for Options.Stdin)
// and calls sink with each record batch of Schema, from one goroutine at a
// time. Batches arrive in no particular order across blocks and files; each
// row carries its file and line. A batch is released when sink returns:
// sink must Retain whatever it keeps.
//
// Run returns the accounting of everything read, always, and an error:
// the first error of sink or the context's error, which stop the run; or,
// after reading everything it could, the input errors (a file that cannot
// be opened or read, a truncated compressed stream, a compressed file that
// failed an integrity check (wrapping an *IntegrityError: see
// IntegrityErrors), a plain file that shrank while it was read (wrapping a
// *ShrinkError), a file whose format cannot be detected) joined, each a
// *FileError. An unknown
// Options.Format or bad layout is returned before anything is read.
func Run(ctx context.Context, inputs []string, opts Options, sink func(arrow.RecordBatch) error) (*Accounting, error) {
	opts.setDefaults()
	override, err := resolveFormat(&opts)
	if err != nil {
		return nil, err
	}
	var sniffable []logfmt.Format
	for _, f := range opts.Formats {
		if f.Sniffable {
			sniffable = append(sniffable, f)
		}
	}
	store := &objstore.Store{HTTPClient: opts.HTTPClient}
	defer store.Close()
	list, skipped := expandInputs(ctx, inputs, store, objstore.Period{From: opts.From, To: opts.To})
	if len(opts.Exclude) > 0 {
		list = slices.DeleteFunc(list, func(f inputFile) bool { return slices.Contains(opts.Exclude, f.name) })
	}
	if opts.Files != nil {
		names := make([]string, len(list))
		for i, in := range list {
			names[i] = in.name
		}
		opts.Files(names)
	}
	r := newRunner(ctx, opts, sink, override)
	defer r.cancel()
	r.store = store
	ctx = r.ctx
	r.sniffable = sniffable
	files := make([]*fileState, len(list))
	var totalBytes int64
	for i, in := range list {
		files[i] = &fileState{idx: i, in: in, name: []byte(in.name)}
		files[i].acc.Name = in.name
		if in.size < 0 || totalBytes < 0 {
			totalBytes = -1
		} else {
			totalBytes += in.size
		}
	}
	if opts.Progress != nil {
		p := startProgress(opts.Progress, totalBytes, &r.bytesRead, &r.linesRead)
		defer p.stop()
	}

	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Go(r.work)
	}
	next := make(chan *fileState)
	fileErrs := make([]error, len(files))
	var rg sync.WaitGroup
	for range min(opts.Workers, len(files)) {
		rg.Go(func() {
			var inline *worker // parses the files of stateful formats, in order
			defer func() {
				if inline != nil {
					if r.ctx.Err() == nil {
						if err := inline.flush(); err != nil {
							r.fail(err)
						}
					}
					inline.close()
				}
			}()
			for f := range next {
				fileErrs[f.idx] = r.readFile(f, &inline)
			}
		})
	}
feed:
	for _, f := range files {
		select {
		case next <- f:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	rg.Wait()
	close(r.blocks)
	wg.Wait()

	acc := total(files, skipped, opts.SamplesPerReason)
	if r.fatal != nil {
		return acc, r.fatal
	}
	if err := ctx.Err(); err != nil {
		return acc, err
	}
	return acc, errors.Join(fileErrs...)
}

// runner is the state shared by the goroutines of one Run.
type runner struct {
	opts      Options
	ctx       context.Context
	cancel    context.CancelFunc
	sink      func(arrow.RecordBatch) error
	sinkMu    sync.Mutex
	override  *formatEntry
	sniffable []logfmt.Format
	entriesMu sync.Mutex
	entries   map[string]*formatEntry // detected formats by name, shared by files
	pool      *bufPool
	blocks    chan *block

	fatalMu sync.Mutex
	fatal   error // first error of sink: stops the run

	bytesRead atomic.Int64 // for progress
	linesRead atomic.Int64

	store *objstore.Store // opens the objects of URL inputs
}

// newRunner returns the state of one run of opts over inputs in the format
// override (nil: detected), handing batches to sink; its context is a child
// of ctx that the caller cancels when done.
func newRunner(ctx context.Context, opts Options, sink func(arrow.RecordBatch) error, override *formatEntry) *runner {
	ctx, cancel := context.WithCancel(ctx)
	return &runner{
		opts:     opts,
		ctx:      ctx,
		cancel:   cancel,
		sink:     sink,
		override: override,
		entries:  map[string]*formatEntry{},
		pool:     newBufPool(opts.BlockBytes + opts.MaxLineBytes),
		blocks:   make(chan *block, opts.Workers),
	}
}

// fail records the first fatal error and stops the run.
func (r *runner) fail(err error) {
	r.fatalMu.Lock()
	if r.fatal == nil {
		r.fatal = err
	}
	r.fatalMu.Unlock()
	r.cancel()
}

// emit hands a batch to the sink and releases it.
func (r *runner) emit(rec arrow.RecordBatch) error {
	r.sinkMu.Lock()
	err := r.sink(rec)
	r.sinkMu.Unlock()
	rec.Release()
	return err
}

// entry returns the shared formatEntry of a detected format, so that workers
// keep one parser per format, not per file.
func (r *runner) entry(f logfmt.Format) *formatEntry {
	r.entriesMu.Lock()
	defer r.entriesMu.Unlock()
	e := r.entries[f.Name]
	if e == nil {
		e = &formatEntry{Format: f}
		r.entries[f.Name] = e
	}
	return e
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// readFile reads one file to its end, handing its blocks to the workers (or
// to inline, in order, for a stateful format). It returns the file's input
// error, a *FileError, or nil.
func (r *runner) readFile(f *fileState, inline **worker) error {
	fail := func(err error) error {
		f.mu.Lock()
		if f.acc.Error == "" {
			f.acc.Error = err.Error()
		}
		var ie *IntegrityError
		if errors.As(err, &ie) && f.acc.Integrity == "" {
			f.acc.Integrity = ie.detail()
		}
		f.mu.Unlock()
		return err
	}
	if f.in.err != nil {
		return fail(&FileError{File: f.in.name, Offset: -1, Err: f.in.err})
	}
	o, err := openInput(r.ctx, f.in, r.opts.Stdin, &r.bytesRead, r.store)
	if err != nil {
		return fail(err)
	}
	defer o.close()
	f.acc.Compression = o.compression
	resolved, firstBlock := false, true
	var detectErr error
	sp := &splitter{
		r:       o.r,
		pool:    r.pool,
		maxLine: r.opts.MaxLineBytes,
		emit: func(buf *[]byte, data []byte, firstLine int64, truncated bool) error {
			if firstLine == 1 {
				data = bytes.TrimPrefix(data, utf8BOM)
			}
			if !resolved {
				// Detect on the first block that holds a non-empty line:
				// a file may begin with any number of blank lines.
				detectErr = r.resolveFile(f, data)
				resolved = f.fmt != nil || detectErr != nil
			}
			b := &block{buf: buf, data: data, file: f, fmt: f.fmt, firstLine: firstLine, truncated: truncated}
			if f.fmt != nil && f.fmt.Stateful {
				if *inline == nil {
					*inline = r.newWorker()
				}
				if firstBlock {
					// The state of a stateful parser ("#Fields:") is the
					// file's own: start each file with a fresh parser.
					delete((*inline).parsers, f.fmt)
				}
				firstBlock = false
				err := (*inline).parse(b)
				r.pool.put(buf)
				if err != nil {
					r.fail(err)
					return err
				}
				return r.ctx.Err()
			}
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
			st.reject(string(ErrLineTooLong), f.in.name, line, prefix, r.opts.SamplesPerReason)
			f.merge(&st, r.opts.SamplesPerReason)
			r.linesRead.Add(1)
		},
	}
	err = sp.run()
	f.mu.Lock()
	f.acc.BytesRead = o.raw.n
	f.mu.Unlock()
	if err != nil && r.ctx.Err() == nil {
		var ie *IntegrityError
		if errors.As(err, &ie) {
			return fail(&FileError{File: f.in.name, Offset: ie.At, Err: ie})
		}
		var se *ShrinkError
		if errors.As(err, &se) {
			// Its message says where; the lines read before count.
			return fail(&FileError{File: f.in.name, Offset: -1, Err: se})
		}
		what := "read error"
		if o.compression != CompressionNone {
			what = "truncated or corrupt " + o.compression + " stream"
		}
		return fail(&FileError{File: f.in.name, Offset: o.raw.n, Err: fmt.Errorf("%s: %w", what, err)})
	}
	if detectErr != nil {
		return fail(detectErr)
	}
	return nil
}

// resolveFile sets the format of f from the options or by detection on the
// first block of the file. A file whose format cannot be detected keeps a
// nil format: its lines are rejected as ErrUnknownFormat, and the returned
// error says so.
func (r *runner) resolveFile(f *fileState, first []byte) error {
	if r.override != nil {
		f.fmt = r.override
		f.acc.Format = r.override.Name
		return nil
	}
	lines := sniffLines(first, r.opts.SniffLines, r.opts.MaxLineBytes)
	if len(lines) == 0 {
		// Only empty lines in this block: nothing to detect from yet; the
		// caller tries again with the next block.
		return nil
	}
	v := DetectFormat(lines, r.sniffable)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.acc.Detected = true
	if v.Winner < 0 {
		return &FileError{File: f.in.name, Offset: -1, Err: fmt.Errorf("cannot detect the log format: none of %d formats parsed any of the first %d lines (use --format)", len(r.sniffable), v.Lines)}
	}
	f.fmt = r.entry(r.sniffable[v.Winner])
	f.acc.Format = f.fmt.Name
	return nil
}

// worker parses blocks into its own batch builder with its own parsers.
type worker struct {
	r       *runner
	keep    func(*logfmt.Row) bool // Options.RowFilter's predicate; nil keeps every row
	bb      *batchBuilder
	parsers map[*formatEntry]logfmt.Parser
	row     logfmt.Row
	stats   blockStats
	// clients validates the client address of row.
	clients clientChecker
}

func (r *runner) newWorker() *worker {
	w := &worker{r: r, bb: newBatchBuilder(r.opts.Allocator, r.opts.BatchRows), parsers: map[*formatEntry]logfmt.Parser{}}
	w.bb.skip(r.opts.Skip)
	if r.opts.RowFilter != nil {
		w.keep = r.opts.RowFilter()
	}
	return w
}

func (w *worker) close() { w.bb.release() }

// flush sends the rows built so far as a batch.
func (w *worker) flush() error {
	rec := w.bb.flush()
	if rec == nil {
		return nil
	}
	return w.r.emit(rec)
}

// parse parses the lines of one block, counts them in its file, and sends
// every full batch to the sink. It returns the sink's error.
func (w *worker) parse(b *block) error {
	f := b.file
	st := &w.stats
	st.reset()
	var p logfmt.Parser
	if b.fmt != nil {
		p = w.parsers[b.fmt]
		if p == nil {
			p = b.fmt.New()
			w.parsers[b.fmt] = p
		}
	}
	maxLine := w.r.opts.MaxLineBytes
	maxSamples := w.r.opts.SamplesPerReason
	data := b.data
	line := b.firstLine - 1
	for len(data) > 0 {
		line++
		var l []byte
		last := false
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data, last = data, nil, true
		}
		if n := len(l); n > 0 && l[n-1] == '\r' {
			l = l[:n-1] // the limit is on the line without its CRLF end
		}
		if len(l) > maxLine {
			st.reject(string(ErrLineTooLong), f.in.name, line, l, maxSamples)
			continue
		}
		if len(l) == 0 {
			continue
		}
		if last && b.truncated {
			st.reject(string(ErrTruncatedLine), f.in.name, line, l, maxSamples)
			continue
		}
		if p == nil {
			st.reject(string(ErrUnknownFormat), f.in.name, line, l, maxSamples)
			continue
		}
		err := p.Parse(l, &w.row)
		if err == nil {
			st.lines++
			st.parsed++
			ip, why := w.clients.check(w.row.ClientIP)
			if why != "" {
				st.invalidClient(why, f.in.name, line, w.row.ClientIP, maxSamples)
			}
			w.row.ClientIP = ip
			t := w.row.Time
			if !st.hasTime {
				st.minTime, st.maxTime, st.hasTime = t, t, true
			} else if t < st.minTime {
				st.minTime = t
			} else if t > st.maxTime {
				st.maxTime = t
			}
			if w.keep != nil && !w.keep(&w.row) {
				continue
			}
			if w.bb.add(&w.row, l, f.name, line) {
				if err := w.flush(); err != nil {
					f.merge(st, maxSamples)
					return err
				}
			}
			continue
		}
		if err == logfmt.ErrDirective {
			st.directives++
			continue
		}
		reason := err.Error()
		if rs, ok := err.(logfmt.Reason); ok {
			reason = string(rs)
		}
		st.reject(reason, f.in.name, line, l, maxSamples)
	}
	f.merge(st, maxSamples)
	w.r.linesRead.Add(st.lines + st.directives)
	return nil
}

// work is a parsing goroutine: it parses the blocks read until the channel
// closes (after an error, it only returns their buffers), then flushes its
// last batch.
func (r *runner) work() {
	w := r.newWorker()
	defer w.close()
	for b := range r.blocks {
		if r.ctx.Err() == nil {
			if err := w.parse(b); err != nil {
				r.fail(err)
			}
		}
		r.pool.put(b.buf)
	}
	if r.ctx.Err() == nil {
		if err := w.flush(); err != nil {
			r.fail(err)
		}
	}
}
